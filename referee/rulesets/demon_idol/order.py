"""The demon-idol scheduler: declarations and dice in, beats with rules and reasons out."""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from typing import TYPE_CHECKING, cast

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent, RefereeError
from referee.engine.plan import Beat, Plan, PlannedAction

from . import book, ending, stats
from . import events as di
from .board import Board, mark_ready, ready, repeats
from .items import INITIATIVE, Item, weapon_of

if TYPE_CHECKING:
    from referee.engine.fight import Fight
    from referee.engine.model import Combatant, Weapon

    from .ruleset import DemonIdol


# -- collecting the round's actions -------------------------------------------------


def routines(rs: DemonIdol, actor: Combatant, role: str, arm: Weapon | None) -> int:
    """How many routines a declaration makes: the actor's attacks for a G, the weapon's
    rate for a missile (or a thrown weapon), else one."""
    if role == "strike":
        return stats.attacks(actor)
    if role == "discharge" and arm is not None and stats.discharged(arm):
        return stats.rate(arm)
    return 1


def expand(rs: DemonIdol, fight: Fight, index: int, decl: di.Declare,
           replaced: str | None = None) -> list[Item]:
    return expander(rs, fight)(index, decl, replaced)


def expander(rs: DemonIdol, fight: Fight) -> Callable[[int, di.Declare, str | None],
                                                      list[Item]]:
    """`expand` for many declarations of one fight: what they share looked up once."""
    roster, rank_of, role_of = fight.roster, fight.roster_index, rs.role_of
    avoid = rs.letter_of["avoid"]

    def expand_one(index: int, decl: di.Declare, replaced: str | None) -> list[Item]:
        actor = roster[decl.actor]
        letter = avoid if replaced else decl.action
        role = role_of[letter]
        rank = rank_of(actor.id)
        if decl.routines and not replaced:
            return named_routines(index, decl, actor, rank, letter, role)
        arm = weapon_of(decl, actor, role)
        count = 1 if replaced else routines(rs, actor, role, arm)
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
                 actor.weapon(routine["weapon"]), routine.get("initiative"))
            for number, routine in enumerate(decl.routines, start=1)]


def collect_segments(rs: DemonIdol, fight: Fight, round_: int,
                     segments: int) -> dict[int | None, list[Item]]:
    """The round's items (under None) and those of its surprise segments 1..`segments`,
    in one pass over the declarations."""
    failed = morale_failures(fight, round_)
    found: dict[int | None, list[Item]] = {None: []}
    for segment in range(1, segments + 1):
        found[segment] = []
    expand_one = expander(rs, fight)
    for index, decl in fight.declared(round_):
        if not isinstance(decl, di.Declare):
            continue
        where = decl.segment
        items = found.get(where)
        if items is None:
            continue
        replaced = decl.action if where is None and decl.actor in failed else None
        items += expand_one(index, decl, replaced)
    return found


def morale_failures(fight: Fight, round_: int) -> dict[str, ev.Morale]:
    failed: dict[str, ev.Morale] = {}
    for check in fight.morale.get(round_, []):
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


# -- the plan ------------------------------------------------------------------------


