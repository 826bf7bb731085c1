"""What the log says of demon-idol's events (its own, and the end of a fight: DI-20):
a declaration with what it uses, its targets (a volley's shot by shot), its charge or move
and its delays; a spell lost; a prepared action fired; the surprise. The tracker tells
through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import events as ev
from referee.engine.view import Fight

from . import book, stats, volleys
from . import events as di
from .ending import RECOVERY
from .wording import name, segments, side_or_name


def tell(fight: Fight, event: ev.Event) -> str | None:
    """The log's line for `event` told demon-idol's way; None: the core's line."""
    told = TELLS.get(type(event))
    return told(fight, event) if told is not None else None


def tell_spell_lost(fight: Fight, event: di.SpellLost) -> str:
    return (f"{name(fight, event.actor)} loses the spell {event.spell or ''}".rstrip()
            + (f" — {event.reason}" if event.reason else ""))


def tell_fire(fight: Fight, event: di.Fire) -> str:
    return (f"{name(fight, event.actor)}'s prepared action fires"
            + (f", before {name(fight, event.before)}" if event.before else ""))


def tell_end(fight: Fight, event: ev.End) -> str:
    over = "the fight is over" + (f": {event.note}" if event.note else "")
    return f"{over} — {RECOVERY}"


def tell_surprise(fight: Fight, event: di.Surprise) -> str:
    return (f"surprise: {', '.join(side_or_name(fight, i) for i in event.surprised)} "
            "surprised" + (f", {segments(event.segments)} of surprise"
                           if event.segments else ""))


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


# Keyed by the event's own class: the rest are told the core's way
TELLS: dict[type[ev.Event], Callable[[Fight, Any], str]] = {
    di.Declare: tell_declare,
    di.SpellLost: tell_spell_lost,
    di.Fire: tell_fire,
    ev.End: tell_end,
    di.Surprise: tell_surprise,
}
