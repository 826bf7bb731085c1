"""phases' tracker view: its columns and cells, a unit's state in its own words, the
status line, the notices and the log lines (views.py works them out)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine import roles
from referee.engine.fight import Fight
from referee.engine.specs import Cell, Column

from . import views
from .standing import out_of_fight
from .state import State

if TYPE_CHECKING:
    from .ruleset import Phases


class Tracker(roles.Tracker[State]):
    rs: Phases

    def columns(self) -> tuple[Column, ...]:
        return views.COLUMNS

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        return views.cells(fight, cid)

    def state_word(self, fight: Fight, cid: str) -> str:
        status = fight.status[cid]
        if status.dead or status.hp <= 0:
            return "croaked"
        side = fight.roster[cid].side
        if side in self.state(fight).surrendered:
            return "surrendered"
        how = out_of_fight(fight, cid)
        if how:
            return how  # fled, removed (PH-21)
        names = views.statuses_now(fight, cid, views.now_run(fight, cid)[0])
        for word in ("incapacitated", "immobilized", "stunned", "calm"):
            if word in names:
                return word
        return ""

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        out.update(views.facts(fight, cid))
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        log = state.now
        return {"phases": list(log.order), "surrendered": list(state.surrendered),
                "squads": {sid: {"leader": s.leader, "members": list(s.members),
                                 "tactic": s.order.tactic, "target": s.order.target}
                           for sid, s in state.squads.items()}}

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # the phase it is at is a part of its own

    def status_parts(self, fight: Fight) -> list[str]:
        return views.status_parts(fight)

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        state = self.state(fight)
        return [("Surrender (PH-10)", f"{views.side_name(fight, side)} surrenders: every "
                 "unit calm, incapacitated or croaked") for side in state.surrendered]

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return views.tell(fight, event)
