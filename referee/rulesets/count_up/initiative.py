"""count-up's initiative: base initiative, d12 - Agility, rolled once per combat (a group
of identical monsters shares one roll) and wiped when the fight ends (CU-2, CU-10)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.dice import roll as roll_dice
from referee.engine.options import Rolling
from referee.engine.specs import Field, Form
from referee.engine.view import Fight

from . import events as cu
from . import stats
from .fold import State, base
from .settings import Settled


class CountUpInitiative(Settled[State], Rolling[State]):
    def initiative_due(self, fight: Fight) -> bool:
        return not fight.ended and not base(fight)  # an ended fight rolls for none

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        base: dict[str, int] = {}
        dice: dict[str, Any] = {}
        for cid, combatant in fight.roster.items():
            who = stats.group(combatant) or cid
            if who in base:
                continue
            result = roll_dice(f"d{self.settings.die}", rng)
            base[who] = result.total - stats.agility(combatant)
            dice[who] = result.to_dict()
        return [cu.Initiative(round=max(fight.round, 1), base=base, dice=dice)]

    def initiative_form(self, fight: Fight) -> Form:
        groups: dict[str, str] = {}
        for cid, c in fight.roster.items():
            group = stats.group(c)
            groups.setdefault(group or cid, c.name if not group else f"{group} (group)")
        fields = tuple(Field(key, label, "int", required=True) for key, label in groups.items())
        return Form(f"Base initiative from real dice: d{self.settings.die} - Agility (CU-2)",
                    fields)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return [cu.Initiative(round=max(fight.round, 1), base=dict(values))]
