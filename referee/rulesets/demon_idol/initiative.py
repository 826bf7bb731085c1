"""demon-idol's initiative: a die per side each round (DI-2), rolled by the program or
typed from real dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.dice import roll as roll_dice
from referee.engine.options import Rolling
from referee.engine.specs import Field, Form
from referee.engine.view import Fight

from . import events as di
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    import random  # annotations only: a plan rolls nothing (start-up)


class DemonIdolInitiative(Settled[State], Rolling[State]):
    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        die = self.settings.die
        rolls, dice = {}, {}
        for side in fight.encounter.sides:
            result = roll_dice(f"d{die}", rng)
            rolls[side.id] = result.total
            dice[side.id] = result.to_dict()
        return [di.Initiative(round=max(fight.round, 1), rolls=rolls, dice=dice)]

    def initiative_form(self, fight: Fight) -> Form:
        fields = tuple(Field(s.id, s.name, "int", minimum=1, required=True)
                       for s in fight.encounter.sides)
        return Form(f"Initiative from real dice: a d{self.settings.die} per side", fields)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return [di.Initiative(round=max(fight.round, 1), rolls=dict(values))]
