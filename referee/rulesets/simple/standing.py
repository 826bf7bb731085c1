"""Where each roller stands in a round, worked out from the fold's rolls and the file's
settings: who rolls, their scores, the places they take and the ties still open. Pure
functions, shared by the planner, the tracker and the initiative role."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.record import record
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import order
from .settings import Settings

if TYPE_CHECKING:
    from typing import cast
else:
    from referee.hints import cast


@record(frozen=True)
class State:
    """The rolls by round (immutable: the fold returns a new state)."""

    rolls: Mapping[int, Mapping[str, int]]
    rerolls: Mapping[int, Mapping[str, tuple[int, ...]]]


def rolls_for(s: Settings, fight: Fight, round_: int) -> tuple[dict[str, int],
                                                                dict[str, tuple[int, ...]]]:
    """SI-4: the rolls in force in `round_`: that round's, or every roll so far when
    initiative is rolled once per fight (a latecomer's too)."""
    state = cast(State, fight.rs)
    if s.rolled == "each round":
        return dict(state.rolls.get(round_, {})), dict(state.rerolls.get(round_, {}))
    rolls: dict[str, int] = {}
    rerolls: dict[str, tuple[int, ...]] = {}
    for r in sorted(k for k in state.rolls if k <= round_):
        rolls.update(state.rolls[r])
    for r in sorted(k for k in state.rerolls if k <= round_):
        rerolls.update(state.rerolls[r])
    return rolls, rerolls


def who_rolls(s: Settings, fight: Fight) -> list[str]:
    """SI-1: each side with someone still standing, or each combatant not dead."""
    living = [cid for cid in fight.roster if not fight.status[cid].dead]
    if s.mode == "combatant":
        return living
    sides = {fight.roster[cid].side for cid in living}
    return [side.id for side in fight.encounter.sides if side.id in sides]


def name_of(fight: Fight, who: str) -> str:
    if who in fight.roster:
        return fight.roster[who].name
    side = fight.encounter.side(who)
    return side.name if side else who


def score(s: Settings, fight: Fight, who: str, roll: int) -> order.Score:
    """SI-2: the die as rolled, and the roster key the file adds."""
    key = s.modifier
    added = int(fight.roster[who].stat(key, 0)) if key and who in fight.roster else 0
    return order.Score(who, roll, added, key)


def tie_order(s: Settings, fight: Fight, who: str) -> tuple[int, ...]:
    """SI-7: the tie key, higher first, then a combatant of the players' side."""
    combatant = fight.roster.get(who)
    if combatant is None:
        return (0, 0)
    side = fight.encounter.side(combatant.side)
    players = bool(side and side.players)
    return (-int(combatant.stat(s.tie_key, 0)), 0 if players else 1)


def places(s: Settings, fight: Fight, round_: int) -> list[order.Place]:
    rolls, rerolls = rolls_for(s, fight, round_)
    scores = [score(s, fight, w, rolls[w]) for w in who_rolls(s, fight) if w in rolls]
    return order.ranked(s, scores, rerolls, lambda who: tie_order(s, fight, who))


def missing(s: Settings, fight: Fight) -> list[str]:
    rolls, _ = rolls_for(s, fight, max(fight.round, 1))
    return [w for w in who_rolls(s, fight) if w not in rolls]


def open_ties(s: Settings, fight: Fight) -> list[tuple[str, ...]]:
    return order.open_ties(places(s, fight, max(fight.round, 1)))
