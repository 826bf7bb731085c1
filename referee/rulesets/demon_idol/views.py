"""How demon-idol tells its events (its own, and the end of a fight: DI-20) and shows
a declaration in the tracker."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.fight import Fight

from . import book, stats, volleys
from . import events as di
from .state import state_of
from .wording import segments

if TYPE_CHECKING:
    from .ruleset import DemonIdol

# DI-20: what the recovery turn after a fight allows, said where the fight ends
RECOVERY = ("one recovery turn passes (DI-20): no travel, but bleeding can be staunched, "
            "spells cast, prisoners tied")


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
    if isinstance(event, ev.End):
        over = "the fight is over" + (f": {event.note}" if event.note else "")
        return f"{over} — {RECOVERY}"
    if isinstance(event, di.Surprise):
        return (f"surprise: {', '.join(side_or_name(fight, i) for i in event.surprised)} "
                "surprised" + (f", {segments(event.segments)} of surprise"
                               if event.segments else ""))
    return None


def routine_text(routine: dict[str, str]) -> str:
    """A routine in the log: its weapon, and its own initiative or timing."""
    word = routine.get("initiative") or routine.get("timing")
    return routine["weapon"] + (f" ({word})" if word else "")


def tell_declare(fight: Fight, e: di.Declare) -> str:
    what = e.weapon or e.spell or e.device or ("turn undead" if e.turn else "")
    if e.routines:
        what = ", then ".join(routine_text(r) for r in e.routines)
    text = f"{name(fight, e.actor)} {e.verb} {e.action}" + (f" ({what})" if what else "")
    if e.shots:  # a volley: its targets shot by shot
        text += " at " + volleys.text_of(e.shots, lambda cid: name(fight, cid))
        text += f" ({len(e.shots)} shots, in order)" if len(e.shots) > 1 else ""
    elif e.target:
        text += " at " + ", ".join(name(fight, t) for t in e.target)
    text += moving(fight, e)
    if e.prepared:
        text += f", prepared: {e.trigger or 'on a trigger'}"
    if e.delay:
        text += f", {segments(e.delay)} of declaration delay"
    if e.segment:
        text += f", in surprise segment {e.segment}"
    if e.note:
        text += f" — {e.note}"
    return text


def moving(fight: Fight, e: di.Declare) -> str:
    """A charge, or a move over a distance, with the segments it needs to close as the
    plan reckons them (book.closing): `, charging: 2 segments to close` (typed), `, moving
    at 9" a round over 2": 3 segments to close` (a distance at its movement rate)."""
    if not e.charge and e.distance is None and e.closing is None:
        return ""
    actor = fight.roster.get(e.actor)
    count = book.closing(fight, e, actor)[0] if actor is not None else 1
    segments = f"{count} segment{'s' if count != 1 else ''} to close"
    word = "charging" if e.charge else "moving"
    rate = stats.move(actor) if actor is not None else None
    if e.closing is not None or e.distance is None or not rate:
        given = "" if e.closing is not None else " (none given)"  # the plan takes 1
        return f", {word}: {segments}{given}"
    pace = book.pace(fight, e, rate)[1]  # a charge's says "charging" itself
    return f", {pace if e.charge else f'{word} {pace}'} over {e.distance:g}\": {segments}"


# -- the tracker's declared column (and the players' view, which shows the same) ----------


def declared(ruleset: DemonIdol, fight: Fight, cid: str, decl: ev.Declare) -> str:
    """A declaration in the tracker's few columns; a group that broke shows the avoidance
    that replaced what it declared (DI-18), never the old declaration."""
    broke = state_of(fight).broken.get((max(fight.round, 1), cid))
    if broke is not None:
        return f"{ruleset.settings.letter_of['avoid']} {broke} (morale, DI-18)"
    text = one_declared(ruleset, fight, cid, decl)
    if decl.then:  # close, then strike: the whole round's intent in one cell
        first = fight.own_declarations(decl)[0]
        text = f"{one_declared(ruleset, fight, cid, first, brief=True)}, then {text}"
    return text


def one_declared(ruleset: DemonIdol, fight: Fight, cid: str, decl: ev.Declare,
                 brief: bool = False) -> str:
    """`G (+1 seg) long sword → Goblin 1`: the letter, the declaration delay it added (DI-16),
    what it uses, at whom (a volley's shots grouped by target), and its note; `brief`:
    the letter and the target alone."""
    d = decl if isinstance(decl, di.Declare) else None
    text = decl.action
    if d is not None and d.delay:
        text += f" (+{d.delay} seg)"
    what = "" if brief or d is None else using(fight, cid, d)
    if what:
        text += f" {what}"
    if d is not None and d.shots and not brief:  # named as the rest of the screen names them
        text += f" → {volleys.text_of(d.shots, lambda t: name(fight, t))}"
    elif decl.target:
        text += f" → {', '.join(name(fight, t) for t in decl.target)}"
    if d is not None and d.spell and (fight.round, cid) in state_of(fight).lost_spells:
        text += " (lost)"
    if decl.note and not brief:
        text += f": {decl.note}"
    return text


def using(fight: Fight, cid: str, d: di.Declare) -> str:
    """What a declaration uses: its weapon (each routine's), spell with its casting time,
    device, or turning."""
    if d.routines:
        return " + ".join(r["weapon"] + (f" ({r['timing']})" if "timing" in r else "")
                          for r in d.routines)
    what = d.weapon or d.spell or d.device or ("turn undead" if d.turn else "")
    spell = fight.roster[cid].spell(d.spell) if d.spell else None
    time = stats.casting_time(spell) if spell is not None else None
    return f"{what} ({time} seg)" if time is not None else what
