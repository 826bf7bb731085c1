"""A count-up latecomer joins with its base initiative, at the count the round has
reached (CU-5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.model import Combatant
from referee.engine.options import Joining
from referee.engine.specs import Field
from referee.engine.view import Fight

from . import events as cu
from .fold import State


class CountUpJoin(Joining[State]):
    # what a join asks beyond the combatant (the same for every fight)
    FIELDS: ClassVar[tuple[Field, ...]] = (
        Field("base", "base initiative", "int", required=True,
              help="its d12 - Agility (CU-5)"),
        Field("at_count", "count reached", "int",
              help="blank: the count the round is at now (CU-5)"))

    def join_fields(self, fight: Fight) -> tuple[Field, ...]:
        return self.FIELDS

    def join_event(self, fight: Fight, combatant: Combatant,
                   values: Mapping[str, Any]) -> ev.Event:
        at = values.get("at_count")
        return cu.Join(round=max(fight.round, 1), combatant=combatant, base=values.get("base"),
                       at_count=self.count_now(fight) if at is None else at)

    def count_now(self, fight: Fight) -> int:
        """The count the round has reached (CU-5): that of the last beat resolved; before
        any, just below the first count, so a latecomer acts this round if its count comes."""
        round_ = max(fight.round, 1)
        try:
            plan = self.rs.planner.plan(fight, round_)
        except RefereeError:
            return 0
        counts = [int(b.extra["count"]) for b in plan.beats]
        if not counts:
            return 0
        done = fight.resolved.get(round_, set())
        reached = [int(b.extra["count"]) for n, b in enumerate(plan.beats, 1)
                   if set(plan.keys(n)) <= done]
        return max(reached) if reached else min(counts) - 1
