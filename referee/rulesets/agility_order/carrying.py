"""What an agility-order unit takes out of a fight into the next: its conditions, less
prone (AO-6: standing up costs an action only in a fight; out of it a unit just stands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.options import Carrying
from referee.engine.view import Fight

from .state import State

ENDS_WITH_THE_FIGHT = frozenset({"prone"})


class AgilityCarrying(Carrying[State]):
    LEFT = ("prone: a unit stands up once the fight is over (AO-6)",)

    def carried(self, fight: Fight, cid: str, answers: Mapping[str, Any]) -> dict[str, Any]:
        conditions = fight.status[cid].conditions
        return {"conditions": {k: True if v is None else v for k, v in conditions.items()
                               if k not in ENDS_WITH_THE_FIGHT}}
