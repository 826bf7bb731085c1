"""demon-idol's part of the fold, and how the package reads it off a fight (the engine
keeps it as the fight's `rs`: this package reads it through `state_of` alone)."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.record import field, record
from referee.hints import TYPE_CHECKING

from . import events as di

if TYPE_CHECKING:
    from typing import cast

    from referee.engine.view import Fight
else:
    from referee.hints import cast


@record(frozen=True)
class State:
    """demon-idol's part of the fold: spells lost, preparations fired, who fell when,
    the surprise and the morale checks."""

    lost_spells: dict[tuple[int, str], di.SpellLost]
    fired: dict[tuple[int, str], di.Fire]
    # who broke (DI-18), by round, as the side or group stood then: their avoidance
    # replaces what they declared (the tracker's word)
    broken: dict[tuple[int, str], str]
    # who is down, dying or dead, since when: cid -> (round, the beat the blow named,
    # actions resolved then)
    fell: dict[str, tuple[int, int | None, frozenset[str]]]
    # the fight's surprise, the last one logged: its segments and who is surprised (DI-17)
    surprise: ev.Surprise | None = None
    # the morale checks logged, due or rolled, by round, in log order (DI-18)
    morale: dict[int, tuple[ev.Morale, ...]] = field(default_factory=dict)


def state_of(fight: Fight) -> State:
    """The fight's demon-idol state."""
    return cast(State, fight.rs)
