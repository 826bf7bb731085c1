"""A board of beats under construction, with the moves DI-0 describes.

Slots hold scheduler items (anything with `index`, `routine` and `side`); a move puts
actions "before", "with" or "after" another action's beat, and only when the order
they already have breaks what the rule demands.
"""

from __future__ import annotations

from collections import Counter

from referee.engine.plan import Beat
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


def ready(beat: Beat) -> bool:
    return bool(beat.extra.get("ready"))


def repeats(beat: Beat) -> bool:
    return "repeats" in beat.extra


def mark_ready(beat: Beat, on: bool = True) -> None:
    if on:
        beat.extra["ready"] = True
        beat.note = "ready"
    else:
        beat.extra.pop("ready", None)
        beat.note = ""


def mark_repeats(beat: Beat) -> None:
    beat.extra["repeats"] = "every segment"
    beat.note = "every segment"


def key(item: Any) -> tuple[int, int | None]:
    return (item.index, item.routine)


class Owned:
    """A beat's owned lines (see `Board.owned`): each item's (rule, line), and how many
    owned entries give each line and each rule, so an item that leaves finds its own
    lines and whether another still says them without a scan of the beat's."""

    __slots__ = ("by_item", "lines", "rules")

    def __init__(self, owned: list[tuple[Any, str, str]]) -> None:
        by_item: dict[int, list[tuple[str, str]]] = {}
        for item, rule, line in owned:
            found = by_item.get(id(item))
            if found is None:
                by_item[id(item)] = [(rule, line)]
            else:
                found.append((rule, line))
        self.by_item = by_item
        self.lines = Counter([line for _, _, line in owned])
        self.rules = Counter([rule for _, rule, _ in owned])

    def add(self, item: Any, rule: str, line: str) -> None:
        """One more (rule, line) said of `item` alone (a line of "": the rule alone)."""
        self.by_item.setdefault(id(item), []).append((rule, line))
        self.lines[line] += 1
        self.rules[rule] += 1


