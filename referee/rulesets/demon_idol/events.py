"""demon-idol's own events: its declarations, side dice, surprise segments, spells lost
and prepared actions fired; and the morale check (DI-18), which count-up takes too."""

from __future__ import annotations

from operator import attrgetter

from referee.engine import events as ev
from referee.engine.events import event_field as f
from referee.engine.record import record
from referee.hints import TYPE_CHECKING


@record(frozen=True)
class Declare(ev.Declare):
    weapon: str | None = f("str")
    spell: str | None = f("str")
    device: str | None = f("str")
    usage_time: int | None = f("int0")
    turn: bool = f("bool", False)
    charge: bool = f("bool", False)
    closing: int | None = f("int0")
    prepared: bool = f("bool", False)
    trigger: str | None = f("str")
    delay: int = f("int0", 0)
    segment: int | None = f("int1")  # a surprise segment (DI-17)
    # this action alone wins ("haste", "speed": a weapon of speed) or loses ("slow") initiative
    initiative: str | None = f("str")
    shots: tuple[str, ...] = f("ids", ())  # a missile volley: one target per shot, in order
    distance: float | None = f("number0")  # inches (") an E covers: with `move`, its segments
    indoors: bool | None = f("bool")  # None: as the encounter says
    # a G's routines, one table each, in order: `weapon` (one of the actor's), and its own
    # `initiative` (as the declaration's); none: every routine with `weapon`
    routines: tuple[dict[str, str], ...] = f("tables", ())

    if TYPE_CHECKING:
        @property
        def step(self) -> int | None:
            """DI-17: the surprise segment it is declared for."""
    else:  # read without a Python call: the fold of a long log reads it twice a declaration
        step = property(attrgetter("segment"),
                        doc="DI-17: the surprise segment it is declared for.")


@record(frozen=True)
class Initiative(ev.Initiative):
    """DI-2: one die per side."""

    rolls: dict[str, int] = f("int_table", {})


@record(frozen=True)
class Surprise(ev.Surprise):
    segments: int = f("int0", 0)  # the surprising side's surprise segments (DI-17)


@record(frozen=True)
class SpellLost(ev.Event):
    TYPE = "spell_lost"
    ANNOUNCED = True
    actor: str = f("str!", "")
    spell: str | None = f("str")
    reason: str | None = f("str")


@record(frozen=True)
class Fire(ev.Event):
    """A prepared action's trigger happened (DI-14)."""

    TYPE = "fire"
    actor: str = f("str!", "")
    before: str | None = f("str")  # the actor whose action triggered it


EVENTS: tuple[type[ev.Event], ...] = (Declare, Initiative, Surprise, ev.Morale, SpellLost,
                                       Fire)
