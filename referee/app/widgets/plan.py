"""The plan: the round's beats with their rules and why; resolved ones checked off,
the current one marked, skipped actions and notes below."""

from __future__ import annotations

from referee.session.view import PlanRow

from .lines import LineTable

STYLES = {"▶": "bold", "✓": "dim", "✗": "dim"}


class PlanView(LineTable):
    def __init__(self, id: str | None = None) -> None:
        super().__init__(("", "beat", "actions", "rules", "why"), id=id)
        self.cells: dict[int, tuple[PlanRow, tuple[tuple[str, str], ...]]] = {}

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
        self.set_rows([r.key for r in rows], fresh)
        if current is not None:
            self.follow(self.keys.index(str(current)))
