"""The one view model of a fight: tracker rows, plan rows, log lines and the status line.

Built from the fight, its plan and the ruleset's specs; the command line's text, the
Markdown export, the JSON and the app's widgets only format what is here, so they all
say the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.options import Declaring, Grouping
from referee.engine.plan import Beat, Plan
from referee.engine.port import NO_GROUPS
from referee.engine.record import field, record
from referee.engine.specs import Cell, Column

MARK = Column("mark", "", 1)
CORE_HEAD = (Column("name", "combatant", 18), Column("side", "side", 10, fold=3))
CORE_TAIL = (Column("declared", "declared", 22, fold=1),
             Column("conditions", "conditions", 14, fold=2), Column("state", "state", 12))


@record(frozen=True)
class TrackerRow:
    key: str
    cells: tuple[Cell, ...]  # one per column
    acting: bool = False


@record(frozen=True)
class PlanRow:
    key: str
    mark: str  # ✓ done, ▶ now, ✗ skipped, "" to come
    label: str  # the beat's number and tag ("3", "2 @13", "1 s1")
    actions: str
    rules: str
    why: str


@record(frozen=True)
class LogLine:
    number: int  # 1-based, as the log and `replay --to N` count
    round: int
    text: str

    def __str__(self) -> str:
        return f"{self.number:>5}. {self.text}"


@record
class View:
    columns: tuple[Column, ...]
    rows: list[TrackerRow]
    plan: list[PlanRow] = field(default_factory=list)
    current: int | None = None  # the beat (1-based) to resolve next
    status: str = ""
    acting: set[str] = field(default_factory=set)  # who acts in it


# -- the tracker -----------------------------------------------------------------------


def columns(fight: Fight) -> tuple[Column, ...]:
    ruleset = fight.ruleset
    tail = CORE_TAIL if ruleset.role(Declaring) else CORE_TAIL[1:]
    return (MARK,) + CORE_HEAD + tuple(ruleset.tracker.columns()) + tail


def row_groups(fight: Fight) -> Mapping[str, tuple[str, str]]:
    """The tracker's groups by row, as the ruleset's grouping role has them (none: one
    mapping, the same every time, so a tracker keeps its rows)."""
    grouping = fight.ruleset.role(Grouping)
    return grouping.row_groups(fight) if grouping is not None else NO_GROUPS


# a player's declared cell while their own page is open and they have not declared
DECIDING = Cell("deciding… (page)", "dim")
BLANK = Cell("")  # a column a row has nothing for (cells are frozen: one serves all)


def declared_text(fight: Fight, cid: str, decl: ev.Declare | None) -> str:
    """A declaration in the tracker's few columns, as its ruleset words it ("" none),
    marked when it came from the player's own page."""
    declaring = fight.ruleset.role(Declaring)
    if declaring is None or decl is None:
        return ""
    text = declaring.declared_text(fight, cid, decl)
    return f"page: {text}" if decl.from_device else text  # first: a narrow column cuts the end


def declarations(fight: Fight) -> dict[str, ev.Declare]:
    return {d.actor: d for _, d in fight.declared(max(fight.round, 1))
            if d.step is None}


def order(fight: Fight, plan: Plan | None) -> list[str]:
    """Roster order while declaring; the plan's order (then the rest) once it exists."""
    ids = list(fight.roster)
    if plan is None or not plan.beats:
        return ids
    seen: dict[str, None] = {}
    for beat in plan.beats:
        for action in beat.actions:
            seen.setdefault(action.actor, None)
    return list(seen) + [cid for cid in ids if cid not in seen]


GROUP = "group:"  # the key of a group's heading row in the tracker


def grouped(fight: Fight, ids: list[str], folded: set[str]) -> list[tuple[str, str]]:
    """The tracker's rows with the ruleset's groups: each group's heading ("group:KEY",
    its label) where its first member would be, then its members unless it is folded;
    rows with no group stay where they are. (key, "") for a combatant's row."""
    label_of: dict[str, str] = {}
    members: dict[str, list[str]] = {}
    placed: list[tuple[str, str]] = []
    groups = row_groups(fight)
    for cid in ids:
        found = groups.get(cid)
        if found is None:
            placed.append((cid, ""))
            continue
        key, label = found
        if key not in members:
            members[key], label_of[key] = [], label
            placed.append((GROUP + key, ""))
        members[key].append(cid)
    out: list[tuple[str, str]] = []
    for key, _ in placed:
        if not key.startswith(GROUP):
            out.append((key, ""))
            continue
        group = key[len(GROUP):]
        count = len(members[group])
        out.append((key, f"{label_of[group]} · {count} unit{'s' if count != 1 else ''}"))
        if group not in folded:
            out += [(cid, "") for cid in members[group]]
    return out


def group_row(key: str, label: str, folded: bool, acting: int,
              cols: tuple[Column, ...]) -> TrackerRow:
    """A group's heading: ▸ folded, ▾ open; how many of its members act now."""
    cells = {"mark": Cell("▸" if folded else "▾", "strong"),
             "name": Cell(label, "strong"),
             "state": Cell(f"{acting} acting" if acting else "", "good")}
    return TrackerRow(key, tuple(cells.get(c.key, BLANK) for c in cols))


