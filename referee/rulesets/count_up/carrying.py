"""What a count-up combatant takes out of a fight into the next: its Wound Points as they
stand (CU-7, CU-8: the body's damage). Its Stress is the fight's stamina and vital energy
"especially during combat" (the source, CU-7), and the rules leave open whether it lasts
past it: asked when the party is written (`carry_stress`), back to full unless the
referee says to carry it as it stands; the message that writes the party says which."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from referee.engine.options import Carrying
from referee.engine.specs import Field
from referee.engine.view import Fight

from .fold import State

# asked when the party is written; unasked (`referee party` without --carry-stress): no,
# Stress back to full
CARRY_STRESS = Field(
    "carry_stress", "carry Stress (default no)", "bool", False,
    help="carry Stress as it stands: the fight's stamina (CU-7), whose recovery the rules "
         "leave open; no (the default) writes it back to full, yes as the fight left it")


class CountUpCarrying(Carrying[State]):
    QUESTIONS: ClassVar[tuple[Field, ...]] = (CARRY_STRESS,)  # the same every fight

    def questions(self, fight: Fight) -> tuple[Field, ...]:
        return self.QUESTIONS

    def carried(self, fight: Fight, cid: str, answers: Mapping[str, Any]) -> dict[str, Any]:
        marks = fight.status[cid].marks
        out = {"wounds": marks["wounds"]}
        if answers.get(CARRY_STRESS.name) is True:
            out["stress"] = marks["stress"]
        return out

    def left(self, fight: Fight, answers: Mapping[str, Any]) -> list[str]:
        if answers.get(CARRY_STRESS.name) is True:
            return []
        return ["Stress: back to full (carry Stress: no, the default; CU-7 leaves its "
                "recovery open)"]
