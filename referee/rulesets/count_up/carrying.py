"""What a count-up combatant takes out of a fight into the next: its Stress and Wound
Points as they stand (CU-7, CU-8)."""

from __future__ import annotations

from typing import Any

from referee.engine.fight import Fight
from referee.engine.options import Carrying

from .fold import State


class CountUpCarrying(Carrying[State]):
    def carried(self, fight: Fight, cid: str) -> dict[str, Any]:
        marks = fight.status[cid].marks
        return {"stress": marks["stress"], "wounds": marks["wounds"]}
