"""What a demon-idol save holds beyond the core's: its roster keys (stats.py), its own
events (events.py), and its checks of them (checks.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.fight import Fight
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field

from . import checks, ranges, stats
from . import events as di
from .state import State

if TYPE_CHECKING:
    from .ruleset import DemonIdol


class DemonIdolSchema(RosterSchema[State]):
    rs: DemonIdol

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def weapon_fields(self) -> tuple[Field, ...]:
        return stats.WEAPON

    def spell_fields(self) -> tuple[Field, ...]:
        return stats.SPELL

    def encounter_fields(self) -> tuple[Field, ...]:
        return stats.ENCOUNTER

    def events(self) -> tuple[type[ev.Event], ...]:
        return di.EVENTS

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        if isinstance(event, di.Declare):
            super().check_event(fight, event)  # an action of its letters
            ranges.check_fields(event, ranges.DECLARE, ())
            checks.check_declare(self.rs.settings.role_of, fight, event)
        elif isinstance(event, di.Initiative):
            checks.check_initiative(self.rs.settings.die, fight, event)
        elif isinstance(event, di.Surprise):
            ranges.check({"segments": event.segments}, ranges.SURPRISE, ())
        elif isinstance(event, di.Fire):
            if not any(getattr(d, "prepared", False) and d.actor == event.actor
                       for _, d in fight.declared(event.round)):
                raise IllegalEvent(f"{event.actor} has no prepared action in round "
                                   f"{event.round}", ("actor",))
        elif isinstance(event, ev.Damage):
            checks.check_damage(fight, event)
        elif isinstance(event, di.SpellLost) and event.actor not in fight.roster:
            raise IllegalEvent(f"unknown combatant {event.actor!r}", ("actor",))
