"""sanctum's odds: `referee odds` on a 20-against-20 combat, as a whole process.

Prints, each the median of a few runs of the whole `referee odds --json` process on this
machine: 100, 1,000 (target: under 1 s) and 10,000 runs, with the peak resident memory of
the 10,000-run process (only each run's seed and a small summary are kept). The combat:
two groups of 20 minions, levels 1-4, a mix of shooters, bashers and both.
"""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFEREE = [sys.executable, "-m", "referee"]


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


def cpu() -> float:
    """The processor time of every finished child process (and theirs) so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str], repeat: int) -> tuple[float, float]:
    """The median wall time of the whole process, and the median processor time (all its
    workers together: what a busy machine's other work does not stretch)."""
    times, cpus = [], []
    for _ in range(repeat):
        start, before = time.perf_counter(), cpu()
        subprocess.run(REFEREE + args, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
        cpus.append(cpu() - before)
    return statistics.median(times), statistics.median(cpus)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        save = Path(folder) / "big.toml"
        big_save(save)
        for runs, repeat in ((100, 5), (1000, 5), (10000, 3)):
            seconds, used = timed(["odds", str(save), "--runs", str(runs), "--seed", "1",
                                   "--json"], repeat)
            verdict = "  (target: under 1 s)" if runs == 1000 else ""
            print(f"referee odds, 20 vs 20, {runs:>6} runs: {seconds:6.3f} s "
                  f"(processor {used:6.3f} s){verdict}")
        subprocess.run(REFEREE + ["odds", str(save), "--runs", "10000", "--seed", "1",
                                  "--json"], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"peak resident memory of one process (10,000 runs): {peak:.1f} MiB")
        print(f"one run in one process: {per_run(save):.3f} ms (the best of 5 x 200 runs)")


def per_run(save: Path) -> float:
    """The simulator alone: milliseconds a run, in this process, no workers."""
    sys.path.insert(0, str(ROOT))
    from referee.rulesets.sanctum.odds import one_run, seeds, setup_of
    from referee.session.files import load_save

    loaded = load_save(save)
    setup = setup_of(loaded.ruleset.settings, loaded.fight)  # its house rules
    run_seeds = seeds(1, 200)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for run_seed in run_seeds:
            one_run(setup, run_seed)
        best = min(best, time.perf_counter() - start)
    return best / len(run_seeds) * 1000


if __name__ == "__main__":
    main()
