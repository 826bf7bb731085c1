"""demon-idol's part of the fold (state.py): spells lost, preparations fired, who fell
when (DI-21), the surprise (DI-17), the morale checks (DI-18), and the recovery turn at
the end (DI-20); what the rules add after an event is in consequences.py."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.options import Ending
from referee.engine.record import replace
from referee.engine.roles import Fold, by_class
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as di
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class DemonIdolFold(Settled[State], Fold[State]):
    SHAPING = Fold.SHAPING | {"fire", "spell_lost", "surprise", "morale"}

    def start(self, fight: Fight) -> State:
        return State({}, {}, {}, {})  # one fallen from the start has no moment: it never acts

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        step = STEPS.get(type(event))  # one lookup: the fold of a long save runs it for each
        return state if step is None else step(fight, state, event)

    def steps(self, kind: type[ev.Event]) -> bool:
        return kind in STEPS

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        from .consequences import after

        return after(self.settings, fight, event)

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        from .consequences import end_of_round

        return end_of_round(self.settings, fight)


# -- what each of its events does to the state: one step per event class -------------------


def spell_lost(fight: Fight, state: State, event: di.SpellLost) -> State:
    return replace(state, lost_spells={**state.lost_spells, (event.round, event.actor): event})


def fire(fight: Fight, state: State, event: di.Fire) -> State:
    return replace(state, fired={**state.fired, (event.round, event.actor): event})


def surprise(fight: Fight, state: State, event: ev.Surprise) -> State:
    return replace(state, surprise=event)  # DI-17


def morale(fight: Fight, state: State, event: ev.Morale) -> State:
    """DI-18: a check kept in its round (due or rolled); one failed notes who broke."""
    checks = {**state.morale, event.round: state.morale.get(event.round, ()) + (event,)}
    if event.passed is not False:
        return replace(state, morale=checks)
    broke = dict.fromkeys(((event.round, cid) for cid in fight.members(event.group)),
                          event.avoid or "flee")
    return replace(state, morale=checks, broken={**state.broken, **broke})


def fell(fight: Fight, state: State, event: ev.Damage | ev.Heal | ev.Death) -> State:
    """The moment a combatant first falls (to 0 hit points or below, or dead) is kept
    until healing stands it up again: DI-21 lets it act in that beat alone."""
    target = event.target
    status = fight.status[target]
    down = status.dead or status.hp <= 0
    if down and target not in state.fell:
        done = frozenset(fight.resolved.get(event.round, ()))
        beat = event.beat if isinstance(event, ev.Damage) else None
        return replace(state, fell={**state.fell, target: (event.round, beat, done)})
    if not down and target in state.fell:
        return replace(state, fell={k: v for k, v in state.fell.items() if k != target})
    return state


# Keyed by the event's own class: the core's surprise and demon-idol's (a log reads
# demon-idol's; the core's stands in a fight made in code), the core's damage, heal and death
STEPS: dict[type[ev.Event], Callable[[Fight, State, Any], State]] = {
    di.SpellLost: spell_lost,
    di.Fire: fire,
    ev.Damage: fell,
    ev.Heal: fell,
    ev.Death: fell,
    ev.Surprise: surprise,
    di.Surprise: surprise,
    ev.Morale: morale,
}
by_class(STEPS)(DemonIdolFold.apply)  # its apply only looks its step up: the fold calls it


class DemonIdolEnding(Ending[State]):
    """DI-20: the end leaves the fight in its recovery turn (the phase says so)."""

    PHASE = "recovery"
