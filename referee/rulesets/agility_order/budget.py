"""A unit's budget now: the AA, MA and BA left in its turn (AO-4), its free hit slots
(AO-10) and grants (AO-9), its MP, and how far it moves (AO-5). Pure functions of the
fight."""

from __future__ import annotations

from referee.engine.view import Fight

from . import state as st
from . import stats
from .units import agility_now, bought, count, prone, state


def max_ba(fight: Fight, cid: str) -> int:
    return max(0, 2 - count(fight, cid, "weakening"))


def left(fight: Fight, cid: str, round_: int | None = None,
         later: bool = False) -> tuple[int, int, int]:
    """AA, MA, BA left in `cid`'s turn this round (or its next, `later`)."""
    now = state(fight)
    round_ = max(fight.round, 1) if round_ is None else round_
    if later or round_ > now.round:
        spent = now.owed.get(cid, st.NONE)
    else:
        spent = now.spent.get(cid, st.NONE)
    return (max(0, 1 - spent[0]), max(0, 1 - spent[1]),
            max(0, max_ba(fight, cid) - spent[2]))


def left_text(left: tuple[int, int, int]) -> str:
    parts = [p for p, n in (("AA", left[0]), ("MA", left[1])) if n]
    if left[2]:
        parts.append(f"{left[2]} BA")
    return ", ".join(parts) or "nothing"


def slots(fight: Fight, cid: str) -> int:
    """AO-10: free hit slots a round: Agility modifier + 1 (none at 0 or below)."""
    return max(0, agility_now(fight, cid) + 1)


def free_left(fight: Fight, cid: str) -> int:
    return max(0, slots(fight, cid) - state(fight).free_used.get(cid, 0))


def has_grant(fight: Fight, cid: str, target: str, kind: str) -> bool:
    return f"{kind}:{target}" in state(fight).grants.get(cid, ())


def mp_left(fight: Fight, cid: str) -> int | None:
    """The MP `cid` has left (None: it has no MP at all)."""
    mp = stats.max_mp(fight.roster[cid])
    return None if mp is None else mp - state(fight).mp_spent.get(cid, 0)


# -- movement (AO-5) -----------------------------------------------------------------------


def movement_of(movement: int, fight: Fight, cid: str, mode: str, more: int = 0,
                round_: int | None = None) -> int:
    """AO-5: the spaces `cid` may move this turn moving `mode` ("" normal), its base
    `movement` the ruleset file's: the additions and subtractions first (Athlete +2, each
    slowing wound −2, each "move 2 more spaces" BA bought, `more` such BAs still to buy),
    then the halving or the third, rounded down."""
    c = fight.roster[cid]
    adds = bought(fight, cid, round_)[3] + more
    spaces = movement + (2 if stats.has_feat(c, "Athlete") else 0) + 2 * adds
    spaces -= 2 * count(fight, cid, "slowing")
    spaces = max(spaces, 0)
    maneuver = stats.has_feat(c, "Maneuverer") and mode in ("sneaking", "swimming",
                                                            "tumbling")
    if mode in stats.SLOW and not maneuver:
        spaces //= 2
    if prone(fight, cid, round_):
        spaces //= 3
    return spaces


def more_spaces(movement: int, fight: Fight, cid: str,
                round_: int | None = None) -> int | None:
    """AO-5: how much further one more "move 2 more spaces" BA takes `cid` after its
    move this turn (added before the move's halving); None before the move, which
    then counts it in."""
    now = state(fight)
    mode = now.moved.get(cid) if round_ is None or round_ <= now.round else None
    if mode is None:
        return None
    return (movement_of(movement, fight, cid, mode, 1, round_)
            - movement_of(movement, fight, cid, mode, 0, round_))
