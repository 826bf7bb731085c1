"""The initiative tracker: every combatant, in the round's order once it is known."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from referee.engine import Fight
from referee.engine.plan import Plan

SIDE_COLOURS = ["dodger_blue1", "red1", "green3", "gold1", "magenta", "cyan"]


def order(fight: Fight, plan: Plan | None) -> list[str]:
    """Roster order while declaring; the plan's order (then the rest) once it exists."""
    ids = list(fight.roster)
    if plan is None or not plan.beats:
        return ids
    seen: list[str] = []
    for beat in plan.beats:
        for action in beat.actions:
            if action.actor not in seen:
                seen.append(action.actor)
    return seen + [cid for cid in ids if cid not in seen]


def hit_points(fight: Fight, cid: str) -> str:
    status = fight.status[cid]
    if fight.ruleset.id == "count-up":
        return f"S{status.stress} W{status.wounds}/{status.max_hp}"
    return f"{status.hp}/{status.max_hp}"


def state(fight: Fight, cid: str) -> str:
    status = fight.status[cid]
    if status.dead:
        return "dead"
    if fight.ruleset.id == "count-up":
        word = fight.ruleset.condition(fight.roster[cid], status)
        return "" if word == "fine" else word
    if status.hp < 0:
        return "dying"
    return "down" if status.hp == 0 else ""


def declared(fight: Fight, cid: str) -> str:
    for _, decl in fight.declared(max(fight.round, 1)):
        if decl.actor == cid and decl.segment is None:
            what = decl.weapon or decl.spell or decl.device or ""
            spell = fight.roster[cid].spell(decl.spell) if decl.spell else None
            if spell is not None and spell.casting_time is not None:
                what += f" ({spell.casting_time} seg)"
            text = f"{decl.action} {what}".strip()
            if decl.target:
                text += f" → {', '.join(decl.target)}"
            if decl.spell and (fight.round, cid) in fight.lost_spells:
                text += " (lost)"
            return text
    return ""


def conditions(fight: Fight, cid: str) -> str:
    items = fight.status[cid].conditions.items()
    return ", ".join(f"{name} {left}" if left else name for name, left in items)


def same(cell: object) -> object:
    """What makes two cells look the same: Rich's Text equality ignores the style."""
    return (cell.plain, str(cell.style)) if isinstance(cell, Text) else cell


class Tracker(DataTable):
    """Rows keyed by combatant id; the actors of the current beat are marked."""

    COLUMNS = ("", "combatant", "side", "hp", "declared", "conditions", "state")

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        for label in self.COLUMNS:
            self.add_column(label, key=label or "mark")

    shown: list[tuple[str, tuple]] = []

    def show(self, fight: Fight, plan: Plan | None, current: set[str]) -> None:
        """Redraw; when the order is unchanged only the cells that changed are touched."""
        rows = [(cid, self.cells(fight, cid, cid in current)) for cid in order(fight, plan)]
        if [cid for cid, _ in rows] == [cid for cid, _ in self.shown]:
            for (cid, cells), (_, before) in zip(rows, self.shown, strict=True):
                for label, new, old in zip(self.COLUMNS, cells, before, strict=True):
                    if same(new) != same(old):
                        self.update_cell(cid, label or "mark", new)
        else:
            keep = self.selected()
            self.clear()
            for cid, cells in rows:
                self.add_row(*cells, key=cid)
            if keep is not None:
                self.select(keep)
        self.shown = rows

    @staticmethod
    def cells(fight: Fight, cid: str, acting: bool) -> tuple:
        combatant = fight.roster[cid]
        sides = [s.id for s in fight.encounter.sides]
        colour = SIDE_COLOURS[sides.index(combatant.side) % len(SIDE_COLOURS)]
        name = Text(combatant.name, style="bold" if acting else "")
        side = Text(fight.encounter.side(combatant.side).name, style=colour)
        return ("▶" if acting else "", name, side, hit_points(fight, cid),
                declared(fight, cid), conditions(fight, cid), state(fight, cid))

    def selected(self) -> str | None:
        if self.row_count == 0:
            return None
        row = self.coordinate_to_cell_key(self.cursor_coordinate).row_key
        return row.value

    def select(self, cid: str) -> None:
        try:
            self.move_cursor(row=self.get_row_index(cid))
        except Exception:  # a combatant no longer shown: keep the cursor where it is
            return
