"""The tracker: every combatant, in the round's order once it is known, with the
columns its ruleset describes. A row is worked out only when it is drawn, and again only
when its combatant changed."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.message import Message

from referee.engine import Fight
from referee.engine.plan import Plan
from referee.session import view

from .lines import LineTable
from .tones import styled

# what a row was worked out from, and its cells (None until the row is first drawn)
Shown = tuple[tuple[Any, ...], tuple[tuple[str, str], ...] | None]


class Tracker(LineTable):
    class CombatantSelected(Message):
        """The cursor is on another combatant."""

        def __init__(self, combatant: str | None) -> None:
            super().__init__()
            self.combatant = combatant

    BINDINGS = [
        Binding("space", "fold", "Fold/unfold group", show=False),
        Binding("Z", "fold_all", "Fold/unfold all groups", show=False),
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__((), id=id)
        self.shown: dict[str, Shown] = {}
        self.decls: dict[str, Any] = {}
        self.columns: tuple[Any, ...] = ()
        self.folded: set[str] = set()  # the groups shown as one heading row
        self.groups: set[str] = set()
        self.last: tuple[Fight, Plan | None, set[str]] | None = None

    def show(self, fight: Fight, plan: Plan | None, acting: set[str]) -> None:
        self.last = (fight, plan, acting)
        cols = view.columns(fight)
        if cols != self.columns:
            self.columns, self.shown = cols, {}
            self.set_labels(tuple(c.label for c in cols), tuple(c.fold for c in cols))
        self.decls = view.declarations(fight)
        entries = view.grouped(fight, view.order(fight, plan), self.folded)
        self.groups = {key[len(view.GROUP):] for key, _ in entries if key.startswith(view.GROUP)}
        members: dict[str, int] = {}
        for cid in acting:
            found = fight.ruleset.row_group(fight, cid)
            if found is not None:
                members[found[0]] = members.get(found[0], 0) + 1
        rows: dict[str, Shown] = {}
        seen = self.on_screen()
        for n, (key, label) in enumerate(entries):
            if label:  # a group's heading
                group = key[len(view.GROUP):]
                rows[key] = self.heading(key, label, group in self.folded,
                                         members.get(group, 0))
            elif n in seen:  # worked out now: a row that reads the same is not redrawn
                basis = view.row_basis(fight, key, key in acting, self.decls.get(key))
                old = self.shown.get(key)
                rows[key] = old if old is not None and old[0] == basis and old[1] else \
                    (basis, self.cells(key))
            else:  # worked out if it is ever drawn: most of a big roster is not
                rows[key] = ((), None)
        keep = self.selected()
        self.shown = rows
        keys = [key for key, _ in entries]
        self.set_rows(keys, [rows[key][1] for key in keys])
        if keep is not None:
            self.select(keep)

    def heading(self, key: str, label: str, folded: bool, acting: int) -> Shown:
        """A group's heading row, kept while it reads the same (a big battle has many)."""
        basis = (label, folded, acting)
        old = self.shown.get(key)
        if old is not None and old[0] == basis:
            return old
        row = view.group_row(key, label, folded, acting, self.columns)
        return (basis, tuple(styled(c) for c in row.cells))

    def spans(self, row: int) -> bool:
        return self.keys[row].startswith(view.GROUP)

    def on_screen(self) -> range:
        """The rows in view, and those around the cursor a select may bring into it."""
        top = self.scroll_offset.y
        return range(max(top - 2, 0), top + self.size.height + 2)

    def cells(self, key: str) -> tuple[tuple[str, str], ...]:
        assert self.last is not None, "a row is drawn before the tracker is shown"
        fight, _, acting = self.last
        found = view.tracker_row(fight, key, key in acting, self.decls.get(key), self.columns)
        return tuple(styled(cell) for cell in found.cells)

    def load(self, row: int) -> tuple[tuple[str, str], ...]:
        assert self.last is not None, "a row is drawn before the tracker is shown"
        fight, _, acting = self.last
        key = self.keys[row]
        cells = self.cells(key)
        self.shown[key] = (view.row_basis(fight, key, key in acting, self.decls.get(key)), cells)
        return cells

    def combatant(self) -> str | None:
        """The combatant under the cursor (None on a group's heading)."""
        key = self.selected()
        return None if key is None or key.startswith(view.GROUP) else key

    def action_fold(self) -> None:
        key = self.selected()
        if key is None or not key.startswith(view.GROUP):
            return
        self.folded ^= {key[len(view.GROUP):]}
        self.again()

    def action_fold_all(self) -> None:
        self.folded = set() if self.folded >= self.groups else set(self.groups)
        self.again()

    def again(self) -> None:
        if self.last is not None:
            self.show(*self.last)

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        self.post_message(self.CombatantSelected(self.combatant()))
