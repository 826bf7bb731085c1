"""What the benchmarks share: the tree they measure, their figures, and how a script prints
them.

Each benchmark module declares its measures once, in MEASURES. A Measure is a setup (not
timed) and a sample: `sample(n)` does its work n times over (n timed calls, a session of
n key presses, n appends) and returns the times it took, by series. A measure's Figures
are what is printed: a statistic (median, p95, max) of one series, with the issue's goal
beside it and, where the issue states a floor, the name of the figure it is a ratio to
(measured in the same process). The script's main() (`python benchmarks/x_bench.py`, as
`make bench` runs it) and `make bench-compare` (benchmarks/compare.py, worker.py) use the
same definitions.

The tree measured is this one, or the one named by $REFEREE_BENCH_TREE (the compare's
base): its `referee` package is imported and its commands are run.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TREE = Path(os.environ.get("REFEREE_BENCH_TREE") or Path(__file__).resolve().parent.parent)
if str(TREE) not in sys.path:
    sys.path.insert(0, str(TREE))

# A user's shell writes bytecode caches; measure that, not a recompile on every start.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

Values = dict[str, list[float]]  # a sample's times (or sizes), by series ("" if one)


class Unavailable(Exception):
    """The tree lacks what a figure needs (an older base): `n/a`, not an error."""


@dataclass(frozen=True)
class Figure:
    name: str  # unique across the benchmarks, as the compare prints it: "plan.in-process"
    text: str  # what is measured, as the script prints it
    series: str = ""  # which of its measure's series
    stat: str = "median"  # "median", "p95", "max" or "min" of the series
    goal: str = ""  # the goal (or the script's target)
    floor: str | None = None  # the figure this one is printed as a ratio of
    unit: str = "ms"  # "ms", "s", "MB"


@dataclass
class Measure:
    name: str
    sample: Callable[[int], Values]
    figures: tuple[Figure, ...]
    setup: Callable[[], object] | None = None
    script: tuple[int, int] = (7, 1)  # the script's rounds (taken in turn), n per round
    compare: tuple[int, int] = (3, 1)  # the compare's batches a tree a pair, n per batch
    every: int = 1  # the compare takes it in every pair, or every other (2) ...
    warm: bool = True  # one sample taken and dropped after the setup (caches, allocator)
    ready: bool = field(default=False, repr=False)

    def prepare(self) -> None:
        if not self.ready:
            if self.setup is not None:
                self.setup()
            if self.warm:
                self.sample(1)
            self.ready = True


def timed(work: Callable[[], object]) -> Callable[[int], Values]:
    """n timed calls of `work`, in milliseconds."""
    def sample(n: int) -> Values:
        times = []
        for _ in range(n):
            start = time.perf_counter()
            work()
            times.append((time.perf_counter() - start) * 1000)
        return {"": times}
    return sample


def single(name: str, text: str, work: Callable[[], object], *, goal: str = "",
           floor: str | None = None, setup: Callable[[], object] | None = None,
           script: tuple[int, int] = (7, 1), compare: tuple[int, int] = (3, 1),
           warm: bool = True) -> Measure:
    """A measure of one figure: the median of timed calls of `work`."""
    return Measure(name, timed(work), (Figure(name, text, goal=goal, floor=floor),),
                   setup, script, compare, warm)


def p95(values: Sequence[float]) -> float:
    return sorted(values)[max(int(len(values) * 0.95) - 1, 0)]


STATS: dict[str, Callable[[Sequence[float]], float]] = {
    "median": statistics.median, "p95": p95, "max": max, "min": min}


def stat(figure: Figure, values: Values) -> float:
    return STATS[figure.stat](values[figure.series])


# Runs a command and says, as JSON on its last line of output, its wall and processor
# time and its peak memory. A process forked from a big one (a long-running worker) counts
# its parent's memory in its peak until it execs; one forked from this small launcher
# does not, so the peak is the command's own.
LAUNCHER = """
import json, os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
output = child.stdout.read()
_, status, usage = os.wait4(child.pid, 0)
print(json.dumps({"seconds": time.perf_counter() - start, "status": status,
                  "cpu": usage.ru_utime + usage.ru_stime, "peak": usage.ru_maxrss / 1024,
                  "output": output.decode(errors="replace")[-2000:]}))
"""


@dataclass(frozen=True)
class Ran:
    seconds: float  # wall time
    cpu: float  # processor time, its children's included
    peak: float  # peak resident memory, MB
    output: str  # the end of what it printed


def measured(command: Sequence[str], cwd: Path = TREE) -> Ran:
    """A whole process: its wall time, processor time and peak memory, its own."""
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *command], cwd=cwd, env=ENV,
                          capture_output=True, text=True, check=True)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    if found["status"] != 0:
        raise RuntimeError(f"{' '.join(command[:3])} ... failed ({found['status']}):\n"
                           f"{found['output']}")
    return Ran(found["seconds"], found["cpu"], found["peak"], found["output"])


@functools.cache
def workdir() -> Path:
    """A folder for this process's files, removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def role(rs: Any, name: str) -> Any:
    """A ruleset's role (`rs.planner`, `rs.fold`), or the ruleset itself in a tree from
    before the rulesets were split into roles (c8333ff)."""
    return getattr(rs, name, rs)


# -- a script's own run ----------------------------------------------------------------


def gathered(measures: Iterable[Measure]) -> dict[str, Values]:
    """Every measure set up, then sampled its script's rounds, the measures taking turns
    round by round (a machine that slows down for a while slows them all alike)."""
    measures = list(measures)
    for measure in measures:
        measure.prepare()
    found: dict[str, Values] = {m.name: {} for m in measures}
    for round_ in range(max(m.script[0] for m in measures)):
        for measure in measures:
            rounds, n = measure.script
            if round_ < rounds:
                for series, values in measure.sample(n).items():
                    found[measure.name].setdefault(series, []).extend(values)
    return found


def shown(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value:.2f} ms" if value < 10 else f"{value:.1f} ms"
    if unit == "s":
        return f"{value:.3f} s"
    return f"{value:.0f} {unit}"


def report(measures: Sequence[Measure], found: dict[str, Values]) -> list[str]:
    """A line a figure: its value, the ratio to its floor, its goal, and its name (as
    `make bench-compare` prints it)."""
    values = {f.name: stat(f, found[m.name]) for m in measures for f in m.figures}
    texts = {f.name: f.text for m in measures for f in m.figures}
    lines = []
    for measure in measures:
        for figure in measure.figures:
            value = values[figure.name]
            line = f"{figure.text}: {figure.stat} {shown(value, figure.unit)}"
            if figure.floor is not None:
                line += f" = {value / values[figure.floor]:.2f}x {texts[figure.floor]}"
            if figure.goal:
                line += f" (goal: {figure.goal})"
            lines.append(f"{line}  [{figure.name}]")
    return lines


def main(measures: Sequence[Measure], heading: str = "") -> None:
    if heading:
        print(heading)
    for line in report(measures, gathered(measures)):
        print(line)
