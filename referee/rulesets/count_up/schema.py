"""What a count-up save holds: the keys it adds to the roster (stats.py), its own
events, and the checks of both: each number in its range (ranges.py) and each outcome
held to its dice (outcomes.py, morale.py, healing.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.errors import IllegalDeclaration, IllegalEvent
from referee.engine.fight import Fight
from referee.engine.model import Encounter
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field

from . import events as cu
from . import healing, morale, outcomes, ranges, stats
from .fold import State

if TYPE_CHECKING:
    from .ruleset import CountUp


class CountUpSchema(RosterSchema[State]):
    rs: CountUp

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
        s = self.rs.settings
        ranges.check_event(event, fight.round)
        if isinstance(event, cu.Initiative):
            self._check_initiative(fight, event)
            outcomes.check_initiative(s, fight, event)
        elif isinstance(event, cu.Declare):
            self._check_declare(fight, event)
        elif isinstance(event, cu.Join) and event.base is None:
            raise IllegalEvent("a latecomer needs its base initiative (CU-5)", ("base",))
        elif isinstance(event, cu.Injury):
            if event.target not in fight.roster:
                raise IllegalEvent(f"unknown combatant {event.target!r}", ("target",))
            outcomes.check_injury(s, fight, event)
        elif isinstance(event, ev.Roll):
            outcomes.check_roll(event)
        elif isinstance(event, (ev.Damage, ev.Heal)):
            outcomes.check_amount(fight, event)
            if isinstance(event, ev.Heal):
                healing.check_heal(s, fight, event)
        elif isinstance(event, ev.Morale):
            morale.check_morale(s, fight, event)

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
        adds = self.rs.settings.kinds[d.action].adds
        if adds != "spell" and d.spell is not None:
            raise IllegalDeclaration(f"{d.action} takes no spell", ("spell",))
        if adds == "spell" and d.spell is None and d.modifier is None:
            raise IllegalDeclaration("cast names one of the actor's spells", ("spell",))
