"""What one fight works out once and keeps from event to event: its units' facts, their
rounds, its last plans and the tracker's groups.

A `Caches` is made with the fight's first state (`Fold.start`) and handed on by every
state folded from it, so it belongs to that one fight: an undo refolds from a checkpoint
of the same fight and goes on with it; a fight folded afresh (`Fight.copy`, `Fight.at`:
a report's worker, a replay, the trial in `Fold.after`) starts with its own. The
ruleset and its roles, shared by all of them and by a worker's thread, keep none. Within a fight an
undo may bring back another history, so each entry is checked against what it was
worked out from before it is used: by the identity of objects the entry holds (never by
an `id()`, which a collected object could hand on) or by value.
"""

from __future__ import annotations

from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.model import Combatant

    from .rounds import Unit
else:
    from referee.hints import Any


class Caches:
    """One fight's kept work (see the module's doc). `units`: cid -> (its combatant,
    its Unit); `runs`: cid -> (what its round was worked out from ..., the Run);
    `plans`: round -> the last plan's planner.Kept; `groups`: the tracker's groups and
    what they were worked out from."""

    __slots__ = ("units", "runs", "plans", "groups")

    def __init__(self) -> None:
        self.units: dict[str, tuple[Combatant, Unit]] = {}
        self.runs: dict[str, tuple[Any, ...]] = {}
        self.plans: dict[int, Any] = {}
        self.groups: tuple[Any, ...] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Caches:
        """A deep copy of a state starts with nothing kept: its objects are new, so no
        entry would be found for them (and a kept plan would copy the whole fight)."""
        return Caches()

    def __repr__(self) -> str:  # a State's repr shows it: not a thousand units
        return f"Caches({len(self.units)} units, {len(self.runs)} runs, {len(self.plans)} plans)"


__all__ = ["Caches"]
