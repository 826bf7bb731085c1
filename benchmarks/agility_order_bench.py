"""agility-order speed on a 200-unit battle: planning in process, and a table operation
(an attack, with its logged dice) through the session, on disk.

Prints (targets: those the other rulesets meet): agility.plan, an in-process plan (the
lineup worked out afresh after a change), median under 20 ms and its worst
(agility.plan.max); agility.attack, an attack through the session, median under 16 ms,
and its p95 (agility.attack.p95). Plain script: `python benchmarks/agility_order_bench.py`.
"""

from __future__ import annotations

import functools
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import Figure, Measure, Values, main, role, workdir  # noqa: E402

from referee.session.store import Session  # noqa: E402
from referee.session.table import Table  # noqa: E402

UNITS = 200
ROUNDS = 5
PLANS = 200
ATTACKS = 150


def battle_text(units: int = UNITS, seed: int = 11) -> str:
    rng = random.Random(seed)
    lines = ['format = "referee-save"', "version = 1", 'ruleset = "agility-order"',
             'title = "A great raid"', "seed = 3", "",
             '[[sides]]\nid = "party"\nname = "Defenders"\nplayers = true', "",
             '[[sides]]\nid = "raiders"\nname = "Raiders"', ""]
    for n in range(units):
        side = "party" if n % 2 else "raiders"
        lines += ["[[combatants]]", f'id = "u{n}"', f'name = "Unit {n}"', f'side = "{side}"',
                  "hp = 500", f"agility = {rng.randint(-2, 5)}",
                  f"accuracy = {rng.randint(0, 3)}", "armor = 1",
                  f"initiator = {'true' if n % 50 == 7 else 'false'}",
                  'weapons = [ { name = "axe", damage = "1d8" } ]', ""]
    return "\n".join(lines)


def no_turn(fight: Any, cid: str) -> object:
    """Why a unit has no turn (None if it has one)."""
    try:
        from referee.rulesets.agility_order import units
    except ImportError:  # before the roles (c8333ff): the ruleset's own method
        return fight.ruleset.no_turn(fight, cid)
    return units.no_turn(fight, cid)


@functools.cache
def battle() -> Any:
    """The battle on disk, a few rounds of turns (each a resolve) in, so the log is a real
    one (once a process)."""
    path = workdir() / "raid.toml"
    path.write_text(battle_text())
    table = Table(Session.open(path), random.Random(5))
    if role(table.fight.ruleset, "planner").ties_due(table.fight):
        table.command("ties")
    for round_ in range(1, ROUNDS + 1):
        if round_ > 1:
            table.next_round()
        for _ in range(UNITS // 2):
            table.resolve_next()
    return table


def plans(n: int) -> Values:
    """n plans, each afresh (as after a change to the log)."""
    fight = battle().fight
    planner: Any = role(fight.ruleset, "planner")
    times = []
    for _ in range(n):
        planner._lineups.clear()  # afresh, as after a change to the log
        start = time.perf_counter()
        plan = fight.plan()
        times.append((time.perf_counter() - start) * 1000)
        assert len(plan.beats) == UNITS
    return {"": times}


def attacks(n: int) -> Values:
    """n attacks through the session (rolls, attack, damage, wound; on disk), each
    followed by the turn's end (not timed)."""
    table = battle()
    planner: Any = role(table.fight.ruleset, "planner")
    times = []
    for _ in range(n):
        actor = planner.turn(table.fight)
        if actor is None:
            table.next_round()
            actor = planner.turn(table.fight)
        assert actor is not None
        enemy = next(cid for cid, c in table.fight.roster.items()
                     if c.side != table.fight.roster[actor].side
                     and no_turn(table.fight, cid) is None)
        start = time.perf_counter()
        table.command("attack", actor, {"target": enemy})
        times.append((time.perf_counter() - start) * 1000)
        table.resolve_next()
    return {"": times}


MEASURES: list[Measure] = [
    Measure("agility.plan", plans, (
        Figure("agility.plan", f"agility-order, {UNITS} units: plan in process, afresh",
               goal="< 20 ms"),
        Figure("agility.plan.max", f"agility-order, {UNITS} units: plan in process, afresh",
               stat="max"),
    ), setup=battle, script=(1, PLANS), compare=(2, 20)),
    Measure("agility.attack", attacks, (
        Figure("agility.attack", "agility-order: attack through the session (rolls, attack, "
               "damage, wound; on disk)", goal="< 16 ms"),
        Figure("agility.attack.p95", "agility-order: attack through the session (rolls, "
               "attack, damage, wound; on disk)", stat="p95"),
    ), setup=battle, script=(1, ATTACKS), compare=(2, 15)),
]


if __name__ == "__main__":
    main(MEASURES, f"agility-order: {UNITS} units, {ROUNDS} rounds of turns in the log")
