"""The line under the title: encounter, ruleset, round, phase and initiative dice."""

from __future__ import annotations

from textual.widgets import Static

from referee.engine import Fight


def status_text(fight: Fight, title: str) -> str:
    parts = [title, fight.ruleset.name, f"round {max(fight.round, 1)}", fight.phase]
    initiative = fight.initiatives.get(max(fight.round, 1))
    if initiative is not None and initiative.rolls:
        parts.append("dice " + ", ".join(f"{k} {v}" for k, v in initiative.rolls.items()))
    elif initiative is not None and initiative.base:
        parts.append(f"base initiative rolled for {len(initiative.base)}")
    if fight.ended:
        parts.append("the fight is over")
    return " · ".join(parts)


class StatusLine(Static):
    text = ""

    def show(self, fight: Fight, title: str, clock: str = "") -> None:
        text = status_text(fight, title) + (f" · {clock}" if clock else "")
        if text != self.text:  # an update lays the screen out again: only when it changed
            self.text = text
            self.update(text)