def side_tone(fight: Fight, side: str) -> str:
    ids = [s.id for s in fight.encounter.sides]
    return f"side{ids.index(side) % 6}" if side in ids else ""


def conditions_text(fight: Fight, cid: str) -> str:
    items = fight.status[cid].conditions.items()
    return ", ".join(f"{name} {left}" if left else name for name, left in items)


def tracker_row(fight: Fight, cid: str, acting: bool, decl: ev.Declare | None,
                cols: tuple[Column, ...]) -> TrackerRow:
    ruleset = fight.ruleset
    combatant = fight.roster[cid]
    side = fight.encounter.side(combatant.side)
    cells: dict[str, Cell] = {
        "mark": Cell("▶" if acting else "", "strong"),
        "name": Cell(combatant.name, "strong" if acting else ""),
        "side": Cell(side.name if side else combatant.side, side_tone(fight, combatant.side)),
        "declared": Cell(declared_text(fight, cid, decl)),
        "conditions": Cell(conditions_text(fight, cid)),
        "state": Cell(ruleset.tracker.state_word(fight, cid), "bad"),
    }
    cells.update(ruleset.tracker.cells(fight, cid))
    return TrackerRow(cid, tuple(cells.get(c.key, BLANK) for c in cols), acting)


def tracker(fight: Fight, plan: Plan | None, acting: set[str]) -> list[TrackerRow]:
    cols = columns(fight)
    decls = declarations(fight)
    return [tracker_row(fight, cid, cid in acting, decls.get(cid), cols)
            for cid in order(fight, plan)]


def row_basis(fight: Fight, cid: str, acting: bool, decl: ev.Declare | None) -> tuple[Any, ...]:
    """What a tracker row is worked out from: a row whose basis did not change is kept.
    The core's part (the fight, the combatant, its status, its declaration, whether it
    acts; objects held with their ids, so an id is never another's), then the ruleset's
    (`Tracker.row_basis`: by default its whole state; what only a ruleset keeps, such as
    count-up's stabilised, is in the marks or there)."""
    status = fight.status[cid]
    return (acting, status.hp, status.max_hp, status.dead, tuple(status.conditions.items()),
            tuple(status.marks.items()), id(decl), decl, id(fight), fight,
            fight.roster[cid], fight.ruleset.tracker.row_basis(fight, cid))


# -- the plan ------------------------------------------------------------------------------


def beat_label(number: int, beat: Beat) -> str:
    return f"{number} {beat.tag}" if beat.tag else str(number)


def actions_text(beat: Beat, fight: Fight | None = None) -> str:
    """A beat's actions by their labels (`gob1:G`), or by names with a fight (`Goblin 1:
    G`: the players' view), each marked lost or skipped, and the beat's note."""
    parts = []
    for action in beat.actions:
        text = (action.label() if fight is None else
                action_words(fight, action.actor, action.action, action.routine))
        if action.extra:  # (most actions have no extra: neither lost nor skipped)
            if action.flag("lost"):
                text += " [lost]"
            if action.flag("skipped"):
                text += " [skipped]"
        parts.append(text)
    text = ", ".join(parts)
    return f"{text} ({beat.note})" if beat.note else text


def action_words(fight: Fight, actor: str, action: str, routine: object = None) -> str:
    """One planned action by its combatant's name, not its id: `Goblin 1: G`."""
    combatant = fight.roster.get(actor)
    who = combatant.name if combatant is not None else actor
    return f"{who}: {action}" + (f" #{routine}" if routine is not None else "")


_ACTION_KEY = re.compile(r"(?:s-?\d+:)?(?P<actor>[^:]+):(?P<action>[^#~@]+)"
                         r"(?:#(?P<routine>[^~@]+))?(?:~[^@]*)?(?:@\w+)?")


def key_words(fight: Fight, key: str) -> str:
    """A resolved action's key (`plan.action_key`: `s2:gob1:G#1~3`) by its combatant's
    name: `Goblin 1: G #1`; a key of another shape as it is."""
    found = _ACTION_KEY.fullmatch(key)
    if found is None:
        return key
    return action_words(fight, found["actor"], found["action"], found["routine"])


def current_beat(plan: Plan | None, resolved: set[str]) -> int | None:
    return None if plan is None else plan.current(resolved)


# The rows of the last plan drawn, by beat and mark: a key press that checks one beat off
# works out that row again, not the whole plan (plans are worked out anew on any change
# that shapes them, so a beat object stands for what it says).
_ROWS: dict[tuple[int, int, str], tuple[Beat, PlanRow]] = {}


def reached_beat(plan: Plan, resolved: set[str], now: int | None) -> int:
    """How far the round got: the current beat; with none, past every beat, unless the
    fight ended in it (then just past the last beat with something done)."""
    if now is not None:
        return now
    if not plan.over:
        return len(plan.beats) + 1
    touched = [number for number, beat in enumerate(plan.beats, start=1)
               if any(key in resolved for key in beat.action_keys())]
    return max(touched, default=0) + 1


