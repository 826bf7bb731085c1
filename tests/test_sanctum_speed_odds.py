"""sanctum's odds made cheaper (issue 33) draw as they did, and a run's work stays small.

The odds of the benchmark's fight (benchmarks/sanctum_bench.py: twenty minions against
twenty) from seed 1 are pinned as the code before the speed work gave them, with one
process and with workers; a run's Python calls are counted (never timed); and the runs are
dealt to the workers in tasks small enough that they end together.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.rulesets.sanctum import odds, sim, simulator
from referee.session.files import load_save
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

import sanctum_bench  # noqa: E402

# `referee odds SAVE --runs 400 --seed 1 --json` on the save below, as the code before
# issue 33 printed it (one process or two workers alike), and its summary in-process
PRINTED = "4d2d3c0fc22a8842058d51f8736dae10bfdfa6ed59413bd7377888282b75d51e"
SUMMARY = "aeb03b59dcaf57477f04d35d436b215e4b459866990e8de3dbd5f33d922734b2"
RUNS = 400


def twenty_against_twenty(path: Path) -> Path:
    """The benchmark's save (`big_save`): two groups of twenty minions, levels 1-4,
    shooters, bashers and both, one of each (quasi-)immune. The digests pin its draws."""
    sanctum_bench.big_save(path)
    return path


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_odds_printed_for_a_seed_are_the_ones_before_with_one_process_or_two(
        tmp_path: Path) -> None:
    save = twenty_against_twenty(tmp_path / "big.toml")
    for workers in ("1", "2"):
        out = subprocess.run([sys.executable, "-m", "referee", "odds", str(save), "--runs",
                              str(RUNS), "--seed", "1", "--json", "--workers", workers],
                             capture_output=True, text=True, check=True).stdout
        assert digest(out) == PRINTED, workers


@pytest.mark.parametrize("taken", ["sim.py", "the simulator odds takes"])
def test_the_odds_summary_in_process_is_the_one_before(tmp_path: Path, taken: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """From sim.py itself and from the simulator `odds` takes (compiled, where built)."""
    if taken == "sim.py":
        monkeypatch.setattr(simulator, "sim", simulator.pure)
    loaded = load_save(twenty_against_twenty(tmp_path / "big.toml"))
    summary = odds.run_odds(loaded.ruleset.settings, loaded.fight, RUNS, 1)
    assert digest(json.dumps(summary, sort_keys=True)) == SUMMARY


def calls_a_run(setup: odds.Setup, runs: int) -> float:
    """The Python functions a run calls, on average over `runs` runs (the simulator's and
    `random`'s: every call the interpreter makes in Python, counted by a profile hook)."""
    count = 0

    def hook(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    run_seeds = odds.seeds(1, runs)
    sys.setprofile(hook)
    try:
        for run_seed in run_seeds:
            odds.one_run(setup, run_seed)
    finally:
        sys.setprofile(None)
    return count / runs


def test_a_run_of_twenty_against_twenty_makes_few_calls(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33: before, a run made 417 calls of Python functions on average (a strike,
    a wise choice, the enemies ranked, a group's pending damage: each a call or more);
    with the hot ones written out or skipped when they cannot change the answer, 343."""
    monkeypatch.setattr(simulator, "sim", simulator.pure)  # sim.py's calls, as written
    loaded = load_save(twenty_against_twenty(tmp_path / "big.toml"))
    setup = odds.setup_of(loaded.ruleset.settings, loaded.fight)
    assert calls_a_run(setup, 100) <= 350


def test_the_runs_are_dealt_in_many_small_tasks_so_the_workers_end_together() -> None:
    for runs in (1_000, 10_000, 100_000):
        for workers in (2, 4):
            size = odds.shares(runs, workers)
            tasks = -(-runs // size)
            assert tasks >= 8 * workers or size == 50, (runs, workers)
    assert odds.shares(10_000, 1) == 500  # one process: the progress bar's 20 steps


def test_steered_takes_out_the_quasi_immune_as_the_pass_over_every_foe_did() -> None:
    """`steered` with few (quasi-)immune copies the foes and takes those out; with many, a
    pass over every foe: the same list either way."""
    rng = random.Random(3)
    for case in range(300):
        roster = sim.Roster()
        roster.add_group("g", "s", 0, 0)
        count = rng.randint(1, 12)
        for n in range(count):
            roster.add(f"m{n}", "g", 1, 0, (1, 1), (0, 0, False), rng.random() < 0.4,
                       False, False, None)
        roster.prepare()
        foes = sorted(rng.sample(range(count), rng.randint(1, count)))
        plain = [j for j in foes if not roster.quasi[j]] or foes
        assert sim.steered(roster, foes) == plain, case
