"""sanctum's odds deal their runs to the workers in order, the last stretch in smaller
tasks (issue 33): every run once, in the order of its seed, whatever the cut."""

from __future__ import annotations

from referee.rulesets.sanctum import odds


def test_the_tasks_hold_every_run_once_in_order_and_the_last_ones_are_small() -> None:
    for runs in (0, 1, 49, 50, 51, 400, 999, 1_000, 10_000, 10_001, 100_000):
        for workers in (1, 2, 3, 4):
            run_seeds = list(range(runs))
            size = odds.shares(runs, workers)
            parts = odds.cut(run_seeds, size, workers)
            assert [s for part in parts for s in part] == run_seeds, (runs, workers)
            assert all(0 < len(part) <= size for part in parts), (runs, workers)
            if workers > 1 and runs >= 2 * workers * size:
                # the last `workers` tasks' worth in quarters
                assert all(len(part) <= max(1, size // 4)
                           for part in parts[-4 * workers + 1:]), (runs, workers)


def test_one_process_keeps_its_steps_of_a_twentieth() -> None:
    parts = odds.cut(list(range(10_000)), odds.shares(10_000, 1), 1)
    assert [len(part) for part in parts] == [500] * 20
