"""CU-9: after a critical hit the referee rolls d%; at or under the damage dealt, the
target takes a Combat Injury from the table for the damage type (a d20 names its row).

J opens on the last critical hit: its target, the damage it dealt and its weapon's damage
type; the log says who struck, the d% against the damage, and the verdict.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.dice import roll as roll_dice
from referee.engine.specs import Field, Form
from referee.engine.view import Fight

from . import events as cu
from . import hits, outcomes

if TYPE_CHECKING:
    from .settings import Settings


def weapon_type(fight: Fight, hit: ev.Damage | None) -> str | None:
    """The damage type of the weapon a critical hit was dealt with."""
    name = getattr(hit, "weapon", None)
    if hit is None or name is None or hit.source not in fight.roster:
        return None
    weapon = fight.roster[hit.source].weapon(name)
    return str(weapon.stat("damage_type", "") or "") if weapon is not None else None


def injury_form(s: Settings, fight: Fight, actor: str | None) -> Form:
    """Defaults from the latest critical hit still to be judged (a dead target takes no
    injury); before any, the combatant under the cursor."""
    hit = hits.last_critical(fight)
    alive = tuple((c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid))
    kinds = tuple((name, name) for name in s.injuries) or (("untyped", ""),)
    typed = weapon_type(fight, hit)
    kind = typed if typed in {value for _, value in kinds} else kinds[0][1]
    target = hit.target if hit is not None else actor
    source = hit.source if hit is not None and hit.source in fight.roster else None
    anyone = tuple((c.name, cid) for cid, c in fight.roster.items())
    return Form("Critical injury (CU-9): d% at or under the damage dealt", (
        Field("target", "who was hit", "choice", target, required=True, options=alive),
        Field("damage", "damage dealt", "int", hit.amount if hit is not None else None,
              required=True, minimum=0, help="the critical hit's, multiplied (CU-7)"),
        Field("damage_type", "damage type", "choice", kind, options=kinds),
        Field("source", "critical by", "choice", source, options=(("—", None),) + anyone)),
        focus="damage")


def roll_injury(s: Settings, fight: Fight, target: str, damage: int, damage_type: str,
                rng: random.Random, source: str | None = None) -> list[ev.Event]:
    """The d% (and at or under the damage, the d20 on the table), then the verdict."""
    who = fight.roster[target].name if target in fight.roster else target
    chance = roll_dice(s.injury_die, rng)
    out: list[ev.Event] = [ev.Roll(round=fight.round, expr=chance.expression,
                                   dice=outcomes.dice_values(chance), total=chance.total,
                                   purpose=f"{outcomes.CHANCE} for {who} (CU-9)")]
    verdict = cu.Injury(round=fight.round, target=target, table=damage_type or None,
                        chance=chance.total, damage=damage, source=source)
    if chance.total > damage:
        return out + [verdict]
    d20 = roll_dice(outcomes.INJURY_DIE, rng)
    out.append(ev.Roll(round=fight.round, expr=d20.expression, dice=outcomes.dice_values(d20),
                       total=d20.total, purpose=f"{damage_type} {outcomes.TABLE}"))
    row = s.injury(damage_type, d20.total)
    return out + [cu.Injury(round=fight.round, target=target, roll=d20.total, injury=row,
                            table=damage_type, chance=chance.total, damage=damage,
                            source=source)]

