"""simple's part of the fold: the initiative rolls and tie re-rolls by round."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.roles import Fold
from referee.engine.view import Fight

from .events import Initiative, Tie
from .standing import State


class SimpleFold(Fold[State]):
    SHAPING = Fold.SHAPING | {"tie"}

    def start(self, fight: Fight) -> State:
        return State({}, {})

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, Initiative):
            rolls = {**state.rolls, event.round: {**state.rolls.get(event.round, {}),
                                                  **event.rolls}}
            kept = {w: r for w, r in state.rerolls.get(event.round, {}).items()
                    if w not in event.rolls}  # a new roll starts its ties afresh
            return State(rolls, {**state.rerolls, event.round: kept})
        if isinstance(event, Tie):
            now = dict(state.rerolls.get(event.round, {}))
            for who, value in event.rolls.items():
                now[who] = (*now.get(who, ()), value)
            return State(state.rolls, {**state.rerolls, event.round: now})
        return state

    def steps(self, kind: type[ev.Event]) -> bool:
        return issubclass(kind, (Initiative, Tie))
