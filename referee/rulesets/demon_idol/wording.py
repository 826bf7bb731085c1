"""How demon-idol says a combatant's or a side's name (an id no longer in the roster as
it is), and how a beat's reasons say a name's possessive, a casting or usage time with its
declaration delay, and when that delay changed a comparison (DI-16)."""

from __future__ import annotations

from referee.engine.words import counted
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.engine.view import Fight

    from .items import Item


def name(fight: Fight, cid: str | None) -> str:
    combatant = fight.roster.get(cid or "")
    return combatant.name if combatant else (cid or "")


def side_or_name(fight: Fight, ident: str) -> str:
    side = fight.encounter.side(ident)
    return side.name if side else name(fight, ident)


def segments(count: int) -> str:
    return counted(count, "segment")


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def timed(item: Item) -> str:
    """A casting or usage time as the plan shows it: with its declaration delay (DI-16)."""
    if not item.delay:
        return str(item.cast_time())
    return f"{item.base_time()} + {item.delay} delay = {item.cast_time()}"


def delayed(undelayed: str, how: str) -> tuple[str, ...]:
    """DI-16 beside the rule when a declaration delay changed the comparison."""
    return ("DI-16",) if undelayed != how else ()
