"""demon-idol's acts beyond declaring: a prepared action fired (DI-14) and a morale check
(DI-18), each whole: when it is allowed, its form, its events."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Acting
from referee.engine.specs import Act, Field, Form
from referee.engine.view import Fight

from . import events as di
from . import prepared
from .state import State

if TYPE_CHECKING:
    import random  # annotations only: a plan rolls nothing (start-up)


def can_fire(fight: Fight, actor: str | None) -> str:
    """DI-14: only an action declared prepared this round can be fired."""
    ready = [d.actor for _, d in fight.declared(max(fight.round, 1))
             if isinstance(d, di.Declare) and d.prepared and d.actor in fight.roster]
    if actor in ready:
        return ""
    if actor in fight.roster:
        return f"{fight.roster[actor].name} has no prepared action this round (DI-14)"
    if not ready:
        return "nobody has a prepared action this round (DI-14)"
    names = ", ".join(fight.roster[cid].name for cid in dict.fromkeys(ready))
    return f"select who fires: prepared this round: {names} (DI-14)"


def fire_form(fight: Fight, actor: str | None) -> Form | None:
    return prepared.form(fight, actor) if actor is not None else None  # whom it fires before


def fire(fight: Fight, actor: str | None, values: Mapping[str, Any],
         rng: random.Random) -> list[ev.Event]:
    why = can_fire(fight, actor)
    if why or actor is None:
        raise IllegalEvent(why or "select who fires")
    return [di.Fire(round=max(fight.round, 1), actor=actor,
                    before=prepared.before(fight, actor, values))]


def morale_form(fight: Fight, actor: str | None) -> Form | None:
    """DI-18: the side (or the one combatant) checking, its roll and what it needed."""
    if actor is None:
        return None
    combatant = fight.roster[actor]
    side = fight.encounter.side(combatant.side)
    side_name = side.name if side else combatant.side
    fields = (
        Field("group", "who", "choice", combatant.side,
              options=((side_name, combatant.side), (combatant.name, actor))),
        Field("roll", "roll", "int"), Field("target", "needed", "int"),
        Field("passed", "result", "choice", None,
              options=(("due, not rolled", None), ("holds", True), ("breaks", False))),
        Field("avoid", "if it breaks", default="flee"),
    )
    return Form("Morale (DI-18)", fields, focus="roll")


def morale(fight: Fight, actor: str | None, values: Mapping[str, Any],
           rng: random.Random) -> list[ev.Event]:
    group = values.get("group") or (fight.roster[actor].side if actor in fight.roster else None)
    if group is None:
        raise IllegalEvent("select whose morale is checked")
    return [ev.Morale(round=max(fight.round, 1), group=(group,),
                      passed=values.get("passed"), roll=values.get("roll"),
                      target=values.get("target"), avoid=values.get("avoid"))]


ACTS = (
    Act("fire", "Fire prepared", "F", "a prepared action's trigger happened (DI-14)",
        show=False, needs_actor=True, allowed=can_fire, form=fire_form, run=fire),
    Act("morale", "Morale", "M", "a morale check due or its result (DI-18)", show=False,
        needs_actor=True, form=morale_form, run=morale),
)


class DemonIdolActs(Acting[State]):
    def acts(self, fight: Fight) -> list[Act]:
        return list(ACTS)
