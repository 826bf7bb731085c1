"""sanctum's compiled simulator (referee/rulesets/sanctum/simulator.py, built by
tools/compile_sim.py): taken only while it is sim.py's own, built wherever a C compiler
is found, and drawing exactly as sim.py does from the same seed."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from referee.rulesets.sanctum import odds, sim, simulator
from referee.session.files import load_save
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "tools"))

import compile_sim  # noqa: E402

SOURCE = (ROOT / "referee" / "rulesets" / "sanctum" / "sim.py").read_text(encoding="utf-8")


def module_of(text: str) -> ModuleType:
    """`text` run as sim.py would be (its name, so its classes and functions are its own)."""
    module = ModuleType(sim.__name__)
    exec(compile(text, sim.__file__, "exec"), module.__dict__)
    return module


def test_a_fingerprint_is_the_code_and_changes_with_any_edit_of_it() -> None:
    assert simulator.fingerprint(module_of(SOURCE)) == simulator.fingerprint(sim)
    edits = [("ROUNDS = 10", "ROUNDS = 11"),  # a constant
             ("INF = 1 << 24", "INF = 1 << 23"),
             ("            left -= 1", "            left -= 2"),  # a function's constant
             ("if h <= 0:", "if h < 0:"),  # an operator, in a method
             ("la = [i for i in self.a if hp[i] > 0]",  # a comprehension's
              "la = [i for i in self.a if hp[i] >= 0]"),
             ("class Log(Quiet):", "class Log(Roster):")]  # a class's base
    for old, new in edits:
        edited = module_of(SOURCE.replace(old, new, 1))
        assert simulator.fingerprint(edited) != simulator.fingerprint(sim), old
    assert all(old in SOURCE for old, _ in edits)  # the edits still reach sim.py


def test_only_a_build_of_sim_py_as_it_is_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = ModuleType("referee.rulesets.sanctum._simc")
    stale.FINGERPRINT = "built from an older sim.py"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, stale.__name__, stale)
    monkeypatch.delattr("referee.rulesets.sanctum._simc", raising=False)
    assert simulator.compiled() is None
    stale.FINGERPRINT = simulator.fingerprint(sim)  # type: ignore[attr-defined]
    assert simulator.compiled() is stale


def test_the_compiled_simulator_is_built_and_taken_wherever_a_c_compiler_is() -> None:
    """`make` builds it (tools/compile_sim.py); where this fails after an edit of sim.py,
    `make test` (or the script) builds it again."""
    if compile_sim.compiler() is None:
        assert simulator.sim is sim
    else:
        assert compile_sim.built(), "not built: run make, or tools/compile_sim.py"
        assert simulator.compiled() is not None, "built from an older sim.py: run make"
        assert simulator.sim is not sim


def both() -> list[ModuleType]:
    taken = simulator.compiled()
    return [sim] if taken is None else [sim, taken]


def test_the_compiled_runs_draw_as_sim_py_run_by_run(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty against twenty (the benchmark's fight), the demo and the scenarios' fights,
    300 seeds each: every run's outcome, and every step of the first 30 fights logged."""
    from tests.test_sanctum_speed_odds import twenty_against_twenty

    scenarios = sorted((ROOT / "tests" / "scenarios" / "sanctum").glob("sa-*.toml"))
    saves = [twenty_against_twenty(tmp_path / "big.toml"), ROOT / "saves" / "sanctum.toml",
             *(path for path in scenarios if not path.name.endswith(".expect.toml"))]
    rng = random.Random(5)
    fought = 0
    for save in saves:
        loaded = load_save(save)
        seeds = [rng.getrandbits(32) for _ in range(300)]
        runs, logs = [], []
        for module in both():
            monkeypatch.setattr(simulator, "sim", module)
            setup = odds.setup_of(loaded.ruleset.settings, loaded.fight)
            if not setup.pairs:
                break  # a turn that lists no combat: nothing to run
            runs.append([odds.one_run(setup, seed) for seed in seeds])
            logs.append([logged(module, setup, seed) for seed in seeds[:30]])
        assert all(found == runs[0] for found in runs), save.name
        assert all(found == logs[0] for found in logs), save.name
        fought += bool(runs)
    assert fought >= 5


def logged(module: ModuleType, setup: odds.Setup, seed: int) -> list[dict[str, object]]:
    log: list[dict[str, object]] = []
    module.run_turn(setup.roster, list(setup.hp), setup.pairs, random.Random(seed), log)
    return log
