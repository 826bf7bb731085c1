"""CU-7: a critical hit multiplies its weapon's damage and goes straight to Wound Points.

The hit form (damage.py) asks whether the hit was critical, naming the multiplier of the
weapon each combatant acting now strikes with; the hit is entered with the damage
multiplied, and the event names the weapon and the multiplier, so the log says what the
target took and why. Here: who strikes now, and with what.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.model import Weapon
from referee.engine.view import Fight

from . import events as cu
from . import order, stats

if TYPE_CHECKING:
    from .settings import ActionRule


def struck_with(kinds: Mapping[str, ActionRule], fight: Fight,
                source: str | None) -> Weapon | None:
    """The weapon `source` strikes with this round: the one its attack declares (CU-3),
    else its first. None: no weapon (or a defensive attack that does not attack)."""
    if source is None or source not in fight.roster:
        return None
    actor = fight.roster[source]
    for _, d in fight.declared(max(fight.round, 1)):
        if d.actor == source and isinstance(d, cu.Declare) and d.action in kinds \
                and kinds[d.action].adds == "weapon":
            return order.weapon_used(kinds, actor, d)
    return actor.weapons[0] if actor.weapons else None


def acting(fight: Fight) -> list[str]:
    """Who acts in the round's current beat (none before the order is known)."""
    round_ = max(fight.round, 1)
    try:
        plan = fight.plan(round_)
    except RefereeError:
        return []
    beat = plan.current(fight.resolved.get(round_, set()))
    if beat is None:
        return []
    actions = plan.beats[beat - 1].actions
    return list(dict.fromkeys(a.actor for a in actions if not a.flag("skipped")))


def multiplier_text(fight: Fight, weapon: Weapon | None, who: str | None = None) -> str:
    """×3 (longsword); with `who`, whose: Hilde: longsword ×3."""
    times = stats.critical(weapon) if weapon is not None else 1
    what = weapon.name if weapon is not None else "no weapon"
    return f"{fight.roster[who].name}: {what} ×{times}" if who else f"×{times} ({what})"


def rolled(event: ev.Damage) -> int:
    """The damage before a critical's multiplier."""
    times = getattr(event, "multiplier", None) or 1
    return event.amount // times


def last_critical(fight: Fight) -> ev.Damage | None:
    """The latest critical hit in effect still to be judged (CU-9): on one still alive,
    with no injury roll for its target since (a dying creature's loss of a Wound Point,
    which comes with a note, is none)."""
    judged: set[str] = set()
    for event in reversed(fight.events):
        if isinstance(event, cu.Injury):
            judged.add(event.target)
        elif isinstance(event, ev.Damage) and event.critical and event.note is None \
                and event.target not in judged and fight.alive(event.target):
            return event
    return None
