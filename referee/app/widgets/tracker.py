"""The initiative tracker: every combatant, in the round's order once it is known."""

from __future__ import annotations

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.plan import Plan

from .lines import LineTable

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


def declarations(fight: Fight) -> dict[str, ev.Declare]:
    return {d.actor: d for _, d in fight.declared(max(fight.round, 1)) if d.segment is None}


def declared(fight: Fight, cid: str, decl: ev.Declare | None) -> str:
    if decl is None:
        return ""
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


def conditions(fight: Fight, cid: str) -> str:
    items = fight.status[cid].conditions.items()
    return ", ".join(f"{name} {left}" if left else name for name, left in items)


class Tracker(LineTable):
    """Rows keyed by combatant id; the actors of the current beat are marked."""

    COLUMNS = ("", "combatant", "side", "hp", "declared", "conditions", "state")

    def __init__(self, id: str | None = None) -> None:
        super().__init__(self.COLUMNS, id=id)
        self.shown: dict[str, tuple[tuple, tuple]] = {}  # id -> (what it depends on, cells)

    def show(self, fight: Fight, plan: Plan | None, current: set[str]) -> None:
        """A row is worked out again only when its combatant changed."""
        decls = declarations(fight)
        ids = order(fight, plan)
        rows = {}
        for cid in ids:
            basis = self.basis(fight, cid, cid in current, decls.get(cid))
            old = self.shown.get(cid)
            fresh = old is None or old[0] != basis
            cells = self.cells(fight, cid, cid in current, decls.get(cid)) if fresh else old[1]
            rows[cid] = (basis, cells)
        keep = self.selected()
        self.shown = rows
        self.set_rows(ids, [rows[cid][1] for cid in ids])
        if keep is not None:
            self.select(keep)

    @staticmethod
    def basis(fight: Fight, cid: str, acting: bool, decl: ev.Declare | None) -> tuple:
        status = fight.status[cid]
        lost = (fight.round, cid) in fight.lost_spells
        return (acting, status.hp, status.stress, status.wounds, status.dead,
                tuple(status.conditions.items()), id(decl), lost)

    @staticmethod
    def cells(fight: Fight, cid: str, acting: bool, decl: ev.Declare | None) -> tuple:
        combatant = fight.roster[cid]
        sides = [s.id for s in fight.encounter.sides]
        colour = SIDE_COLOURS[sides.index(combatant.side) % len(SIDE_COLOURS)]
        return (("▶" if acting else "", "bold"), (combatant.name, "bold" if acting else ""),
                (fight.encounter.side(combatant.side).name, colour),
                (hit_points(fight, cid), ""), (declared(fight, cid, decl), ""),
                (conditions(fight, cid), ""), (state(fight, cid), "bold red"))
