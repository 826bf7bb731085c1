"""What a phases save holds: its units' and sides' keys, its `[[squads]]`, its own events,
and the checks of both (the checks of its events are in checks.py)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine import roles
from referee.engine.errors import FormatError, IllegalEvent
from referee.engine.model import Encounter, Schemas
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import carrying, checks, limits, modifiers, outcomes, squads, stats
from . import events as ph
from .settings import Settings, Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

# phases' own events that move a fight on, refused once it has ended (as the core refuses
# its own): a status, damage or a surrender may still follow the end
MOVES_ON = (ph.Use, ph.Delay, ph.Order, ph.Regroup, ph.Manoeuvre)


class Schema(Settled[State], roles.RosterSchema[State]):
    GEAR = ()  # its units carry no weapons or spells

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def side_fields(self) -> tuple[Field, ...]:
        return stats.SIDE

    def encounter_fields(self) -> tuple[Field, ...]:
        return squads.ENCOUNTER

    def events(self) -> tuple[type[ev.Event], ...]:
        return ph.EVENTS

    @property
    def schemas(self) -> Schemas:
        found: Schemas | None = self.__dict__.get("_schemas")
        if found is None:
            found = Schemas(self)
            found.encounter = squads.EncounterSchema(self.encounter_fields(), self.rs.id)
            self.__dict__["_schemas"] = found
        return found

    def check_encounter(self, encounter: Encounter) -> None:
        for index, c in enumerate(encounter.combatants):  # numbers first: nothing huge is built
            limits.check_combatant(c, ("combatants", index))
        squads.check_squads(encounter, self.settings.limits)
        carrying.check(encounter.combatants, encounter.stats.get("squads", ()))
        for index, c in enumerate(encounter.combatants):
            modifiers.check(c, stats.modifiers(c), ("combatants", index, "modifiers"))
            traits = stats.traits(c)
            for number, trait in enumerate(traits):
                if trait.lower() not in stats.KNOWN_TRAITS:
                    raise FormatError(f"unknown trait {trait!r} (traits: "
                                      f"{', '.join(stats.TRAITS)})",
                                      ("combatants", index, "traits", number))

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        limits.check_event(fight, event)
        if fight.ended and isinstance(event, MOVES_ON):
            raise IllegalEvent("the fight is over: an undo (ctrl+z) takes the end back")
        check = CHECKS.get(type(event))
        if check is not None:
            check(self.settings, fight, event)


# -- each event's own check: one per event class ------------------------------------------


def acting(fight: Fight, event: ph.Use | ph.Delay | ph.Regroup | ph.Manoeuvre) -> None:
    """A unit's own event: a unit there, in a round not over."""
    if event.actor not in fight.roster:
        known = ", ".join(fight.roster)
        raise IllegalEvent(f"unknown combatant {event.actor!r} (combatants: {known})",
                           ("actor",))
    if event.round < fight.round:
        raise IllegalEvent(f"round {event.round} is over: the fight is in round "
                           f"{fight.round}", ("round",))


def use(s: Settings, fight: Fight, event: ph.Use) -> None:
    acting(fight, event)
    checks.check_use(fight, event, s.up)


def delay(s: Settings, fight: Fight, event: ph.Delay) -> None:
    acting(fight, event)
    checks.check_delay(fight, event, s.up)


def condition(s: Settings, fight: Fight, event: ph.Condition) -> None:
    checks.check_condition(fight, event, s.up)


def order(s: Settings, fight: Fight, event: ph.Order) -> None:
    checks.check_order(fight, event)


def regroup(s: Settings, fight: Fight, event: ph.Regroup) -> None:
    acting(fight, event)
    checks.check_regroup(fight, event, s.up, s.limits)


def manoeuvre(s: Settings, fight: Fight, event: ph.Manoeuvre) -> None:
    acting(fight, event)
    checks.check_manoeuvre(fight, event, s.up)


def decay(s: Settings, fight: Fight, event: ph.Decay) -> None:
    if event.target not in fight.roster:
        raise IllegalEvent(f"unknown combatant {event.target!r}", ("target",))


def damage(s: Settings, fight: Fight, event: ph.Damage) -> None:
    outcomes.check_subdue_damage(fight, event)


def surrender(s: Settings, fight: Fight, event: ph.Surrender) -> None:
    if event.side not in fight.side_ids():
        raise IllegalEvent(f"unknown side {event.side!r}", ("side",))


# Keyed by the event's own class, each given the house rules: the core's condition and
# damage are the core's to check
CHECKS: dict[type[ev.Event], Callable[[Settings, Fight, Any], None]] = {
    ph.Use: use,
    ph.Delay: delay,
    ph.Condition: condition,
    ph.Order: order,
    ph.Regroup: regroup,
    ph.Manoeuvre: manoeuvre,
    ph.Decay: decay,
    ph.Damage: damage,
    ph.Surrender: surrender,
}
