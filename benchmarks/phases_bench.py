"""phases speed on a 1,000-unit, 60-squad battle: the plan in process, and a table
operation (a bull rush, with its logged dice) through the session, on disk.

Prints, with their targets: phases.plan, an in-process plan worked out afresh after a
change (median under 20 ms); phases.first-plan, the first plan of a round as loaded
(under 20 ms); phases.use-plan, the plan after one unit takes its Move (what a key press
costs; under 4 ms); phases.move, a Move through the session, and phases.bull-rush, a bull
rush with its dice logged (each under 16 ms). Medians.
Plain script: `python benchmarks/phases_bench.py`.
"""

from __future__ import annotations

import functools
import gc
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import Figure, Measure, Values, main, role, workdir  # noqa: E402

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


@functools.cache
def siege() -> Path:
    path = workdir() / "siege.toml"
    path.write_text(battle_text())
    return path


class Afresh:
    """The plan in process, each after a change (a unit's condition) so it is worked out
    afresh."""

    def __init__(self) -> None:
        self.fight: Any = load_save(siege()).fight
        self.count = 0

    def __call__(self) -> float:
        fight, rs = self.fight, self.fight.ruleset
        n = self.count % PLANS
        self.count += 1
        change = ph.Condition(round=1, target=f"u{n}", name="calm", on=n % 2 == 0)
        fight.state.rs = role(rs, "fold").apply(fight, fight.rs, change)
        start = time.perf_counter()
        role(rs, "planner").plan(fight, 1)
        return time.perf_counter() - start


afresh: Afresh | None = None


def plans(n: int) -> Values:
    global afresh
    afresh = afresh or Afresh()
    return {"": [afresh() * 1000 for _ in range(n)]}


def firsts(n: int) -> Values:
    """The first plan of round 1 as loaded, n loads; each frozen out of the garbage
    collector's way as the app does, so a collection the load put off is not what is
    timed."""
    times = []
    for _ in range(n):
        fight = load_save(siege()).fight
        gc.freeze()  # what the app does with a loaded save (referee/app/app.py: settled)
        start = time.perf_counter()
        fight.plan()
        times.append((time.perf_counter() - start) * 1000)
        gc.unfreeze()
    return {"": times}


def movers(fight: Any, side: str | None = None) -> tuple[int, list[str]]:
    """The first phase, and the units that gain their Move in it (of `side`)."""
    top = fight.rs.now.order[0]
    return top, [cid for cid, c in fight.roster.items()
                 if int(c.stats["combat"]) == top and side in (None, c.side)]


def uses(n: int) -> Values:
    """The plan after each of n units takes its Move (the realistic case: one event, then
    the plan the screen shows), on a fresh load."""
    fight = load_save(siege()).fight
    top, moving = movers(fight)
    times = []
    for cid in moving[:n]:
        fight.enter(ph.Use(round=1, actor=cid, what="move", phase=top))
        start = time.perf_counter()
        fight.plan()
        times.append((time.perf_counter() - start) * 1000)
    return {"": times}


def operations(n: int) -> Values:
    """Through the session, on a fresh copy of the save: n of the warband's units take
    their Move, then make a bull rush (dice logged)."""
    path = workdir() / "siege-ops.toml"
    shutil.copyfile(siege(), path)
    session = Session.open(path)
    try:
        table = Table(session, random.Random(1))
        top, moving = movers(table.fight, "warband")
        moved = []
        for cid in moving[:n]:
            start = time.perf_counter()
            table.command("move", cid, {"phase": top})
            moved.append((time.perf_counter() - start) * 1000)
        rush = []
        for cid in moving[:n]:
            start = time.perf_counter()
            table.command("bull-rush", cid, {"target": "u" + str(UNITS - 1 - moving.index(cid)),
                                             "phase": top, "room": True})
            rush.append((time.perf_counter() - start) * 1000)
    finally:
        session.close()
    return {"move": moved, "rush": rush}


MEASURES: list[Measure] = [
    Measure("phases.plan", plans, (Figure("phases.plan", "plan in process, afresh",
                                          goal="< 20 ms"),),
            setup=siege, script=(1, PLANS), compare=(2, 20)),
    Measure("phases.first-plan", firsts, (Figure(
        "phases.first-plan", "first plan of the round (as loaded)", goal="< 20 ms"),),
            setup=siege, script=(1, FIRSTS), compare=(1, 2), warm=False),
    Measure("phases.use-plan", uses, (Figure(
        "phases.use-plan", "plan after a Move (use)", goal="< 4 ms"),),
            setup=siege, script=(1, OPS), compare=(1, 30)),
    Measure("phases.operations", operations, (
        Figure("phases.move", "Move through the session", "move", goal="< 16 ms"),
        Figure("phases.bull-rush", "bull rush (dice logged)", "rush", goal="< 16 ms"),
    ), setup=siege, script=(1, OPS), compare=(1, 30), warm=False),
]


if __name__ == "__main__":
    main(MEASURES, f"phases, {UNITS} units, {SQUADS} squads")
