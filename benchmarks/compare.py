"""`make bench-compare BASE=<rev>`: every benchmark's figures, timed in the base tree and
here, in turn, in long-running worker processes, over several fresh pairs of them.

    .venv/bin/python benchmarks/compare.py c8333ff          # about 10 minutes
    .venv/bin/python benchmarks/compare.py HEAD --long      # longer, steadier
    .venv/bin/python benchmarks/compare.py HEAD --here HEAD # the same code: ratios ~1.00

The base is `git archive <rev>` unpacked with its own venv (this Python, `pip install -e
'<tree>[test]'`), kept under $XDG_CACHE_HOME/referee-bench/<commit> for the next run.
Here is the working tree with its own .venv. Each pair is one worker per tree (that
tree's python, PYTHONPATH and working directory the tree) running benchmarks/worker.py
from here: the figures' workload is here's, the `referee` package is the tree's. The
coordinator asks the two workers in turn (base, here, here, base, ...) for batches of
samples of each figure, closes them, and starts a fresh pair.

Printed per figure: the base's median and here's (of every sample), the ratio here/base
as the median of the per-pair ratios with their spread (min-max), and WORSE where that
ratio is over 1.05 and every pair's ratio over 1.0. A figure the base cannot run (an API
it lacks) prints `n/a in base`. The exit status is 0 whatever the figures say.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

HERE = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "worker.py"
WORSE = 1.05  # a ratio past this, with every pair's past 1.0, is flagged
KEPT = 4  # bases kept in the cache
FLAGGED_FROM = 3  # pairs a figure needs to be flagged: two could both be above by chance


# -- the base tree: checked out once per commit, with its own venv -----------------------


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "referee-bench"


def commit_of(rev: str) -> str:
    done = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                          cwd=HERE, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench-compare: no such revision: {rev}")
    return done.stdout.strip()


def base_python() -> str:
    """The interpreter this venv was made from: the base's venv is made from it too."""
    return getattr(sys, "_base_executable", None) or sys.executable


def pruned(keep: int) -> None:
    """Only the `keep` bases used last stay in the cache (each is a venv: ~200 MB)."""
    stamps = sorted(cache_root().glob("*/.venv/.bench-ready"), key=lambda p: p.stat().st_mtime)
    for stamp in stamps[:max(len(stamps) - keep, 0)]:
        shutil.rmtree(stamp.parent.parent, ignore_errors=True)


def prepared(commit: str, say: IO[str]) -> Path:
    """The base tree of `commit`, with its venv ready: made unless the cache holds it."""
    tree = cache_root() / commit
    stamp = tree / ".venv" / ".bench-ready"
    if stamp.exists():
        stamp.touch()  # used now: the last to be pruned
        say.write(f"base {commit[:10]}: the checkout and venv cached in {tree} (ready at "
                  "once)\n")
        return tree
    pruned(KEPT - 1)
    if tree.exists():
        shutil.rmtree(tree)  # a preparation that did not finish
    tree.mkdir(parents=True)
    say.write(f"base {commit[:10]}: checking out into {tree} and making its venv "
              "(once; cached for the next run) ...\n")
    say.flush()
    start = time.perf_counter()
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "archive", "--format=tar", commit], cwd=HERE, check=True,
                       stdout=archive)
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(tree, filter="data")
    python = str(tree / ".venv" / "bin" / "python")
    for command in ([base_python(), "-m", "venv", ".venv"],
                    [python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
                    [python, "-m", "pip", "install", "--quiet", "-e", f"{tree}[test]"],
                    [python, "-m", "compileall", "-q", "referee"],
                    *built_as_make_builds(tree, python)):
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True)
        if done.returncode != 0:
            shutil.rmtree(tree, ignore_errors=True)
            raise SystemExit(f"bench-compare: the base's venv could not be made: "
                             f"{' '.join(command)}\n{(done.stdout + done.stderr)[-3000:]}")
    stamp.write_text(commit + "\n")
    say.write(f"base ready in {time.perf_counter() - start:.0f} s\n")
    return tree


