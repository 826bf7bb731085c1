"""The log: every event, newest last, scrollable; written in bulk, never line by line.

Textual's own Log grows its virtual size by a line per event, and every change of size
lays the whole screen out again; this one grows in steps of a few hundred lines, so a
key press redraws only the lines that changed."""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

STEP = 256  # lines of room added at a time


class LogView(ScrollView, can_focus=True):
    DEFAULT_CSS = "LogView { background: $surface; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        self.widest = 0

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def show_all(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.widest = max((len(line) for line in self.lines), default=0)
        self.resize()
        self.refresh()
        self.call_after_refresh(self.to_end)

    def add(self, lines: list[str]) -> None:
        if not lines:
            return
        start = len(self.lines)
        self.lines.extend(lines)
        self.widest = max(self.widest, *(len(line) for line in lines))
        self.resize()
        self.to_end()
        for number in range(start, len(self.lines)):
            self.refresh_line(number - self.scroll_offset.y)

    def resize(self) -> None:
        rows = (len(self.lines) // STEP + 1) * STEP
        size = Size(self.widest, rows)
        if size.height != self.virtual_size.height or size.width > self.virtual_size.width:
            self.virtual_size = size

    def to_end(self) -> None:
        top = max(len(self.lines) - self.size.height, 0)
        if top != self.scroll_offset.y:
            self.scroll_to(y=top, animate=False)

    def render_line(self, y: int) -> Strip:
        number = y + self.scroll_offset.y
        text = self.lines[number] if number < len(self.lines) else ""
        x = self.scroll_offset.x
        return Strip([Segment(text[x: x + self.size.width])]).extend_cell_length(
            self.size.width)
