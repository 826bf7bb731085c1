"""The range the rules make sense in, for the numbers of demon-idol's own events and of
its ruleset file: a value outside is refused with its path (the file's line and field),
never planned. (The roster's numbers carry their range on their `Field`, stats.py.)"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.errors import FormatError, Path
from referee.hints import TYPE_CHECKING

from .stats import SEGMENTS

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

Ranges = Mapping[str, tuple[int, int]]

DECLARE: Ranges = {"usage_time": (0, SEGMENTS), "closing": (0, SEGMENTS),
                   "delay": (0, SEGMENTS), "segment": (1, 10), "distance": (0, 1000)}
SURPRISE: Ranges = {"segments": (0, 10)}  # no more than the round has
RULESET: Ranges = {"initiative_die": (2, 100), "death_at": (-1000, 0), "bleed": (0, 100)}


def check(values: Mapping[str, Any], ranges: Ranges, path: Path) -> None:
    """Each number of `values` that `ranges` bounds, inside its bounds."""
    for key, (low, high) in ranges.items():
        value = values.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool) \
                and not low <= value <= high:
            shown = f"{value:g}" if isinstance(value, float) else str(value)
            raise FormatError(f"{shown} is out of range ({low} to {high})", path + (key,))


def check_fields(event: Any, ranges: Ranges, path: Path) -> None:
    """`check` on an event's own fields, read where they are (a long log's declarations
    are checked as it loads: no table is built for each)."""
    for key, (low, high) in ranges.items():
        value = getattr(event, key)
        if value is not None and not low <= value <= high:
            check({key: value}, {key: (low, high)}, path)  # says so, as check does
