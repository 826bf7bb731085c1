"""simple's events: initiative as rolled or typed, and a tie's re-roll."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.events import event_field
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


@record(frozen=True)
class Initiative(ev.Initiative):
    """SI-2: each side's (or combatant's) roll of the initiative die, before any modifier:
    the program's dice are in `dice`, a roll typed from real dice has none."""

    rolls: dict[str, int] = event_field("int_table", {})


@record(frozen=True)
class Tie(ev.Event):
    """SI-6: the tied roll again; `rolls` as in `Initiative`."""

    TYPE = "tie"
    rolls: dict[str, int] = event_field("int_table", {})
    dice: dict[str, Any] = event_field("table", {})


EVENTS: tuple[type[ev.Event], ...] = (Initiative, Tie)  # its own events, for the schema