def build_plan(rs: DemonIdol, fight: Fight, round_: int) -> Plan:
    """The round's plan. A big round allocates thousands of objects and no reference
    cycles: the cyclic collector is held off while it is worked out."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _build_plan(rs, fight, round_)
    finally:
        if paused:
            gc.enable()


def _build_plan(rs: DemonIdol, fight: Fight, round_: int) -> Plan:
    plan = Plan(rs.id, round_, [])
    segments = getattr(fight.surprise, "segments", 0)
    found = collect_segments(rs, fight, round_, segments if round_ == 1 else 0)
    if round_ == 1 and segments:
        for segment in range(1, segments + 1):
            plan.beats.extend(surprise_beats(rs, found[segment], segment, segments))
    items = found[None]
    over = ending.over(fight, round_)  # DI-20: nothing is left to roll or to wait for
    if items and round_ not in fight.initiatives:
        if not over:
            plan.notes.append(f"round {round_}: {len(items)} action(s) declared; roll "
                              "initiative to order them (DI-2)")
    elif items:
        items, reloading, firing = book.slow_shots(rs, fight, round_, items)
        plan.skipped.extend(reloading)
        board = order_round(rs, fight, round_, items) if items else Board()
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


def order_round(rs: DemonIdol, fight: Fight, round_: int, items: list[Item]) -> Board:
    dice = side_dice(fight, round_, items)
    board = Board()
    Layout(rs, fight, board, items, dice).run()
    rules = Rules(rs, fight, board, items, dice)
    for step in (rules.overrides, rules.missiles, rules.routines, rules.casters,
                 rules.charges, rules.melee, rules.missiles_on_die, rules.devices,
                 rules.lengths, rules.extra_blows, rules.fired, rules.after_closing,
                 rules.closings, rules.routines_in_order, rules.volleys, rules.said_lost):
        step()
    return board


def finish(board: Board, fight: Fight, round_: int) -> list[Beat]:
    beats = []
    lost = fight.rs.lost_spells
    for slot in board.slots:
        # board beats hold scheduler items until `mark` turns them into planned actions
        items = sorted(cast("list[Item]", slot.actions), key=_place)
        if lost:
            actions = [mark(fight, round_, i) for i in items]
        else:
            actions = [i.to_action() for i in items]
        beats.append(Beat(actions, slot.rules, slot.why, dict(slot.extra), slot.tag, slot.note))
    return beats


_place = attrgetter("place")


def mark(fight: Fight, round_: int, item: Item) -> PlannedAction:
    action = item.to_action()
    if item.casting and item.decl.spell and (round_, item.actor.id) in fight.rs.lost_spells:
        action = action.with_extra(lost=True)
    return action


def morale_notes(fight: Fight, round_: int, due: bool = True) -> list[str]:
    """Checks due (unless the fight is over) and failures that replaced actions."""
    notes = []
    for check in fight.morale.get(round_, []):
        who = ", ".join(check.group)
        if check.passed is None and due:
            notes.append(f"morale check due for {who}: roll it when their side's turn comes "
                         "(DI-18)")
        if check.passed is False:
            notes.append(f"{who} failed morale: {check.avoid or 'flee'} replaces their actions "
                         "(DI-18)")
    return notes


# -- DI-3 / DI-4 with the tie splits of DI-11, DI-12 and the delay of DI-16 -----------


class Layout:
    def __init__(self, rs: DemonIdol, fight: Fight, board: Board, items: list[Item],
                 dice: dict[str, int]) -> None:
        self.rs, self.fight, self.board, self.items, self.dice = rs, fight, board, items, dice
        self.by_step: dict[tuple[str, str], list[Item]] = defaultdict(list)
        for item in sorted(items, key=_place):  # roster order: a beat's why whatever was
            self.by_step[(item.side, item.letter)].append(item)  # declared first
        order = [s.id for s in fight.encounter.sides]
        in_play = sorted({i.side for i in items if i.role != "psionic"},
                         key=lambda s: (-dice[s], order.index(s)))
        self.groups: list[list[str]] = []
        for side in in_play:
            if self.groups and dice[self.groups[-1][0]] == dice[side]:
                self.groups[-1].append(side)
            else:
                self.groups.append([side])
        self.many_sides = len(in_play) > 2

    def run(self) -> None:
        psionic = [i for i in self.items if i.role == "psionic"]
        if psionic:
            self.board.add(psionic, ["DI-5"], ["psionic combat: at the top of every segment"],
                           repeats=True)
        for number, group in enumerate(self.groups):
            for letter in self.rs.order:
                step = [i for side in group for i in self.by_step.get((side, letter), [])]
                if step:
                    self.lay_step(number, group, letter, step)

    def lay_step(self, number: int, group: list[str], letter: str, step: list[Item]) -> None:
        tied = len(group) > 1
        role = self.rs.role_of[letter]
        base_rule, base_why = self.step_reason(number, group, letter)
        buckets: dict[tuple[float, ...], tuple[list[Item], list[str], list[str]]] = {}
        keyed = list(self.keys(tied, role, step, group))
        ranks = (delay_ranks([(item, time_key) for item, time_key, _, _ in keyed])
                 if any(item.delay for item in step) else None)
        many_sides = self.many_sides
        for item, time_key, rules, why in keyed:
            prepared = item.decl.prepared
            slot_key = time_key + ((ranks[id(item)] if ranks else 0), prepared)
            entry = buckets.get(slot_key)
            if entry is None:  # (with many sides, DI-2 comes first: its first item adds it)
                entry = buckets[slot_key] = (
                    [], [base_rule, "DI-2"] if many_sides else [base_rule], [base_why])
            members, cites, whys = entry
            members.append(item)
            for rule in rules:
                if rule not in cites:
                    cites.append(rule)
            for text in why:
                if text not in whys:
                    whys.append(text)
            if item.delay and "DI-16" not in cites:
                cites.append("DI-16")
                whys.append(self.delay_rank_note(item, letter))
            if prepared and "DI-14" not in cites:
                cites.append("DI-14")
                whys.append("prepared: becomes ready here, fires when its trigger happens")
            if item.replaced and "DI-18" not in cites:
                cites.append("DI-18")
                whys.append(f"failed morale: avoidance replaces the declared {item.replaced}")
        for slot_key in sorted(buckets):
            members, cites, whys = buckets[slot_key]
            self.board.add(members, cites, whys, ready=bool(slot_key[-1]))

    @staticmethod
    def delay_rank_note(item: Item, letter: str) -> str:
        return f"declared {item.delay} segment(s) late, after its side's undelayed {letter}"

    def step_reason(self, number: int, group: list[str], letter: str) -> tuple[str, str]:
        die = self.dice[group[0]]
        names = " and ".join(group)
        if len(group) > 1:
            return "DI-4", f"tied initiative ({die} each): {letter} for {names}"
        others = [self.dice[g[0]] for g in self.groups if g is not group]
        if not others:
            return "DI-3", f"{possessive(names)} {letter} (die {die})"
        if number == 0:
            return "DI-3", f"{names} won initiative ({die} vs {max(others)}): its {letter}"
        best = self.dice[self.groups[0][0]]
        return "DI-3", f"{names} lost initiative ({die} vs {best}): its {letter} after the winner"

    def keys(self, tied: bool, role: str, step: list[Item],
             group: list[str]) -> Iterator[tuple[Item, tuple[float, ...], list[str], list[str]]]:
        if tied and role == "strike":
            yield from self.speed_factor_keys(step)
        elif tied and role == "discharge" and self.mixed_discharge(step):
            yield from self.tied_discharge_keys(step, self.dice[group[0]])
        else:
            for item in step:
                yield item, (), _NONE, _NONE

    @staticmethod
    def speed_factor_keys(
            step: list[Item]) -> Iterator[tuple[Item, tuple[float, ...], list[str], list[str]]]:
        factors = {id(i): factor_of(i) for i in step}
        lowest = min((f for f in factors.values() if f is not None), default=0)
        for item in step:
            factor = factors[id(item)]
            if factor is not None:
                time = factor + item.delay
                why = f"tied round: G by speed factor, low to high ({factor})"
            else:
                time = lowest + item.delay
                why = "tied round: attacks without a speed factor join the first G beat"
            yield item, (time,), ["DI-11"], [why]

    @staticmethod
    def mixed_discharge(step: list[Item]) -> bool:
        casting = [i for i in step if i.casting]
        return bool(casting) and len(casting) < len(step)

    @staticmethod
    def tied_discharge_keys(
            step: list[Item],
            die: int) -> Iterator[tuple[Item, tuple[float, ...], list[str], list[str]]]:
        shots = sorted({die + i.delay for i in step if not i.casting})
        for item in step:
            if not item.casting:
                yield item, (die + item.delay,), ["DI-12"], [
                    "tied round: missiles and turning at the tied die"]
                continue
            time = item.cast_time()
            if time in shots:
                yield item, (time,), ["DI-12"], [
                    f"tied round: casting time {time} = die {die}, with the missiles"]
                continue
            earlier = [s for s in shots if s < time]
            place = (earlier[-1] + 0.5) if earlier else shots[0] - 0.5
            relation = f"{time} < die {die}, before" if time < die else f"{time} > die {die}, after"
            yield item, (place,), ["DI-12"], [
                f"tied round: casting time {relation} the missiles"]


_NONE: list[str] = []  # no rules or reasons (never added to)


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def reaction_sum(die: int, reaction: int, delay: int) -> str:
    """DI-6's sum as a person says it: `die 1 + reaction 2 = 3`."""
    text = f"die {die}"
    if reaction:
        text += f" {'+' if reaction > 0 else '-'} reaction {abs(reaction)}"
    if delay:
        text += f" - delay {delay}"
    return f"{text} = {die + reaction - delay}"


