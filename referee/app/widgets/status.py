"""The line under the title: encounter, ruleset, round, phase and the ruleset's own say."""

from __future__ import annotations

from textual.widgets import Static


class StatusLine(Static):
    text = ""

    def show(self, text: str) -> None:
        if text != self.text:  # an update lays the screen out again: only when it changed
            self.text = text
            self.update(text)
