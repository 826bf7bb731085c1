"""The line under the title: encounter, ruleset, round, phase and the ruleset's own say."""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget


class StatusLine(Widget):
    """One line, never wrapping: cut with an ellipsis on a narrow screen. A new text
    repaints the line only: it never lays the screen out again (a key press changes it),
    and is drawn as one strip, not through a renderable (a key press pays for the line)."""

    DEFAULT_CSS = "StatusLine { height: 1; }"

    text = ""

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        text = self.text if y == 0 else ""
        if len(text) > width:
            text = text[: max(width - 1, 0)] + "…"
        return Strip([Segment(text, self.rich_style)]).extend_cell_length(width,
                                                                           self.rich_style)