def delay_ranks(keyed: list[tuple[Item, tuple[float, ...]]]) -> dict[int, int]:
    """DI-16: a delayed action sorts after undelayed actions of its letter on its own side.

    Within one time (or one letter when there is no time), each side's actions are ranked
    by delay; actions of different sides with the same rank still share a beat.
    """
    delays: dict[tuple[tuple[float, ...], str], set[int]] = defaultdict(set)
    for item, time_key in keyed:
        delays[(time_key, item.side)].add(item.delay)
    ranks = {where: {delay: rank for rank, delay in enumerate(sorted(found))}
             for where, found in delays.items()}
    return {id(item): ranks[(time_key, item.side)][item.delay] for item, time_key in keyed}


# -- DI-6 ... DI-10, DI-13 and fired preparations (DI-14) -----------------------------


class Rules:
    def __init__(self, rs: DemonIdol, fight: Fight, board: Board, items: list[Item],
                 dice: dict[str, int]) -> None:
        self.rs, self.fight, self.board, self.dice = rs, fight, board, dice
        self.book = rs.book  # the by-the-book switches (all off: the DI procedure)
        self.items = [i for i in items if not i.decl.prepared and i.role != "psionic"]
        self.prepared = [i for i in items if i.decl.prepared]
        self.by_decl: dict[int, list[Item]] = defaultdict(list)
        self.by_actor: dict[str, list[Item]] = defaultdict(list)
        self.aimed_at: dict[str, list[Item]] = defaultdict(list)
        self.aims: dict[int, list[str]] = {}
        self.first_items: list[Item] = []
        self.lost: list[tuple[Item, str]] = []  # shots without their reaction bonus (DI-6)
        self.first_discharge: dict[str, Item] = {}  # each side's first D item
        for item in self.items:
            if item.role == "discharge" and item.side not in self.first_discharge:
                self.first_discharge[item.side] = item
        self.sides = {i.side for i in self.items}
        self.letter_rank = {letter: n for n, letter in enumerate(rs.order)}
        roster, members = fight.roster, fight.members
        by_decl, by_actor, aimed_at, aims = self.by_decl, self.by_actor, self.aimed_at, self.aims
        for item in self.items:
            by_decl[item.index].append(item)
            if item.first:
                self.first_items.append(item)
                by_actor[item.actor.id].append(item)
                target = item.decl.target or item.decl.shots
                # one combatant named: itself (what `members` gives, without its scan)
                aimed = ([target[0]] if len(target) == 1 and target[0] in roster
                         else members(target))
                aims[item.index] = aimed
                for cid in aimed:
                    aimed_at[cid].append(item)

    def firsts(self, predicate: Callable[[Item], object]) -> list[Item]:
        return [i for i in self.first_items if predicate(i)]

    def in_order(self, items: list[Item]) -> list[Item]:
        """`items` as the board has them now, the earliest first (roster order within a
        beat): a rule that moves them one by one then gives the same plan whatever order
        they were declared in."""
        return sorted(items, key=lambda i: (self.board.pos(i), i.place))

    def whole(self, item: Item) -> list[Item]:
        return self.by_decl[item.index]

    def targets(self, item: Item) -> list[str]:
        return self.aims[item.index]

    def enemy_side(self, item: Item) -> str | None:
        for target in self.targets(item):
            side = self.fight.roster[target].side
            if side != item.side:
                return side
        others = self.sides - {item.side}
        return others.pop() if len(others) == 1 else None

    def enemy_slots(self, side: str) -> list[int]:
        return self.board.with_side(side)

    def enemy_span(self, side: str) -> tuple[int, int] | None:
        """The first and last of `enemy_slots(side)`."""
        return self.board.side_span(side)

    # DI-3 for one action: haste or a weapon of speed wins initiative, slow loses it
    def overrides(self) -> None:
        for first in self.first_items:
            for movers, word in self.overridden(first):
                self.override(movers, word)

    def overridden(self, first: Item) -> list[tuple[list[Item], str]]:
        """What moves together, and its word: a declaration's routines as one, unless
        each names its own weapon, when each routine goes by its own."""
        whole = self.whole(first)
        if first.decl.routines:
            return [([item], item.override) for item in whole if item.override is not None]
        return [(whole, first.override)] if first.override is not None else []

    def override(self, movers: list[Item], word: str) -> None:
        first = movers[0]
        enemies = [span for side in sorted(self.sides - {first.side})
                   if (span := self.enemy_span(side)) is not None]
        if not enemies:
            return
        what = {"haste": "hasted", "speed": "a weapon of speed", "slow": "slowed"}[word]
        who, this = first.actor.id, "action"
        if first.decl.routines and first.routine is not None:  # one routine of several
            who += f" (routine {first.routine}, {first.arm.name if first.arm else 'no weapon'})"
            this = "routine"
        if INITIATIVE[word] == "wins":
            if max(self.board.positions(movers)) < min(span[0] for span in enemies):
                return
            why = f"{who}: {what}, wins initiative for this {this}: before the enemy's actions"
        else:
            if min(self.board.positions(movers)) > max(span[1] for span in enemies):
                return
            why = f"{who}: {what}, loses initiative for this {this}: after the enemy's actions"
        self.board.lift(movers)
        spans = [span for side in sorted(self.sides - {first.side})
                 if (span := self.enemy_span(side)) is not None]
        at = (min(s[0] for s in spans) if INITIATIVE[word] == "wins"
              else max(s[1] for s in spans) + 1)
        self.board.add(movers, ["DI-3"], [why], at=at)

    # DI-6: missiles and reaction
    def missiles(self) -> None:
        for shot in self.firsts(lambda i: i.missile):
            reaction, lost = book.missile_reaction(self.rs, self.fight, shot)
            if lost:
                self.lost.append((shot, lost))
            adjust = reaction - shot.delay
            enemy = self.enemy_side(shot)
            if adjust == 0 or enemy is None or enemy not in self.dice:
                continue
            own, theirs = self.dice[shot.side] + adjust, self.dice[enemy]
            spots = self.enemy_span(enemy)
            if spots is None:
                continue
            sums = reaction_sum(self.dice[shot.side], reaction, shot.delay)
            theirs_text = f"{possessive(enemy)} die {theirs}"
            who = shot.actor.id
            if own > theirs:
                self.shoot_first(shot, spots, f"{who} shoots first: {sums} beats {theirs_text}")
            elif own < theirs:
                self.shoot_last(shot, spots, f"{who} shoots last: {sums} is below {theirs_text}")
            else:
                self.shoot_with(shot, enemy, f"{who} shoots with {possessive(enemy)} turn: "
                                f"{sums} equals {theirs_text}")

    def shoot_first(self, shot: Item, spots: tuple[int, int], why: str) -> None:
        movers = self.whole(shot)
        if max(self.board.positions(movers)) < spots[0]:
            return
        self.board.lift(movers)
        after = self.enemy_span(self.enemy_side(shot) or "")
        assert after is not None  # the shot's own items moved, not the enemy's
        self.board.add(movers, ["DI-6"], [why], at=after[0])

    def shoot_last(self, shot: Item, spots: tuple[int, int], why: str) -> None:
        movers = self.whole(shot)
        if min(self.board.positions(movers)) > spots[1]:
            return
        self.board.lift(movers)
        after = self.enemy_span(self.enemy_side(shot) or "")
        assert after is not None  # the shot's own items moved, not the enemy's
        self.board.add(movers, ["DI-6"], [why], at=after[1] + 1)

    def shoot_with(self, shot: Item, enemy: str, why: str) -> None:
        movers = self.whole(shot)
        their_d = self.first_discharge.get(enemy)
        if their_d is not None:
            self.board.place(movers, their_d, "with", "DI-6", why)
            return
        order = self.rs.order.index(self.rs.letter_of["discharge"])
        self.board.lift(movers)
        self.board.add(movers, ["DI-6"], [why + ", at the D place among its actions"],
                       at=self.first_later(enemy, order))

    def first_later(self, enemy: str, order: int) -> int:
        rank = self.letter_rank
        later = self.board.first_index(
            enemy, lambda a: a.role != "psionic" and rank[a.letter] > order)
        if later is not None:
            return later
        spots = self.enemy_span(enemy)
        return spots[1] + 1 if spots is not None else len(self.board.slots)

    # DI-7: multiple attack routines
    def routines(self) -> None:
        by_book = self.book["routines_first_and_last"]
        if by_book:
            self.first_and_last()
        anchors: dict[frozenset[str], Beat | None] = {}
        slotted: dict[frozenset[str], Beat] = {}  # first routines slotted before the same
        for first in sorted(self.items, key=_place):  # roster order: whatever was declared first
            if first.routine != 1 or not (first.role == "strike" or first.missile):
                continue
            if by_book and first.role == "strike":
                continue  # done by the book
            winners = {s for s, d in self.dice.items() if d > self.dice[first.side]}
            enemy = self.enemy_side(first)
            if enemy in winners:
                winners = {enemy}
            if not winners:
                continue
            group = frozenset(winners)
            if group not in anchors:
                anchors[group] = self.first_attack(group)
            anchor = anchors[group]
            if anchor is None or self.board.pos(first) < self.board.slots.index(anchor):
                continue
            why = (f"{first.actor.id}: first of {len(self.whole(first))} attack routines slots "
                   f"in just before {' and '.join(sorted(winners))}'s first attack")
            shared = slotted.get(group)
            if shared is not None and shared in self.board.sides:  # one beat, in any order
                self.board.join([first], shared, "DI-7", why)
                continue
            self.board.lift([first])
            slotted[group] = self.board.add([first], ["DI-7"], [why],
                                            at=self.board.slots.index(anchor))

    # DMG-62 (by the book): multiple attack routines (G) strike first and last, whichever
    # side won (a missile volley keeps DI-7; the volley switch, DMG-63, spreads its shots)
    def first_and_last(self) -> None:
        several = [i for i in self.items if i.role == "strike" and i.routine is not None]
        if len({i.side for i in several}) > 1:
            self.routine_by_routine(several)
            return
        for first in self.items:
            if first.routine != 1 or first.role != "strike":
                continue
            enemies = frozenset(self.sides - {first.side})
            whole = self.whole(first)
            anchor = self.first_attack(enemies)
            if anchor is not None and self.board.pos(first) > self.board.slots.index(anchor):
                why = (f"{first.actor.id}: first of {len(whole)} attack routines strikes "
                       "first, before the enemy's first attack (by the book)")
                self.board.lift([first])
                self.board.add([first], ["DMG-62"], [why], at=self.board.slots.index(anchor))
            last = whole[-1]
            final = self.last_attack(enemies)
            if final is not None and self.board.pos(last) <= self.board.slots.index(final):
                why = (f"{last.actor.id}: last of {len(whole)} attack routines strikes last, "
                       "after the enemy's last attack (by the book)")
                self.board.lift([last])
                self.board.add([last], ["DMG-62"], [why],
                               at=self.board.slots.index(final) + 1)

    def routine_by_routine(self, several: list[Item]) -> None:
        """Several routines on both sides: the first routines, in initiative order, before
        the first attack of the round; the others after its last one, second routines
        before third ones, each number in initiative order (a#1, b#1, ..., a#2, b#2)."""
        attacks = [n for n, slot in enumerate(self.board.slots) if not ready(slot)
                   and any(a.role == "strike" or a.missile
                           for a in cast("list[Item]", slot.actions))]
        ahead = self.board.slots[:attacks[0]]
        upto = self.board.slots[:attacks[-1] + 1]
        self.board.lift(several)
        kept = self.board.sides  # the beats still on the board
        later = [i for i in several if i.routine != 1]
        self.lay_routines(later, sum(1 for slot in upto if slot in kept))
        self.lay_routines([i for i in several if i.routine == 1],
                          sum(1 for slot in ahead if slot in kept))

    def lay_routines(self, items: list[Item], at: int) -> None:
        """`items` in beats from position `at` on: by routine number, then initiative
        (higher die first; equal dice, the lower speed factor first), equals sharing."""
        sides_of: dict[int, set[str]] = defaultdict(set)
        for item in items:
            sides_of[self.dice[item.side]].add(item.side)
        factors = [f for i in items if (f := factor_of(i)) is not None]
        lowest = min(factors, default=0)  # no speed factor: with the first (as DI-11)

        def key(item: Item) -> tuple[int, int, int]:
            die = self.dice[item.side]
            tied = len(sides_of[die]) > 1
            factor = factor_of(item)
            speed = (lowest if factor is None else factor) + item.delay if tied else 0
            return (item.routine or 1, -die, speed)

        groups: dict[tuple[int, int, int], list[Item]] = defaultdict(list)
        for item in sorted(items, key=lambda i: (key(i), i.place)):
            groups[key(item)].append(item)
        for (number, die, speed), members in groups.items():
            who = ", ".join(dict.fromkeys(m.actor.id for m in members))
            order = f"die {-die}" + (f", speed factor {speed}" if speed else "")
            then = ("several routines on both sides: the first routines strike first"
                    if number == 1 else f"after every routine {number - 1}")
            self.board.add(members, ["DMG-62"], [
                f"{who}: attack routine {number}, in initiative order ({order}): {then} "
                "(by the book)"], at=at)
            at += 1

    def last_attack(self, sides: frozenset[str]) -> Beat | None:
        for slot in reversed(self.board.slots):
            if not ready(slot) and any(a.side in sides and (a.role == "strike" or a.missile)
                                      for a in cast("list[Item]", slot.actions)):
                return slot
        return None

    def first_attack(self, winners: frozenset[str]) -> Beat | None:
        for slot in self.board.slots:
            if not ready(slot) and any(a.side in winners and (a.role == "strike" or a.missile)
                                      for a in cast("list[Item]", slot.actions)):
                return slot
        return None

    # DI-8: caster against caster
    def casters(self) -> None:
        for a in self.firsts(lambda i: i.role == "discharge" and i.decl.spell is not None):
            for target in self.targets(a):
                for b in self.by_actor.get(target, []):
                    casting = b.role == "discharge" and b.decl.spell is not None
                    if casting and a.rank < b.rank and a.actor.id in self.targets(b):
                        self.caster_pair(a, b)

    def caster_pair(self, a: Item, b: Item) -> None:
        ta, tb = a.cast_time(), b.cast_time()
        if ta != tb:
            fast, slow = (a, b) if ta < tb else (b, a)
            why = (f"caster against caster: casting time {timed(fast)} < "
                   f"{timed(slow)}, {fast.actor.id} first")
            raw = self.compare(fast.base_time(), slow.base_time())[0]
            self.board.place([fast], slow, "before", "DI-8", why, delayed(raw, "before"))
            return
        da, db = self.dice[a.side], self.dice[b.side]
        if da != db:
            fast, slow = (a, b) if da > db else (b, a)
            why = (f"caster against caster: equal casting time {ta}, higher die "
                   f"{max(da, db)} first")
            self.board.place([fast], slow, "before", "DI-8", why)
            return
        early, late = sorted((a, b), key=self.board.pos)
        self.board.place([late], early, "with", "DI-8",
                         f"caster against caster: equal casting time {ta} and die {da}, one beat")

    # DI-9: charge against D
    def charges(self) -> None:
        for charge in self.firsts(lambda i: i.role == "move" and i.decl.charge):
            segments, how = book.closing(self.fight, charge.decl, charge.actor)
            closing = segments + charge.delay
            for target in self.targets(charge):
                for d in self.by_actor.get(target, []):
                    if d.role == "discharge":
                        self.charge_against(charge, closing, d, how)

    def charge_against(self, charge: Item, closing: int, d: Item, how_far: str = "") -> None:
        if d.missile or d.decl.turn or not d.casting:
            what = "turning" if d.decl.turn else "missiles"
            # by the book (DMG-63) only the first shot is sure to beat the charge
            movers = [d] if d.missile and self.book["volley_shots_in_turn"] else self.whole(d)
            self.board.place(movers, charge, "before", "DI-9",
                             f"E-vs-D: {what} resolve before a charge, always")
            return
        time, what = d.cast_time(), "casting" if d.decl.spell else "usage"
        how, sign = self.compare(time, closing)
        raw = self.compare(d.base_time(), closing - charge.delay)[0]
        why = f"E-vs-D: {what} time {timed(d)} {sign} {closing} segment(s) to close"
        self.board.place([d], charge, how, "DI-9", f"{why} ({how_far})" if how_far else why,
                         delayed(raw, how))

    @staticmethod
    def compare(time: int, other: int) -> tuple[str, str]:
        if time < other:
            return "before", "<"
        if time > other:
            return "after", ">"
        return "with", "="

    # DI-10: melee against a caster
    def melee(self) -> None:
        for blow in self.firsts(lambda i: i.role == "strike"):
            for target in self.targets(blow):
                for d in self.by_actor.get(target, []):
                    if d.casting:
                        self.blow_against(blow, d)

    def blow_against(self, blow: Item, d: Item) -> None:
        weapon = blow.weapon()
        factor = stats.speed_factor(weapon) if weapon is not None else None
        if factor is not None and self.book["caster_speed_less_die"]:
            self.blow_by_book(blow, d, factor)
        elif factor is not None:
            self.blow_timed(blow, d, factor, "speed factor", "DI-10")
        else:
            self.blow_timed(blow, d, self.dice[d.side], "the caster's die", "DI-10")

    def blow_timed(self, blow: Item, d: Item, base: int, what: str, rule: str,
                   note: str = "") -> None:
        """The spell (or device) set before, with or after the blow: its time against
        the blow's `base` (as `what` says it, `note` after) and its declaration delay."""
        time = base + blow.delay
        cast = d.cast_time()
        how, sign = self.compare(cast, time)
        kind = "casting" if d.decl.spell else "usage"
        outcome = {"before": "spell first", "with": "one beat", "after": "attack first"}[how]
        raw = self.compare(d.base_time(), base)[0]
        blow_time = f"{base} + {blow.delay} delay = {time}" if blow.delay else str(time)
        self.board.place([d], blow, how, rule,
                         f"G-vs-D: {kind} time {timed(d)} {sign} {what} {blow_time}{note}, "
                         f"{outcome}",
                         delayed(raw, how))

    # DMG-67 (by the book): against a caster, the speed factor less the losing die
    def blow_by_book(self, blow: Item, d: Item, factor: int) -> None:
        ours, theirs = self.dice[blow.side], self.dice[d.side]
        if ours > theirs:  # the caster's side lost: nothing to compare, the blow is first
            self.board.place([d], blow, "after", "DMG-67",
                             f"G-vs-D: {d.actor.id}'s side lost initiative ({theirs} vs "
                             f"{ours}): the blow goes first")
        elif ours == theirs:  # no losing die to take off
            self.blow_timed(blow, d, factor, "speed factor", "DMG-67",
                            " (a tied round: no losing die to take off)")
        else:
            less = factor - ours
            what = f"speed factor {factor} - losing die {ours} ="
            if less < 0:  # a negative result counts as positive
                what += f" {less}, taken as"
            self.blow_timed(blow, d, abs(less), what, "DMG-67")

    # DMG-65 (by the book): a missile at a caster whose side won lands on the segment of
    # the caster's side's die (tied, DI-12 has done the same)
    def missiles_on_die(self) -> None:
        if not self.book["missiles_on_die_segment"]:
            return
        for shot in self.firsts(lambda i: i.missile):
            for target in self.targets(shot):
                for d in self.by_actor.get(target, []):
                    if (d.casting and d.side != shot.side
                            and self.dice[d.side] > self.dice[shot.side]):
                        self.shot_at_caster(shot, d)

    def shot_at_caster(self, shot: Item, d: Item) -> None:
        die = self.dice[d.side]
        lands = die + shot.delay
        how, sign = self.compare(d.cast_time(), lands)
        kind = "casting" if d.decl.spell else "usage"
        outcome = {"before": "spell first", "with": "one beat", "after": "missile first"}[how]
        landing = f"{die} + {shot.delay} delay = {lands}" if shot.delay else str(die)
        self.board.place(
            [d], shot, how, "DMG-65",
            f"missile against a caster whose side won: {kind} time {timed(d)} {sign} segment "
            f"{landing} ({possessive(d.side)} die) where the missile lands, {outcome}")

    # DMG-64 (by the book): a device goes off on its usage time's segment
    def devices(self) -> None:
        if not self.book["devices_by_usage_time"]:
            return
        for d in self.in_order(self.firsts(lambda i: i.casting and i.is_device)):
            enemy = self.enemy_side(d)
            if enemy is None or enemy not in self.dice or self.dice[enemy] == self.dice[d.side]:
                continue  # no enemy die, or a tied round (DI-12)
            spots = self.enemy_span(enemy)
            if spots is None:
                continue
            slot = self.board.slots[spots[0]]
            anchor = next(a for a in cast("list[Item]", slot.actions) if a.side == enemy)
            die = self.dice[enemy]
            how, sign = self.compare(d.cast_time(), die)
            where = {"before": "before", "with": "with", "after": "after"}[how]
            self.board.place([d], anchor, how, "DMG-64",
                             f"{d.actor.id}'s device: usage time {timed(d)} {sign} "
                             f"{possessive(enemy)} die {die}, {where} its first action")

    # DMG-66 (by the book): a much faster weapon strikes twice before the slower one
    def extra_blows(self) -> None:
        if not self.book["weapon_speed_blows"]:
            return
        made: dict[tuple[int, int], Beat] = {}  # (slower beat, blow) -> the beat made
        for blow in self.firsts(lambda i: i.role == "strike" and i.routine is None):
            fast = factor_of(blow)
            if fast is None:
                continue
            best: tuple[int, int, Item, int] | None = None
            for target in self.targets(blow):
                for other in self.by_actor.get(target, []):
                    slow = factor_of(other)
                    if (other.role != "strike" or other.side == blow.side or slow is None
                            or self.dice[other.side] != self.dice[blow.side] or slow <= fast):
                        continue
                    count = (3 if slow - fast >= 10 else
                             2 if slow >= 2 * fast or slow - fast >= 5 else 1)
                    key = (count, self.board.pos(other), other, slow)
                    if count > 1 and (best is None or key[:2] > best[:2]):
                        best = key
            if best is not None:
                self.more_blows(blow, fast, best, made)

    def more_blows(self, blow: Item, fast: int, best: tuple[int, int, Item, int],
                   made: dict[tuple[int, int], Beat]) -> None:
        """The second blow in a beat just before the slower one's (shared by every blow
        that comes second against it); a third one in the slower one's own beat. Every
        blow is a numbered routine, the first one too."""
        count, _, other, slow = best
        slower = self.board.slot_of(other)
        self.board.renumber(blow, 1)
        gap = "10 or more greater" if count == 3 else "twice or more, or 5 or more greater"
        who, than = blow.actor.id, f"speed factor {fast} against {other.actor.id}'s {slow} ({gap})"
        for number in range(2, count + 1):
            extra = Item(blow.index, blow.decl, blow.actor, blow.rank, blow.letter, blow.role,
                         number, None, blow.arm)
            self.by_decl[blow.index].append(extra)
            if number == 3:
                self.board.put([extra], slower, "DMG-66",
                               f"{who}: {than}: a third blow, with the slower one's")
                continue
            why = f"{who}: {than}: a second blow, before the slower one strikes"
            key = (id(slower), number)
            if key in made:
                self.board.put([extra], made[key], "DMG-66", why)
            else:
                at = max(self.board.slots.index(slower), self.board.pos(blow) + 1)
                made[key] = self.board.add([extra], ["DMG-66"], [why], at=at)

    # DI-13: charge and weapon length
    def lengths(self) -> None:
        # two charging each other clash where the first of them goes
        for charge in self.in_order(self.firsts(lambda i: i.role == "move" and i.decl.charge)):
            striking = self.retaliators(charge)
            if striking:
                self.order_by_length(charge, striking)

    def retaliators(self, charge: Item) -> list[Item]:
        """Who strikes within reach of `charge`: a set weapon or a G aimed at the charger,
        a counter-charge (its blow lands in the same clash), and an F set where the
        charger is going."""
        found = [i for i in self.aimed_at.get(charge.actor.id, [])
                 if i.side != charge.side and self.answers(i, charge)]
        for target in self.targets(charge):
            found.extend(i for i in self.by_actor.get(target, [])
                         if i.role == "set" and not i.decl.target and i.side != charge.side)
        return found

    def answers(self, item: Item, charge: Item) -> bool:
        """Whether `item`, aimed at the charger, meets `charge` in its clash: a set weapon
        or a G does; a charge only when `charge` is aimed back at its actor (two charging
        each other), never one whose charger runs at someone else or at no one."""
        if item.role in ("set", "strike"):
            return True
        return (item.role == "move" and item.decl.charge
                and item.actor.id in self.targets(charge))

    def order_by_length(self, charge: Item, striking: list[Item]) -> None:
        reach = length_of(charge)
        before, after = [], []
        for item in sorted(striking, key=lambda i: (-length_of(i), i.rank)):
            size = length_of(item)
            why = f"charge: weapon length {size:g} vs the charger's {reach:g}, longest first"
            if size == reach:
                self.board.place([item], charge, "with", "DI-13", why)
            elif size > reach and self.board.pos(item) >= self.board.pos(charge):
                before.append((size, item, why))
            elif size < reach and self.board.pos(item) <= self.board.pos(charge):
                after.append((size, item, why))
        self.line_up(charge, before, 0)
        self.line_up(charge, after, 1)

    def line_up(self, charge: Item, queue: list[tuple[float, Item, str]], offset: int) -> None:
        last: tuple[float, Beat] | None = None
        for size, item, why in queue:
            if last is not None and last[0] == size:
                self.board.join([item], last[1], "DI-13", why)
                continue
            self.board.lift([item])
            at = self.board.pos(charge) + offset
            if last is not None and offset:
                at = self.board.slots.index(last[1]) + 1
            last = (size, self.board.add([item], ["DI-13"], [why], at=at))

    # DI-7: whatever moved a combatant's first blow, its later routines follow it
    def routines_in_order(self) -> None:
        for items in self.by_decl.values():
            for earlier, later in zip(items, items[1:], strict=False):
                if later.routine is None or self.board.pos(later) >= self.board.pos(earlier):
                    continue  # in order already (a volley's shots may share a beat)
                why = (f"{later.actor.id}: attack routine {later.routine} after routine "
                       f"{earlier.routine}, which a rule moved later")
                self.board.place([later], earlier, "after", "DI-7", why)

    # DMG-63 (by the book): a volley's shots one after another, stopped by a charge's contact
    def volleys(self) -> None:
        if not self.book["volley_shots_in_turn"]:
            return
        for slot in list(self.board.slots):
            if slot not in self.board.sides:
                continue
            shots: dict[int, list[Item]] = defaultdict(list)
            for a in cast("list[Item]", slot.actions):
                if a.missile and a.routine is not None:
                    shots[a.routine].append(a)
            numbers = sorted(shots)
            last = slot
            for number in numbers[1:]:
                movers = sorted(shots[number], key=_place)  # roster order, as declared or not
                who = ", ".join(dict.fromkeys(m.actor.id for m in movers))
                self.board.lift(movers)
                last = self.board.add(
                    movers, ["DMG-63"],
                    [f"{who}: shot {number} of the volley, after the shot before it"],
                    at=self.board.slots.index(last) + 1)
        self.stop_at_contact()

    def stop_at_contact(self) -> None:
        for items in list(self.by_decl.values()):
            shots = [i for i in items if i.missile and i.routine is not None]
            if len(shots) < 2:
                continue
            charges = [c for c in self.aimed_at.get(shots[0].actor.id, [])
                       if c.role == "move" and c.decl.charge and c.side != shots[0].side]
            if not charges:
                continue
            contact = min(charges, key=self.board.pos)
            at = self.board.pos(contact)
            stopped = [s for s in shots if self.board.pos(s) > at]
            if not stopped:
                continue
            self.board.lift(stopped)
            numbers = ", ".join(str(s.routine) for s in stopped)
            what = f"shots {numbers} stop" if len(stopped) > 1 else f"shot {numbers} stops"
            self.board.notes.append(
                f"{shots[0].actor.id}'s {what}: {contact.actor.id}'s charge makes contact "
                f"in beat {at + 1} (DMG-63)")

    # DI-14: a fired preparation goes just before the action that triggered it
    def fired(self) -> None:
        for item in self.prepared:
            fire = self.fight.rs.fired.get((item.decl.round, item.actor.id))
            if fire is None or not item.first:
                continue
            movers = [i for i in self.prepared if i.index == item.index]
            why = f"{item.actor.id}'s prepared action fired: {item.decl.trigger or 'trigger'}"
            trigger = self.by_actor.get(fire.before or "", [])
            if trigger and self.finish_later(item):
                # a spell's start was prepared, not its finish: it completes after the
                # action that triggered it, and starts just before that action
                self.board.lift(movers)
                self.board.starts[item.index] = self.board.slot_of(trigger[0])
                self.board.add(movers, ["DI-14"], [
                    why + f", started just before {fire.before}: {item.cast_time()} "
                    f"segments to cast, completes after {fire.before}'s action"],
                    at=self.board.pos(trigger[0]) + 1)
            elif trigger:
                self.board.lift(movers)
                self.board.add(movers, ["DI-14"], [why + f", just before {fire.before}"],
                               at=self.board.pos(trigger[0]))
            else:
                slot = self.board.slot_of(item)
                mark_ready(slot, False)
                slot.cite("DI-14", why)


    @staticmethod
    def finish_later(item: Item) -> bool:
        """A prepared spell of more than one segment: its start fires, not its finish."""
        return item.decl.spell is not None and item.cast_time() > 1

    # several declarations: a further one resolves after its actor's E (close, strike)
    def after_closing(self) -> None:
        book.after_closing(self.board, self.items, self.by_decl)

    # DI-6: a bonus lost to moving, said where the shot ended up
    def said_lost(self) -> None:
        for shot, why in self.lost:
            if self.board.where.get((shot.index, shot.routine)) is not None:
                self.board.slot_of(shot).cite("DI-6", why)

    # E with a distance: how many segments it takes, said in its beat
    def closings(self) -> None:
        for move in self.firsts(lambda i: i.role == "move" and i.decl.distance is not None):
            segments, how = book.closing(self.fight, move.decl, move.actor)
            slot = self.board.slot_of(move)
            if how and not any(how in why for why in slot.why):  # DI-9 may have said it
                slot.why.append(how)


