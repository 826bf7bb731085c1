"""seventh: a ruleset of the tests in one file, as a seventh ruleset would be added: a
roster key, a planner, a tracker column and one declaration; no house rules, no acts,
no state of its own (every other role is the port's default).

Each combatant has a `nerve`; each declares `strike` (key s) at a target; the plan puts
the highest nerve first, and equal nerve acts in the same beat (SE-1).
"""

from __future__ import annotations

from referee.engine.options import Declaring
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.port import Ruleset
from referee.engine.roles import Planner, RosterSchema, Tracker
from referee.engine.specs import ActionKind, Cell, Column, Field
from referee.engine.view import Fight

RULES = {"SE-1": "plan: highest nerve first, equal nerve together"}


class SeventhSchema(RosterSchema[None]):
    def combatant_fields(self) -> tuple[Field, ...]:
        return (Field("nerve", "nerve", "int", 0, help="higher acts first (SE-1)"),)


class SeventhPlanner(Planner[None]):
    def plan(self, fight: Fight, round_: int) -> Plan:
        by_nerve: dict[int, list[PlannedAction]] = {}
        for index, decl in fight.declared(round_):
            nerve = int(fight.roster[decl.actor].stat("nerve", 0))
            by_nerve.setdefault(nerve, []).append(
                PlannedAction(decl.actor, decl.action, declared=index))
        return Plan(self.rs.id, round_, [
            Beat(actions, ["SE-1"], [f"nerve {nerve}"], {"nerve": nerve})
            for nerve, actions in sorted(by_nerve.items(), reverse=True)])


class SeventhTracker(Tracker[None]):
    def columns(self) -> tuple[Column, ...]:
        return (*super().columns(), Column("nerve", "nerve"))

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        return {**super().cells(fight, cid),
                "nerve": Cell(str(fight.roster[cid].stat("nerve", 0)))}


class SeventhDeclaring(Declaring[None]):
    def actions(self) -> list[ActionKind]:
        return [ActionKind("strike", "strike", ("target",), "s")]


class Seventh(Ruleset[None]):
    id = "seventh"
    ROLES = (SeventhSchema, SeventhPlanner, SeventhTracker, SeventhDeclaring)


RULESET = Seventh
