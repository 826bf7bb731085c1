"""What the tracker, the status line and the log show of an agility-order fight: each
unit's Agility, what is left of its turn, its free hit slots and wounds; whose turn it
is; the free hits owed (log_lines.py tells the events)."""

from __future__ import annotations

from typing import Any, ClassVar

from referee.engine import events as ev
from referee.engine.roles import Tracker
from referee.engine.specs import Cell, Column
from referee.engine.view import Fight

from . import budget, log_lines, stats, units
from . import state as st
from .planner import Planned
from .settings import Settled
from .state import State


class AgilityTracker(Settled[State], Planned[State], Tracker[State]):
    # hit points, Agility, what is left of the turn, free hit slots, wounds: the same
    # every fight
    COLUMNS: ClassVar[tuple[Column, ...]] = (
        Column("hp", "hp"), Column("agi", "agi"), Column("left", "left", 11),
        Column("fhs", "FHS"), Column("wounds", "wounds", 16, fold=4))

    def columns(self) -> tuple[Column, ...]:
        return self.COLUMNS

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        left = budget.left(fight, cid)
        spend = " ".join(p for p, n in (("AA", left[0]), ("MA", left[1])) if n)
        spend = (spend + " " + "B" * left[2]).strip() or "—"
        owed = self.state(fight).owed.get(cid)
        if owed and any(owed):
            spend += "*"
        agility = units.agility_now(fight, cid)
        base = stats.agility(fight.roster[cid])
        had = st.effects(self.state(fight), cid)
        conditions = [f"{n} {d}" if d else n for n, d in status.conditions.items()]
        flat = units.flat_footed(fight, cid)
        if flat and flat not in status.conditions:
            conditions.append("flat-footed")
        if units.sick(fight, cid):
            conditions.append("sick")
        if units.gone(fight, cid):
            conditions.append("gone")
        return {"hp": Cell(f"{status.hp}/{status.max_hp}",
                           "bad" if status.hp <= 0 else ""),
                "agi": Cell(f"{agility:+d}", "warn" if agility != base else ""),
                "left": Cell(spend, "dim" if spend == "—" else ""),
                "fhs": Cell(f"{budget.free_left(fight, cid)}/{budget.slots(fight, cid)}"),
                "wounds": Cell(", ".join(w or "wound" for w in had), "bad"),
                "conditions": Cell(", ".join(conditions), "warn" if flat else "")}

    def state_word(self, fight: Fight, cid: str) -> str:
        found = units.no_turn(fight, cid)
        if found is None:
            return ""
        return {"dead": "dead", "defeated (0 hp)": "down"}.get(found[1], found[1].split(":")[0])

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        left = budget.left(fight, cid)
        c = fight.roster[cid]
        mp = stats.max_mp(c)
        out.update(
            agility=units.agility_now(fight, cid), accuracy=units.accuracy_now(fight, cid),
            left={"AA": left[0], "MA": left[1], "BA": left[2]},
            slots=budget.slots(fight, cid), free_hits_left=budget.free_left(fight, cid),
            wounds=st.effects(self.state(fight), cid),
            flat_footed=bool(units.flat_footed(fight, cid)), prone=units.prone(fight, cid),
            sick=units.sick(fight, cid), gone=units.gone(fight, cid),
            movement=budget.movement_of(self.settings.movement, fight, cid, ""),
            condition=self.state_word(fight, cid) or "fine")
        if mp is not None:
            out["mp"] = budget.mp_left(fight, cid)
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        out = st.plain(self.state(fight))
        out["turn"] = self.planner.turn(fight)
        out["ties_due"] = self.planner.ties_due(fight)
        return out

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # no declarations: whose turn it is says it

    def status_parts(self, fight: Fight) -> list[str]:
        parts = []
        now = self.planner.turn(fight)
        if now is not None:
            left = budget.left(fight, now)
            parts.append(f"turn: {fight.roster[now].name} ({budget.left_text(left)} left)")
        due = self.planner.ties_due(fight)
        if due:
            parts.append("tie to roll: t")
        return parts

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        out = []
        for cid, grants in self.state(fight).grants.items():
            for grant in grants:
                kind, target = grant.split(":", 1)
                what = "a free critical, no slot needed" if kind == "tragedy" else "a free hit"
                out.append(("Free hit (AO-9)", f"{fight.roster[cid].name} may take {what} "
                            f"at {fight.roster[target].name} — f"))
        return out

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return log_lines.tell(self.settings, fight, event)
