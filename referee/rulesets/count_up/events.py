"""count-up's own events: its declarations, base initiative, latecomers and injuries."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.events import event_field as f
from referee.engine.record import record


@record(frozen=True)
class Declare(ev.Declare):
    weapon: str | None = f("str")
    spell: str | None = f("str")
    modifier: int | None = f("int")  # overrides the action's initiative modifier


@record(frozen=True)
class Initiative(ev.Initiative):
    """CU-2: base initiative per combatant (or group), once per combat."""

    base: dict[str, int] = f("int_table", {})


@record(frozen=True)
class Join(ev.Join):
    at_count: int | None = f("int")  # the count the round had reached (CU-5)
    base: int | None = f("int")  # its base initiative


@record(frozen=True)
class Injury(ev.Event):
    """CU-9: a combat injury, from the table's row the d20 (`roll`) names; `chance` is the
    d% that was at or under the `damage` dealt (older saves have neither)."""

    TYPE = "injury"
    target: str = f("str!", "")
    roll: int | None = f("int")
    injury: str = f("str!", "")
    table: str | None = f("str")
    chance: int | None = f("int")
    damage: int | None = f("int0")


EVENTS: tuple[type[ev.Event], ...] = (Declare, Initiative, Join, Injury)
