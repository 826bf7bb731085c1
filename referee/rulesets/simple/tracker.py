"""What the tracker, the status line and the log show of a `simple` fight: each row's
initiative and the roster keys the file names (SI-9)."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.roles import Tracker
from referee.engine.specs import Cell, Column
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import standing
from .events import Initiative, Tie
from .settings import Settled
from .standing import State

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.port import Ruleset
else:
    from referee.hints import Any


class SimpleTracker(Settled[State], Tracker[State]):
    def __init__(self, rs: Ruleset[State]) -> None:
        super().__init__(rs)
        # hit points, the initiative and the roster keys the file names: made once
        keys = tuple(Column(k, k, width=6, fold=1) for k in self.settings.columns)
        self._columns = (Column("hp", "hp"), Column("init", "init", width=6), *keys)

    def columns(self) -> tuple[Column, ...]:
        return self._columns

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        s = self.settings
        cells = super().cells(fight, cid)
        rolls, _ = standing.rolls_for(s, fight, max(fight.round, 1))
        who = cid if s.mode == "combatant" else fight.roster[cid].side
        if who in rolls:
            cells["init"] = Cell(str(standing.score(s, fight, who, rolls[who]).total),
                                 "strong")
        else:
            cells["init"] = Cell("—", "dim")
        combatant = fight.roster[cid]
        for key in s.columns:
            cells[key] = Cell(str(combatant.stat(key, 0)))
        return cells

    def phase_word(self, fight: Fight) -> str:
        if fight.ended:
            return fight.phase
        if standing.missing(self.settings, fight):
            return "initiative"
        return "tie to re-roll" if standing.open_ties(self.settings, fight) else "resolution"

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        rolls, rerolls = standing.rolls_for(self.settings, fight, max(fight.round, 1))
        return {"rolls": rolls, "rerolls": {w: list(v) for w, v in rerolls.items()}}

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        s = self.settings
        if isinstance(event, Initiative):
            parts = [f"{standing.name_of(fight, w)} {standing.score(s, fight, w, r).told()}"
                     for w, r in event.rolls.items()]
            return f"initiative ({s.die}): {', '.join(parts)}"
        if isinstance(event, Tie):
            parts = [f"{standing.name_of(fight, w)} {r}" for w, r in event.rolls.items()]
            return f"tie re-rolled ({s.die}, SI-6): {', '.join(parts)}"
        return None
