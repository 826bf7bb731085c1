"""count-up's acts beyond the core's: a morale roll for the selected combatant (CU-6)
and a critical injury after a critical hit (CU-9)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Acting
from referee.engine.specs import Act
from referee.engine.view import Fight

from . import injuries, morale
from .fold import State
from .settings import Settled


class CountUpActs(Settled[State], Acting[State]):
    def acts(self, fight: Fight) -> list[Act]:
        return [Act("morale", "Morale", "M", "roll morale for the selected combatant (CU-6)",
                    show=False, needs_actor=True, run=self._morale),
                Act("injury", "Critical injury", "J", "after a critical hit: d% against the "
                    "damage, then the injury table (CU-9)", show=False,
                    form=lambda fight, actor: injuries.injury_form(self.settings, fight,
                                                                   actor),
                    run=self._injury, after_end=True)]  # a critical dealt before the end

    def _morale(self, fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
        if actor is None:
            raise IllegalEvent("select the combatant whose morale is checked")
        return morale.roll_morale(self.settings, fight, actor, rng)

    def _injury(self, fight: Fight, actor: str | None, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
        """CU-9: d% at or under the damage dealt gives a Combat Injury from the table."""
        return injuries.roll_injury(self.settings, fight, values["target"],
                                    int(values["damage"]), values.get("damage_type") or "",
                                    rng, values.get("source"))
