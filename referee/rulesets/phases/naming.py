"""How phases names units and sides in the plan's whys, the tracker and the log: a long
list of units cut short, a side by its name."""

from __future__ import annotations

from referee.engine.view import Fight

from .manoeuvres import name

NAMES_SHOWN = 6


def names(fight: Fight, ids: list[str]) -> str:
    shown = [name(fight, cid) for cid in ids[:NAMES_SHOWN]]
    more = len(ids) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def side_name(fight: Fight, side: str) -> str:
    found = fight.encounter.side(side)
    return found.name if found else side
