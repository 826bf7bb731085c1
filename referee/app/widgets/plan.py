"""The plan: the round's beats with their rules and why; resolved ones checked off,
the current one marked, skipped actions and notes below."""

from __future__ import annotations

from textual.binding import Binding

from referee.session.view import PlanRow

from .lines import LineTable

STYLES = {"▶": "bold", "✓": "dim", "✗": "dim"}


class PlanView(LineTable):
    """Tab reaches it from the tracker; Enter on a beat shows its row whole (a narrow
    screen cuts the why)."""

    BINDINGS = [Binding("enter", "whole", "The beat in full", show=False)]

    def __init__(self, id: str | None = None) -> None:
        super().__init__(("", "beat", "actions", "rules", "why"), id=id)
        self.cells: dict[int, tuple[PlanRow, tuple[tuple[str, str], ...]]] = {}
        # a beat of many actors (a phases squad) must leave room for its rules and why:
        # Enter shows the row whole
        self.caps = {2: 0.4, 3: 0.15}
        self.cut_last = True  # the why: Enter shows it whole

    def whole(self, row: int) -> str:
        """A beat's row as one text, nothing cut."""
        if not 0 <= row < len(self.rows):
            return ""
        mark, label, actions, rules, why = (text for text, _ in self.row_cells(row))
        head = f"{label}. {actions}" if label else actions
        return "\n".join(part for part in (head, f"rules: {rules}" if rules else "", why)
                         if part)

    def action_whole(self) -> None:
        text = self.whole(self.cursor)
        if text:
            self.notify(text, title="The beat in full", timeout=20)

    @staticmethod
    def styled(r: PlanRow) -> tuple[tuple[str, str], ...]:
        return ((r.mark, "bold"), (r.label, STYLES.get(r.mark, "")),
                (r.actions, STYLES.get(r.mark, "")), (r.rules, "dim"), (r.why, ""))

    def show(self, rows: list[PlanRow], current: int | None) -> None:
        cells = self.cells
        drawn = [cells.get(id(r)) for r in rows]
        fresh = [found[1] if found is not None and found[0] is r else self.styled(r)
                 for r, found in zip(rows, drawn, strict=True)]
        self.cells = {id(r): (r, row) for r, row in zip(rows, fresh, strict=True)}
        top = self.scroll_offset.y
        changed = self.set_rows([r.key for r in rows], fresh, repaint=False)
        if current is not None:
            self.follow(self.keys.index(str(current)))
        if self.scroll_offset.y == top:  # scrolled, the pane is repainted whole
            self.refresh_rows(changed)
