"""What the tracker, the status line and the log show of a sanctum fight: each minion's
group, level and attacks, the turn's pairs fought and the key that goes on."""

from __future__ import annotations

from typing import Any

from referee.engine import events as ev
from referee.engine.roles import Tracker
from referee.engine.specs import Cell, Column
from referee.engine.view import Fight

from . import log_lines, stats, turns
from .state import State

# each minion's group, hit points, level, armor, attacks and effects: the same every fight
COLUMNS = (Column("group", "group", 10), Column("hp", "hp"), Column("lvl", "lvl"),
           Column("armor", "arm"), Column("attacks", "attacks", 14, fold=2),
           Column("effects", "effects", 14, fold=3))


class SanctumTracker(Tracker[State]):
    def columns(self) -> tuple[Column, ...]:
        return COLUMNS

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        c, status = fight.roster[cid], fight.status[cid]
        hand, missile = stats.attack(c, "hand"), stats.attack(c, "missile")
        parts = []
        if missile[0]:
            parts.append(f"M{missile[0]}x{missile[1]}" + ("*" if missile[2] else ""))
        if hand[0]:
            parts.append(f"H{hand[0]}x{hand[1]}")
        tone = "bad" if status.dead else "warn" if status.hp < status.max_hp else ""
        state = self.state(fight)
        lvl = turns.level(fight, cid, state)
        earned = cid in state.promoted
        return {"group": Cell(stats.group(c), "dim"),
                "hp": Cell(f"{max(status.hp, 0)}/{status.max_hp}", tone),
                "lvl": Cell(f"{lvl}" + ("+" if earned and lvl == 0 else ""),
                            "good" if earned else ""),
                "armor": Cell(str(stats.armor(c))),
                "attacks": Cell(" ".join(parts) or "none", "" if parts else "dim"),
                "effects": Cell(", ".join(stats.effects(c)), "warn")}

    def state_word(self, fight: Fight, cid: str) -> str:
        return "dead" if fight.status[cid].dead else ""

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        state = self.state(fight)
        out.update(level=turns.level(fight, cid, state), group=stats.group(fight.roster[cid]),
                   earned_level=cid in state.promoted)
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        turn = fight.round
        return {"turn": turn, "pairs": [list(p) for p in state.pairs.get(turn, ())],
                "started": state.started.get(turn, 0),
                "combats": [dict(e) for e in state.ends.get(turn, ())],
                "promoted": dict(state.promoted)}

    def round_text(self, fight: Fight) -> str:
        """How the status line names where the fight is: its turn."""
        return f"turn {max(fight.round, 1)}"

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # the turn's pairs say where it stands

    def status_parts(self, fight: Fight) -> list[str]:
        """The turn's pairs fought, and the key that goes on: the turn itself is named
        once, by the status line."""
        state = self.state(fight)
        turn = max(fight.round, 1)
        pairs = state.pairs.get(turn, ())
        done = min(state.started.get(turn, 0), len(pairs))
        if fight.ended:
            return [f"{done}/{len(pairs)} pairs fought"] if pairs else []
        if not pairs:
            return ["no combats listed · P lists them"]
        return [f"{done}/{len(pairs)} pairs fought" + self.next_step(fight, done < len(pairs))]

    def next_step(self, fight: Fight, pending: bool) -> str:
        """The key that goes on: F for the turn's combats, P for the next turn's, E when
        no two hostile groups have minions standing."""
        if pending:
            return " · F fights the turn, O the odds"
        if max(fight.round, 1) + 1 in self.state(fight).pairs:
            return ""
        if not turns.hostile_pairs(fight):
            return " · no hostile groups standing: E ends the fight"
        return f" · P lists turn {max(fight.round, 1) + 1}'s"

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return log_lines.tell(fight, event)
