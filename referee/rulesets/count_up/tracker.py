"""What the tracker, the status line and the log show of a count-up fight: Stress and
Wound Points (with the Heal check's TN while one is needed), combat injuries, the base
initiative rolled, morale checks due, and count-up's own log lines (log_lines.py)."""

from __future__ import annotations

from typing import Any, ClassVar

from referee.engine import events as ev
from referee.engine.roles import Tracker
from referee.engine.specs import Cell, Column
from referee.engine.view import Fight

from . import healing, log_lines, morale
from .conditions import condition
from .fold import State, base
from .settings import Settled


class CountUpTracker(Settled[State], Tracker[State]):
    # Stress and Wound Points, and the injuries: the same every fight
    COLUMNS: ClassVar[tuple[Column, ...]] = (
        Column("points", "stress/wounds"), Column("injuries", "injuries", 16, fold=4))

    def columns(self) -> tuple[Column, ...]:
        return self.COLUMNS

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        marks = status.marks
        tone = "bad" if marks["wounds"] < 0 else "warn" if marks["wounds"] == 0 else ""
        injuries = self.state(fight).injuries.get(cid, ())
        points = f"S{marks['stress']} W{marks['wounds']}/{status.max_hp}"
        if condition(fight.roster[cid], status) in ("incapacitated", "dying"):
            # what stabilises it (CU-8)
            points += f" TN{healing.tn_of(self.settings, fight, cid)}"
        return {"points": Cell(points, tone),
                "injuries": Cell(", ".join(i.split(":")[0] for i in injuries), "bad")}

    def state_word(self, fight: Fight, cid: str) -> str:
        word = condition(fight.roster[cid], fight.status[cid])
        return "" if word == "fine" else word

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        marks = fight.status[cid].marks
        out.update(stress=marks["stress"], wounds=marks["wounds"],
                   condition=condition(fight.roster[cid], fight.status[cid]),
                   injuries=list(self.state(fight).injuries.get(cid, ())))
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        return {"base": dict(base(fight)),
                "morale_due": [cid for cid, _ in morale.triggers(fight)]}

    def status_parts(self, fight: Fight) -> list[str]:
        # ended, none: the status line says the fight is over (the log and the plan say
        # initiative is wiped, CU-10), and a narrow one keeps room to say it
        rolled = base(fight)
        return [f"base initiative rolled for {len(rolled)}"] if rolled else []

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        return [("Morale check due (CU-6)",
                 f"{fight.roster[cid].name}: {why} — M rolls morale")
                for cid, why in morale.triggers(fight)]

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return log_lines.tell(self.settings, fight, event)
