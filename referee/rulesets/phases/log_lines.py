"""What the log says of phases' events (its own, and the core's where phases tells them
its way: Fatigue, a phase resolved, the end of the fight)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import events as ev
from referee.engine.view import Fight

from . import events as ph
from . import outcomes, stats
from .manoeuvres import name
from .naming import side_name
from .rounds import WORD
from .standing import croaked, out_of_fight, runs
from .state import state_of


def tell(fight: Fight, event: ev.Event) -> str | None:
    """The log's line for `event` told phases' way; None: the core's line."""
    told = TELLS.get(type(event))
    return told(fight, event) if told is not None else None


def tell_use(fight: Fight, event: ph.Use) -> str:
    word = WORD.get(event.what, event.what)
    text = f"{name(fight, event.actor)} takes its {word} in phase {event.phase}"
    if event.engaged:
        text += ", ending beside an enemy (PH-5)"
    return text + (f": {event.note}" if event.note else "")


def tell_delay(fight: Fight, event: ph.Delay) -> str:
    kept = " and ".join(WORD.get(k, k) for k in event.keep)
    return f"{name(fight, event.actor)} delays its {kept} into round {event.round + 1} (PH-3)"


def tell_condition(fight: Fight, event: ph.Condition) -> str:
    when = f" from phase {event.phase}" if event.phase is not None else ""
    verb = "is" if event.on else "is no longer"
    word = "stunned" if event.name == "stun" else event.name
    return f"{name(fight, event.target)} {verb} {word}{when} (PH-10)"


def tell_order(fight: Fight, event: ph.Order) -> str:
    at = f" at ({', '.join(str(n) for n in event.at)})" if event.at else ""
    by = f" (from {name(fight, event.by)})" if event.by else ""
    return (f"squad {event.squad} ordered: {event.tactic}{at}, target "
            f"{event.target or 'any'}{by} (PH-9)")


def tell_regroup(fight: Fight, event: ph.Regroup) -> str:
    parts = []
    if event.join:
        parts.append(f"joins {event.join}")
    elif event.leave:
        parts.append("leaves its squad")
    if event.leader:
        parts.append(f"names {name(fight, event.leader)} leader")
    if event.modifiers is not None:
        parts.append("modifiers: " + (", ".join(event.modifiers) or "none"))
    return f"{name(fight, event.actor)} regroups (an Action, PH-12): " + (
        "; ".join(parts) or "no change")


def tell_decay(fight: Fight, event: ph.Decay) -> str:
    kind = "extended decay (as well as the normal)" if event.extended else "decay"
    return (f"{name(fight, event.target)} {kind}: -{event.combat} Combat, "
            f"-{event.defense} Defense, -{event.hits} Hits (PH-17)")


def tell_manoeuvre(fight: Fight, event: ph.Manoeuvre) -> str:
    targets = ", ".join(name(fight, t) for t in event.target)
    verdict = "succeeds" if event.success else "fails"
    cost = " (simultaneous: no Action, PH-6)" if event.simultaneous else ""
    kind = outcomes.LABELS.get(event.kind, event.kind)
    return (f"{name(fight, event.actor)}'s {kind} against {targets} {verdict}"
            f"{cost}" + (f": {event.result}" if event.result else ""))


def tell_surrender(fight: Fight, event: ph.Surrender) -> str:
    return (f"{side_name(fight, event.side)} surrenders: every unit calm, "
            "incapacitated or croaked (PH-10)")


def tell_end(fight: Fight, event: ev.End) -> str:
    """The fight is over: how each side stands (PH-10, PH-21), and what the units held
    lapses (PH-3: a delay keeps into the next round, and there is none)."""
    text = "the fight is over" + (f": {event.note}" if event.note else "")
    sides = "; ".join(side_at_end(fight, side.id) for side in fight.encounter.sides)
    now = runs(fight, state_of(fight).now.round, False)  # the round it ended in
    holding = sum(1 for run in now.values() if run.held or run.fresh & run.keep)
    lapse = f"; the delayed Moves and Actions of {holding} unit{'s' if holding != 1 else ''} " \
        "lapse (PH-3)" if holding else ""
    return f"{text} — {sides}{lapse}"


def side_at_end(fight: Fight, side: str) -> str:
    """"Harrowgate: 6 of 8 standing, 2 croaked", or "... surrendered (PH-10)"."""
    state = state_of(fight)
    name_ = side_name(fight, side)
    if side in state.surrendered:
        return f"{name_} surrendered (PH-10)"
    units = [cid for cid, c in fight.roster.items() if c.side == side]
    gone: dict[str, int] = {}
    for cid in units:
        how = "croaked" if croaked(fight, cid) else out_of_fight(fight, cid)
        if how:
            gone[how] = gone.get(how, 0) + 1
    standing = len(units) - sum(gone.values())
    return f"{name_}: {standing} of {len(units)} standing" + "".join(
        f", {count} {how}" for how, count in gone.items())


def tell_damage(fight: Fight, event: ev.Damage) -> str | None:
    """Fatigue dealt, or normal damage that turns the Fatigue a unit has into lost Hits
    (PH-14); other damage is the core's line."""
    status = fight.status.get(event.target)
    source = f" from {name(fight, event.source)}" if event.source else ""
    note = f" — {event.note}" if event.note else ""
    if getattr(event, "fatigue", False):
        return f"{name(fight, event.target)} takes {event.amount} Fatigue{source} (PH-14){note}"
    fatigue = status.marks.get("fatigue", 0) if status is not None else 0
    if not fatigue or status is None:
        return None
    hp = status.hp - event.amount - fatigue  # told before it is applied
    return (f"{name(fight, event.target)} takes {event.amount} damage{source} (hp {hp}/"
            f"{status.max_hp}): its {fatigue} Fatigue turns to lost Hits (PH-14){note}")


def tell_resolve(fight: Fight, event: ev.Resolve) -> str | None:
    """A phase done, by the units' names: "phase 3 resolved: the Move and Action of
    Ironfang 1, Ironfang 2" (its keys are `unit:move`, `unit:action`); a resolve of no
    actions is the core's line."""
    if not event.actions:
        return None
    kinds: dict[str, list[str]] = {}
    for key in event.actions:
        actor, _, kind = key.rpartition(":")
        kinds.setdefault(actor or key, []).append(WORD.get(kind, kind))
    roster = fight.roster  # a phase of a big battle resolves hundreds of units
    whose: dict[str, list[str]] = {}
    phases = set()
    for actor, words in kinds.items():
        c = roster.get(actor)
        whose.setdefault(" and ".join(words), []).append(c.name if c else actor)
        if c is not None:
            phases.add(stats.combat(c))
    where = f"phase {phases.pop()} resolved" if len(phases) == 1 else "resolved"
    return f"{where}: " + "; ".join(f"the {words} of {', '.join(who)}"
                                    for words, who in whose.items())


# Keyed by the event's own class (a subclass is listed itself: phases' Damage beside the
# core's); the core's condition is the core's line, phases' own condition (PH-10) is here.
TELLS: dict[type[ev.Event], Callable[[Fight, Any], str | None]] = {
    ph.Use: tell_use,
    ph.Delay: tell_delay,
    ph.Condition: tell_condition,
    ph.Order: tell_order,
    ph.Regroup: tell_regroup,
    ph.Decay: tell_decay,
    ph.Manoeuvre: tell_manoeuvre,
    ph.Surrender: tell_surrender,
    ev.Damage: tell_damage,
    ph.Damage: tell_damage,
    ev.Resolve: tell_resolve,
    ev.End: tell_end,
}
