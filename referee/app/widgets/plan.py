"""The plan: the round's beats with their rules and why; resolved ones checked off."""

from __future__ import annotations

from referee.engine.plan import Plan

from .lines import LineTable


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


class PlanView(LineTable):
    def __init__(self, id: str | None = None) -> None:
        super().__init__(("", "beat", "actions", "rules", "why"), id=id)

    def show(self, plan: Plan | None, resolved: int) -> None:
        rows = rows_of(plan, resolved)
        self.set_rows([str(n) for n in range(len(rows))],
                      [tuple((text, "bold" if n == 0 else "") for n, text in enumerate(row))
                       for row in rows])
        if plan is not None and resolved < len(plan.beats):
            self.cursor = resolved
