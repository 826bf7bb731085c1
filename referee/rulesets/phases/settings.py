"""What a phases ruleset file sets: the way phases run (PH-1), a stack's and a horde's
most units (PH-7) and the decay of the Uncroaked (PH-17), each within its range."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import roles
from referee.engine.errors import FormatError
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

from . import limits

if TYPE_CHECKING:
    from typing import TypeVar
else:
    from referee.hints import TypeVar

S = TypeVar("S")


@record(frozen=True)
class Settings:
    direction: str  # "down" (the highest Combat first) or "up" (PH-1)
    limits: Mapping[str, int]  # "stack" and "horde": a squad's most units (PH-7)
    decay_every: int  # the extended decay comes every this many turns (PH-17)
    decay_hits: int  # the decay's Hits lost every turn
    extended_hits: int  # the extended decay's

    @property
    def up(self) -> bool:
        """Whether phases run up: the lowest Combat first (PH-1)."""
        return self.direction == "up"


def read(f: Fields) -> Settings:
    direction: str = f.str("phases_run", "down")
    if direction not in ("down", "up"):
        raise FormatError(f"expected down or up, found {direction!r}", ("phases_run",))
    sizes = {"stack": number(f, "stack_size", 8, 1, 99),
             "horde": number(f, "horde_size", 24, 1, 999)}
    return Settings(direction, sizes, number(f, "extended_decay_every", 3, 1, 99),
                    number(f, "decay_hits", 2, 0, 99),
                    number(f, "extended_decay_hits", 3, 0, 99))


def number(f: Fields, key: str, default: int, low: int, high: int) -> int:
    value: int = f.int(key, default, minimum=low)
    limits.within(value, low, high, (key,))
    return value


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings
