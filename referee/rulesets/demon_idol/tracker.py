"""What the tracker, the status line and the log show of a demon-idol fight: hit points
toned by how bad they are, the state words (a spell lost among them), the side dice, and
the log lines of its own events (log_lines.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from referee.engine import events as ev
from referee.engine.roles import Tracker
from referee.engine.specs import Cell
from referee.engine.view import Fight

from .state import State


class DemonIdolTracker(Tracker[State]):
    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return _teller()(fight, event)

    def status_parts(self, fight: Fight) -> list[str]:
        if fight.ended:  # the recovery turn (DI-20) rolls no dice: room for "over"
            return []
        initiative = fight.initiatives.get(max(fight.round, 1))
        rolls = getattr(initiative, "rolls", None)
        if not rolls:
            return []
        return ["dice " + ", ".join(f"{k} {v}" for k, v in rolls.items())]

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        tone = "bad" if status.hp < 0 else "warn" if status.hp * 2 < status.max_hp else ""
        return {"hp": Cell(f"{status.hp}/{status.max_hp}", tone)}

    def state_word(self, fight: Fight, cid: str) -> str:
        word = self.rs.planner.can_act(fight, cid)
        if not word and (fight.round, cid) in self.state(fight).lost_spells:
            return "spell lost"
        return word

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        initiative = fight.initiatives.get(max(fight.round, 1))
        return {"dice": dict(getattr(initiative, "rolls", {}) or {})}


@cache
def _teller() -> Callable[[Fight, ev.Event], str | None]:
    """log_lines.py's `tell`, imported when the log is first told (`plan` needs it not),
    once: a replay tells every event of a long log."""
    from .log_lines import tell

    return tell
