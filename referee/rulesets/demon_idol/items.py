"""One declared action (or one routine of it) as the demon-idol scheduler moves it."""

from __future__ import annotations

from operator import attrgetter

from referee.engine.model import Combatant, Weapon
from referee.engine.plan import PlannedAction
from referee.hints import TYPE_CHECKING

from . import stats
from .events import Declare

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class Item:
    """Built once per plan: what the rules ask of an item most often (its side, delay,
    whether it is a first routine, a missile, a casting, what overrides its initiative)
    is worked out here, once, rather than on every look. Only `number` changes one after
    (a single blow that DMG-66 gives more blows becomes routine 1)."""

    __slots__ = ("index", "decl", "actor", "rank", "letter", "role", "routine", "replaced",
                 "arm", "side", "delay", "first", "missile", "casting", "place", "override",
                 "timed", "action", "factor")

    def __init__(self, index: int, decl: Declare, actor: Combatant, rank: int, letter: str,
                 role: str, routine: int | None = None, replaced: str | None = None,
                 arm: Weapon | None = None, word: str | None = None) -> None:
        self.index = index  # the declaration's position in the log
        self.decl = decl
        self.actor = actor
        self.rank = rank  # roster position: orders actions inside a beat
        self.letter = letter
        self.role = role
        self.routine = routine
        self.replaced = replaced  # the letter a failed morale check replaced (DI-18)
        self.arm = arm  # the weapon it uses (see `weapon_of`), worked out once
        self.side: str = actor.side
        self.delay: int = decl.delay
        self.first: bool = routine is None or routine == 1
        discharge = role == "discharge"
        # a missile weapon, or one thrown: loosed alike (DI-6, DI-7, DI-9)
        self.missile: bool = discharge and arm is not None and stats.discharged(arm)
        # a spell or device: what damage can interrupt and DI-9/10/12 move
        self.casting: bool = discharge and (decl.spell is not None or decl.device is not None
                                            or decl.usage_time is not None)
        self.place: tuple[int, int] = (rank, routine or 0)  # its order inside a beat
        # `word`: the routine's own initiative or timing (a declaration's `routines`)
        self.override = initiative_override(decl, actor, arm, word)
        self.timed: str | None = word if word in TIMING else None  # its own place
        self.action: PlannedAction | None = None  # `to_action`, made once (immutable)
        # its weapon's speed factor (`factor_of`: None without a weapon or a factor)
        self.factor: int | None = stats.speed_factor(arm) if arm is not None else None

    def __repr__(self) -> str:
        return (f"Item(index={self.index!r}, actor={self.actor.id!r}, letter={self.letter!r}, "
                f"routine={self.routine!r})")

    def weapon(self) -> Weapon | None:
        return self.arm

    def number(self, routine: int) -> None:
        """Make this single blow routine `routine` (see the class); the board re-keys it."""
        self.routine = routine
        self.place = (self.rank, routine)
        self.action = None

    def twin(self) -> Item:
        """A copy to plan with: a plan's items are its own (`number` changes one), while
        what they were worked out from is kept from plan to plan (`order.expander`)."""
        twin: Item = _new(Item)
        twin.index, twin.decl, twin.actor, twin.rank = self.index, self.decl, self.actor, self.rank
        twin.letter, twin.role, twin.routine = self.letter, self.role, self.routine
        twin.replaced, twin.arm, twin.side, twin.delay = (self.replaced, self.arm, self.side,
                                                          self.delay)
        twin.first, twin.missile, twin.casting = self.first, self.missile, self.casting
        twin.place, twin.override, twin.timed = self.place, self.override, self.timed
        twin.action, twin.factor = self.action, self.factor
        return twin

    @property
    def is_device(self) -> bool:
        return self.decl.device is not None or self.decl.usage_time is not None

    def base_time(self) -> int:
        """Casting or usage time, before any declaration delay."""
        if self.decl.spell is not None:
            spell = self.actor.spell(self.decl.spell)
            time = stats.casting_time(spell) if spell is not None else None
            return time if time is not None else 1
        if self.decl.usage_time is not None:
            return self.decl.usage_time
        time = stats.device_time(self.actor, self.decl.device or "")
        return time if time is not None else 1

    def cast_time(self) -> int:
        """Casting or usage time, plus any declaration delay (DI-16)."""
        return self.base_time() + self.delay

    def to_action(self) -> PlannedAction:
        """The planned action: made once an item (a kept item's twins share it)."""
        action = self.action
        if action is None:
            action = self.action = self._action()
        return action

    def _action(self) -> PlannedAction:
        extra: tuple[tuple[str, Any], ...] = ()
        if self.replaced:
            extra = (("replaces", self.replaced),)
        if self.decl.prepared:
            extra += (("prepared", True),)
        if self.override is not None and self.timed is None:
            extra += (("initiative", self.override),)
        if self.timed is not None:
            extra += (("timing", self.timed),)
        if self.decl.shots and self.routine is not None and self.routine <= len(self.decl.shots):
            extra += (("target", self.decl.shots[self.routine - 1]),)
        # PlannedAction(actor, letter, routine, None, index, extra), filled without the
        # call: a big round plans thousands (tests check it is what the class builds)
        action: PlannedAction = _new(PlannedAction)
        fields = action.__dict__
        fields["actor"] = self.actor.id
        fields["action"] = self.letter
        fields["routine"] = self.routine
        fields["turn"] = None
        fields["declared"] = self.index
        fields["extra"] = extra
        return action


_new = object.__new__

# a sort key: an item's order inside a beat (roster order, then routine)
by_place = attrgetter("place")


def factor_of(item: Item) -> int | None:
    """The speed factor of the item's weapon (None: no weapon, or none given)."""
    return item.factor


INITIATIVE = {"haste": "wins", "speed": "wins", "slow": "loses"}
# a routine's timing, as an item or a spell gives it: wins, keeps its side's, loses (DI-3)
TIMING = {"first": "wins", "normal": None, "last": "loses"}
# what each word does to the side's initiative
WORDS = {**INITIATIVE, "first": "wins", "last": "loses"}


def initiative_override(decl: Declare, actor: Combatant, arm: Weapon | None,
                        word: str | None = None) -> str | None:
    """What overrides the side's initiative for this action: the routine's own word, else
    the declaration's, else a weapon of speed, else the actor hasted or slowed (None:
    nothing)."""
    if word is not None:
        return None if word == "normal" else word  # normal: the side's, whatever it holds
    if decl.initiative is not None:
        return decl.initiative
    if arm is not None and stats.of_speed(arm):
        return "speed"
    return stats.hasted(actor)


def weapon_of(decl: Declare, actor: Combatant, role: str) -> Weapon | None:
    """The weapon named, else (for anything but a D) the first melee weapon, else the
    first of any."""
    if decl.weapon is not None:
        return actor.weapon(decl.weapon)
    if role == "discharge":
        return None
    for weapon in actor.weapons:
        if not stats.missile(weapon):
            return weapon
    return actor.weapons[0] if actor.weapons else None
