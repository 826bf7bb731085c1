"""How count-up tells its own events."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.fight import Fight

from . import events as cu

if TYPE_CHECKING:
    from .ruleset import CountUp


def name(fight: Fight, cid: str) -> str:
    combatant = fight.roster.get(cid)
    return combatant.name if combatant else cid


def tell(rs: CountUp, fight: Fight, event: ev.Event) -> str | None:
    if isinstance(event, cu.Declare):
        what = event.weapon or event.spell or ""
        text = f"{name(fight, event.actor)} {event.verb} {event.action}"
        text += f" ({what})" if what else ""
        if event.target:
            text += " at " + ", ".join(name(fight, t) for t in event.target)
        if event.modifier is not None:
            text += f", modifier {event.modifier:+d}"
        return text
    if isinstance(event, cu.Join) and event.combatant is not None:
        at = f" at count {event.at_count}" if event.at_count is not None else ""
        base = f", base initiative {event.base}" if event.base is not None else ""
        side = fight.encounter.side(event.combatant.side)
        return (f"{event.combatant.name} joins the fight on "
                f"{side.name if side else event.combatant.side}'s side{at}{base}")
    if isinstance(event, cu.Injury):
        return f"{name(fight, event.target)} suffers a combat injury: {event.injury}"
    return None
