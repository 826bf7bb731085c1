"""What a sanctum save holds: the minions' keys, the sides' standings, the groups, its
own events and their checks — every logged step the one the turn's seed gives (SA-11) —
and the groups set-up makes as minions name them."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent
from referee.engine.model import Combatant, Encounter
from referee.engine.options import Entries
from referee.engine.roles import RosterSchema
from referee.engine.specs import Field
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as se
from . import ranges, stats
from .fold import SanctumFold
from .seeded import check_step
from .state import State
from .turns import OVER

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class SanctumSchema(RosterSchema[State]):
    GEAR = ()  # its minions carry no weapons or spells: their attacks are roster keys

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def side_fields(self) -> tuple[Field, ...]:
        return stats.SIDE

    def encounter_fields(self) -> tuple[Field, ...]:
        return stats.ENCOUNTER

    def events(self) -> tuple[type[ev.Event], ...]:
        return se.EVENTS

    @property
    def reader(self) -> ev.EventReader:
        """The core's reader with the fields sanctum reads itself (events.py)."""
        found: ev.EventReader | None = self.__dict__.get("_reader")
        if found is None:
            from referee.engine.model import read_combatant

            schemas = self.schemas
            found = self.__dict__["_reader"] = se.Reader(
                ev.event_types(self.events()),
                lambda data, path: read_combatant(data, path, schemas))
        return found

    def check_encounter(self, encounter: Encounter) -> None:
        enc = encounter
        ranges.check_encounter(enc)
        sides = {s.id for s in enc.sides}
        leaders = [s.id for s in enc.sides if stats.standing(s) == "initiative"]
        if len(leaders) > 1:
            index = next(i for i, s in enumerate(enc.sides) if s.id == leaders[1])
            raise FormatError(f"only one player has initiative ({leaders[0]} and "
                              f"{leaders[1]} both do) (SA-1)", ("sides", index, "initiative"))
        groups: dict[str, str] = {}
        for index, group in enumerate(stats.groups(enc)):
            gid, side = str(group["id"]), str(group["side"])
            if gid in groups:
                raise FormatError(f"duplicate group {gid!r}", ("groups", index, "id"))
            if side not in sides:
                raise FormatError(f"unknown side {side!r} (sides: {', '.join(sorted(sides))})",
                                  ("groups", index, "side"))
            groups[gid] = side
        used: set[str] = set()
        for index, c in enumerate(enc.combatants):
            gid = stats.group(c)
            if gid not in groups:
                known = ", ".join(groups) or "none: add [[groups]]"
                raise FormatError(f"unknown group {gid!r} (groups: {known})",
                                  ("combatants", index, "group"))
            if groups[gid] != c.side:
                raise FormatError(f"{c.id} is on side {c.side} but in group {gid} of side "
                                  f"{groups[gid]}: a minion must be in a group of its own side",
                                  ("combatants", index, "group"))
            used.add(gid)
        for index, group in enumerate(stats.groups(enc)):
            if group["id"] not in used:
                raise FormatError(f"group {group['id']!r} has no minions",
                                  ("groups", index, "id"))

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        ranges.check_event(event, fight.round)
        check = CHECKS.get(type(event))
        if check is not None:
            check(self, fight, event)
        if fight.ended and (event.TYPE in se.STEPS or isinstance(event, se.Combats)):
            raise IllegalEvent(OVER, ("type",))  # an ended fight fights no more combats
        if event.TYPE in se.STEPS:
            self._check_step(fight, event)

    def _check_step(self, fight: Fight, event: ev.Event) -> None:
        """A step of a combat is the one the turn's seed gives there (SA-11): its draws
        and every outcome they decide (seeded.py)."""
        turn = fight.round
        if event.round < turn:
            raise IllegalEvent(f"turn {event.round} is over: the fight is in turn {turn}",
                               ("round",))
        if not self.state(fight).pairs.get(event.round):
            raise IllegalEvent(f"turn {event.round} lists no combats: a {event.TYPE!r} step "
                               "has no combat to belong to (SA-2)", ("type",))
        fold = self.rs.role(SanctumFold)  # the fold's turn opening and seed
        assert fold is not None  # sanctum's own, always there
        opening, done = fold.opening(fight)
        check_step(opening, done, fold.turn_seed(fight, None if done else event), event)

    def check_pairs(self, fight: Fight, event: se.Combats) -> None:
        if not event.pairs:
            raise IllegalEvent("a turn's combats list at least one pair of groups",
                               ("pairs",))
        if event.round < fight.round:
            raise IllegalEvent(f"turn {event.round} is over: the fight is in turn "
                               f"{fight.round}", ("round",))
        if event.round in self.state(fight).pairs:
            raise IllegalEvent(f"turn {event.round} already lists its combats", ("round",))
        for index, pair in enumerate(event.pairs):
            check_groups(fight, pair, "pairs", index)