def built_as_make_builds(tree: Path, python: str) -> list[list[str]]:
    """What `make` builds beyond the venv, in a tree that has it: sanctum's compiled
    simulator (tools/compile_sim.py, since 0e2a16e)."""
    script = tree / "tools" / "compile_sim.py"
    return [[python, str(script)]] if script.exists() else []


# -- the workers ---------------------------------------------------------------------------


class Worker:
    """A long-running benchmark worker (benchmarks/worker.py) of one tree."""

    def __init__(self, tree: Path, logs: Path, label: str) -> None:
        venv = tree / ".venv" / "bin" / "python"
        python = str(venv) if venv.exists() else sys.executable
        env = {**os.environ, "PYTHONPATH": str(tree), "REFEREE_BENCH_TREE": str(tree)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.label = label
        self.log = logs / f"{label}-{time.monotonic_ns()}.log"
        with open(self.log, "w") as errors:
            self.process = subprocess.Popen(
                [python, str(WORKER)], cwd=tree, env=env, text=True, bufsize=1,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            tail = self.log.read_text(errors="replace")[-1500:]
            return {"error": f"the {self.label} worker ended:\n{tail}", "dead": True}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write('{"op": "quit"}\n')
                self.process.stdin.close()
                self.process.wait(timeout=60)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


# -- the statistics ------------------------------------------------------------------------

Values = dict[str, list[float]]


def p95(values: Sequence[float]) -> float:
    return sorted(values)[max(int(len(values) * 0.95) - 1, 0)]


STATS = {"median": statistics.median, "p95": p95, "max": max, "min": min}


def stat_of(figure: dict[str, Any], values: Values) -> float | None:
    found = values.get(figure["series"], [])
    return STATS[figure["stat"]](found) if found else None


def pooled(pairs: Sequence[Values]) -> Values:
    found: Values = {}
    for values in pairs:
        for series, more in values.items():
            found.setdefault(series, []).extend(more)
    return found


@dataclass
class Row:
    """A figure's line: each tree's statistic of every sample, and the pairs' ratios."""

    name: str
    base: float | None
    here: float | None
    ratios: list[float]
    floors: tuple[float | None, float | None] = (None, None)  # each tree's x its floor
    unit: str = "ms"
    na: str = ""  # why the base cannot run it

    @property
    def ratio(self) -> float | None:
        return statistics.median(self.ratios) if self.ratios else None

    @property
    def worse(self) -> bool:
        """More than 5% worse, and worse in every pair (of at least three): noise does not
        do that."""
        return (self.ratio is not None and self.ratio > WORSE
                and min(self.ratios) > 1.0 and len(self.ratios) >= FLAGGED_FROM)


def ratios(base: Sequence[float | None], here: Sequence[float | None]) -> list[float]:
    """here/base of each pair that has both."""
    return [h / b for b, h in zip(base, here, strict=False)
            if b is not None and h is not None and b > 0]


def row(figure: dict[str, Any], base: Sequence[Values], here: Sequence[Values],
        floor: dict[str, Any] | None = None, na: str = "") -> Row:
    """A figure's row from each tree's samples, pair by pair (a list of Values each)."""
    per_base = [stat_of(figure, v) for v in base]
    per_here = [stat_of(figure, v) for v in here]
    floors: list[float | None] = [None, None]
    if floor is not None:
        for side, pairs in enumerate((base, here)):
            over = ratios([stat_of(floor["figure"], v) for v in floor["pairs"][side]],
                          [stat_of(figure, v) for v in pairs])
            floors[side] = statistics.median(over) if over else None
    return Row(figure["name"], stat_of(figure, pooled(base)) if base else None,
               stat_of(figure, pooled(here)) if here else None,
               [] if na else ratios(per_base, per_here), (floors[0], floors[1]),
               figure.get("unit", "ms"), na)


def shown(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.3f} s"
    return f"{value:.0f} {unit}"


def table(rows: Sequence[Row]) -> list[str]:
    width = max([len(r.name) for r in rows] + [6])
    lines = [f"{'figure':<{width}}  {'base':>10}  {'here':>10}  {'here/base (pairs)':<19} "
             "     x floor: base -> here"]
    for r in rows:
        if r.na:
            middle = f"{'n/a in base':<19}"
        elif r.ratio is None:
            middle = f"{'-':<19}"
        else:
            middle = f"{r.ratio:.2f} ({min(r.ratios):.2f}-{max(r.ratios):.2f})".ljust(19)
        flag = "WORSE" if r.worse else ""
        floor = ""
        if r.floors != (None, None):
            floor = " -> ".join("-" if f is None else f"{f:.2f}x" for f in r.floors)
        lines.append(f"{r.name:<{width}}  {shown(r.base, r.unit):>10}  "
                     f"{shown(r.here, r.unit):>10}  {middle} {flag:<5} {floor}".rstrip())
    return lines


# -- the comparison ------------------------------------------------------------------------


@dataclass
class Plan:
    pairs: int = 5  # fresh pairs of workers, at most
    budget: float = 540.0  # seconds: no pair is started that would end past it
    least: int = FLAGGED_FROM  # pairs run whatever the budget


@dataclass
class Taken:
    """Every measure's samples, per tree, pair by pair; why the base cannot run some."""

    measures: list[dict[str, Any]]
    base: dict[str, list[Values]] = field(default_factory=dict)
    here: dict[str, list[Values]] = field(default_factory=dict)
    na: dict[str, str] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    pairs: int = 0
    seconds: dict[str, float] = field(default_factory=dict)  # each module's, setups too


def listed(logs: Path) -> list[dict[str, Any]]:
    """The measures, as here's worker declares them."""
    worker = Worker(HERE, logs, "list")
    try:
        answer = worker.ask({"op": "list"})
    finally:
        worker.close()
    if "measures" not in answer:
        raise SystemExit(f"bench-compare: the benchmarks do not load here:\n{answer}")
    measures: list[dict[str, Any]] = answer["measures"]
    return measures


def take(trees: dict[str, Path], measures: list[dict[str, Any]], plan: Plan, logs: Path,
         say: IO[str]) -> Taken:
    """Every measure sampled in both trees ("base", "here"), pair by pair of fresh
    workers."""
    taken = Taken(measures)
    start = time.perf_counter()
    for pair in range(plan.pairs):
        elapsed = time.perf_counter() - start
        if pair >= plan.least and elapsed + elapsed / pair > plan.budget:
            say.write(f"stopping after {pair} pairs: another would end past the "
                      f"{plan.budget:.0f} s budget\n")
            break
        workers = {side: Worker(tree, logs, side) for side, tree in trees.items()}
        try:
            for m in measures:
                began = time.perf_counter()
                sample(m, pair, workers, taken, trees, logs)
                taken.seconds[m["module"]] = (taken.seconds.get(m["module"], 0.0)
                                              + time.perf_counter() - began)
        finally:
            for worker in workers.values():
                worker.close()
        taken.pairs = pair + 1
        say.write(f"pair {pair + 1}/{plan.pairs} done at {time.perf_counter() - start:.0f} s\n")
        say.flush()
    return taken


def sample(m: dict[str, Any], pair: int, workers: dict[str, Worker], taken: Taken,
           trees: dict[str, Path], logs: Path) -> None:
    """A measure's batches in this pair, the trees in turn: base, here, here, base, ..."""
    name, (batches, n) = m["name"], m["compare"]
    if name in taken.broken or (name in taken.na and pair > 0) or pair % m.get("every", 1):
        return
    got: dict[str, Values] = {"base": {}, "here": {}}
    for batch in range(batches):
        order = ["base", "here"] if (batch + pair) % 2 == 0 else ["here", "base"]
        for side in order:
            if side == "base" and name in taken.na:
                continue
            answer = workers[side].ask({"op": "sample", "module": m["module"],
                                        "measure": name, "n": n})
            if answer.get("dead"):  # a fresh worker for the measures after this one
                workers[side] = Worker(trees[side], logs, side)
            if "values" in answer:
                for series, values in answer["values"].items():
                    got[side].setdefault(series, []).extend(values)
            elif side == "base":  # the base lacks it (or breaks on it): not an error here
                why = answer.get("na") or answer.get("error", "")
                taken.na[name] = why.strip().splitlines()[-1] if why.strip() else "?"
            else:
                taken.broken[name] = answer.get("error") or answer.get("trace") or str(answer)
                return
    for side, store in (("base", taken.base), ("here", taken.here)):
        if got[side]:
            store.setdefault(name, []).append(got[side])


def rows(taken: Taken) -> list[Row]:
    owner = {f["name"]: m["name"] for m in taken.measures for f in m["figures"]}
    figures = {f["name"]: f for m in taken.measures for f in m["figures"]}
    found = []
    for m in taken.measures:
        name = m["name"]
        if name in taken.broken:
            continue
        base, here = taken.base.get(name, []), taken.here.get(name, [])
        for figure in m["figures"]:
            floor = None
            if figure["floor"] in figures:
                under = owner[figure["floor"]]
                if under not in taken.na and name not in taken.na:
                    floor = {"figure": figures[figure["floor"]],
                             "pairs": (taken.base.get(under, []), taken.here.get(under, []))}
            found.append(row(figure, base if name not in taken.na else [], here, floor,
                             taken.na.get(name, "")))
    return found


def described(rev: str, commit: str, here: str | None) -> str:
    if here is not None:
        return f"base {rev} ({commit[:10]}) against {here} ({commit_of(here)[:10]})"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                           cwd=HERE, capture_output=True, text=True).stdout.strip()
    head = commit_of("HEAD")[:10]
    return (f"base {rev} ({commit[:10]}) against here: the working tree at {head}"
            + (" with uncommitted changes" if dirty else ""))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the git revision to compare against (c8333ff, HEAD~3)")
    parser.add_argument("--here", metavar="REV",
                        help="a revision (checked out as the base is) in place of the "
                             "working tree: HEAD against HEAD checks the method is fair")
    parser.add_argument("--long", action="store_true",
                        help="more pairs and a longer budget: a steadier comparison")
    parser.add_argument("--pairs", type=int, help="fresh pairs of workers, at most")
    parser.add_argument("--budget", type=float, help="seconds the pairs may take")
    parser.add_argument("--only", action="append", default=[],
                        help="only the measures whose names start so (repeatable)")
    args = parser.parse_args(argv)
    plan = Plan(12, 2400.0) if args.long else Plan()
    if args.pairs:
        plan.pairs, plan.least = args.pairs, min(plan.least, args.pairs)
    if args.budget:
        plan.budget = args.budget
    say = sys.stdout
    start = time.perf_counter()
    commit = commit_of(args.base)
    base_tree = prepared(commit, say)
    here_tree = HERE if args.here is None else prepared(commit_of(args.here), say)
    say.write(described(args.base, commit, args.here) + "\n")
    say.write(f"up to {plan.pairs} fresh pairs of workers within {plan.budget:.0f} s, "
              "the trees taking turns batch by batch\n")
    say.flush()
    with tempfile.TemporaryDirectory(prefix="referee-bench-compare-") as logs:
        measures = [m for m in listed(Path(logs))
                    if not args.only or any(m["name"].startswith(o) for o in args.only)]
        taken = take({"base": base_tree, "here": here_tree}, measures, plan, Path(logs), say)
    say.write("\n" + "\n".join(summary(taken)) + "\n")
    say.write(f"wall time {time.perf_counter() - start:.0f} s\n")
    return 1 if taken.broken else 0


def summary(taken: Taken) -> list[str]:
    """The table, why the base cannot run some figures, the count flagged, what broke."""
    found = rows(taken)
    lines = table(found)
    lines += [f"n/a in base: {name}: {why}" for name, why in sorted(taken.na.items())]
    worse = sum(r.worse for r in found)
    lines.append(f"{taken.pairs} pairs; {worse} figure(s) flagged WORSE (ratio > "
                 f"{WORSE:.2f}, every pair > 1.00, at least {FLAGGED_FROM} pairs)")
    spent = sorted(taken.seconds.items(), key=lambda kv: -kv[1])
    lines.append("time a pair took, by benchmark (both trees, setups too): " + ", ".join(
        f"{module} {seconds / max(taken.pairs, 1):.0f} s" for module, seconds in spent))
    for name, error in taken.broken.items():
        lines.append(f"BROKEN here: {name}:\n{error}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
