"""The plan: the round's beats with their rules and why; resolved ones checked off,
the current one marked, skipped actions and notes below."""

from __future__ import annotations

from referee.session.view import PlanRow

from .lines import LineTable

STYLES = {"▶": "bold", "✓": "dim", "✗": "dim"}


class PlanView(LineTable):
    def __init__(self, id: str | None = None) -> None:
        super().__init__(("", "beat", "actions", "rules", "why"), id=id)

    def show(self, rows: list[PlanRow], current: int | None) -> None:
        self.set_rows([r.key for r in rows],
                      [((r.mark, "bold"), (r.label, STYLES.get(r.mark, "")),
                        (r.actions, STYLES.get(r.mark, "")), (r.rules, "dim"), (r.why, ""))
                       for r in rows])
        if current is not None:
            self.cursor = current - 1
