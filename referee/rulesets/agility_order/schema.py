"""What an agility-order save may hold: its units' numbers and weapons, its own events,
and the checks of both (the dice and numbers in checks.py, a turn's own in turns.py)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.errors import OVER, IllegalEvent
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.engine.words import counted
from referee.hints import TYPE_CHECKING

from . import checks, stats, turns, units
from . import events as ao
from .planner import Planned
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class AgilitySchema(Settled[State], Planned[State], RosterSchema[State]):
    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def weapon_fields(self) -> tuple[Field, ...]:
        return stats.WEAPON

    def events(self) -> tuple[type[ev.Event], ...]:
        return ao.EVENTS

    def check_encounter(self, encounter: Any) -> None:
        for index, c in enumerate(encounter.combatants):
            checks.numbers(c.stats, ("combatants", index))

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        checks.round_ahead(fight, event)
        for name in ("actor", "target", "after", "by"):
            cid = getattr(event, name, None)
            if isinstance(cid, str) and event.TYPE in (
                    "delay", "spend", "attack", "wound") and cid not in fight.roster:
                known = ", ".join(fight.roster)
                raise IllegalEvent(f"unknown combatant {cid!r} (combatants: {known})", (name,))
        check = CHECKS.get(type(event))
        if check is not None:
            check(self, fight, event)

    def _check_wound(self, fight: Fight, e: ao.Wound) -> None:
        if fight.ended and not dealt_with_it(fight, e):
            raise IllegalEvent(OVER, ("type",))  # a wound by hand moves the fight on
        if e.effect is not None and e.effect not in ao.EFFECTS:
            raise IllegalEvent(f"unknown effect {e.effect!r} (effects: "
                               f"{', '.join(ao.EFFECTS)})", ("effect",))
        if e.effect and e.by:
            hit = self.state(fight).last_hit.get(f"{e.by}>{e.target}")
            if hit is None:
                raise IllegalEvent(f"an aimed effect needs a hit: {e.by} has not attacked "
                                   f"{e.target} (AO-11)", ("effect",))
            if not hit:
                raise IllegalEvent(f"an aimed effect needs a hit: {e.by}'s attack on "
                                   f"{e.target} missed (AO-11)", ("effect",))

    def _check_summon(self, fight: Fight, c: Any) -> None:
        owner = stats.summoner(c)
        if not owner:
            return
        if owner not in fight.roster:
            raise IllegalEvent(f"unknown summoner {owner!r}", ("combatant", "summoner"))
        have = sum(1 for cid, o in fight.roster.items()
                   if stats.summoner(o) == owner and not units.dead(fight, cid)
                   and not units.gone(fight, cid))
        limit = stats.slots(fight.roster[owner])
        if have + 1 > limit:
            raise IllegalEvent(f"{owner} has no summoning slot left ({have} of {limit} "
                               "in use) (AO-14)", ("combatant", "summoner"))


def dealt_with_it(fight: Fight, e: ao.Wound) -> bool:
    """Whether the wound comes with the damage that dealt it, in one batch: a hit's own
    (the blow that ended the battle, AO-15, or damage the end still takes), never one
    entered by hand."""
    start = fight.batches[-1] if e.follows and fight.batches else len(fight.events)
    return any(isinstance(x, ev.Damage) and x.target == e.target
               for x in fight.events[start:])


# -- each event's own check: one per event class ------------------------------------------


def check_initiative(schema: AgilitySchema, fight: Fight, event: ao.Initiative) -> None:
    checks.ties(fight, event, schema.settings.tie_mode)


def check_delay(schema: AgilitySchema, fight: Fight, event: ao.Delay) -> None:
    turns.delay(schema.planner, fight, event)


def check_spend(schema: AgilitySchema, fight: Fight, event: ao.Spend) -> None:
    turns.spend(schema.planner, fight, event, schema.settings.movement)


def check_attack(schema: AgilitySchema, fight: Fight, event: ao.Attack) -> None:
    checks.attack_dice(fight, event, schema.settings.chain_dice)
    turns.attack(schema.planner, fight, event.actor, event.target, free=event.free,
                 extra=event.extra, granted=event.granted, round_=event.round)


def check_roll(schema: AgilitySchema, fight: Fight, event: ev.Roll) -> None:
    checks.roll_total(event)


def check_damage(schema: AgilitySchema, fight: Fight, event: ev.Damage) -> None:
    if event.source is not None and \
            schema.state(fight).pending == f"{event.source}>{event.target}":
        checks.attack_damage(fight, event, schema.settings.fatal_bonus)  # the attack's own damage


def check_wound(schema: AgilitySchema, fight: Fight, event: ao.Wound) -> None:
    schema._check_wound(fight, event)


def check_heal(schema: AgilitySchema, fight: Fight, event: ao.Heal) -> None:
    if event.wound is None:
        return
    had = len(schema.state(fight).wounds.get(event.target, ()))
    if event.wound > had:
        raise IllegalEvent(f"{event.target} has {counted(had, 'wound')}, not a wound "
                           f"{event.wound} to remove", ("wound",))


def check_join(schema: AgilitySchema, fight: Fight, event: ev.Join) -> None:
    if event.combatant is not None:
        checks.join(fight, event)
        schema._check_summon(fight, event.combatant)


# Keyed by the event's own class: a core heal removes no wound, and is not checked here
CHECKS: dict[type[ev.Event], Callable[[AgilitySchema, Fight, Any], None]] = {
    ao.Initiative: check_initiative,
    ao.Delay: check_delay,
    ao.Spend: check_spend,
    ao.Attack: check_attack,
    ev.Roll: check_roll,
    ev.Damage: check_damage,
    ao.Wound: check_wound,
    ao.Heal: check_heal,
    ev.Join: check_join,
}
