"""How demon-idol tells its own events and offers damage."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.fight import Fight

from . import events as di


def name(fight: Fight, cid: str | None) -> str:
    combatant = fight.roster.get(cid or "")
    return combatant.name if combatant else (cid or "")


def side_or_name(fight: Fight, ident: str) -> str:
    side = fight.encounter.side(ident)
    return side.name if side else name(fight, ident)


def tell(fight: Fight, event: ev.Event) -> str | None:
    if isinstance(event, di.Declare):
        return tell_declare(fight, event)
    if isinstance(event, di.SpellLost):
        return (f"{name(fight, event.actor)} loses the spell {event.spell or ''}".rstrip()
                + (f" — {event.reason}" if event.reason else ""))
    if isinstance(event, di.Fire):
        return (f"{name(fight, event.actor)}'s prepared action fires"
                + (f", before {name(fight, event.before)}" if event.before else ""))
    if isinstance(event, di.Surprise):
        return (f"surprise: {', '.join(side_or_name(fight, i) for i in event.surprised)} "
                "surprised" + (f", {event.segments} surprise segment(s)"
                               if event.segments else ""))
    return None


def tell_declare(fight: Fight, e: di.Declare) -> str:
    what = e.weapon or e.spell or e.device or ("turn undead" if e.turn else "")
    if e.routines:
        what = ", then ".join(r["weapon"] + (f" ({r['initiative']})" if "initiative" in r
                                             else "") for r in e.routines)
    text = f"{name(fight, e.actor)} {e.verb} {e.action}" + (f" ({what})" if what else "")
    if e.target:
        text += " at " + ", ".join(name(fight, t) for t in e.target)
    if e.charge:
        text += f", charging ({e.closing if e.closing is not None else '?'} segments to close)"
    if e.prepared:
        text += f", prepared: {e.trigger or 'on a trigger'}"
    if e.delay:
        text += f", {e.delay} segment(s) of declaration delay"
    if e.segment:
        text += f", in surprise segment {e.segment}"
    return text
