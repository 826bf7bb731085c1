"""agility-order's initiative: nothing rolled each round (the lineup is by Agility, AO-1),
only the d20 tie rolls of tied units, kept for the battle, rolled with the `t` act or
typed from real dice (acts.py holds the act)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.options import Rolling
from referee.engine.specs import Form
from referee.engine.view import Fight

from . import acts
from .planner import Planned
from .settings import Settled
from .state import State


class AgilityInitiative(Settled[State], Planned[State], Rolling[State]):
    def initiative_due(self, fight: Fight) -> bool:
        return False  # ties are rolled with the `t` act; nothing waits for them

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        return acts.run_ties(self.settings, self.planner, fight, None, {}, rng)

    def initiative_form(self, fight: Fight) -> Form:
        return acts.ties_form(self.settings, self.planner, fight)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return acts.run_ties(self.settings, self.planner, fight, None, values, random.Random(0))
