"""The tracker: every combatant, in the round's order once it is known, with the
columns its ruleset describes. A row is worked out only when it is drawn, and again only
when its combatant changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.binding import Binding

from referee.engine import Fight
from referee.engine.plan import Plan
from referee.session import view
from referee.session.questions import declarations_read, same_declarations

from .lines import LineTable
from .tones import styled

# what a row was worked out from, and its cells (None until the row is first drawn); a
# row off screen keeps them, and `load` takes them again while its basis stays
Shown = tuple[tuple[Any, ...], tuple[tuple[str, str], ...] | None]


class Tracker(LineTable):
    BINDINGS = [
        Binding("space", "fold", "Fold/unfold group", show=False),
        Binding("Z", "fold_all", "Fold/unfold all groups", show=False),
    ]

    def __init__(self, id: str | None = None) -> None:
        super().__init__((), id=id)
        self.shown: dict[str, Shown] = {}
        # each row's cells before its last change: a row that reads again as it read
        # before (an undo, a redo: a beat's actors marked and unmarked) takes them back
        self.before: dict[str, Shown] = {}
        self.decls: dict[str, Any] = {}
        self.columns: tuple[Any, ...] = ()
        self.folded: set[str] = set()  # the groups shown as one heading row
        self.groups: set[str] = set()
        self.last: tuple[Fight, Plan | None, set[str]] | None = None
        # players whose own page is open while they decide (the players' pages): their
        # declared cell says so until they declare
        self.deciding: frozenset[str] = frozenset()
        # the rows placed: what they were worked out from, the round's order, the rows
        self.placed: tuple[tuple[Any, ...], list[str], list[tuple[str, str]]] | None = None
        # the rows `shown` is kept for, their keys and where the groups' headings are
        self.shown_for: list[tuple[str, str]] | None = None
        self.keys_of: list[str] = []
        self.headings: list[int] = []
        # the declarations of the round, and what they were read from (`declarations_read`)
        self.decls_from: tuple[Any, ...] | None = None

    def show(self, fight: Fight, plan: Plan | None, acting: set[str],
             cursor: Callable[[], str | None] | None = None) -> None:
        """The fight's rows; the cursor stays on its combatant, or goes to the one
        `cursor` names. The rows worked out now are those in view once it has moved
        (a page turned to the next beat's actors works out none of the page before)."""
        self.last = (fight, plan, acting)
        cols = view.columns(fight)
        if cols != self.columns:
            self.columns, self.shown, self.before = cols, {}, {}
            self.set_labels(tuple(c.label for c in cols), tuple(c.fold for c in cols))
        self.decls = self.declarations(fight)
        entries = self.entries(fight, plan)
        members: dict[str, int] = {}
        groups = view.row_groups(fight)
        for cid in acting:
            found = groups.get(cid)
            if found is not None:
                members[found[0]] = members.get(found[0], 0) + 1
        shown = self.shown
        if self.shown_for is not entries:  # rows placed anew: what is kept is theirs
            self.shown_for = entries
            self.keys_of = [key for key, _ in entries]
            self.headings = [n for n, (_, label) in enumerate(entries) if label]
            shown = self.shown = {key: shown[key] for key in self.keys_of if key in shown}
        keys = self.keys_of
        keep = self.selected()
        target = cursor() if cursor is not None else None
        going = target if target is not None and target in keys else keep
        # a row off screen is checked when it is drawn (`load`): most of a big roster
        # never is, and a press looks at the rows in view and the groups' headings only
        given: list[tuple[tuple[str, str], ...] | None] = [None] * len(entries)
        seen = self.on_screen(self.top_after(entries, keys, going))
        for n in self.headings:
            key, label = entries[n]
            old = shown.get(key)
            group = key[len(view.GROUP):]
            basis = (label, group in self.folded, members.get(group, 0))
            entry = old if old is not None and old[0] == basis and old[1] else \
                (basis, self.heading(key, basis) if n in seen else None)
            shown[key] = entry
            given[n] = entry[1]
        for n in range(max(seen.start, 0), min(seen.stop, len(entries))):
            key, label = entries[n]
            if label:
                continue
            # worked out now: a row that reads the same is not redrawn
            basis = self.basis(fight, key, acting)
            old = shown.get(key)
            entry = old if old is not None and old[0] == basis and old[1] else \
                self.again_or_anew(key, basis, old)
            shown[key] = entry
            given[n] = entry[1]
        top = self.scroll_offset.y
        changed = self.set_rows(keys, given, repaint=False)
        if going is not None:
            self.select(going)
        if self.scroll_offset.y == top:  # a page turned repaints every row in view
            self.refresh_rows(changed)

    def declarations(self, fight: Fight) -> dict[str, Any]:
        """The round's declarations, read again only when they changed (another round,
        or a declaration added: `declarations_read`), not on every event."""
        read = declarations_read(fight)
        kept = self.decls_from
        if kept is not None and same_declarations(kept, read):
            return self.decls
        self.decls_from = read
        return view.declarations(fight)

    def entries(self, fight: Fight, plan: Plan | None) -> list[tuple[str, str]]:
        """The rows in order, with the groups' headings: kept while the plan, the groups
        and what is folded stay the same (a key press that resolves a beat changes none
        of them, and a big battle has a thousand rows to place), and while a new plan
        puts everyone in the same order (a unit's Move re-plans a phase)."""
        groups = view.row_groups(fight)
        basis = (fight, plan, groups, frozenset(self.folded), len(fight.roster))
        kept = self.placed  # the fight, plan and groups by identity; the rest by value
        if kept is not None and all(a is b for a, b in zip(kept[0][:3], basis[:3], strict=True)) \
                and kept[0][3:] == basis[3:]:
            return kept[2]
        order = view.order(fight, plan)
        if kept is not None and kept[0][2] is groups and kept[0][3:] == basis[3:] \
                and kept[1] == order:
            self.placed = (basis, order, kept[2])
            return kept[2]
        entries = view.grouped(fight, order, self.folded)
        self.groups = {key[len(view.GROUP):] for key, label in entries if label}
        self.placed = (basis, order, entries)
        return entries

    def heading(self, key: str, basis: tuple[Any, ...]) -> tuple[tuple[str, str], ...]:
        """A group's heading row: its label, whether it is folded, how many act now."""
        label, folded, acting = basis
        row = view.group_row(key, label, folded, acting, self.columns)
        return tuple(styled(c) for c in row.cells)

    def spans(self, row: int) -> bool:
        return self.keys[row].startswith(view.GROUP)

    def on_screen(self, top: int | None = None) -> range:
        """The rows in view from row `top` (where the view is, by default): under the
        header. A row that comes into view later is worked out as it is drawn."""
        top = self.scroll_offset.y if top is None else top
        return range(top, top + self.size.height - 1)

    def top_after(self, entries: list[tuple[str, str]], keys: list[str],
                  going: str | None) -> int:
        """The top row of the view once the cursor is on `going` (as `select` moves it)."""
        top = self.scroll_offset.y
        if going is None or going not in keys:
            return top
        row = keys.index(going)
        old = min(self.cursor, max(len(entries) - 1, 0))
        if row == old:
            return top
        heading = row > 0 and bool(entries[row - 1][1])
        return self.scroll_target(row, abs(row - old) <= 1 or row > old, heading)

    def basis(self, fight: Fight, key: str, acting: set[str]) -> tuple[Any, ...]:
        return view.row_basis(fight, key, key in acting, self.decls.get(key)) + (
            key in self.deciding,)

    def cells(self, key: str) -> tuple[tuple[str, str], ...]:
        assert self.last is not None, "a row is drawn before the tracker is shown"
        fight, _, acting = self.last
        found = view.tracker_row(fight, key, key in acting, self.decls.get(key), self.columns)
        cells = found.cells
        if key in self.deciding and key not in self.decls:
            cells = tuple(view.DECIDING if column.key == "declared" else cell
                          for column, cell in zip(self.columns, cells, strict=True))
        return tuple(styled(cell) for cell in cells)

    def load(self, row: int) -> tuple[tuple[str, str], ...]:
        assert self.last is not None, "a row is drawn before the tracker is shown"
        fight, _, acting = self.last
        key = self.keys[row]
        if key.startswith(view.GROUP):
            basis = self.shown[key][0]
            cells = self.heading(key, basis)
        else:  # kept while it reads the same: a row scrolled back into view
            basis = self.basis(fight, key, acting)
            old = self.shown.get(key)
            cells = old[1] if old is not None and old[1] and old[0] == basis else \
                self.again_or_anew(key, basis, old)[1]
        self.shown[key] = (basis, cells)
        return cells

    def again_or_anew(self, key: str, basis: tuple[Any, ...], old: Shown | None
                      ) -> tuple[tuple[Any, ...], tuple[tuple[str, str], ...]]:
        """A row whose basis changed: its cells from before its last change if it reads
        as it did then, else worked out; what it showed until now kept as before."""
        before = self.before.get(key)
        if old is not None and old[1]:
            self.before[key] = old
        if before is not None and before[1] and before[0] == basis:
            return basis, before[1]
        return basis, self.cells(key)

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
