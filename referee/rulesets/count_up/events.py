"""count-up's own events: its declarations, base initiative, latecomers, critical hits and
injuries; and the surprise and the morale check, which demon-idol takes too."""

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
class Damage(ev.Damage):
    """CU-7: a critical hit deals its damage times the `weapon`'s `multiplier`; `amount`
    is what was dealt (the multiplied damage), so the log says what the target took."""

    weapon: str | None = f("str")
    multiplier: int | None = f("int")


@record(frozen=True)
class Heal(ev.Heal):
    """CU-8: healing that came with a Heal check: the `check` rolled against `tn`, 10 +
    the target's largest wound then; it stabilises (`stabilize`) when it meets the TN."""

    check: int | None = f("int")
    tn: int | None = f("int")


@record(frozen=True)
class Injury(ev.Event):
    """CU-9: the d% after a critical hit by `source`, and its verdict: at or under the
    `damage` dealt, a combat injury from the table's row the d20 (`roll`) names; over it,
    none (`injury` blank). Older saves have neither `chance` nor `damage`."""

    TYPE = "injury"
    target: str = f("str!", "")
    roll: int | None = f("int")
    injury: str = f("str", "")
    table: str | None = f("str")
    chance: int | None = f("int")
    damage: int | None = f("int0")
    source: str | None = f("str")


# with the surprise (CU-1) and the morale check (CU-6), which demon-idol takes too
EVENTS: tuple[type[ev.Event], ...] = (Declare, Initiative, Join, Damage, Heal, Injury,
                                      ev.Surprise, ev.Morale)
