"""SA-11: the turn's combats simulated many times, each run from its own seed.

The run seeds come from one generator seeded with S (`seeds`), so the same S gives the
same runs however they are shared out among worker processes; each run keeps only its
seed and a small summary (never a log), and `referee fight --seed X` replays run X in
full, since a fight draws from `random.Random(X)` exactly as the run did.

The runs go through the simulator's one pipeline with its quiet sink (`sim.run_turn`
without a log: no step is described). With workers, each is forked once with the setup
already in it (no import, nothing sent but run seeds) and takes many small shares of the
runs (`shares`); the shares come back in order, so the answer is the same for the same S
whatever the number of workers.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.engine.record import field, record
from referee.engine.specs import Chart, Report, ReportRun, Series

from . import simulator, turns
from .state import state_of

if TYPE_CHECKING:
    from referee.engine.view import Fight

    from .settings import Settings
    from .sim import Roster

# One run: (winning side index or -1 for a draw, survivors per group, per combat
# (winner: 0 first, 1 second, 2 draw, or -1 skipped; rounds; survivors first; second)).
Run = tuple[int, tuple[int, ...], tuple[tuple[int, int, int, int], ...]]


def seeds(seed: int, runs: int) -> list[int]:
    """The seed of every run, derived from `seed` alone."""
    rng = random.Random(seed)
    return [rng.getrandbits(32) for _ in range(runs)]


class Setup:
    """What every run starts from: plain data, cheap to send to a worker."""

    def __init__(self, roster: Roster, hp: list[int], pairs: list[tuple[str, str]],
                 sides: list[str]) -> None:
        self.roster, self.hp, self.pairs, self.sides = roster, hp, pairs, sides
        groups = list(dict.fromkeys(g for pair in pairs for g in pair))
        self.groups = groups
        self.group_side = [sides.index(roster.side[g]) for g in groups]
        self.members = [roster.members[g] for g in groups]
        roster.prepare()  # once, before any run (and before any worker starts)


def one_run(setup: Setup, seed: int) -> Run:
    hp = list(setup.hp)
    results, _ = simulator.sim.run_turn(setup.roster, hp, setup.pairs, random.Random(seed))
    combats = []
    for result in results:
        if result is None:
            combats.append((-1, 0, 0, 0))
            continue
        _, _, rounds, _, s1, s2 = result
        winner = 0 if s1 and not s2 else 1 if s2 and not s1 else 2
        combats.append((winner, rounds, len(s1), len(s2)))
    left = tuple(len([i for i in members if hp[i] > 0]) for members in setup.members)
    alive = {setup.group_side[k] for k, count in enumerate(left) if count}
    winner = alive.pop() if len(alive) == 1 else -1
    return (winner, left, tuple(combats))


def chunk(setup: Setup, run_seeds: list[int]) -> list[Run]:
    return [one_run(setup, s) for s in run_seeds]


_SETUP: Setup | None = None  # a worker's setup, given once when it starts


def _start_worker(setup: Setup) -> None:
    global _SETUP
    _SETUP = setup


def _worker_chunk(run_seeds: list[int]) -> list[Run]:
    assert _SETUP is not None
    return chunk(_SETUP, run_seeds)


def shares(runs: int, workers: int) -> int:
    """How many runs one task holds: many tasks per worker (so a worker slowed by the
    machine's other work leaves the rest to the others, and the workers end close
    together: the last task is short), never tiny ones (a task costs its seeds and
    results pickled, well under a run's time per run)."""
    if workers <= 1:
        return max(100, runs // 20)  # the progress bar's steps
    return max(50, -(-runs // (workers * 16)))


def cut(run_seeds: list[int], size: int, workers: int) -> list[list[int]]:
    """The runs as tasks of `size` runs, in order, but for the last `workers` tasks' worth,
    cut in quarters: the workers end closer together (the one that ends first waits at
    most a quarter task's time for the other, not a whole one's)."""
    runs = len(run_seeds)
    head = runs - min(runs, workers * size) if workers > 1 else runs
    small = max(1, size // 4)
    ends = [*range(size, head, size), head, *range(head + small, runs, small), runs]
    return [run_seeds[a:b] for a, b in zip([0, *ends], ends, strict=False) if b > a]


def cores() -> int:
    """The processors this process may run on (a container's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


def workers_for(runs: int) -> int:
    """Worker processes for `runs` runs, when none are asked for: one per core (at most
    four) for many runs, none for a few."""
    return min(cores(), 4) if runs >= 500 else 1


def pool_context() -> Any:
    """`fork` where there is one: a worker starts as a copy of this process, the setup
    and the modules already in it (nothing imported, nothing sent but the run seeds)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def setup_of(s: Settings, fight: Fight) -> Setup:
    """The turn as its combats began, as the runs read it (with the house rules `s`)."""
    base, _, _ = turns.turn_start(fight)
    state = state_of(base)
    roster = turns.roster(s, base, state)
    pairs = turns.pairs(base, state)
    sides = list(dict.fromkeys(roster.side[g] for pair in pairs for g in pair))
    return Setup(roster, turns.hit_points(base), pairs, sides)


def run_odds(s: Settings, fight: Fight, runs: int, seed: int, workers: int = 1,
             progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Simulate the fight's turn `runs` times (from the turn's start) and summarise."""
    setup = setup_of(s, fight)
    if not setup.pairs:
        from referee.engine.errors import IllegalEvent

        raise IllegalEvent(f"turn {max(fight.round, 1)} lists no combats (SA-2)")
    run_seeds = seeds(seed, runs)
    parts = cut(run_seeds, shares(runs, workers), workers)
    out: list[Run] = []
    if workers > 1 and len(parts) > 1:
        from concurrent.futures import ProcessPoolExecutor

        # the results come back in the order of the parts: the same runs in the same
        # order whatever the number of workers
        with ProcessPoolExecutor(max_workers=min(workers, len(parts)),
                                 mp_context=pool_context(), initializer=_start_worker,
                                 initargs=(setup,)) as pool:
            for done in pool.map(_worker_chunk, parts):
                out += done
                if progress:
                    progress(len(out), runs)
    else:
        for part in parts:
            out += chunk(setup, part)
            if progress:
                progress(len(out), runs)
    return summarise(setup, out, run_seeds, seed, max(fight.round, 1))


def summarise(setup: Setup, out: list[Run], run_seeds: list[int], seed: int,
              turn: int) -> dict[str, Any]:
    runs = len(out)
    share = 1.0 / runs if runs else 0.0
    wins = [0] * len(setup.sides)
    draws = 0
    left = [0] * len(setup.groups)
    # how many runs left each group with 0, 1, 2 ... minions standing
    spread = [[0] * (1 + len(members)) for members in setup.members]
    for winner, survivors, _ in out:
        if winner < 0:
            draws += 1
        else:
            wins[winner] += 1
        for k, count in enumerate(survivors):
            left[k] += count
            spread[k][count] += 1
    combats: list[dict[str, Any]] = []
    total_rounds = 0.0
    roster = setup.roster
    for k, (a, b) in enumerate(setup.pairs):
        rows = [run[2][k] for run in out]
        if rows and rows[0][0] < 0:
            combats.append({"groups": [a, b], "skipped": True, "rules": ["SA-2"]})
            continue
        first, second, _ = simulator.sim.precedence(roster, a, b)
        tally = [0, 0, 0]
        rounds = s1 = s2 = 0
        for w, r, x, y in rows:
            tally[w] += 1
            rounds += r
            s1 += x
            s2 += y
        total_rounds += rounds * share
        combats.append({"groups": [a, b], "first": first,
                        "wins": {first: round(tally[0] * share, 4),
                                 second: round(tally[1] * share, 4)},
                        "draws": round(tally[2] * share, 4),
                        "survivors": {first: round(s1 * share, 3),
                                      second: round(s2 * share, 3)},
                        "rounds": round(rounds * share, 3)})
    return {
        "ruleset": "sanctum", "turn": turn, "runs": runs, "seed": seed,
        "sides": {side: round(wins[k] * share, 4) for k, side in enumerate(setup.sides)},
        "draws": round(draws * share, 4),
        "survivors": {g: round(left[k] * share, 3) for k, g in enumerate(setup.groups)},
        "minions": {g: sum(1 for i in setup.members[k] if setup.hp[i] > 0)
                    for k, g in enumerate(setup.groups)},
        "rounds": round(total_rounds, 3),
        "spread": {g: spread[k] for k, g in enumerate(setup.groups)},
        "combats": combats,
        "seeds": run_seeds,
        "outcomes": [(setup.sides[w] if w >= 0 else "draw") for w, _, _ in out],
    }


def summary_lines(report: dict[str, Any], limit: int = 0) -> list[str]:
    """The summary as lines a person reads."""
    lines = [f"{report['runs']} runs from seed {report['seed']}, turn {report['turn']}"]
    sides = ", ".join(f"{side} {p:.1%}" for side, p in report["sides"].items())
    lines.append(f"wins: {sides}; draws {report['draws']:.1%}")
    lines.append("expected survivors: " + ", ".join(
        f"{g} {n:.2f}" for g, n in report["survivors"].items()))
    for c in report["combats"]:
        a, b = c["groups"]
        if c.get("skipped"):
            lines.append(f"  {a} vs {b}: skipped (SA-2)")
            continue
        wins = ", ".join(f"{g} {p:.1%}" for g, p in c["wins"].items())
        lines.append(f"  {a} vs {b}: {wins}, draws {c['draws']:.1%}, "
                     f"{c['rounds']:.2f} rounds on average")
    if limit:
        return lines[:limit]
    shown = report["seeds"][:5]
    lines.append("run seeds: " + ", ".join(
        f"#{k + 1} {s} ({o})" for k, (s, o) in enumerate(zip(shown, report["outcomes"],
                                                              strict=False)))
        + (" …" if len(report["seeds"]) > 5 else ""))
    return lines


@record(frozen=True)
class Odds(Report):
    """The odds as a report, with the summary it was made from (what `--json` prints):
    not compared, as the report's own fields say the same."""

    summary: dict[str, Any] = field(default_factory=dict, compare=False)


def report_of(summary: dict[str, Any]) -> Odds:
    """The odds as the app's chart screen shows them: each side's wins, draws and losses
    as one bar, a survivors histogram per group, the rounds fought, and every run."""
    sides = tuple(summary["sides"])
    draw = 100.0 * summary["draws"]
    won = tuple(100.0 * p for p in summary["sides"].values())
    outcome = Chart("%", sides, (
        Series("win", won), Series("draw", tuple(draw for _ in sides)),
        Series("lose", tuple(max(0.0, 100.0 - w - draw) for w in won))), unit="%")
    runs = summary["runs"] or 1
    charts = [outcome] + [
        Chart(f"{group} survivors",
              tuple(str(n) for n in range(len(counts))),
              (Series("runs", tuple(100.0 * c / runs for c in counts)),),
              kind="histogram", unit="%")
        for group, counts in summary["spread"].items()]
    return Odds(f"Odds (SA-11): turn {summary['turn']}, {summary['runs']} runs from seed "
                f"{summary['seed']}", tuple(report_lines(summary)), tuple(charts),
                tuple(ReportRun(k + 1, seed, outcome) for k, (seed, outcome) in
                      enumerate(zip(summary["seeds"], summary["outcomes"], strict=True))),
                summary)


def report_lines(summary: dict[str, Any]) -> list[str]:
    """The few lines above the charts: the outcome and the rounds fought per combat."""
    sides = ", ".join(f"{side} {p:.1%}" for side, p in summary["sides"].items())
    lines = [f"wins: {sides}; draws {summary['draws']:.1%}; "
             f"{summary['rounds']:.1f} rounds fought a run"]
    lines.append("survivors expected: " + ", ".join(
        f"{g} {n:.2f} of {summary['minions'][g]}" for g, n in summary["survivors"].items()))
    for c in summary["combats"]:
        a, b = c["groups"]
        lines.append(f"{a} vs {b}: skipped (SA-2)" if c.get("skipped") else
                     f"{a} vs {b}: {c['rounds']:.1f} rounds on average")
    return lines