def plan_rows(plan: Plan | None, resolved: set[str], kept: bool = True) -> list[PlanRow]:
    """A row a beat, each point of the plan (a spell's start) just before the beat it
    precedes, then what was skipped and the notes. `kept`: the rows are kept for the
    next drawing of the same beats (`_ROWS`); a past round's order (a replay's, a
    recap's) is drawn once."""
    if plan is None:
        return []
    if not resolved and not kept:
        return past_rows(plan)
    now = plan.current(resolved)
    rows = []
    if len(_ROWS) > 4 * len(plan.beats) + 64:
        _ROWS.clear()
    points = points_before(plan) if plan.points else {}
    reached = reached_beat(plan, resolved, now)
    for number, beat in enumerate(plan.beats, start=1):
        if points:
            rows += points.pop(number, [])
        # a beat with nothing to do (a phase where all hold) is passed, not done, until
        # the round has gone past it; one whose actions were resolved is done, though
        # some in it could not act (skipped); with none resolved (a past round's order
        # in a replay), no key is looked for
        keys = beat.action_keys() if resolved else beat.actions
        done = bool(resolved) and all(key in resolved or action.flag("skipped") for key, action
                                      in zip(keys, beat.actions, strict=True)) and any(
            key in resolved for key in keys) if keys else number < reached
        mark = "✓" if done else "▶" if number == now else ""
        found = _ROWS.get((id(beat), number, mark))
        if found is None or found[0] is not beat:
            row = PlanRow(str(number), mark, beat_label(number, beat), actions_text(beat),
                          " ".join(beat.rules), "; ".join(beat.why))
            found = (beat, row)
            _ROWS[(id(beat), number, mark)] = found
        rows.append(found[1])
    return rows + closing_rows(plan, points)


def past_rows(plan: Plan) -> list[PlanRow]:
    """`plan_rows(plan, set())`, none kept: with nothing resolved, the beat under way is
    the first with an action not skipped (`Plan.current`, without the actions' keys),
    and a beat is done only if it has no action and comes before it."""
    beats = plan.beats
    now = None if plan.over else next(
        (number for number, beat in enumerate(beats, start=1)
         if any(not action.flag("skipped") for action in beat.actions)), None)
    reached = reached_beat(plan, set(), now)
    points = points_before(plan) if plan.points else {}
    rows = []
    for number, beat in enumerate(beats, start=1):
        if points:
            rows += points.pop(number, [])
        mark = ("▶" if number == now else "") if beat.actions else \
            "✓" if number < reached else "▶" if number == now else ""
        rows.append(PlanRow(str(number), mark, beat_label(number, beat), actions_text(beat),
                            " ".join(beat.rules), "; ".join(beat.why)))
    return rows + closing_rows(plan, points)


def closing_rows(plan: Plan, points: dict[int, list[PlanRow]]) -> list[PlanRow]:
    """After the beats: the points left (each after the last beat), what was skipped and
    the notes."""
    rows = [row for late in points.values() for row in late]
    for n, skipped in enumerate(plan.skipped):
        rows.append(PlanRow(f"skip{n}", "✗", "skipped", f"{skipped['actor']}:{skipped['action']}",
                            str(skipped.get("rule", "")), str(skipped["why"])))
    for n, note in enumerate(plan.notes):
        rows.append(PlanRow(f"note{n}", "", "note", "", "", note))
    return rows


def points_before(plan: Plan) -> dict[int, list[PlanRow]]:
    """The plan's points as rows, by the number of the beat each comes before."""
    found: dict[int, list[PlanRow]] = {}
    for n, point in enumerate(plan.points):
        row = PlanRow(f"point{n}", "", str(point["point"]),
                      f"{point['actor']}:{point['action']}",
                      " ".join(point.get("rules", ())), str(point["why"]))
        found.setdefault(int(point["before"]), []).append(row)
    return found


# -- the status line -------------------------------------------------------------------------


def status_text(fight: Fight, title: str) -> str:
    parts = [title, fight.ruleset.name, f"round {max(fight.round, 1)}",
             fight.ruleset.tracker.phase_word(fight)]
    parts += fight.ruleset.tracker.status_parts(fight)
    if fight.ended:
        parts.append("the fight is over")
    return " · ".join(part for part in parts if part)


def build(fight: Fight, plan: Plan | None, title: str, rows: bool = True) -> View:
    """The whole view; without `rows`, all but the tracker's rows (a widget that keeps the
    rows it drew works out only the ones that changed, through `tracker_row`)."""
    resolved = fight.resolved.get(max(fight.round, 1), set())
    now = current_beat(plan, resolved)
    acting = acting_in(plan, now)
    found = tracker(fight, plan, acting) if rows else []
    return View(columns(fight), found, plan_rows(plan, resolved), now,
                status_text(fight, title), acting)


def acting_in(plan: Plan | None, beat: int | None) -> set[str]:
    """Who acts in beat `beat` (1-based): those not marked skipped."""
    if plan is None or beat is None:
        return set()
    return {a.actor for a in plan.beats[beat - 1].actions if not a.flag("skipped")}
