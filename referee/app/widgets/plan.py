"""The plan: the round's beats with their rules and why; resolved ones checked off."""

from __future__ import annotations

from textual.widgets import DataTable

from referee.engine.plan import Plan


def beat_label(number: int, beat) -> str:
    if beat.segment is not None:
        return f"s{beat.segment}"
    if beat.count is not None:
        return f"@{beat.count}"
    return str(number)


def rows_of(plan: Plan | None, resolved: int) -> list[tuple[str, ...]]:
    if plan is None:
        return []
    rows = []
    for number, beat in enumerate(plan.beats, start=1):
        mark = "✓" if number <= resolved else "▶" if number == resolved + 1 else ""
        actions = ", ".join(a.label() for a in beat.actions)
        if beat.ready:
            actions += " (ready)"
        if beat.repeats:
            actions += " (every segment)"
        rows.append((mark, beat_label(number, beat), actions, " ".join(beat.rules),
                     "; ".join(beat.why)))
    return rows + [("", "", "", "", note) for note in plan.notes]


class PlanView(DataTable):
    shown: list[tuple[str, ...]] = []

    def on_mount(self) -> None:
        self.cursor_type = "row"
        for label in ("", "beat", "actions", "rules", "why"):
            self.add_column(label, key=label or "mark")

    def show(self, plan: Plan | None, resolved: int) -> None:
        """Redraw; when only the marks moved (a beat resolved) only they are touched."""
        rows = rows_of(plan, resolved)
        if [r[1:] for r in rows] == [r[1:] for r in self.shown]:
            for number, (row, before) in enumerate(zip(rows, self.shown, strict=True)):
                if row[0] != before[0]:
                    self.update_cell(str(number), "mark", row[0])
        else:
            self.clear()
            for number, row in enumerate(rows):
                self.add_row(*row, key=str(number))
        self.shown = rows
        if plan is not None and resolved < len(plan.beats):
            self.move_cursor(row=resolved)