def length_of(item: Item) -> float:
    weapon = item.weapon()
    size = stats.length(weapon) if weapon is not None else None
    if size is not None:
        return size
    lengths = [stats.length(w) for w in item.actor.weapons if not stats.missile(w)]
    found = [size for size in lengths if size is not None]
    return found[0] if found else 0.0


# -- DI-17: surprise segments ----------------------------------------------------------


def surprise_beats(rs: DemonIdol, items: list[Item], segment: int, total: int) -> list[Beat]:
    """Segment `segment`'s beats, from its items (`collect_segments`)."""
    beats = []
    left = total - segment + 1
    by_letter: dict[str, list[Item]] = {}
    for item in items:
        found = by_letter.get(item.letter)
        if found is None:
            by_letter[item.letter] = [item]
        else:
            found.append(item)
    for letter, _, _ in rs.letters:
        step = by_letter.get(letter)
        if not step:
            continue
        step.sort(key=_place)
        why = [f"surprise segment {segment} of {total}: {letter} for the surprising side"]
        actions = []
        for item in step:
            action = item.to_action()
            note = surprise_note(item, left)
            if note:
                why.append(note)
                if item.casting and item.cast_time() > left:
                    action = action.with_extra(completes="after surprise")
            actions.append(action)
        beats.append(Beat(actions, ["DI-17"], why, {"segment": segment}, f"s{segment}"))
    return beats


