"""The log: every event, newest last, scrollable; written in bulk, never line by line.

Textual's own Log grows its virtual size by a line per event, and every change of size
lays the whole screen out again; this one grows in steps of a few hundred lines, so a
key press redraws only the lines that changed. It shows no scrollbar: one sized to that
room would mislead, and redrawing it on every new line cost as much as the lines (it
still scrolls by wheel and keys)."""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

STEP = 256  # lines of room added at a time


class LogView(ScrollView, can_focus=True):
    """Never scrolls sideways (the scrollbar would hide the newest line): a line too long
    for the pane is cut with an ellipsis."""

    DEFAULT_CSS = """
    LogView { background: $surface; overflow-x: hidden; scrollbar-size-vertical: 0; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def show_all(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.resize()
        self.refresh()
        self.call_after_refresh(self.to_end)

    def add(self, lines: list[str]) -> None:
        if not lines:
            return
        start = len(self.lines)
        self.lines.extend(lines)
        self.resize()
        self.to_end()
        for number in range(start, len(self.lines)):
            self.refresh_line(number)  # a line of the content: Textual scrolls it

    def resize(self) -> None:
        rows = (len(self.lines) // STEP + 1) * STEP
        size = Size(self.size.width, rows)
        if size != self.virtual_size:
            self.virtual_size = size

    def on_resize(self) -> None:
        """A new size: the newest lines stay in view."""
        self.resize()
        self.to_end()
        self.refresh()

    def to_end(self) -> None:
        top = max(len(self.lines) - self.size.height, 0)
        if top != self.scroll_offset.y:
            self.scroll_to(y=top, animate=False)

    def render_line(self, y: int) -> Strip:
        number = y + self.scroll_offset.y
        text = self.lines[number] if number < len(self.lines) else ""
        width = self.scrollable_content_region.width
        if len(text) > width:
            text = text[: max(width - 1, 0)] + "…"
        return Strip([Segment(text)]).extend_cell_length(width)
