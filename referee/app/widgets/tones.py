"""How a cell's tone looks on screen."""

from __future__ import annotations

from referee.engine.specs import Cell

SIDE_COLOURS = ["dodger_blue1", "red1", "green3", "gold1", "magenta", "cyan"]
TONES = {"": "", "strong": "bold", "bad": "bold red", "warn": "yellow", "good": "green",
         "dim": "dim"}
TONES.update({f"side{n}": colour for n, colour in enumerate(SIDE_COLOURS)})


def styled(cell: Cell) -> tuple[str, str]:
    return cell.text, TONES.get(cell.tone, "")
