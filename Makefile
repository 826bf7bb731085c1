PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-compare fuzz clean browser

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# the dependencies' bytecode compiled on every core (pip compiles one file at a time: half
# of its install); a file this Python cannot compile is skipped, as pip skips it
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[test]'
	-$(BIN)/python -m compileall -q -j 0 \
		"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" \
		>/dev/null 2>&1
	$(BIN)/python -m compileall -q referee
	touch $(STAMP)

# sanctum's simulator compiled by mypyc (with mypy, a test dependency) where a C compiler
# is found, built again whenever sim.py changes; without one its odds run as plain Python
# (the same draws, slower): referee/rulesets/sanctum/simulator.py
SIMC := $(VENV)/.simulator-built
$(SIMC): $(STAMP) referee/rulesets/sanctum/sim.py referee/rulesets/sanctum/simulator.py \
		tools/compile_sim.py
	$(BIN)/python tools/compile_sim.py
	touch $(SIMC)

run: $(STAMP) $(SIMC)
	$(BIN)/referee

# the players' view is tested in a real browser: Debian's headless Chromium (as root)
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-driver)

# the suite in two workers a core (JOBS=1: one process, as a single test file runs by
# default): an app test or a served view waits half its time (Textual's pilot waits for
# the app to be idle, a subprocess or a browser answers), and a second worker on the core
# runs meanwhile. Bytecode is written even where PYTHONDONTWRITEBYTECODE is set, so that
# pytest's rewritten test modules (and the package's own) are compiled once, not in each
# worker and each `python -m referee` of every run.
# ruff and mypy (a cold mypy is ~13 CPU-s, on one core) run beside the suite, their output
# held until it ends; make fails if any of the three fails, and each says why.
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))
test: $(STAMP) $(SIMC) browser
	@lint=$$(mktemp); \
	( $(BIN)/ruff check referee tests benchmarks tools; r=$$?; $(BIN)/mypy; m=$$?; \
	  exit $$(( r || m )) ) >"$$lint" 2>&1 & linting=$$!; \
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(JOBS) --dist worksteal; tested=$$?; \
	wait $$linting; linted=$$?; \
	echo "$(BIN)/ruff check referee tests benchmarks tools; $(BIN)/mypy"; cat "$$lint"; rm -f "$$lint"; \
	test $$tested -eq 0 -a $$linted -eq 0

lint: $(STAMP)
	$(BIN)/ruff check referee tests benchmarks tools
	$(BIN)/mypy

bench: $(STAMP)
	for script in benchmarks/*_bench.py; do $(BIN)/python $$script; done

# every benchmark's figures, the tree at BASE (a git revision) against the working tree
# (or the revision HERE), timed in turn in long-running workers over fresh pairs (about
# 10 minutes, at least 3 pairs; LONG=1 for a longer, steadier run); a revision's
# checkout and venv are cached by commit
BASE ?= HEAD
HERE ?=
LONG ?=
bench-compare: $(STAMP)
	$(BIN)/python benchmarks/compare.py '$(BASE)' $(if $(HERE),--here '$(HERE)') \
		$(if $(LONG),--long)

# the headless commands on mutated saves of every ruleset (COUNT files, SEED)
COUNT ?= 2000
SEED ?= 1
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz.py --count $(COUNT) --seed $(SEED)

clean:
	rm -rf $(VENV) build dist referee/rulesets/sanctum/_simc*.so
