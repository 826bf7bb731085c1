"""A light table drawn line by line: only the rows on screen are ever rendered, and a
row is rendered again only when its cells change. The tracker and the plan use it, so a
key press with hundreds of combatants costs the few rows that changed.

It never scrolls sideways (a scrollbar would cover the bottom row): on a narrow screen the
columns marked as folding are first shortened (their text cut with an ellipsis), then left
out, right to left, and a line still too long is cut with an ellipsis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip

from . import plain
from .bar import KeptBar

Cell = tuple[str, str]  # text, style
# what a row's strip is drawn from: its cells, on the cursor, the cursor's look (focused
# or not), the width and the room for its text (less a scrollbar that came or went)
Basis = tuple[tuple[Cell, ...], bool, Style | None, int, int]
GAP = 2
DRAWN = 2048  # strips kept by what they were drawn from (then dropped all at once)
SHORT = 7  # a folding column shortened on a narrow screen: "The pa…", "prone …"
LOOKS: dict[tuple[str, Style | None], Style] = {}  # a few tones over a few row styles


class LineTable(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    LineTable { background: $surface; overflow-x: hidden; }
    LineTable > .linetable--header { text-style: bold; background: $panel; }
    LineTable > .linetable--cursor { background: $accent 40%; }
    LineTable:focus > .linetable--cursor { background: $accent; }
    """
    COMPONENT_CLASSES = {"linetable--header", "linetable--cursor"}
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("pageup", "move(-10)", "Page up", show=False),
        Binding("pagedown", "move(10)", "Page down", show=False),
        Binding("home", "move(-100000)", "First", show=False),
        Binding("end", "move(100000)", "Last", show=False),
    ]

    cursor = reactive(0, repaint=False)  # watch_cursor redraws the two rows it moves between

    def __init__(self, labels: tuple[str, ...], id: str | None = None,
                 folds: tuple[int, ...] = ()) -> None:
        super().__init__(id=id)
        self.labels = labels
        self.folds = folds or tuple(0 for _ in labels)
        self.keys: list[str] = []
        self.rows: list[tuple[Cell, ...] | None] = []  # None: worked out when first drawn
        self.widths = [len(label) for label in labels]
        self.strips: dict[int, tuple[Basis, Strip]] = {}
        # the strips drawn, by what they were drawn from (and whether a heading's), in
        # whichever row: a row that reads again as it read before (a beat's mark taken
        # back by an undo, a page turned back to) is not drawn again
        self.drawn: dict[tuple[Basis, bool], Strip] = {}
        self.leaping = False  # the cursor is being moved for the user, not by the user
        self.caps: dict[int, float] = {}  # column -> the share of the room it may take
        self.gap = GAP  # cells between columns: one on a screen that needs it
        self.cut_last = False  # the last column's text may be cut at the edge (the plan's why)
        # visible_columns: (what it was worked out from, the columns, their widths)
        self.fitted: tuple[tuple[Any, ...], list[int], list[int]] | None = None
        # while lines are drawn: (the width, the room, the top row) they are drawn for,
        # asked of every line and the same for all of them
        self.drawing: tuple[int, int, int] | None = None
        self.looks: dict[tuple[str, bool], Style] = {}  # `component_style`
        self.header: tuple[tuple[Any, ...], Strip] | None = None  # the header's strip

    # -- content -------------------------------------------------------------------------

    def set_labels(self, labels: tuple[str, ...], folds: tuple[int, ...] = ()) -> None:
        """New columns: everything is drawn afresh."""
        self.labels = labels
        self.folds = folds or tuple(0 for _ in labels)
        self.widths = [len(label) for label in labels]
        self.keys, self.rows = [], []
        self.forget()
        self.refresh()

    def set_rows(self, keys: list[str], rows: Sequence[tuple[Cell, ...] | None],
                 repaint: bool = True) -> list[int]:
        """New content; rows that did not change keep their rendering. A row given as
        None is asked of `load` when it is first drawn: a table of a thousand rows works
        out only the ones on screen. Without `repaint`, the rows that changed are left
        for the caller to repaint (a page turned next repaints them all): returned."""
        old = self.rows
        changed = [n for n, row in enumerate(rows) if n >= len(old) or old[n] is not row
                   and (row is None or old[n] != row)]
        moved_keys = keys != self.keys
        self.keys, self.rows = keys, list(rows)
        grown = False
        for n in changed:  # a row that did not change cannot widen a column
            grown = (not self.spans(n) and self.widen(rows[n])) or grown
        if grown:
            self.forget()
        elif moved_keys or sum(rows[n] is not None for n in changed) > 20:
            self.strips.clear()  # (a row given as None is checked when drawn)
        size = self.drawn_size()
        if size != self.virtual_size:  # a new size lays the screen out again
            self.virtual_size = size
        self.cursor = min(self.cursor, max(len(rows) - 1, 0))
        if grown or moved_keys:
            self.refresh()
            return []
        if repaint:  # only those on screen: most of a big table's are not
            self.refresh_rows(changed)
        return changed

    def drawn_size(self) -> Size:
        """The header and the rows, and no less than the pane: a row more or less that
        still fits changes nothing drawn, and must not lay the screen out again (a
        declaration adds a beat to the plan as a form closes)."""
        return Size(self.size.width, max(len(self.rows) + 1,
                                         self.scrollable_content_region.height))

    def widen(self, row: tuple[Cell, ...] | None) -> bool:
        """Columns widened to fit `row`: whether any grew."""
        grown = False
        for column, (text, _) in enumerate(row or ()):
            if len(text) > self.widths[column]:
                self.widths[column], grown = len(text), True
        return grown

    def spans(self, row: int) -> bool:
        """Whether `row` is a heading: its text runs across the columns, widening none."""
        return False

    def load(self, row: int) -> tuple[Cell, ...]:
        """The cells of a row set as None, worked out now that it is drawn."""
        raise NotImplementedError(f"{type(self).__name__} sets rows it cannot load")

    def row_cells(self, row: int) -> tuple[Cell, ...]:
        cells = self.rows[row]
        if cells is None:
            cells = self.rows[row] = self.load(row)
            # a heading runs across the columns: it widens none (as in set_rows)
            if not self.spans(row) and self.widen(cells):  # every line drawn again
                self.forget()
                self.call_later(self.refresh)
        return cells

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def selected(self) -> str | None:
        return self.keys[self.cursor] if self.keys else None

    def select(self, key: str) -> None:
        """Put the cursor on `key` for the user (on who acts now, the current beat)."""
        if key in self.keys:
            self.follow(self.keys.index(key))

    def follow(self, row: int) -> None:
        """Move the cursor to `row` as the fight moves on: a row out of view is brought in
        with the rows after it in the direction it came from, so the next ones are seen
        and the next presses need not scroll (a scroll redraws the whole pane); a jump
        down the table (on to the next beat's actors) brings the row in near the top,
        the rows after it below it."""
        self.leaping = True
        try:
            self.cursor = row
        finally:
            self.leaping = False

    # -- drawing ---------------------------------------------------------------------------

    def refresh_row(self, row: int) -> None:
        self.refresh_rows((row,))

    def refresh_rows(self, rows: Sequence[int]) -> None:
        """The lines of `rows` that are on screen drawn again: one refresh for all, each
        run of neighbouring lines one region (not refresh_line: that one takes a line of
        the content and scrolls it itself). Only the room for the text: a region over the
        scrollbar draws the whole bar again."""
        top, height = self.scroll_offset.y, self.size.height
        width = self.scrollable_content_region.width
        lines = sorted({y for y in (row + 1 - top for row in rows) if 0 < y < height})
        regions: list[Region] = []
        for y in lines:  # the line on screen, under the header
            last = regions[-1] if regions else None
            if last is not None and last.bottom == y:
                regions[-1] = Region(0, last.y, width, last.height + 1)
            else:
                regions.append(Region(0, y, width, 1))
        if regions:
            self.refresh(*regions)

    def watch_cursor(self, old: int, new: int) -> None:
        top = self.scroll_offset.y
        self.scroll_to_row(new, leap=self.leaping and (abs(new - old) <= 1 or new > old))
        if self.scroll_offset.y == top:  # scrolled, the pane is repainted whole
            self.refresh_rows((old, new))

    def scroll_to_row(self, row: int, leap: bool = False) -> None:
        """The least scroll that shows `row`; with `leap`, a step of one row past the edge
        turns the page instead: the row lands next to the far edge, one row of context
        kept behind it."""
        top = self.scroll_offset.y
        y = self.scroll_target(row, leap, row > 0 and self.spans(row - 1))
        if y != top:
            self.scroll_to(y=y, animate=False)

    def scroll_target(self, row: int, leap: bool, heading_above: bool) -> int:
        """The top row `scroll_to_row` scrolls to (`heading_above`: the row before `row`
        is a heading)."""
        top, height = self.scroll_offset.y, max(self.size.height - 1, 1)
        before = min(1, height - 1)
        y = top
        if row < top:
            y = max(row - (height - 1 - before if leap else 0), 0)
        elif row >= top + height:
            y = row - (before if leap else height - 1)
        if y == row and row > 0 and height > 1 and heading_above:
            y -= 1  # a row at the top edge keeps its group's heading in view above it
        return y

    def render_lines(self, crop: Region) -> list[Strip]:
        """The lines in `crop`, their width, room and scroll worked out once for all."""
        self.drawing = (self.size.width, self.scrollable_content_region.width,
                        self.scroll_offset.y)
        try:
            lines = plain.plain_lines(self, crop)
            return super().render_lines(crop) if lines is None else lines
        finally:
            self.drawing = None

    def render_line(self, y: int) -> Strip:
        if y == 0:
            return self.header_strip()
        width, room, top = self.drawing or (self.size.width, self.room, self.scroll_offset.y)
        row = y - 1 + top
        if row >= len(self.rows):
            return Strip.blank(width)
        on_cursor = row == self.cursor
        cells = self.row_cells(row)
        # focus (and the theme) change how the cursor's row looks, no other's
        style = self.component_style("linetable--cursor") if on_cursor else None
        basis = (cells, on_cursor, style, width, room)
        cached = self.strips.get(row)
        if cached is None or cached[0] != basis:
            spans = self.spans(row)
            strip = self.drawn.get((basis, spans))
            if strip is None:
                if len(self.drawn) >= DRAWN:
                    self.drawn.clear()
                strip = self.drawn[basis, spans] = (self.span_strip if spans else
                                                    self.row_strip)(cells, style)
            cached = (basis, strip)
            self.strips[row] = cached
        return cached[1]

    def forget(self) -> None:
        """Every strip drawn again (the columns' widths or the looks changed)."""
        self.strips.clear()
        self.drawn.clear()

    def header_strip(self) -> Strip:
        """The labels: drawn again only when the columns, their widths or the room
        change (a page turned redraws every line but this one's look)."""
        style = self.component_style("linetable--header")
        basis = (self.labels, self.fit(), self.gap, self.room, style)
        if self.header is None or self.header[0] != basis:
            cells = tuple((label, "") for label in self.labels)
            self.header = (basis, self.row_strip(cells, style))
        return self.header[1]

    def component_style(self, name: str) -> Style:
        """A part's style, by focus, kept until the styles change (Textual's own is
        worked out again after every refresh: a few times a key press)."""
        key = (name, self.has_focus)
        found = self.looks.get(key)
        if found is None:
            found = self.looks[key] = self.get_component_rich_style(name)
        return found

    def notify_style_update(self) -> None:
        """The styles changed (a theme): the parts' looks are worked out again."""
        super().notify_style_update()
        self.looks.clear()
        self.forget()

    @property
    def room(self) -> int:
        drawing = self.drawing
        return drawing[1] if drawing is not None else self.scrollable_content_region.width

    def visible_columns(self) -> list[int]:
        """The columns that fit: folding ones are shortened, then left out, the highest
        fold first (then the rightmost), until the rest do. Kept while the widths and the
        room stay."""
        return self.fit()[0]

    def fit(self) -> tuple[list[int], list[int]]:
        """The columns that fit and each one's width (see `visible_columns`)."""
        basis = (tuple(self.widths), self.room, self.folds, tuple(self.caps.items()),
                 self.cut_last)
        if self.fitted is not None and self.fitted[0] == basis:
            return self.fitted[1], self.fitted[2]  # self.gap is still theirs
        columns, widths = list(range(len(self.labels))), list(self.widths)
        for index, cap in self.caps.items():  # a column that may crowd out the rest
            widths[index] = min(widths[index], max(len(self.labels[index]), int(self.room * cap)))
        folding = sorted((c for c in columns if self.folds[c]),
                         key=lambda c: (-self.folds[c], -c))

        gap = GAP

        def over() -> int:
            total = sum(widths[c] + gap for c in columns) - gap
            if self.cut_last and columns:  # the last column may run off the edge, cut
                total -= max(widths[columns[-1]] - len(self.labels[columns[-1]]), 0)
            return total - self.room

        def fits() -> bool:
            return over() <= 0

        for index in folding:  # cut by what does not fit, never below SHORT
            if fits():
                break
            widths[index] = max(min(widths[index], SHORT), widths[index] - over())
        if not fits():  # one cell between columns, before any is left out
            gap = 1
        for index in folding:
            if fits():
                break
            columns.remove(index)
        self.gap = gap
        self.fitted = (basis, columns, widths)
        return columns, widths

    def look(self, style: str, base: Style | None) -> Style:
        """A cell's style over the row's (the cursor's), parsed once."""
        found = LOOKS.get((style, base))
        if found is None:
            found = Style.parse(style) if style else Style()
            if base is not None:
                found = base + found
            LOOKS[(style, base)] = found
        return found

    def row_strip(self, cells: tuple[Cell, ...], base: Style | None) -> Strip:
        segments = []
        room = self.room
        used = 0
        columns, widths = self.fit()
        last, gap = columns[-1], self.gap
        for index in columns:
            text, style = cells[index]
            room_of = widths[index]
            if len(text) > room_of:  # a shortened column: say it is cut
                text = shortened(text, room_of)
            width = room_of + (gap if index != last else 0)
            piece = text.ljust(width)[:width]
            if used + len(text) > room:  # too long for the screen: cut, and say so
                piece = text[: max(room - used - 1, 0)] + "…"
            elif used + len(piece) > room:
                piece = piece[: room - used]
            look = LOOKS.get((style, base))  # `look`, its common case written out
            segments.append(Segment(piece, self.look(style, base) if look is None else look))
            used += len(piece)
            if used >= room:
                break
        return fitted_strip(segments, used, room, base)

    def span_strip(self, cells: tuple[Cell, ...], base: Style | None) -> Strip:
        """A heading: its first cell in its column, the rest of its text run on."""
        first, rest = cells[0], [cell for cell in cells[1:] if cell[0]]
        width = self.widths[0] + GAP
        pieces = [(first[0].ljust(width)[:width], first[1])]
        for number, (text, style) in enumerate(rest):
            pieces.append((("  " if number else "") + text, style))
        room, used, segments = self.room, 0, []
        for text, style in pieces:
            if used + len(text) > room:  # too long for the screen: cut, and say so
                text = text[: max(room - used - 1, 0)] + "…"
            segments.append(Segment(text, self.look(style, base)))
            used += len(text)
            if used >= room:
                break
        return fitted_strip(segments, used, room, base)

    def on_resize(self) -> None:
        self.forget()
        self.virtual_size = self.drawn_size()
        self.refresh()

    def on_focus(self) -> None:
        self.refresh_row(self.cursor)  # a form closing gives the focus back: one row

    def on_blur(self) -> None:
        self.refresh_row(self.cursor)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """Textual's vertical scrollbar, as Textual makes it, but one that keeps its
        lines (`KeptBar`)."""
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = bar = KeptBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
            bar.display = False
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar

    # -- moving ------------------------------------------------------------------------------

    def action_move(self, by: int) -> None:
        if self.rows:
            self.cursor = max(0, min(len(self.rows) - 1, self.cursor + by))

    def on_click(self, event: events.Click) -> None:
        row = event.y - 1 + self.scroll_offset.y
        if 0 <= row < len(self.rows):
            self.cursor = row


