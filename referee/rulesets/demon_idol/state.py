"""demon-idol's part of the fold, and how the package reads it off a fight (the engine
keeps it as the fight's `rs`: this package reads it through `state_of` alone)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.record import record

from . import events as di

if TYPE_CHECKING:
    from referee.engine.fight import Fight


@record(frozen=True)
class State:
    """demon-idol's part of the fold: spells lost, preparations fired, who fell when."""

    lost_spells: dict[tuple[int, str], di.SpellLost]
    fired: dict[tuple[int, str], di.Fire]
    # who broke (DI-18), by round: their avoidance replaces what they declared; kept
    # here, not only in the fold's morale checks, so a tracker row redraws when one breaks
    broken: dict[tuple[int, str], str]
    # who is down, dying or dead, since when: cid -> (round, the beat the blow named,
    # actions resolved then)
    fell: dict[str, tuple[int, int | None, frozenset[str]]]


def state_of(fight: Fight) -> State:
    """The fight's demon-idol state."""
    state: State = fight.rs
    return state
