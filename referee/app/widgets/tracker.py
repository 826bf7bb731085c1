"""The tracker: every combatant, in the round's order once it is known, with the
columns its ruleset describes. A row is worked out again only when its combatant changed."""

from __future__ import annotations

from typing import Any

from textual.message import Message

from referee.engine import Fight
from referee.engine.plan import Plan
from referee.session import view

from .lines import LineTable
from .tones import styled


class Tracker(LineTable):
    class CombatantSelected(Message):
        """The cursor is on another combatant."""

        def __init__(self, combatant: str | None) -> None:
            super().__init__()
            self.combatant = combatant

    def __init__(self, id: str | None = None) -> None:
        super().__init__((), id=id)
        self.shown: dict[str, tuple[tuple[Any, ...], tuple[tuple[str, str], ...]]] = {}
        self.columns: tuple[Any, ...] = ()

    def show(self, fight: Fight, plan: Plan | None, acting: set[str]) -> None:
        cols = view.columns(fight)
        if cols != self.columns:
            self.columns, self.shown = cols, {}
            self.set_labels(tuple(c.label for c in cols), tuple(c.fold for c in cols))
        decls = view.declarations(fight)
        ids = view.order(fight, plan)
        rows = {}
        for cid in ids:
            decl = decls.get(cid)
            basis = view.row_basis(fight, cid, cid in acting, decl)
            old = self.shown.get(cid)
            if old is None or old[0] != basis:
                row = view.tracker_row(fight, cid, cid in acting, decl, cols)
                old = (basis, tuple(styled(cell) for cell in row.cells))
            rows[cid] = old
        keep = self.selected()
        self.shown = rows
        self.set_rows(ids, [rows[cid][1] for cid in ids])
        if keep is not None:
            self.select(keep)

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        self.post_message(self.CombatantSelected(self.selected()))
