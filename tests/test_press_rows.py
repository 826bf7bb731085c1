"""A table's row drawn as a line (`LineTable.row_strip`): exactly the room wide whatever
its text (wide characters measured, not counted), the measure of each piece kept by text
answering as `cell_len` does."""

from __future__ import annotations

from rich.cells import cell_len

from referee.app.widgets import lines
from referee.app.widgets.lines import LineTable


def table(room: int) -> LineTable:
    found = LineTable(("mark", "name", "declared"))
    found.drawing = (room + 1, room, 0)
    return found


def test_a_row_is_the_room_wide_with_wide_or_narrow_text() -> None:
    rows = [(("▶", "bold"), ("Goblin 1", ""), ("G → Brann", "")),
            (("", ""), ("龍の王", "red"), ("A → 龍の王", "")),
            (("", ""), ("a" * 80, ""), ("b", ""))]
    for room in (12, 30, 60):
        drawn = table(room)
        for row in rows:
            drawn.widen(row)
        for row in rows:
            for _ in range(2):  # measured, then as kept
                strip = drawn.row_strip(row, None)
                assert strip.cell_length == room
                assert sum(cell_len(s.text) for s in strip) == room


def test_the_kept_measure_of_a_piece_is_cell_len() -> None:
    lines.NARROW.clear()
    for text in ["", "plain", "龍", "G → x", "e\u0301", "\x1b", "ok  "]:
        for _ in range(2):
            assert lines.narrow(text) == (cell_len(text) == len(text)), text
