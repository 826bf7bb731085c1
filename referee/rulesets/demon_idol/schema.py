"""What a demon-idol save holds beyond the core's: its roster keys (stats.py), its own
events (events.py), and its checks of them (checks.py)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Declaring
from referee.engine.roles import RosterSchema, by_class, checks_only
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import checks, ranges, stats
from . import events as di
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class DemonIdolSchema(Settled[State], RosterSchema[State]):
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
        check = CHECKS.get(type(event))
        if check is not None:
            check(self, fight, event)


# -- each event's own check: one per event class ------------------------------------------


def check_declare(schema: DemonIdolSchema, fight: Fight, event: di.Declare) -> None:
    quiet = schema.__dict__.get("_quiet")
    if quiet is None:
        quiet = quiet_actions(schema)
    if event.action in quiet and event.__dict__.keys() <= checks.PLAIN:
        return  # a long log's usual declaration: nothing below can refuse it
    RosterSchema.check_event(schema, fight, event)  # an action of its letters
    if event.__dict__.keys() <= checks.PLAIN:  # a long log's usual declaration: the
        checks.check_plain(schema.settings.role_of, fight, event)  # rest at its defaults
        return
    ranges.check_fields(event, ranges.DECLARE, ())
    checks.check_declare(schema.settings.role_of, fight, event)


def quiet_actions(schema: DemonIdolSchema) -> frozenset[str]:
    """The actions whose declaration, of the plain fields alone (`checks.PLAIN`), no
    check of `check_declare` refuses: the catalogue's (`RosterSchema.check_event`) but a
    D's (`checks.check_plain`). Worked out once: the catalogue and the letters come from
    the ruleset file."""
    declaring = schema.rs._declaring  # (the catalogue's check, as check_event asks it)
    kinds = declaring.action_keys() if isinstance(declaring, Declaring) else []
    role_of = schema.settings.role_of
    found = frozenset(a for a in kinds if a in role_of and role_of[a] != "discharge")
    schema.__dict__["_quiet"] = found
    return found


def check_initiative(schema: DemonIdolSchema, fight: Fight, event: di.Initiative) -> None:
    checks.check_initiative(schema.settings.die, fight, event)


def check_surprise(schema: DemonIdolSchema, fight: Fight, event: di.Surprise) -> None:
    ranges.check({"segments": event.segments}, ranges.SURPRISE, ())


def check_fire(schema: DemonIdolSchema, fight: Fight, event: di.Fire) -> None:
    if not any(getattr(d, "prepared", False) and d.actor == event.actor
               for _, d in fight.declared(event.round)):
        raise IllegalEvent(f"{event.actor} has no prepared action in round "
                           f"{event.round}", ("actor",))


def check_spell_lost(schema: DemonIdolSchema, fight: Fight, event: di.SpellLost) -> None:
    if event.actor not in fight.roster:
        raise IllegalEvent(f"unknown combatant {event.actor!r}", ("actor",))


# Keyed by the event's own class (the core's declare, initiative and surprise are read as
# demon-idol's: only those are checked here, as before)
CHECKS: dict[type[ev.Event], Callable[[DemonIdolSchema, Fight, Any], None]] = {
    di.Declare: check_declare,
    di.Initiative: check_initiative,
    di.Surprise: check_surprise,
    di.Fire: check_fire,
    ev.Damage: checks.check_damage,
    di.SpellLost: check_spell_lost,
}
# its check says something of these classes alone: the fold asks it of no other event
checks_only(*CHECKS)(DemonIdolSchema.check_event)
by_class(CHECKS, bound=True)(DemonIdolSchema.check_event)  # and it only looks them up
