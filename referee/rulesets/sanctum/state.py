"""sanctum's part of the fold, as every role reads it."""

from __future__ import annotations

from referee.engine.record import field, record
from referee.hints import TYPE_CHECKING

from .seeded import Opening

if TYPE_CHECKING:
    from typing import Any, cast

    from referee.engine.view import Fight
else:
    from referee.hints import Any, cast


@record(frozen=True)
class State:
    """sanctum's part of the fold."""

    pairs: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # turn ->
    started: dict[int, int] = field(default_factory=dict)  # turn -> pairs begun (or skipped)
    seeds: dict[int, int] = field(default_factory=dict)  # turn -> the seed of its draws
    current: tuple[str, ...] = ()  # the combat under way: (first, second)
    promoted: dict[str, int] = field(default_factory=dict)  # recruit -> turn of its kill
    ends: dict[int, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    # The turn's start as the fold last saw it, before its first step (SA-11): its steps
    # are worked out from it once, and every step logged is held to them. Taken again at
    # each event until the turn's first step (cheap: no simulation), kept from then on.
    # Not compared: it is worked out from the fight, a cache of what the log already says.
    opening: Opening | None = field(default=None, compare=False)
    logged: int = 0  # the steps of the opening's turn logged so far


def counted(state: State, logged: int) -> State:
    """`state` with one more step logged: its fields copied, not passed through a call
    (once a step, and a long turn logs hundreds)."""
    out: State = object.__new__(State)
    out.__dict__.update(state.__dict__, logged=logged)
    return out


def state_of(fight: Fight) -> State:
    """sanctum's state as the fight's fold has it now (held untyped there)."""
    return cast(State, fight.rs)
