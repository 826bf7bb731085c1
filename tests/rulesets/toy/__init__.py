"""toy: the smallest ruleset that uses every part of the port, living only in the tests:
each role a few lines.

Combatants have a `speed`; each declares `act` (key x); the plan puts the fastest first
(TOY-1); a `shout` command logs an event of its own and counts it in the ruleset's own
state (TOY-2), shown in its own tracker column.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.events import event_field
from referee.engine.options import Acting, Declaring
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.port import Ruleset
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.engine.roles import Fold, Planner, RosterSchema, Tracker
from referee.engine.specs import Act, ActionKind, Cell, Column, Field, Form
from referee.engine.view import Fight

RULES = {"TOY-1": "plan: fastest first", "TOY-2": "apply: shouts counted; the shout command"}


@record(frozen=True)
class Shout(ev.Event):
    TYPE = "shout"
    actor: str = event_field("str!", "")
    text: str = event_field("str!", "")


@record(frozen=True)
class State:
    shouts: dict[str, int]


class ToySchema(RosterSchema[State]):
    def combatant_fields(self) -> tuple[Field, ...]:
        return (Field("speed", "speed", "int", 0, help="higher acts first (TOY-1)"),)

    def events(self) -> tuple[type[ev.Event], ...]:
        return (Shout,)

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        if isinstance(event, Shout) and event.actor not in fight.roster:
            raise IllegalEvent(f"unknown combatant {event.actor!r}", ("actor",))


class ToyFold(Fold[State]):
    def start(self, fight: Fight) -> State:
        return State({})

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, Shout):
            return State({**state.shouts, event.actor: state.shouts.get(event.actor, 0) + 1})
        return state


class ToyPlanner(Planner[State]):
    rs: Toy

    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(self.rs.id, round_, [])
        sign = -1 if self.rs.order == "fast-first" else 1
        declared = sorted(fight.declared(round_), key=lambda item: (
            sign * int(fight.roster[item[1].actor].stat("speed", 0)),
            fight.roster_index(item[1].actor)))
        for index, decl in declared:
            speed = fight.roster[decl.actor].stat("speed", 0)
            plan.beats.append(Beat([PlannedAction(decl.actor, decl.action, declared=index)],
                                   ["TOY-1"], [f"speed {speed}"], {"speed": speed}))
        return plan


class ToyTracker(Tracker[State]):
    def columns(self) -> tuple[Column, ...]:
        return (Column("hp", "hp"), Column("speed", "speed"), Column("shouts", "shouts"))

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        cells = super().cells(fight, cid)
        state = self.state(fight)
        cells["speed"] = Cell(str(fight.roster[cid].stat("speed", 0)))
        cells["shouts"] = Cell(str(state.shouts.get(cid, 0)), "good")
        return cells

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        return {"shouts": dict(state.shouts)}

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        if isinstance(event, Shout):
            return f"{fight.roster[event.actor].name} shouts: {event.text}"
        return None


class ToyDeclaring(Declaring[State]):
    def actions(self) -> list[ActionKind]:
        return [ActionKind("act", "act", ("target",), "x")]


class ToyActs(Acting[State]):
    def acts(self, fight: Fight) -> list[Act]:
        return [Act("shout", "Shout", "y", "the selected combatant shouts (TOY-2)",
                    needs_actor=True, form=shout_form, run=shout)]


def shout_form(fight: Fight, actor: str | None) -> Form:
    return Form("Shout", (Field("text", "what", default="Huzzah!", required=True),))


def shout(fight: Fight, actor: str | None, values: Mapping[str, Any],
          rng: random.Random) -> list[ev.Event]:
    if actor is None:
        raise IllegalEvent("select who shouts")
    return [Shout(round=max(fight.round, 1), actor=actor, text=values["text"])]


class Toy(Ruleset[State]):
    id = "toy"
    ROLES = (ToySchema, ToyFold, ToyPlanner, ToyTracker, ToyDeclaring, ToyActs)

    def read(self, f: Fields) -> None:
        self.order = f.str("order", "fast-first")
        if self.order not in ("fast-first", "slow-first"):
            from referee.engine.errors import FormatError

            raise FormatError(f"expected fast-first or slow-first, found {self.order!r}",
                              ("order",))

    def switches(self) -> list[str]:
        return [f"order: {self.order} (TOY-1)"]


RULESET = Toy
