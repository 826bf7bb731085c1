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


class PlanView(DataTable):
    def on_mount(self) -> None:
        self.cursor_type = "row"
        for label in ("", "beat", "actions", "rules", "why"):
            self.add_column(label, key=label or "mark")

    def show(self, plan: Plan | None, resolved: int, notes: list[str] | None = None) -> None:
        self.clear()
        if plan is None:
            return
        for number, beat in enumerate(plan.beats, start=1):
            mark = "✓" if number <= resolved else "▶" if number == resolved + 1 else ""
            actions = ", ".join(a.label() for a in beat.actions)
            if beat.ready:
                actions += " (ready)"
            if beat.repeats:
                actions += " (every segment)"
            self.add_row(mark, beat_label(number, beat), actions, " ".join(beat.rules),
                         "; ".join(beat.why), key=str(number))
        for note in (notes or []) + plan.notes:
            self.add_row("", "", "", "", note)
        if resolved < len(plan.beats):
            self.move_cursor(row=resolved)
