"""phases' part of the fold (`State`), and what a new state's memo hands on (`carried`)."""

from __future__ import annotations

from referee.engine.record import field, record
from referee.hints import TYPE_CHECKING

from .caches import Caches
from .rounds import RoundLog
from .squads import Squad

if TYPE_CHECKING:
    from typing import Any, cast

    from referee.engine.view import Fight
else:
    from referee.hints import Any, cast


@record(frozen=True)
class State:
    """phases' part of the fold: this round as it began and its events, the rounds gone
    by, the squads as they stand, modifiers chosen in play, decay and surrenders."""

    now: RoundLog
    past: dict[int, RoundLog]
    squads: dict[str, Squad]
    member: dict[str, str]
    chosen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    decay: dict[str, tuple[int, int]] = field(default_factory=dict)
    surrendered: tuple[str, ...] = ()
    ordered: dict[str, tuple[int, int]] = field(default_factory=dict)  # squad -> round, rank
    dismounted: tuple[str, ...] = ()
    seq: int = 0
    memo: dict[Any, Any] = field(default_factory=dict, compare=False)
    # the units out of the fight (PH-21): the round each left it, and how (croaked, fled,
    # surrendered, removed)
    out: dict[str, tuple[int, str]] = field(default_factory=dict)
    bound: dict[str, str] = field(default_factory=dict)  # who takes no Action (PH-18)
    over: int = 0  # the round the fight ended in (0: not over): nothing is held or gained
    over_at: int = -1  # the phase (its index) that round was at when it ended
    # what the fight works out once and keeps (its units, their rounds, its plans, the
    # tracker's groups): made by `start`, handed on by every state folded from it, so
    # one fight's own and never the ruleset's, which fights and threads share
    caches: Caches = field(default_factory=Caches, compare=False)


def state_of(fight: Fight) -> State:
    """phases' state as the fight's fold has it now (held untyped there)."""
    return cast(State, fight.rs)


SINCE = "since"  # the memo's key for what `carried` hands on


def carried(state: State, *changed: str) -> dict[Any, Any]:
    """A new state's memo: empty, but for the runs of this round worked out for `state`
    (or handed on to it) and the units whose rounds changed since, so `runs` works out
    only those again. Only the latest runs are held, never a chain of states."""
    round_ = state.now.round
    runs = state.memo.get(("runs", round_))
    if runs is not None:
        return {SINCE: (state.now, runs, frozenset(changed))}
    since = state.memo.get(SINCE)
    if since is not None:
        return {SINCE: (since[0], since[1], since[2] | frozenset(changed))}
    return {}


__all__ = ["SINCE", "State", "carried", "state_of"]
