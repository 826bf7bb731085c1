"""The line under the title: encounter, ruleset, round, phase and the ruleset's own say."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class StatusLine(Widget):
    """One line, never wrapping: cut with an ellipsis on a narrow screen. A new text
    repaints the line only: it never lays the screen out again (a key press changes it)."""

    DEFAULT_CSS = "StatusLine { height: 1; }"

    text = ""

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.refresh()

    def render(self) -> Text:
        return Text(self.text, no_wrap=True, overflow="ellipsis")