class Board:
    def __init__(self) -> None:
        self.slots: list[Beat] = []
        self.where: dict[tuple[int, int | None], Beat] = {}
        # each beat's actions by side, counted (a plain dict: a beat is made per step of
        # every plan, and a Counter is slow to make)
        self.sides: dict[Beat, dict[str, int]] = {}
        self.notes: list[str] = []  # for the plan: what a rule left out, and why
        # a prepared spell's start that fired: its declaration -> the beat it starts before
        self.starts: dict[int, Beat] = {}
        # lines a beat says of some of its actions only (a tie split's speed factor or
        # casting time, a declaration delay, a preparation, a failed morale check): (the
        # action, its rule, the line); a line leaves the beat with the last of its actions,
        # and its rule with the last such line, so that a line speaks of its own beat
        self.owned: dict[Beat, Owned] = {}
        # rules a move cited in a beat (they stay when an owned line citing them leaves)
        self.cited: dict[Beat, set[str]] = {}

    def _enter(self, item: Any, slot: Beat) -> None:
        self.where[key(item)] = slot
        counts = self.sides[slot]
        counts[item.side] = counts.get(item.side, 0) + 1

    def add(self, items: list[Any], rules: list[str], why: list[str], at: int | None = None,
            ready: bool = False, repeats: bool = False,
            owned: list[tuple[Any, str, str]] | None = None) -> Beat:
        """A new beat of `items`; `owned`: (item, rule, line) for each line of `why` (and
        its rule) said of some of the items only (see `owned` in `__init__`)."""
        slot = Beat([], list(rules), list(why))
        if repeats:
            mark_repeats(slot)
        if ready:
            mark_ready(slot)
        self.slots.insert(len(self.slots) if at is None else at, slot)
        self.sides[slot] = {}
        if owned:
            self.owned[slot] = Owned(owned)
        self._put(items, slot)
        return slot

    def _put(self, items: list[Any], slot: Beat) -> None:
        slot.actions.extend(items)
        where, counts = self.where, self.sides[slot]
        for item in items:  # what `_enter` does, for each item
            where[(item.index, item.routine)] = slot
            side = item.side
            counts[side] = counts.get(side, 0) + 1

    def renumber(self, item: Any, routine: int) -> None:
        """Make `item`, where it stands, routine `routine` (a single blow that DMG-66 gives
        more blows is numbered 1 like the others)."""
        slot = self.where.pop(key(item))
        item.number(routine)
        self.where[key(item)] = slot

    def slot_of(self, item: Any) -> Beat:
        return self.where[key(item)]

    def pos(self, item: Any) -> int:
        return self.slots.index(self.where[key(item)])

    def positions(self, items: list[Any]) -> list[int]:
        return [self.pos(item) for item in items]

    def satisfied(self, movers: list[Any], anchor: Any, how: str) -> bool:
        spots, there = self.positions(movers), self.pos(anchor)
        if how == "before":
            return max(spots) < there
        if how == "after":
            return min(spots) > there
        return all(spot == there for spot in spots)

    def lift(self, movers: list[Any]) -> None:
        """Take `movers` out of their beats, dropping beats left empty."""
        for item in movers:
            slot = self.where.pop(key(item))
            slot.actions.remove(item)
            self.sides[slot][item.side] -= 1
            if not slot.actions:
                self.slots.remove(slot)
                del self.sides[slot]
                self.owned.pop(slot, None)
                self.cited.pop(slot, None)
            elif slot in self.owned:
                self._disown(slot, item)

    def _disown(self, slot: Beat, item: Any) -> None:
        """`item` left `slot`: the lines said of it alone leave too, and their rule when
        nothing else in the beat cites it."""
        owned = self.owned[slot]
        gone = owned.by_item.pop(id(item), None)
        if not gone:
            return
        lines, rules = owned.lines, owned.rules
        for rule, line in gone:
            lines[line] -= 1
            rules[rule] -= 1
        cited = self.cited.get(slot, set())
        for rule, line in gone:
            if line in slot.why and lines[line] <= 0:
                slot.why.remove(line)
            if rule in slot.rules and rule not in cited and rules[rule] <= 0:
                slot.rules.remove(rule)

    def _cited(self, slot: Beat, rules: tuple[str, ...]) -> None:
        """A move cited `rules` in `slot`: they stay whatever action leaves it."""
        if slot in self.owned:
            self.cited.setdefault(slot, set()).update(rules)

    def place(self, movers: list[Any], anchor: Any, how: str, rule: str, why: str,
              also: tuple[str, ...] = ()) -> bool:
        """Move `movers` before / with / after `anchor`'s beat if the order breaks `how`;
        `also`: other rules that changed the comparison (a declaration delay, DI-16)."""
        if self.satisfied(movers, anchor, how):
            return False
        self.lift(movers)
        target = self.slot_of(anchor)
        if how == "with":
            self._put(movers, target)
            for rule_id in (rule,) + also:
                target.cite(rule_id)
            target.cite(rule, why)
            self._cited(target, (rule, *also))
            return True
        at = self.slots.index(target) + (1 if how == "after" else 0)
        self.add(movers, [rule, *also], [why], at=at)
        return True

    def join(self, movers: list[Any], slot: Beat, rule: str, why: str) -> None:
        self.lift(movers)
        self._put(movers, slot)
        slot.cite(rule, why)
        self._cited(slot, (rule,))

    def join_owning(self, movers: list[Any], slot: Beat, rule: str, why: str,
                    also: tuple[str, ...] = ()) -> None:
        """`join`, the line (and its rules) said of `movers` alone: it leaves the beat with
        the last of them (a later rule moving them on), where the beat's own rules stay."""
        self.lift(movers)
        self._put(movers, slot)
        owned = self.owned.get(slot)
        if owned is None:
            owned = self.owned[slot] = Owned([])
        self.cited.setdefault(slot, set()).update(
            r for r in slot.rules if owned.rules[r] <= 0)  # the beat's own rules stay
        for item in movers:
            owned.add(item, rule, why)
            for rule_id in also:  # (a declaration delay's DI-16 leaves with them too)
                owned.add(item, rule_id, "")
        for rule_id in (rule,) + also:
            slot.cite(rule_id)
        slot.cite(rule, why)

    def keep_outside(self, slot: Beat, side: str, first: bool) -> None:
        """Move `slot` before (first) or after every other beat holding an action of
        `side`, where it is not already."""
        span = self.side_span(side)
        if span is None:
            return
        slots = self.slots
        at, edge = slots.index(slot), span[0] if first else span[1]
        if (first and edge < at) or (not first and edge > at):
            slots.remove(slot)
            slots.insert(edge, slot)

    def put(self, items: list[Any], slot: Beat, rule: str, why: str) -> None:
        """Put new `items` (on no beat yet) into `slot`, citing `rule`."""
        self._put(items, slot)
        slot.cite(rule, why)
        self._cited(slot, (rule,))

    def with_side(self, side: str) -> list[int]:
        """Positions of the beats holding actions of `side` (psionics aside)."""
        sides = self.sides
        return [i for i, slot in enumerate(self.slots)
                if sides[slot].get(side, 0) > 0 and "repeats" not in slot.extra]

    def side_span(self, side: str) -> tuple[int, int] | None:
        """The first and last of `with_side(side)`, found from either end."""
        sides, slots = self.sides, self.slots
        first = next((i for i, slot in enumerate(slots)
                      if sides[slot].get(side, 0) > 0 and "repeats" not in slot.extra), None)
        if first is None:
            return None
        for last in range(len(slots) - 1, first, -1):
            slot = slots[last]
            if sides[slot].get(side, 0) > 0 and "repeats" not in slot.extra:
                return first, last
        return first, first

    def indexes(self, predicate: Any) -> list[int]:
        return [i for i, slot in enumerate(self.slots) if any(predicate(a) for a in slot.actions)]

    def first_index(self, side: str, predicate: Any) -> int | None:
        """The position of the first beat holding an action of `side` that `predicate`
        accepts (beats without one of `side`'s actions are passed over unread)."""
        sides = self.sides
        for i, slot in enumerate(self.slots):
            if sides[slot].get(side, 0) > 0:
                items: list[Any] = slot.actions
                for a in items:
                    if a.side == side and predicate(a):
                        return i
        return None
