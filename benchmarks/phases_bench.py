"""phases speed on a 1,000-unit, 60-squad battle: the plan in process, and a table
operation (a bull rush, with its logged dice) through the session, on disk.

Targets: an in-process plan under 20 ms (median, worked out afresh after a change); the
plan after one unit takes its Move (what a key press costs) under 4 ms (median); the
first plan of a round under 20 ms; a table operation through the session under 16 ms
(median).
Plain script: `python benchmarks/phases_bench.py`.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.rulesets.phases import events as ph  # noqa: E402
from referee.session.files import load_save  # noqa: E402
from referee.session.store import Session  # noqa: E402
from referee.session.table import Table  # noqa: E402

UNITS = 1000
SQUADS = 60
PLANS = 100
OPS = 60
FIRSTS = 5


def battle_text(units: int = UNITS, squads: int = SQUADS, seed: int = 11) -> str:
    rng = random.Random(seed)
    lines = ['format = "referee-save"', "version = 1", 'ruleset = "phases"',
             'title = "A great siege"', "seed = 3", ""]
    ids = [f"u{n}" for n in range(units)]
    per = units // squads
    for s in range(squads):
        members = ids[s * per: s * per + min(per, 8 if s % 3 else 24)]
        kind = "horde" if s % 3 == 0 else "stack"
        lines += ["[[squads]]", f'id = "s{s}"', f'kind = "{kind}"', f'leader = "{members[0]}"',
                  "members = [" + ", ".join(f'"{m}"' for m in members) + "]", ""]
    lines += ['[[sides]]\nid = "warband"\nname = "Warband"', "",
              '[[sides]]\nid = "town"\nname = "Town"\ndefending = true', ""]
    for n, cid in enumerate(ids):
        s = n // per
        side = "warband" if s % 2 == 0 else "town"
        traits = '["Uncroaked"]' if s % 3 == 0 else '["Military"]'
        lines += ["[[combatants]]", f'id = "{cid}"', f'name = "Unit {n}"', f'side = "{side}"',
                  "hp = 8", f"combat = {rng.randint(0, 6)}", "defense = 4",
                  f"traits = {traits}", ""]
    return "\n".join(lines)


def plan_after_use(path: Path) -> tuple[float, float]:
    """The first plan of round 1 as loaded (the median of FIRSTS loads, each frozen out of
    the garbage collector's way as the app does, so a collection the load put off is not
    what is timed), then the plan after each of OPS units takes its Move (the realistic
    case: one event, then the plan the screen shows)."""
    firsts = []
    for _ in range(FIRSTS):
        fight = load_save(path).fight
        gc.freeze()  # what the app does with a loaded save (referee/app/app.py: settled)
        start = time.perf_counter()
        fight.plan()
        firsts.append((time.perf_counter() - start) * 1000)
        gc.unfreeze()
    first = statistics.median(firsts)
    top = fight.rs.now.order[0]
    movers = [cid for cid, c in fight.roster.items() if int(c.stats["combat"]) == top]
    times = []
    for cid in movers[:OPS]:
        fight.enter(ph.Use(round=1, actor=cid, what="move", phase=top))
        start = time.perf_counter()
        fight.plan()
        times.append((time.perf_counter() - start) * 1000)
    return first, statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "siege.toml"
        path.write_text(battle_text())
        fight = load_save(path).fight
        rs = fight.ruleset
        times = []
        for n in range(PLANS):
            actor = f"u{n}"
            fight.state.rs = rs.fold.apply(fight, fight.rs, ph.Condition(
                round=1, target=actor, name="calm", on=n % 2 == 0))  # a change: afresh
            start = time.perf_counter()
            rs.planner.plan(fight, 1)
            times.append((time.perf_counter() - start) * 1000)
        plan_ms = statistics.median(times)
        first_ms, use_ms = plan_after_use(path)
        session = Session.open(path)
        try:
            table = Table(session, random.Random(1))
            fight = table.fight
            top = fight.rs.now.order[0]
            movers = [cid for cid, c in fight.roster.items()
                      if int(c.stats["combat"]) == top and c.side == "warband"]
            op_times = []
            for cid in movers[:OPS]:
                start = time.perf_counter()
                table.command("move", cid, {"phase": top})
                op_times.append((time.perf_counter() - start) * 1000)
            rush = []
            for cid in movers[:OPS]:
                start = time.perf_counter()
                table.command("bull-rush", cid, {"target": "u" + str(UNITS - 1 - movers.index(cid)),
                                                 "phase": top, "room": True})
                rush.append((time.perf_counter() - start) * 1000)
        finally:
            session.close()
    print(f"phases, {UNITS} units, {SQUADS} squads")
    print(f"plan in process:          median {plan_ms:.2f} ms (target < 20 ms)")
    print(f"first plan of the round:  median {first_ms:.2f} ms ({FIRSTS} loads; "
          "target < 20 ms)")
    print(f"plan after a Move (use):  median {use_ms:.2f} ms ({OPS} moves; target < 4 ms)")
    print(f"Move through the session: median {statistics.median(op_times):.2f} ms "
          f"({len(op_times)} ops; target < 16 ms)")
    print(f"bull rush (dice logged):  median {statistics.median(rush):.2f} ms "
          f"({len(rush)} ops; target < 16 ms)")


if __name__ == "__main__":
    main()
