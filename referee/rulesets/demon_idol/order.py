"""The demon-idol planner: a round's declarations and dice in, its beats with rules and
reasons out.

It collects the round's items (a declaration's routines each one), lays them out by
initiative and letter (layout.py), lets every pairwise rule move what it names (`Rules`:
pairwise.py and the modules of its rules), and turns the board into the plan's beats.
Surprise segments have beats of their own (surprise.py); what the rules add after an
event is in consequences.py.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping
from operator import is_

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.words import counted
from referee.hints import TYPE_CHECKING

from . import book, ending, stats
from . import events as di
from .attacks import AttackRules
from .board import Board
from .casters import CasterRules
from .charges import ChargeRules
from .fired import FiredRules
from .items import Item, by_place, weapon_of
from .layout import Layout
from .missiles import MissileRules
from .overrides import OverrideRules
from .settings import ID, settings_of
from .state import state_of
from .surprise import surprise_beats

if TYPE_CHECKING:
    from typing import Any, cast

    from referee.engine.model import Combatant, Weapon
    from referee.engine.port import Ruleset
    from referee.engine.view import Fight

    from .settings import Settings
else:
    from referee.hints import Any, cast


# -- collecting the round's actions -------------------------------------------------


def routines(actor: Combatant, role: str, arm: Weapon | None) -> int:
    """How many routines a declaration makes: the actor's attacks for a G, the weapon's
    rate for a missile (or a thrown weapon), else one."""
    if role == "strike":
        return stats.attacks(actor)
    if role == "discharge" and arm is not None and stats.discharged(arm):
        return stats.rate(arm)
    return 1


def expand(ruleset: Ruleset[Any], fight: Fight, index: int, decl: di.Declare,
           replaced: str | None = None) -> list[Item]:
    """One declaration's items, for a caller holding the ruleset (the tests): its
    settings are all it reads."""
    return expander(settings_of(ruleset), fight)(index, decl, replaced, False)


class Kept:
    """What a plan keeps for the next (a planner holds one): each declaration's items
    (`expander`) and each surprise segment's beats (`segment_beats`), each used while
    what it was worked out from is the same, so a new event costs only what it changes."""

    __slots__ = ("items", "segments", "rounds")

    def __init__(self) -> None:
        # the declaration's id (with the letter a failed morale check replaced) -> (the
        # declaration, its actor, the actor's rank, its index in the log, the items)
        self.items: dict[Any, tuple[di.Declare, Combatant, int, int, list[Item]]] = {}
        # (segment, segments) -> (its items, what its beats hold)
        self.segments: dict[tuple[int, int], tuple[tuple[Item, ...], list[BeatParts]]] = {}
        # (round, segments) -> (what the round's items were collected from, the items)
        self.rounds: dict[tuple[int, int], tuple[Sources, dict[int | None, list[Item]]]] = {}


# a beat's actions, rules, why, extra, tag and note (a new Beat made of copies each plan)
BeatParts = tuple[tuple[PlannedAction, ...], list[str], list[str], dict[str, Any], str, str]
KEPT = 65536  # declarations kept at most (then worked out again)
# a round's declarations (index, declaration), its roster's combatants in order, and its
# failed morale checks: while the first two are the same objects, and the checks equal,
# the round's items are the same
Sources = tuple[tuple[tuple[int, Any], ...], tuple[Any, ...], tuple[Any, ...]]


def same(now: Sources, then: Sources) -> bool:
    """Whether the sources are the same objects (compared in C: a thousand declarations
    cost microseconds)."""
    return (len(now[0]) == len(then[0]) and all(map(is_, now[0], then[0]))
            and len(now[1]) == len(then[1]) and all(map(is_, now[1], then[1]))
            and now[2] == then[2])


def expander(s: Settings, fight: Fight, kept: Kept | None = None
             ) -> Callable[[int, di.Declare, str | None, bool], list[Item]]:
    """`expand` for many declarations of one fight: what they share looked up once.
    `kept`: each declaration's items from the plans before, while the declaration, its
    actor and the actor's rank are the same objects and values (a new event costs only
    its own items); copied unless `shared` (the plan changes none of them)."""
    roster, rank_of, role_of = fight.roster, fight.roster_index, s.role_of
    avoid = s.letter_of["avoid"]

    def expand_one(index: int, decl: di.Declare, replaced: str | None,
                   shared: bool) -> list[Item]:
        actor = roster[decl.actor]
        rank = rank_of(decl.actor)
        if kept is None:
            return make(index, decl, actor, rank, replaced)
        key = id(decl) if replaced is None else (id(decl), replaced)
        found = kept.items.get(key)
        if (found is None or found[0] is not decl or found[1] is not actor
                or found[2] != rank or found[3] != index):
            if len(kept.items) >= KEPT:
                kept.items.clear()
            found = kept.items[key] = (decl, actor, rank, index,
                                       make(index, decl, actor, rank, replaced))
            for item in found[4]:
                item.to_action()
        return found[4] if shared else [item.twin() for item in found[4]]

    def make(index: int, decl: di.Declare, actor: Combatant, rank: int,
             replaced: str | None) -> list[Item]:
        letter = avoid if replaced else decl.action
        role = role_of[letter]
        if decl.routines and not replaced:
            return named_routines(index, decl, actor, rank, letter, role)
        arm = weapon_of(decl, actor, role)
        count = 1 if replaced else routines(actor, role, arm)
        if count == 1:
            return [Item(index, decl, actor, rank, letter, role, None, replaced, arm)]
        return [Item(index, decl, actor, rank, letter, role, k, None, arm)
                for k in range(1, count + 1)]

    return expand_one


def named_routines(index: int, decl: di.Declare, actor: Combatant, rank: int, letter: str,
                   role: str) -> list[Item]:
    """A G whose routines each name their weapon (and their own initiative, DI-3): one
    item a routine, in the order declared."""
    many = len(decl.routines) > 1
    return [Item(index, decl, actor, rank, letter, role, number if many else None, None,
                 actor.weapon(routine["weapon"]),
                 routine.get("initiative") or routine.get("timing"))
            for number, routine in enumerate(decl.routines, start=1)]


def collect_segments(s: Settings, fight: Fight, round_: int, segments: int,
                     kept: Kept | None = None) -> dict[int | None, list[Item]]:
    """The round's items (under None) and those of its surprise segments 1..`segments`,
    in one pass over the declarations (`kept`: see `expander`; and the round's items,
    while its declarations, roster and morale failures are the same, save with DMG-66,
    whose items are copies the plan renumbers)."""
    failed = morale_failures(fight, round_)
    copied = bool(s.book["weapon_speed_blows"])
    if kept is not None and not copied:
        sources = (tuple(fight.declared(round_)), tuple(fight.roster.values()),
                   tuple(failed.items()))
        hit = kept.rounds.get((round_, segments))
        if hit is not None and same(sources, hit[0]):
            return {where: list(items) for where, items in hit[1].items()}
        found = collect(s, fight, round_, segments, kept, failed)
        if len(kept.rounds) >= 64:
            kept.rounds.clear()
        kept.rounds[(round_, segments)] = (sources, {w: list(i) for w, i in found.items()})
        return found
    return collect(s, fight, round_, segments, kept, failed)


def collect(s: Settings, fight: Fight, round_: int, segments: int, kept: Kept | None,
            failed: Mapping[str, ev.Morale]) -> dict[int | None, list[Item]]:
    """`collect_segments` worked out: each declaration's items in turn."""
    found: dict[int | None, list[Item]] = {None: []}
    for segment in range(1, segments + 1):
        found[segment] = []
    expand_one = expander(s, fight, kept)
    # only DMG-66 renumbers an item on the board: without it the kept items are shared
    # (a plan reads them and changes none), else the round's are copies
    copied = bool(s.book["weapon_speed_blows"])
    # a declaration's kept items, looked up here first (`expand_one` does it all): a big
    # round has a thousand declarations, most of them kept
    known = kept.items if kept is not None and not copied else {}
    roster, rank_of = fight.roster, fight.roster_index
    for index, decl in fight.declared(round_):
        if not isinstance(decl, di.Declare):
            continue
        where = decl.segment
        items = found.get(where)
        if items is None:
            continue
        replaced = decl.action if where is None and decl.actor in failed else None
        hit = known.get(id(decl)) if replaced is None else None
        if (hit is not None and hit[0] is decl and hit[3] == index
                and hit[1] is roster[decl.actor] and hit[2] == rank_of(decl.actor)):
            items += hit[4]
        else:
            items += expand_one(index, decl, replaced, where is not None or not copied)
    return found


