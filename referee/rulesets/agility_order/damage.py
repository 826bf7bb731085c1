"""agility-order's damage form (the hit key): it shows, for each unit it may hit, the
armour taken off and the damage that wounds (AO-11; wounds.py works them out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.fight import Fight
from referee.engine.roles import Damage
from referee.engine.specs import Field

from . import wounds
from .state import State

if TYPE_CHECKING:
    from .ruleset import AgilityOrder


class AgilityDamage(Damage[State]):
    rs: AgilityOrder

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return wounds.hit_fields(self.rs, fight)
