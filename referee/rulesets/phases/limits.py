"""The range every number of a phases file makes sense in (issue 20): a number beyond it
is refused with the file, line and field, never walked through or built. A Combat of a
hundred million would be as many phases (PH-1), and an event a million rounds ahead a
million rounds worked out one by one."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent, Path
from referee.engine.model import Combatant
from referee.hints import TYPE_CHECKING

from .squads import COORDINATE
from .stats import RANGES

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

PHASE = (0, 99)  # a phase is a base Combat score (PH-2), and those stop at 99
AHEAD = 1  # an event may name the round after the fight's (an order for its start, PH-9)

# each event type's numbers and their ranges: (field, lowest, highest)
Numbers = tuple[tuple[str, int, int], ...]
EVENT_NUMBERS: dict[str, Numbers] = {
    "use": (("phase", *PHASE),),
    "regroup": (("phase", *PHASE),),
    "condition": (("phase", *PHASE), ("duration", 1, 99)),
    "manoeuvre": (("phase", *PHASE), ("defense", 0, 199), ("damage", 0, 9999)),  # +16
    "decay": (("combat", 0, 99), ("defense", 0, 99), ("hits", 0, 99)),
    "damage": (("amount", 0, 9999),),
    "heal": (("amount", 0, 9999),),
}


def out_of_range(value: int, low: int, high: int) -> str:
    return f"{value} is out of range ({low} to {high})"


def within(value: Any, low: int, high: int, path: Path, event: bool = False) -> None:
    """`value` (when it is a number) lies in low..high, or the file is refused."""
    if type(value) is int and not low <= value <= high:
        error = IllegalEvent if event else FormatError
        raise error(out_of_range(value, low, high), path)


HITS, MAX_HITS = RANGES["hp"], RANGES["max_hp"]


def check_combatant(c: Combatant, path: Path, event: bool = False) -> None:
    """A unit's numbers, each in its range (hits, Combat, Defense, level ...): one loop
    over its keys, as a big battle has a thousand units."""
    if not (HITS[0] <= c.hp <= HITS[1] and MAX_HITS[0] <= c.max_hp <= MAX_HITS[1]):
        within(c.hp, *HITS, path + ("hp",), event)
        within(c.max_hp, *MAX_HITS, path + ("max_hp",), event)
    ranges = RANGES
    for key, value in c.stats.items():
        if key in ranges:
            low, high = ranges[key]
            if type(value) is int and not low <= value <= high:
                within(value, low, high, path + (key,), event)


def check_event(fight: Any, event: ev.Event) -> None:
    """An event's round (at most one ahead of the fight) and its numbers: a look or two
    each, as a long log has tens of thousands."""
    if event.round > 1 + AHEAD and event.round > max(fight.round, 1) + AHEAD:
        limit = max(fight.round, 1) + AHEAD
        raise IllegalEvent(f"{out_of_range(event.round, 0, limit)}: the fight is in round "
                           f"{fight.round}, and an event is at most {AHEAD} round ahead",
                           ("round",))
    for name, low, high in EVENT_NUMBERS.get(event.TYPE, ()):
        value = getattr(event, name, None)
        if type(value) is int and not low <= value <= high:
            raise IllegalEvent(out_of_range(value, low, high), (name,))
    if event.TYPE == "order":
        for index, value in enumerate(getattr(event, "at", ())):
            within(value, *COORDINATE, ("at", index), event=True)
    elif event.TYPE == "join" and isinstance(event, ev.Join) and event.combatant is not None:
        check_combatant(event.combatant, ("combatant",), event=True)
