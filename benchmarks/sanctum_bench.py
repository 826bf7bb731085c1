"""sanctum's odds: `referee odds` on a 20-against-20 combat, as a whole process.

Prints, each the median of a few runs of the whole `referee odds --json` process on this
machine: sanctum.odds-100, sanctum.odds-1000 (target: under 1 s) and sanctum.odds-10000
(goal: a quarter of today's, about 1 s), each with its processor time (.cpu: all its
workers together, what a busy machine's other work does not stretch), and the peak
resident memory of the 10,000-run process (sanctum.odds-10000.peak; only each run's seed
and a small summary are kept); and sanctum.one-run, the simulator alone, one run in this
process (the best of batches of 200 runs; goal: 0.7x c8333ff's, timed in turn). The
combat: two groups of 20 minions, levels 1-4, a mix of shooters, bashers and both.

The runs are the compiled simulator's where `make` built it (sim.py compiled by mypyc:
referee/rulesets/sanctum/simulator.py), else sim.py's; the title says which.
"""

from __future__ import annotations

import functools
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import TREE, Figure, Measure, Ran, Values, main, measured, workdir  # noqa: E402

ROOT = TREE
REFEREE = [sys.executable, "-m", "referee"]
RUNS_IN_BATCH = 200


def big_save(path: Path, seed: int = 1) -> None:
    rng = random.Random(seed)
    lines = ['format = "referee-save"', "version = 1", 'ruleset = "sanctum"',
             'title = "Twenty against twenty"', "seed = 4", "",
             '[[sides]]', 'id = "red"', 'initiative = "initiative"', "",
             '[[sides]]', 'id = "blue"', 'initiative = "other"', "",
             '[[groups]]', 'id = "red-1"', 'side = "red"', "created = 1", "",
             '[[groups]]', 'id = "blue-1"', 'side = "blue"', "created = 2", ""]
    for side in ("red", "blue"):
        for n in range(20):
            lines += ["[[combatants]]", f'id = "{side}{n}"', f'side = "{side}"',
                      f'group = "{side}-1"', f"level = {rng.randint(1, 4)}",
                      f"hp = {rng.randint(4, 10)}", f"armor = {rng.randint(0, 2)}"]
            kind = n % 3
            if kind in (0, 2):
                lines.append(f"hand = {{ attacks = {rng.randint(1, 2)}, damage = "
                             f"{rng.randint(1, 4)} }}")
            if kind in (1, 2):
                lines.append(f"missile = {{ attacks = {rng.randint(1, 2)}, damage = "
                             f"{rng.randint(1, 3)} }}")
            if n == 7:
                lines.append('effects = ["Pixie Dust"]')
            lines.append("")
    lines += ["[[events]]", 'type = "combats"', "round = 1",
              'pairs = [["red-1", "blue-1"]]', ""]
    path.write_text("\n".join(lines))


@functools.cache
def saved() -> Path:
    path = workdir() / "sanctum-big.toml"
    big_save(path)
    return path


def odds(runs: int) -> Ran:
    """One whole `referee odds --json` process of `runs` runs: its wall time (s), its
    processor time (s, its workers' included) and its own peak resident memory (MB)."""
    return measured(REFEREE + ["odds", str(saved()), "--runs", str(runs), "--seed", "1",
                               "--json"], ROOT)


def processes(runs: int) -> Any:
    def sample(n: int) -> Values:
        found = [odds(runs) for _ in range(n)]
        return {"wall": [f.seconds for f in found], "cpu": [f.cpu for f in found],
                "peak": [f.peak for f in found]}
    return sample


def odds_measure(runs: int, repeat: int, goal: str = "") -> Measure:
    name = f"sanctum.odds-{runs}"
    text = f"referee odds, 20 vs 20, {runs:,} runs"
    figures = [Figure(name, text, "wall", goal=goal, unit="s"),
               Figure(f"{name}.cpu", f"{text}, processor time", "cpu", unit="s")]
    if runs == 10_000:
        figures.append(Figure(f"{name}.peak", "peak resident memory of one process "
                              "(10,000 runs)", "peak", unit="MB"))
    return Measure(name, processes(runs), tuple(figures), setup=saved,
                   script=(repeat, 1), compare=(1, 1), every=2 if runs >= 10_000 else 1,
                   warm=runs < 1000)


class Simulator:
    """The simulator alone, in this process, no workers."""

    def __init__(self) -> None:
        from referee.rulesets.sanctum.odds import one_run, seeds, setup_of
        from referee.session.files import load_save

        loaded = load_save(saved())
        try:  # its house rules, since ec18a06
            self.setup = setup_of(loaded.ruleset.settings, loaded.fight)
        except (AttributeError, TypeError):  # before: the ruleset (c8333ff)
            self.setup = setup_of(loaded.ruleset, loaded.fight)
        self.one_run, self.seeds = one_run, seeds(1, RUNS_IN_BATCH)

    def __call__(self, n: int) -> Values:
        """n batches of runs: the milliseconds a run in each."""
        times = []
        for _ in range(n):
            start = time.perf_counter()
            for run_seed in self.seeds:
                self.one_run(self.setup, run_seed)
            times.append((time.perf_counter() - start) * 1000 / len(self.seeds))
        return {"": times}


simulator: Simulator | None = None


def one_runs(n: int) -> Values:
    global simulator
    simulator = simulator or Simulator()
    return simulator(n)


MEASURES: list[Measure] = [
    odds_measure(100, 5),
    odds_measure(1000, 5, "< 1 s"),
    odds_measure(10_000, 3, "<= 1/4 of today's (about 1 s)"),
    Measure("sanctum.one-run", one_runs, (Figure(
        "sanctum.one-run", f"one run in one process (the best of batches of "
        f"{RUNS_IN_BATCH} runs)", stat="min", goal="<= 0.7x c8333ff's, timed in turn"),),
            setup=saved, script=(5, 1), compare=(2, 1)),
]


def which() -> str:
    try:
        from referee.rulesets.sanctum import simulator
    except ImportError:  # a tree before the compiled simulator
        return "sim.py"
    return "sim.py" if simulator.sim is simulator.pure else "compiled"


if __name__ == "__main__":
    main(MEASURES, f"sanctum: 20 against 20 (simulator: {which()})")
