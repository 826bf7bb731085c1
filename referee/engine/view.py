"""What the roles read of a fight, below the fight itself: the combatants' `Status`
records and a ruleset's `Effects` (both made by the fold, never changed), and `Fight`,
the protocol of the fight's members that a ruleset's roles, the forms and the acts'
callbacks read. The fight (fight.py) fills it; nothing here imports the fight, so the
roles, the options and the port need not import it either.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.hints import TYPE_CHECKING

from . import events as ev
from .model import Combatant, Encounter
from .plan import Plan
from .record import field, record

if TYPE_CHECKING:
    from typing import Any, Protocol
else:
    from referee.hints import Any, Protocol


@record(frozen=True)
class Status:
    """What changes about a combatant as the fight goes on: a record the fold replaces,
    never changes (`changed` gives the new one; the ruleset's hooks return it). Its
    tables (`conditions`, `marks`) are never changed either: a new status gets new ones.
    So a checkpoint shares the records, and nothing may change one (a test folds every
    save holding them to it)."""

    hp: int
    max_hp: int
    conditions: dict[str, int | None] = field(default_factory=dict)
    dead: bool = False
    hp_at_round_start: int = 0
    marks: dict[str, Any] = field(default_factory=dict)  # the ruleset's own values

    def changed(self, **changes: Any) -> Status:
        """A new status with `changes` (give `conditions` or `marks` whole: new tables,
        never this one's changed)."""
        other: Status = object.__new__(Status)
        values = self.__dict__.copy()  # (a copy of a table is quicker than one built
        values.update(changes)  # from two: `{**a, **b}`)
        _put(other, "__dict__", values)  # field by field, not through __init__: hot
        return other


_put = object.__setattr__


@record(frozen=True)
class Effects:
    """What an event does to the fight by a ruleset's rules beyond the core's own step
    and the ruleset's state (`Fold.effects`): the new status of each combatant it changes,
    and the keys of the planned actions of the event's round it marks done."""

    status: Mapping[str, Status] = field(default_factory=dict)
    resolved: frozenset[str] = frozenset()


class Fight(Protocol):
    """What a ruleset's roles, the engine's forms and the acts' callbacks read of a
    fight (`fight.Fight` fills it): its state read through, its log, its queries."""

    @property
    def encounter(self) -> Encounter: ...
    @property
    def log(self) -> list[ev.Event]: ...
    @property
    def events(self) -> list[ev.Event]: ...
    @property
    def positions(self) -> list[int]: ...
    @property
    def batches(self) -> list[int]: ...
    @property
    def plan_revision(self) -> int: ...
    @property
    def roster(self) -> dict[str, Combatant]: ...
    @property
    def status(self) -> dict[str, Status]: ...
    @property
    def round(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def initiatives(self) -> dict[int, ev.Initiative]: ...
    @property
    def initiative_at(self) -> dict[int, int]: ...
    @property
    def declarations(self) -> dict[int, list[tuple[int, ev.Declare]]]: ...
    @property
    def joins(self) -> dict[str, tuple[int, ev.Join]]: ...
    @property
    def resolved(self) -> dict[int, set[str]]: ...
    @property
    def ended(self) -> bool: ...
    @property
    def rs(self) -> object: ...
    def copy(self) -> Fight: ...
    def push(self, event: ev.Event) -> None: ...
    def at(self, count: int) -> Fight: ...
    def plan(self, round_: int | None = None) -> Plan: ...
    def side_ids(self) -> set[str]: ...
    def alive(self, cid: str) -> bool: ...
    def declared(self, round_: int) -> list[tuple[int, ev.Declare]]: ...
    def roster_index(self, cid: str) -> int: ...
    def is_member(self, cid: str, ids: tuple[str, ...]) -> bool: ...
    def members(self, ids: tuple[str, ...]) -> list[str]: ...
    def own_declarations(self, e: ev.Declare) -> list[ev.Declare]: ...
