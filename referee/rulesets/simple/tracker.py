"""What the tracker, the status line and the log show of a `simple` fight: each row's
initiative and the roster keys the file names (SI-9)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.roles import Tracker
from referee.engine.specs import Cell, Column

from . import standing
from .events import Initiative, Tie
from .standing import State

if TYPE_CHECKING:
    from .ruleset import Simple


class SimpleTracker(Tracker[State]):
    rs: Simple

    def columns(self) -> tuple[Column, ...]:
        keys = tuple(Column(k, k, width=6, fold=1) for k in self.rs.settings.columns)
        return (Column("hp", "hp"), Column("init", "init", width=6), *keys)

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        s = self.rs.settings
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
        if standing.missing(self.rs.settings, fight):
            return "initiative"
        return "tie to re-roll" if standing.open_ties(self.rs.settings, fight) else "resolution"

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        rolls, rerolls = standing.rolls_for(self.rs.settings, fight, max(fight.round, 1))
        return {"rolls": rolls, "rerolls": {w: list(v) for w, v in rerolls.items()}}

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        s = self.rs.settings
        if isinstance(event, Initiative):
            parts = [f"{standing.name_of(fight, w)} {standing.score(s, fight, w, r).told()}"
                     for w, r in event.rolls.items()]
            return f"initiative ({s.die}): {', '.join(parts)}"
        if isinstance(event, Tie):
            parts = [f"{standing.name_of(fight, w)} {r}" for w, r in event.rolls.items()]
            return f"tie re-rolled ({s.die}, SI-6): {', '.join(parts)}"
        return None