def fitted_strip(segments: list[Segment], used: int, room: int, base: Style | None) -> Strip:
    """The line exactly `room` cells wide. Text of one cell a character (most rows) is
    padded as counted, which is several times quicker than Strip's crop and extend (a
    key press draws a few dozen rows); anything else is measured and cut by the Strip."""
    if used <= room and all(narrow(s.text) for s in segments):
        if used < room:
            segments.append(Segment(" " * (room - used), base or PLAIN))
        return Strip(segments, room)
    return Strip(segments).crop(0, room).extend_cell_length(room, base or PLAIN)


PLAIN = Style()  # (a style is never changed: one blank one serves every line)
NARROW: dict[str, bool] = {}  # a piece of text -> whether each character is one cell


def narrow(text: str) -> bool:
    """Whether `text` takes one cell a character (as `cell_len` measures it), kept by
    text: a table's pieces (a column's padded cells) recur from row to row."""
    found = NARROW.get(text)
    if found is None:
        if len(NARROW) >= DRAWN:
            NARROW.clear()
        found = NARROW[text] = cell_len(text) == len(text)
    return found


def shortened(text: str, width: int) -> str:
    """`text` in `width` cells: a leading "The " goes first ("The party" and "The pack"
    would both begin "The pa…"), then the rest is cut with an ellipsis."""
    if text[:4].lower() == "the " and len(text) > 4:
        text = text[4:]
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"
