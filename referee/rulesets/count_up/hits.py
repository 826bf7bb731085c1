"""CU-7: a critical hit multiplies its weapon's damage and goes straight to Wound Points.

The hit form asks whether the hit was critical, naming the multiplier of the weapon each
combatant acting now strikes with; the hit is entered with the damage multiplied, and the
event names the weapon and the multiplier, so the log says what the target took and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.model import Weapon
from referee.engine.specs import Field

from . import events as cu
from . import stats

if TYPE_CHECKING:
    from .ruleset import CountUp


def struck_with(rs: CountUp, fight: Fight, source: str | None) -> Weapon | None:
    """The weapon `source` strikes with this round: the one its attack declares (CU-3),
    else its first. None: no weapon (or a defensive attack that does not attack)."""
    if source is None or source not in fight.roster:
        return None
    actor = fight.roster[source]
    for _, d in fight.declared(max(fight.round, 1)):
        if d.actor == source and isinstance(d, cu.Declare) and d.action in rs.kinds \
                and rs.kinds[d.action].adds == "weapon":
            return rs.weapon_used(actor, d)
    return actor.weapons[0] if actor.weapons else None


def acting(rs: CountUp, fight: Fight) -> list[str]:
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


def critical_field(rs: CountUp, fight: Fight) -> Field:
    """The hit form's critical question: the multiplier it will use in its label, the
    damage multiplied in its yes (for the one acting now; several: each one's weapon)."""
    who = acting(rs, fight)
    label, yes = "critical (CU-7)", "yes: × the weapon's multiplier"
    if len(who) == 1:
        weapon = struck_with(rs, fight, who[0])
        times = stats.critical(weapon) if weapon is not None else 1
        label = f"critical: ×{times} {weapon.name if weapon else 'no weapon'}"
        yes = f"yes: {rs.damage_default(fight, who[0])} × {times} to Wound Points"
    elif who:
        yes = "yes: " + ", ".join(multiplier_text(fight, struck_with(rs, fight, cid), cid)
                                  for cid in who)
    return Field("critical", label, "choice", False, options=(("no", False), (yes, True)),
                 help="multiplied by the weapon's multiplier, straight to Wound Points")


def damage_events(rs: CountUp, fight: Fight, hit: ev.Damage,
                  values: Mapping[str, Any]) -> list[ev.Event]:
    """A critical hit entered with its damage multiplied by the weapon's multiplier."""
    if not hit.critical:
        return [hit]
    weapon = struck_with(rs, fight, hit.source)
    if weapon is None:  # nothing to multiply: still straight to Wound Points
        return [hit]
    times = stats.critical(weapon)
    return [cu.Damage(round=hit.round, target=hit.target, amount=hit.amount * times,
                      source=hit.source, critical=True, beat=hit.beat, note=hit.note,
                      weapon=weapon.name, multiplier=times)]


def rolled(event: ev.Damage) -> int:
    """The damage before a critical's multiplier."""
    times = getattr(event, "multiplier", None) or 1
    return event.amount // times


def last_critical(fight: Fight) -> ev.Damage | None:
    """The latest critical hit in effect (a dying creature's loss of a Wound Point, which
    comes with a note, is none)."""
    for event in reversed(fight.events):
        if isinstance(event, ev.Damage) and event.critical and event.note is None:
            return event
    return None