def morale_failures(fight: Fight, round_: int) -> dict[str, ev.Morale]:
    failed: dict[str, ev.Morale] = {}
    for check in state_of(fight).morale.get(round_, ()):
        if check.passed is False:
            for cid in fight.members(check.group):
                failed[cid] = check
    return failed


def side_dice(fight: Fight, round_: int, items: list[Item]) -> dict[str, int]:
    initiative = fight.initiatives[round_]
    rolls: dict[str, int] = getattr(initiative, "rolls", {})
    for item in items:
        if item.side not in rolls:
            raise IllegalEvent(
                f"round {round_}: no initiative die for side {item.side!r} (DI-2)",
                ("events", fight.initiative_at[round_], "rolls", item.side),
            )
    return dict(rolls)


# -- the pairwise rules, in the order they run ----------------------------------------


class Rules(OverrideRules, MissileRules, AttackRules, CasterRules, ChargeRules, FiredRules):
    """Every pairwise rule over one round's board (DI-6 ... DI-14 and the by-the-book
    switches): each a step of `order_round`, each moving only the actions it names."""


# -- the plan ------------------------------------------------------------------------


def build_plan(s: Settings, fight: Fight, round_: int, kept: Kept | None = None) -> Plan:
    """The round's plan (`kept`: the declarations' items worked out before, see
    `expander`). A big round allocates thousands of objects and no reference cycles: the
    cyclic collector is held off while it is worked out."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _build_plan(s, fight, round_, kept)
    finally:
        if paused:
            gc.enable()


def _build_plan(s: Settings, fight: Fight, round_: int, kept: Kept | None) -> Plan:
    plan = Plan(ID, round_, [])
    segments = getattr(state_of(fight).surprise, "segments", 0)
    found = collect_segments(s, fight, round_, segments if round_ == 1 else 0, kept)
    if round_ == 1 and segments:
        for segment in range(1, segments + 1):
            plan.beats.extend(segment_beats(s, found[segment], segment, segments, kept))
    items = found[None]
    over = ending.over(fight, round_)  # DI-20: nothing is left to roll or to wait for
    if items and round_ not in fight.initiatives:
        if not over:
            plan.notes.append(f"round {round_}: {counted(len(items), 'action')} declared; roll "
                              "initiative to order them (DI-2)")
    elif items:
        items, reloading, firing = book.slow_shots(s.role_of, fight, round_, items)
        plan.skipped.extend(reloading)
        board = order_round(s, fight, round_, items) if items else Board()
        for item, why in firing:
            board.slot_of(item).cite("DI-7", why)
        offset = len(plan.beats)
        plan.beats.extend(finish(board, fight, round_))
        plan.notes.extend(board.notes)
        starts = {index: offset + board.slots.index(slot) + 1
                  for index, slot in board.starts.items() if slot in board.slots}
        book.casting_points(fight, plan, starts)
    plan.notes.extend(morale_notes(fight, round_, due=not over))
    return ending.close(fight, plan) if over else plan


def segment_beats(s: Settings, items: list[Item], segment: int, total: int,
                  kept: Kept | None) -> list[Beat]:
    """`surprise_beats`, made again only when the segment's items are not the ones it
    was made of last (kept items: the same declarations, actors and ranks)."""
    if kept is None:
        return surprise_beats(s, items, segment, total)
    now, key = tuple(items), (segment, total)
    found = kept.segments.get(key)
    if found is None or found[0] != now:  # (an item is equal only to itself)
        parts = [(tuple(b.actions), b.rules, b.why, b.extra, b.tag, b.note)
                 for b in surprise_beats(s, items, segment, total)]
        found = kept.segments[key] = (now, parts)
    return [Beat(list(actions), list(rules), list(why), dict(extra), tag, note)
            for actions, rules, why, extra, tag, note in found[1]]


def order_round(s: Settings, fight: Fight, round_: int, items: list[Item]) -> Board:
    dice = side_dice(fight, round_, items)
    board = Board()
    Layout(s, fight, board, items, dice).run()
    rules = Rules(s, fight, board, items, dice)
    for step in (rules.overrides, rules.missiles, rules.routines, rules.casters,
                 rules.charges, rules.melee, rules.missiles_on_die, rules.devices,
                 rules.lengths, rules.extra_blows, rules.fired, rules.after_closing,
                 rules.closings, rules.routines_in_order, rules.timed_apart, rules.volleys,
                 rules.said_lost):
        step()
    return board


def finish(board: Board, fight: Fight, round_: int) -> list[Beat]:
    beats = []
    lost = state_of(fight).lost_spells
    for slot in board.slots:
        # board beats hold scheduler items until `mark` turns them into planned actions
        items = sorted(cast("list[Item]", slot.actions), key=by_place)
        actions = ([mark(lost, round_, i) for i in items] if lost
                   else [i.to_action() for i in items])
        beats.append(Beat(actions, slot.rules, slot.why, dict(slot.extra), slot.tag, slot.note))
    return beats


def mark(lost: Mapping[tuple[int, str], di.SpellLost], round_: int,
         item: Item) -> PlannedAction:
    action = item.to_action()
    if item.casting and item.decl.spell and (round_, item.actor.id) in lost:
        action = action.with_extra(lost=True)
    return action


def morale_notes(fight: Fight, round_: int, due: bool = True) -> list[str]:
    """Checks due (unless the fight is over) and failures that replaced actions."""
    notes = []
    for check in state_of(fight).morale.get(round_, ()):
        who = ", ".join(check.group)
        if check.passed is None and due:
            notes.append(f"morale check due for {who}: roll it when their side's turn comes "
                         "(DI-18)")
        if check.passed is False:
            notes.append(f"{who} failed morale: {check.avoid or 'flee'} replaces their actions "
                         "(DI-18)")
    return notes