def surprise_note(item: Item, left: int) -> str:
    if item.role in ("strike", "set") or (item.role == "discharge" and not item.casting):
        return f"{item.actor.id}: a whole attack routine in this segment" if item.first else ""
    if item.casting and item.cast_time() > left:
        return (f"{item.actor.id}: {item.cast_time()} segment(s) to cast, {left} left: "
                "starts now, completes after surprise")
    if item.role == "move":
        return f"{item.actor.id}: moves a tenth of its movement rate"
    if item.role == "avoid":
        return f"{item.actor.id}: may avoid even from melee"
    return ""


# -- in-round rules over the state ----------------------------------------------------


def timed(item: Item) -> str:
    """A casting or usage time as the plan shows it: with its declaration delay (DI-16)."""
    if not item.delay:
        return str(item.cast_time())
    return f"{item.base_time()} + {item.delay} delay = {item.cast_time()}"


def delayed(undelayed: str, how: str) -> tuple[str, ...]:
    """DI-16 beside the rule when a declaration delay changed the comparison."""
    return ("DI-16",) if undelayed != how else ()


def factor_of(item: Item) -> int | None:
    weapon = item.weapon()
    return stats.speed_factor(weapon) if weapon is not None else None


def spell_lost_by(rs: DemonIdol, fight: Fight, damage: ev.Damage) -> di.SpellLost | None:
    """DI-15: damage before the caster's spell resolves loses it; same beat does not."""
    round_ = damage.round
    if (round_, damage.target) in fight.rs.lost_spells or damage.amount <= 0:
        return None
    spells = [d for _, d in fight.declared(round_) if d.actor == damage.target
              and isinstance(d, di.Declare) and d.spell is not None and d.segment is None]
    if not spells:
        return None
    try:
        plan = fight.plan(round_)
    except RefereeError:
        return None
    now = damage.beat
    if now is None:
        now = plan.current(fight.resolved.get(round_, set())) or len(plan.beats) + 1
    at = spell_beat(plan, damage.target)
    if at is not None and at <= now:
        return None
    return di.SpellLost(round=round_, actor=damage.target, spell=spells[0].spell,
                        reason=f"damaged in beat {now} before the spell resolved (DI-15)")


def spell_beat(plan: Plan, actor: str) -> int | None:
    for number, beat in enumerate(plan.beats, start=1):
        if "segment" in beat.extra or ready(beat) or repeats(beat):
            continue
        if any(a.actor == actor and not a.flag("prepared") for a in beat.actions):
            return number
    return None


def lapsed_preparations(fight: Fight) -> Iterable[ev.Event]:
    for _, decl in fight.declared(fight.round):
        if getattr(decl, "prepared", False) and (fight.round, decl.actor) not in fight.rs.fired:
            yield ev.Note(round=fight.round,
                          text=f"{decl.actor}'s prepared {decl.action} lapses unfired (DI-14)")
