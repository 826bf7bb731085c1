"""AO-11 beyond the attack act: a hit entered as damage alone (the hit key) goes
through the target's armour and wounds at 6+ net, and a wound can be added by hand.

The attack act works out its own damage net and writes its wound (attack.py); the
fold tells its damage apart by where it stands: right after the attack that hit.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.record import replace
from referee.engine.specs import Field, Form
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as ao
from . import stats, units
from .attack import dice, typed_ints
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

NOBODY = ("— nobody named", "")
# the wound form's fatal d4: the same every fight
FATAL_FIELD = Field("fatal", "fatal d4", "int", None, minimum=1,
                    help="a fatal wound only; blank: the program rolls")


# -- a hit's damage through armour ---------------------------------------------------------


def armour_off(fight: Fight, state: State, e: ev.Damage) -> int | None:
    """The armour the fold takes off `e` (AO-11), read against the state before it; None
    when `e` is no hit entered as damage alone: an attack's own damage (net already) or
    damage with no source (a fall, a fatal wound's bonus), which no armour stops."""
    if not e.source or state.pending == f"{e.source}>{e.target}":
        return None
    return stats.armor(fight.roster[e.target])


def net(fight: Fight, state: State, e: ev.Damage) -> int:
    """The hit points `e` takes off its target."""
    off = armour_off(fight, state, e)
    return e.amount if off is None else max(e.amount - off, 0)


def folded(fight: Fight, state: State, event: ev.Event) -> State:
    """What one event does to the hits the fold follows: an attack that hit waits for
    its damage; a hit entered as damage alone is kept for its wound, and counts as the
    source's hit on the target (an aimed effect added by hand needs one)."""
    if isinstance(event, ao.Attack):
        waiting = f"{event.actor}>{event.target}" if event.hit else ""
        return replace(state, pending=waiting, struck=None)
    if isinstance(event, ev.Damage):
        off = armour_off(fight, state, event)
        if off is None or not event.source:
            return cleared(state)
        hit = f"{event.source}>{event.target}"
        return replace(state, pending="", last_hit={**state.last_hit, hit: True},
                       struck=(event.target, event.source, max(event.amount - off, 0)))
    if isinstance(event, ev.Roll):  # an attack's dice stand between it and its damage
        return state if state.struck is None else replace(state, struck=None)
    return cleared(state)


def cleared(state: State) -> State:
    if not state.pending and state.struck is None:
        return state  # the usual case: nothing new made
    return replace(state, pending="", struck=None)


def wound_of_hit(fight: Fight, event: ev.Event, wound_at: int) -> list[ev.Event]:
    """AO-11: the hit just entered as damage alone dealt 6 or more net (the ruleset file's
    `wound_at`): a wound."""
    struck = units.state(fight).struck
    if not isinstance(event, ev.Damage) or struck is None:
        return []
    target, source, amount = struck
    if amount < wound_at:
        return []
    return [ao.Wound(round=event.round, target=target, by=source)]


# -- what the hit form shows ---------------------------------------------------------------


def hit_fields(fight: Fight, wound_at: int, now: str | None) -> tuple[Field, ...]:
    """What a hit will do, shown in the hit form before it is confirmed: for each unit it
    may hit, the armour taken off and the damage that wounds (`wound_at`: the ruleset
    file's). A display, its value never read (the target is the form's own field); it
    opens where the target field does, on the first foe of `now`, the unit whose turn it
    is."""
    options = tuple((hit_text(fight, cid, wound_at), cid) for cid in fight.roster
                    if fight.alive(cid))
    return (Field("armour", "armour · wound (AO-11)", "choice", first_foe(fight, now),
                  options=options),)


def hit_text(fight: Fight, cid: str, wound_at: int) -> str:
    """What a hit on `cid` does (AO-11): its armour comes off, and from what it wounds."""
    armour = stats.armor(fight.roster[cid])
    return f"{fight.roster[cid].name}: {armour} off, {wound_at + armour}+ wounds"


def first_foe(fight: Fight, now: str | None) -> str | None:
    """The first living foe of `now`, the unit whose turn it is."""
    side = fight.roster[now].side if now else None
    return next((cid for cid, c in fight.roster.items()
                 if c.side != side and fight.alive(cid)), None)


# -- a wound by hand -----------------------------------------------------------------------


def effects(fatal_bonus: int) -> tuple[tuple[str, str], ...]:
    return (("plain wound", ""),
            (f"fatal: a 4 on a d4 adds {fatal_bonus} damage", "fatal"),
            ("slowing: −2 movement, −1 Agility", "slowing"),
            ("weakening: −1 Strength, −1 BA", "weakening"),
            ("disrupting: −1 Accuracy, −3 this round", "disrupting"))


def wound_form(fight: Fight, actor: str | None, now: str | None,
               fatal_bonus: int) -> Form:
    """Who is wounded (the unit under the cursor), the aimed effect the wound carries, who
    dealt it (`now`, the unit whose turn it is, if a foe of the wounded) and a fatal
    wound's d4 (`fatal_bonus`: the ruleset file's)."""
    living = tuple((c.name, cid) for cid, c in fight.roster.items() if fight.alive(cid))
    ids = [cid for _, cid in living]
    target = actor if actor in ids else (ids[0] if ids else None)
    now = now or ""
    by = now if now in ids and target and foes(fight, now, target) else ""
    return Form("A wound by hand (AO-11)", (
        Field("target", "who is wounded", "choice", target, required=True, options=living),
        Field("effect", "aimed effect", "choice", "", options=effects(fatal_bonus)),
        Field("by", "dealt by", "choice", by, options=(NOBODY,) + living),
        FATAL_FIELD))


def foes(fight: Fight, one: str, other: str) -> bool:
    return fight.roster[one].side != fight.roster[other].side


def run_wound(fight: Fight, values: Mapping[str, Any], rng: random.Random,
              fatal_bonus: int) -> list[ev.Event]:
    """The wound (its effect checked like any: an aimed one needs its dealer's hit), and
    a fatal wound's d4 with the damage a 4 adds (`fatal_bonus`; no armour stops it)."""
    round_ = max(fight.round, 1)
    target = str(values.get("target") or "")
    if target not in fight.roster:
        raise IllegalEvent("who is wounded? Pick a unit", ("target",))
    if not fight.alive(target):
        raise IllegalEvent(f"{fight.roster[target].name} is dead", ("target",))
    effect = str(values.get("effect") or "") or None
    by = str(values.get("by") or "") or None
    typed = values.get("fatal")
    if typed not in (None, "") and effect != "fatal":
        raise IllegalEvent("only a fatal wound rolls the fatal d4 (AO-11)", ("fatal",))
    out: list[ev.Event] = [ao.Wound(round=round_, target=target, effect=effect, by=by)]
    if effect == "fatal":
        out += fatal(fight, target, by, typed, rng, fatal_bonus)
    return out


def fatal(fight: Fight, target: str, by: str | None, typed: Any, rng: random.Random,
          bonus: int) -> list[ev.Event]:
    """AO-11: a fatal wound's ¼ chance (a 4 on a d4) of its bonus damage."""
    round_ = max(fight.round, 1)
    try:
        value, roll = dice("d4", typed_ints(typed, "fatal d4"), rng,
                           f"fatal wound: 4 adds {bonus} (AO-11)", by or "", round_)
    except IllegalEvent as error:
        raise IllegalEvent(error.reason, ("fatal",)) from None
    roll = replace(roll, actor=by)
    if value != 4:
        return [roll]
    dealer = f" by {fight.roster[by].name}" if by in fight.roster else ""
    return [roll, ev.Damage(round=round_, target=target, amount=bonus,
                            note=f"fatal wound{dealer}: d4 4 adds {bonus} (AO-11)")]
