"""agility-order speed on a 200-unit battle: planning in process, and a table operation
(an attack, with its logged dice) through the session, on disk.

Targets (those the other rulesets meet): an in-process plan under 20 ms (median, the
lineup worked out afresh after a change); an attack through the session under 16 ms
(median). Plain script: `python benchmarks/agility_order_bench.py`.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine import events as ev  # noqa: E402
from referee.rulesets.agility_order import units  # noqa: E402
from referee.session.files import load_save  # noqa: E402
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


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "raid.toml"
        path.write_text(battle_text())
        session = Session.open(path)
        table = Table(session, random.Random(5))
        rs = table.fight.ruleset
        if rs.planner.ties_due(table.fight):
            table.command("ties")
        # a few rounds of turns (each a resolve) so the log is a real one
        for round_ in range(1, ROUNDS + 1):
            if round_ > 1:
                table.next_round()
            for _ in range(UNITS // 2):
                table.resolve_next()
        fight = table.fight
        print(f"{UNITS} units, {len(fight.log)} events in the log, round {fight.round}")

        plans = []
        for _ in range(PLANS):
            rs.planner._lineups.clear()  # afresh, as after a change to the log
            start = time.perf_counter()
            plan = fight.plan()
            plans.append(time.perf_counter() - start)
        assert len(plan.beats) == UNITS
        print(f"plan in process: median {median_ms(plans):.2f} ms, "
              f"max {max(plans) * 1000:.2f} ms (target < 20 ms)")

        attacks = []
        for _ in range(ATTACKS):
            actor = rs.planner.turn(table.fight)
            if actor is None:
                table.next_round()
                actor = rs.planner.turn(table.fight)
            assert actor is not None
            enemy = next(cid for cid, c in table.fight.roster.items()
                         if c.side != table.fight.roster[actor].side
                         and units.no_turn(table.fight, cid) is None)
            start = time.perf_counter()
            table.command("attack", actor, {"target": enemy})
            attacks.append(time.perf_counter() - start)
            table.resolve_next()
        print(f"attack through the session (rolls, attack, damage, wound; on disk): "
              f"median {median_ms(attacks):.2f} ms, p95 "
              f"{sorted(attacks)[int(len(attacks) * 0.95)] * 1000:.2f} ms (target < 16 ms)")
        again = load_save(path).fight
        assert len(again.log) == len(table.fight.log)
        assert not any(isinstance(e, ev.End) for e in again.log)


if __name__ == "__main__":
    main()
