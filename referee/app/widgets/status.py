"""The line under the title: encounter, ruleset, round, phase and the ruleset's own say."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class StatusLine(Static):
    """One line, never wrapping: cut with an ellipsis on a narrow screen."""

    text = ""

    def show(self, text: str) -> None:
        if text != self.text:  # an update lays the screen out again: only when it changed
            self.text = text
            self.update(Text(text, no_wrap=True, overflow="ellipsis"))
