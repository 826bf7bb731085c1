"""sanctum's own commands: `referee fight` and `referee odds` (SA-11).

Everything they need of the command line and the files comes through the `host` the
command line hands to `add_commands` (its CommandHost): a ruleset package imports only
the engine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def add_commands(subparsers: Any, host: Any) -> dict[str, Handler]:
    fight = subparsers.add_parser(
        "fight", help="sanctum: resolve the turn's pending combats, every step into the log",
        description="Resolve the turn's combats that have not been fought (sanctum), "
                    "appending every step to the save as it goes.",
        formatter_class=host.formatter())
    fight.add_argument("save", metavar="SAVE", help="a sanctum save (.toml)")
    fight.add_argument("--json", action="store_true", help="print the result as JSON")
    fight.add_argument("--seed", type=host.whole, metavar="X",
                       help="draw from random.Random(X) instead of the save's seed "
                            "(a run of `referee odds`)")
    host.output_arguments(fight, "fight a copy written to RUN.toml (the save is not changed)",
                          "RUN.toml")
    odds = subparsers.add_parser(
        "odds", help="sanctum: simulate the pending combats N times (each side's chances)",
        description="Simulate the turn's pending combats N times from seeds derived from "
                    "S; the save is never changed.", formatter_class=host.formatter())
    odds.add_argument("save", metavar="SAVE", help="a sanctum save (.toml)")
    odds.add_argument("--runs", type=host.whole, metavar="N", required=True,
                      help="how many runs")
    odds.add_argument("--seed", type=host.whole, metavar="S",
                      help="derive the runs' seeds from S (default: the save's seed)")
    odds.add_argument("--json", action="store_true", help="print the summary as JSON")
    odds.add_argument("--workers", type=host.whole, metavar="W",
                      help="worker processes (default: one per core for many runs)")
    return {"fight": lambda args: run_fight(args, host),
            "odds": lambda args: run_odds(args, host)}


def _sanctum(save: Any, host: Any) -> Any:
    from .ruleset import Sanctum

    if not isinstance(save.ruleset, Sanctum):
        raise host.UsageError(f"{save.path}: is a {save.ruleset.id} save: fight and odds are "
                              "sanctum's")
    return save.ruleset


def run_fight(args: argparse.Namespace, host: Any) -> int:
    from .views import tell, turn_json

    path = Path(args.save)
    if args.output:
        host.claim_output(args.output, [path], args.force)
    save = host.opened(path)
    ruleset = _sanctum(save, host)
    if args.output:
        base, _, _ = ruleset.turn_start(save.fight)
        ruleset.pending(base, args.seed)  # refused here, before anything is written
        path = host.write_copy(args.output, save, base.log, args.force)
    else:
        ruleset.pending(save.fight, args.seed)
    session = host.open_for_writing(path)
    try:
        fight = session.fight
        steps, seed = ruleset.pending(fight, args.seed)
        if not args.json:
            print(f"{session.encounter.title} — turn {max(fight.round, 1)}, seed {seed}")
        for step in steps:
            host.append(session, step)  # on disk before it is shown
            if not args.json:
                print(tell(fight, step), flush=True)
        result = turn_json(fight)
    finally:
        session.close()
    if args.json:
        print(json.dumps(result, indent=2 if sys.stdout.isatty() else None))
    elif not steps:
        print("every combat of this turn has been fought (referee replay shows them)")
    if args.output:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def run_odds(args: argparse.Namespace, host: Any) -> int:
    from .odds import run_odds as simulate
    from .odds import summary_lines

    if args.runs < 1:
        raise host.UsageError("--runs takes at least 1")
    save = host.opened(Path(args.save))
    ruleset = _sanctum(save, host)
    seed = save.encounter.seed if args.seed is None else args.seed
    workers = args.workers or (min(cores(), 4) if args.runs >= 500 else 1)
    bar = progress_bar if sys.stderr.isatty() else None
    report = simulate(ruleset, save.fight, args.runs, seed, max(1, workers), bar)
    if bar:
        sys.stderr.write("\r\x1b[K")
    if args.json:
        print(json.dumps(report, indent=2 if sys.stdout.isatty() else None))
    else:
        print("\n".join(summary_lines(report)))
        print(f"replay a run: referee fight {args.save} --seed SEED -o RUN.toml")
    return 0


def cores() -> int:
    """The processors this process may run on (a container's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


def progress_bar(done: int, total: int) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\rodds [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()