def check_groups(fight: Fight, pair: tuple[str, ...], name: str,
                 index: int | None = None) -> None:
    where: tuple[str | int, ...] = (name,) if index is None else (name, index)
    sides = {str(g["id"]): str(g["side"]) for g in stats.groups(fight.encounter)}
    if len(pair) != 2:
        raise IllegalEvent("a combat is between two groups", where)
    for gid in pair:
        if gid not in sides:
            raise IllegalEvent(f"unknown group {gid!r} (groups: {', '.join(sides)})",
                               where)
    a, b = pair
    if sides[a] == sides[b]:
        raise IllegalEvent(f"{a} and {b} are not hostile: both are {sides[a]}'s groups "
                           "(SA-2)", where)


def check_attack(fight: Fight, event: se.Attack) -> None:
    for name in ("attacker", "victim"):
        cid = getattr(event, name)
        if cid not in fight.roster:
            raise IllegalEvent(f"unknown minion {cid!r}", (name,))
    if fight.status[event.victim].dead:
        raise IllegalEvent(f"{event.victim} is dead: it cannot be attacked", ("victim",))
    if fight.status[event.attacker].dead:
        raise IllegalEvent(f"{event.attacker} is dead: it cannot attack", ("attacker",))
    # hit or miss, damage, armor soaked, result and hit points: what the turn's seed
    # gives (SanctumSchema._check_step), never what a hand wrote


# -- each event's own check: one per event class ------------------------------------------


def combats(schema: SanctumSchema, fight: Fight, event: se.Combats) -> None:
    schema.check_pairs(fight, event)


def combat(schema: SanctumSchema, fight: Fight, event: se.Combat) -> None:
    check_groups(fight, event.groups, "groups")


def attack(schema: SanctumSchema, fight: Fight, event: se.Attack) -> None:
    check_attack(fight, event)


def victim(schema: SanctumSchema, fight: Fight, event: se.Victim) -> None:
    actor_known(schema, fight, event)
    if event.victim not in fight.roster:
        raise IllegalEvent(f"unknown minion {event.victim!r}", ("victim",))


def actor_known(schema: SanctumSchema, fight: Fight, event: se.Victim | se.Forfeit) -> None:
    """A victim's chooser, or a minion forfeiting its attacks, is a minion there."""
    if event.actor not in fight.roster:
        raise IllegalEvent(f"unknown minion {event.actor!r}", ("actor",))


# Keyed by the event's own class
CHECKS: dict[type[ev.Event], Callable[[SanctumSchema, Fight, Any], None]] = {
    se.Combats: combats,
    se.Combat: combat,
    se.Attack: attack,
    se.Victim: victim,
    se.Forfeit: actor_known,
}


class SanctumGroups(Entries[State]):
    """Set-up: a minion naming a group not there yet makes it, on the minion's side and
    the youngest (SA-1), so a roster can be set up from nothing."""

    def new_item(self, encounter: Encounter, key: str, item_id: str,
                 combatant: Combatant) -> dict[str, Any] | None:
        if key != "groups":
            return None
        created = [int(g["created"]) for g in stats.groups(encounter)]
        return {"id": item_id, "side": combatant.side, "created": max(created, default=0) + 1}
