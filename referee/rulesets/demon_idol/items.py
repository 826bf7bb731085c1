"""One declared action (or one routine of it) as the demon-idol scheduler moves it."""

from __future__ import annotations

from typing import Any

from referee.engine.model import Combatant, Weapon
from referee.engine.plan import PlannedAction
from referee.engine.record import record

from . import stats
from .events import Declare


@record(frozen=True, eq=False)
class Item:
    index: int  # the declaration's position in the log
    decl: Declare
    actor: Combatant
    rank: int  # roster position: orders actions inside a beat
    letter: str
    role: str
    routine: int | None = None
    replaced: str | None = None  # the letter a failed morale check replaced (DI-18)
    arm: Weapon | None = None  # the weapon it uses (see `weapon_of`), worked out once

    @property
    def side(self) -> str:
        return self.actor.side

    @property
    def delay(self) -> int:
        return self.decl.delay

    @property
    def first(self) -> bool:
        return self.routine in (None, 1)

    def weapon(self) -> Weapon | None:
        return self.arm

    @property
    def missile(self) -> bool:
        return self.role == "discharge" and self.arm is not None and stats.missile(self.arm)

    @property
    def casting(self) -> bool:
        """A spell or device: what damage can interrupt and DI-9/10/12 move."""
        return self.role == "discharge" and (self.decl.spell is not None or self.is_device)

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
        extra: list[tuple[str, Any]] = []
        if self.replaced:
            extra.append(("replaces", self.replaced))
        if self.decl.prepared:
            extra.append(("prepared", True))
        return PlannedAction(self.actor.id, self.letter, self.routine, None, self.index,
                             tuple(extra))


def weapon_of(decl: Declare, actor: Combatant, role: str) -> Weapon | None:
    """The weapon named, else (for anything but a D) the first melee weapon, else the
    first of any."""
    if decl.weapon is not None:
        return actor.weapon(decl.weapon)
    if role == "discharge":
        return None
    melee = [w for w in actor.weapons if not stats.missile(w)]
    return melee[0] if melee else (actor.weapons[0] if actor.weapons else None)
