"""What the log says of count-up's own events, and of the core's where its rules say
more: damage through Stress and Wound Points (a critical's multiplier), a Heal check's TN,
morale as CU-6 adds it up, an injury's verdict, and the end wiping initiative. The
tracker tells through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.view import Fight

from . import events as cu
from . import healing, hits, morale, outcomes
from .naming import name

if TYPE_CHECKING:
    from .settings import Settings


def tell(s: Settings, fight: Fight, event: ev.Event) -> str | None:
    """The log's line for `event` told count-up's way; None: the core's line."""
    told = TELLS.get(type(event))
    return told(s, fight, event) if told is not None else None


def tell_declare(s: Settings, fight: Fight, event: cu.Declare) -> str:
    what = event.weapon or event.spell or ""
    text = f"{name(fight, event.actor)} {event.verb} {event.action}"
    text += f" ({what})" if what else ""
    if event.target:
        text += " at " + ", ".join(name(fight, t) for t in event.target)
    if event.modifier is not None:
        text += f", modifier {event.modifier:+d}"
    return text + (f" — {event.note}" if event.note else "")


def tell_join(s: Settings, fight: Fight, event: cu.Join) -> str | None:
    if event.combatant is None:
        return None
    at = f" at count {event.at_count}" if event.at_count is not None else ""
    base = f", base initiative {event.base}" if event.base is not None else ""
    side = fight.encounter.side(event.combatant.side)
    return (f"{event.combatant.name} joins the fight on "
            f"{side.name if side else event.combatant.side}'s side{at}{base}")


def tell_damage(s: Settings, fight: Fight, event: ev.Damage) -> str | None:
    """Who took how much, a critical's sum, and Stress and Wound Points after it."""
    status = fight.status.get(event.target)
    if status is None:
        return None
    marks = status.marks
    soaked = 0 if event.critical else min(marks["stress"], event.amount)
    after = (f"S{marks['stress'] - soaked} W{marks['wounds'] - event.amount + soaked}/"
             f"{status.max_hp}")
    text = f"{name(fight, event.target)} takes {event.amount}"
    text += " critical damage" if event.critical and event.note is None else " damage"
    times, weapon = getattr(event, "multiplier", None), getattr(event, "weapon", None)
    if times:
        text += f" ({hits.rolled(event)} × {times}, {weapon})"
    text += f" from {name(fight, event.source)}" if event.source else ""
    text += f": {after}"
    if event.note:
        return f"{text} — {event.note}"
    return text + (" (CU-7: to Wound Points)" if event.critical else "")


def tell_heal(s: Settings, fight: Fight, event: ev.Heal) -> str | None:
    """Healing, and a stabilising Heal check with its TN (CU-8)."""
    if event.target not in fight.roster:
        return None
    who = name(fight, event.target)
    text = f"{who} heals {event.amount}"
    check, tn = getattr(event, "check", None), getattr(event, "tn", None)
    if check is not None and tn is not None:
        verdict = "stabilised" if event.stabilize else "not stabilised"
        return f"{text}; Heal check {check} vs TN {tn}: {verdict} (CU-8)"
    if event.stabilize and event.target in healing.needing(fight):
        return f"{text}, stabilised (Heal check {healing.tn_text(s, fight, event.target)}, CU-8)"
    return text + (", stabilised" if event.stabilize else "")


def tell_morale(s: Settings, fight: Fight, event: ev.Morale) -> str | None:
    """The roll with Insight, HD and allies added, against 11 + opponents (CU-6)."""
    roll = outcomes.roll_before(fight, outcomes.MORALE)
    if event.passed is None or roll is None or len(event.group) != 1 \
            or event.group[0] not in fight.roster:
        return None
    check = morale.check(s, fight, event.group[0], roll.total)
    verdict = "holds" if event.passed else f"breaks (will {event.avoid or 'flee'})"
    tn = (f"TN {s.morale_tn} + {check.opponents} opponents = {event.target}"
          if event.target == s.morale_tn + check.opponents else f"TN {event.target}")
    return (f"{name(fight, event.group[0])}'s morale {verdict}: {roll.expr} {roll.total} + "
            f"Insight {check.insight} + HD {check.hd} + {check.allies} allies = {event.roll}"
            f" vs {tn} (CU-6)")


def tell_injury(s: Settings, fight: Fight, event: cu.Injury) -> str:
    """The verdict first (a narrow log keeps it), then who struck and the d% against the
    damage dealt (CU-9)."""
    target = name(fight, event.target)
    if event.chance is None or event.damage is None:
        return f"{target} suffers a combat injury: {event.injury}"
    by = f" from {name(fight, event.source)}'s critical" if event.source else ""
    odds = f"{s.injury_die} {event.chance}"  # not the damage: the players' log shows this
    if not event.injury:
        return f"{target}: no combat injury{by}: {odds}, over the damage dealt (CU-9)"
    return (f"{target} suffers a combat injury{by}: {odds}, at or under the damage dealt; "
            f"{event.table} d20 {event.roll}: {event.injury} (CU-9)")


def tell_end(s: Settings, fight: Fight, event: ev.End) -> str:
    over = "the fight is over" + (f": {event.note}" if event.note else "")
    return f"{over} — combat ends, initiative is wiped (CU-10)"


# Keyed by the event's own class: count-up's damage and healing as the core's (the core
# enters its own: a dying combatant's end-of-round damage); the rest told the core's way
TELLS: dict[type[ev.Event], Callable[[Settings, Fight, Any], str | None]] = {
    cu.Declare: tell_declare,
    cu.Join: tell_join,
    ev.Damage: tell_damage,
    cu.Damage: tell_damage,
    ev.Heal: tell_heal,
    cu.Heal: tell_heal,
    ev.Morale: tell_morale,
    cu.Injury: tell_injury,
    ev.End: tell_end,
}
