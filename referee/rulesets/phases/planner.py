"""phases' planner: the plan of a round, phase by phase (views.py works it out), and who
can no longer act: a croaked unit, or one out of the fight (PH-21)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import roles
from referee.engine.fight import Fight
from referee.engine.plan import Plan

from . import views
from .standing import croaked, out_of_fight
from .state import State

if TYPE_CHECKING:
    from .ruleset import Phases


class Planner(roles.Planner[State]):
    rs: Phases

    def plan(self, fight: Fight, round_: int) -> Plan:
        """The round phase by phase; once the fight is over, what its last round had
        still to do never comes (views.ended)."""
        up = self.rs.direction == "up"
        plan = views.plan(fight, round_, up, self.rs.id)
        state = self.state(fight)
        if state.over and plan.round == state.over:
            return views.ended(fight, plan, state.over_at, up)
        return plan

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def can_act(self, fight: Fight, cid: str) -> str:
        if croaked(fight, cid):
            return "croaked"
        return out_of_fight(fight, cid)

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        """A unit out of the fight is not in the plan at all, neither gaining nor holding
        (PH-21), so no action of its waits to be skipped."""
        return plan
