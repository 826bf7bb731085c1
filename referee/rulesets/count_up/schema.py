"""What a count-up save holds: the keys it adds to the roster (stats.py), its own
events, and the checks of both: each number in its range (ranges.py) and each outcome
held to its dice (outcomes.py, morale.py, healing.py)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.errors import IllegalDeclaration, IllegalEvent
from referee.engine.model import Encounter
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as cu
from . import healing, morale, outcomes, ranges, stats
from .fold import State
from .settings import Settled

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class CountUpSchema(Settled[State], RosterSchema[State]):
    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def weapon_fields(self) -> tuple[Field, ...]:
        return stats.WEAPON

    def spell_fields(self) -> tuple[Field, ...]:
        return stats.SPELL

    def events(self) -> tuple[type[ev.Event], ...]:
        return cu.EVENTS

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        ranges.check_event(event, fight.round)
        check = CHECKS.get(type(event))
        if check is not None:
            check(self, fight, event)

    def check_encounter(self, encounter: Encounter) -> None:
        ranges.check_encounter(encounter)

    def _check_initiative(self, fight: Fight, e: cu.Initiative) -> None:
        groups = {stats.group(c) for c in fight.roster.values() if stats.group(c)}
        for cid in e.base:
            if cid not in fight.roster and cid not in groups:
                known = ", ".join(list(fight.roster) + sorted(groups))
                raise IllegalEvent(f"unknown combatant or group {cid!r} (known: {known})",
                                   ("base", cid))

    def _check_declare(self, fight: Fight, d: cu.Declare) -> None:
        adds = self.settings.kinds[d.action].adds
        if adds != "spell" and d.spell is not None:
            raise IllegalDeclaration(f"{d.action} takes no spell", ("spell",))
        if adds == "spell" and d.spell is None and d.modifier is None:
            raise IllegalDeclaration("cast names one of the actor's spells", ("spell",))


# -- each event's own check: one per event class ------------------------------------------


def check_initiative(schema: CountUpSchema, fight: Fight, event: cu.Initiative) -> None:
    schema._check_initiative(fight, event)
    outcomes.check_initiative(schema.settings, fight, event)


def check_declare(schema: CountUpSchema, fight: Fight, event: cu.Declare) -> None:
    schema._check_declare(fight, event)


def check_join(schema: CountUpSchema, fight: Fight, event: cu.Join) -> None:
    if event.base is None:
        raise IllegalEvent("a latecomer needs its base initiative (CU-5)", ("base",))


def check_injury(schema: CountUpSchema, fight: Fight, event: cu.Injury) -> None:
    if event.target not in fight.roster:
        raise IllegalEvent(f"unknown combatant {event.target!r}", ("target",))
    outcomes.check_injury(schema.settings, fight, event)


def check_roll(schema: CountUpSchema, fight: Fight, event: ev.Roll) -> None:
    outcomes.check_roll(event)


def check_damage(schema: CountUpSchema, fight: Fight, event: ev.Damage) -> None:
    outcomes.check_amount(fight, event)


def check_heal(schema: CountUpSchema, fight: Fight, event: ev.Heal) -> None:
    outcomes.check_amount(fight, event)
    healing.check_heal(schema.settings, fight, event)


def check_morale(schema: CountUpSchema, fight: Fight, event: ev.Morale) -> None:
    morale.check_morale(schema.settings, fight, event)


# Keyed by the event's own class: count-up's damage and healing as the core's (the core
# enters its own: a dying combatant's end-of-round damage)
CHECKS: dict[type[ev.Event], Callable[[CountUpSchema, Fight, Any], None]] = {
    cu.Initiative: check_initiative,
    cu.Declare: check_declare,
    cu.Join: check_join,
    cu.Injury: check_injury,
    ev.Roll: check_roll,
    ev.Damage: check_damage,
    cu.Damage: check_damage,
    ev.Heal: check_heal,
    cu.Heal: check_heal,
    ev.Morale: check_morale,
}
