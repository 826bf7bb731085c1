"""agility-order's damage form (the hit key): it shows, for each unit it may hit, the
armour taken off and the damage that wounds (AO-11; wounds.py works them out)."""

from __future__ import annotations

from referee.engine.roles import Damage
from referee.engine.specs import Field
from referee.engine.view import Fight

from . import wounds
from .planner import Planned
from .settings import Settled
from .state import State


class AgilityDamage(Settled[State], Planned[State], Damage[State]):
    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return wounds.hit_fields(fight, self.settings.wound_at, self.planner.turn(fight))
