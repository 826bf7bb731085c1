"""What a count-up combatant takes out of a fight into the next: its Wound Points as they
stand (CU-7, CU-8: the body's damage). Its Stress is back to full: stamina and vital
energy "especially during combat" (the source, CU-7), which the rules do not say lasts
past it; the message that writes the party says so."""

from __future__ import annotations

from typing import Any

from referee.engine.fight import Fight
from referee.engine.options import Carrying

from .fold import State


class CountUpCarrying(Carrying[State]):
    # said when the party is written: what the next fight does not inherit, and why
    LEFT = ("Stress: back to full, as the fight's stamina (CU-7; the rules leave its "
            "recovery open: set stress in the party file to carry it)",)

    def carried(self, fight: Fight, cid: str) -> dict[str, Any]:
        return {"wounds": fight.status[cid].marks["wounds"]}
