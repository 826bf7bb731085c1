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
    keep = ""  # said at the end whatever the width: the file's name

    def show(self, text: str, keep: str = "") -> None:
        if (text, keep) != (self.text, self.keep):
            self.text, self.keep = text, keep
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        text = self.line(width) if y == 0 else ""
        return Strip([Segment(text, self.rich_style)]).extend_cell_length(width,
                                                                           self.rich_style)

    def line(self, width: int) -> str:
        """The text, cut with an ellipsis before the kept end where it is too long."""
        tail = f" · {self.keep}" if self.keep else ""
        if len(self.text) + len(tail) <= width:
            return self.text + tail
        if len(tail) >= width // 2:  # a very long name gives way too
            tail = ""
        room = width - len(tail)
        return (self.text[: max(room - 1, 0)] + "…" if len(self.text) > room
                else self.text) + tail
