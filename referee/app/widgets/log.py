"""The log: every event, newest last, scrollable; written in bulk, never line by line.

Textual's own Log grows its virtual size by a line per event, and every change of size
lays the whole screen out again; this one grows in steps of a few hundred lines, so a
key press redraws only the lines that changed. It shows no scrollbar: one sized to that
room would mislead, and redrawing it on every new line cost as much as the lines (it
still scrolls by wheel and keys)."""

from __future__ import annotations

from rich.segment import Segment
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from . import plain

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
        # the strips drawn, by line number and width: a new line scrolls the pane by one,
        # and every line but the newest is drawn as it was
        self.strips: dict[tuple[int, int], Strip] = {}
        self.drawing: tuple[int, int] | None = None  # while lines are drawn: width, top

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def show_all(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.strips.clear()
        self.resize()
        self.refresh()
        self.call_after_refresh(self.to_end)

    def add(self, lines: list[str]) -> None:
        if not lines:
            return
        start = len(self.lines)
        self.lines.extend(lines)
        self.resize()
        if self.to_end():  # scrolled: the whole pane is drawn again (`watch_scroll_y`)
            return
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

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """ScrollView's, less moving the scrollbar: it has no room and is never drawn,
        and a refresh of a widget that is not on screen makes Textual arrange the whole
        screen again (a key press adds a line, and scrolls the log by one)."""
        if round(old_value) != round(new_value):
            self.refresh(self.size.region)

    def to_end(self) -> bool:
        """The newest lines in view: whether the pane scrolled to them."""
        top = max(len(self.lines) - self.size.height, 0)
        if top == self.scroll_offset.y:
            return False
        self.scroll_to(y=top, animate=False)
        return round(self.scroll_y) == top

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in `crop`, their width and scroll worked out once for all."""
        self.drawing = (self.scrollable_content_region.width, self.scroll_offset.y)
        try:
            lines = plain.plain_lines(self, crop)
            return super().render_lines(crop) if lines is None else lines
        finally:
            self.drawing = None

    def render_line(self, y: int) -> Strip:
        width, top = self.drawing or (self.scrollable_content_region.width,
                                      self.scroll_offset.y)
        number = y + top
        if number >= len(self.lines):  # no line yet (one may come): never kept
            return Strip([Segment("")]).extend_cell_length(width)
        found = self.strips.get((number, width))
        if found is None:
            if len(self.strips) > 4 * max(self.size.height, 16):
                self.strips.clear()
            text = self.lines[number]
            if len(text) > width:
                text = text[: max(width - 1, 0)] + "…"
            found = self.strips[number, width] = Strip([Segment(text)]).extend_cell_length(width)
        return found
