"""Multiple attack routines: DI-7 (the first slots in before the winner's first attack,
the later ones follow it) and, by the book, DMG-62 (first and last) and DMG-66 (a much
faster weapon strikes again)."""

from __future__ import annotations

from collections import defaultdict

from referee.hints import TYPE_CHECKING

from .board import ready
from .items import Item, by_place, factor_of
from .pairwise import Pairwise

if TYPE_CHECKING:
    from typing import cast

    from referee.engine.plan import Beat
else:
    from referee.hints import cast


class AttackRules(Pairwise):
    """Where a combatant's several blows (or shots) go."""

    # DI-7: multiple attack routines
    def routines(self) -> None:
        by_book = self.book["routines_first_and_last"]
        if by_book:
            self.first_and_last()
        # the first routines of several (most rounds have none)
        firsts = [i for i in self.items
                  if i.routine == 1 and (i.role == "strike" or i.missile)]
        if not firsts:
            return
        anchors: dict[frozenset[str], Beat | None] = {}
        slotted: dict[frozenset[str], Beat] = {}  # first routines slotted before the same
        dice = self.dice
        # the sides whose die beats each side's (none for all in a tied round)
        beaten_by = {side: {s for s, d in dice.items() if d > die} for side, die in dice.items()}
        for first in sorted(firsts, key=by_place):  # roster order: whatever was declared first
            winners = beaten_by[first.side]
            if not winners:
                continue  # its side lost to none: no first attack to slot in before
            if self.timed(first):
                continue  # its routines' own timings place them (DI-3)
            if by_book and first.role == "strike":
                continue  # done by the book
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

    # DI-7: whatever moved a combatant's first blow, its later routines follow it
    def routines_in_order(self) -> None:
        for items in self.by_decl.values():
            if len(items) < 2:
                continue  # (most declarations: one action)
            for earlier, later in zip(items, items[1:], strict=False):
                if later.routine is None or self.board.pos(later) >= self.board.pos(earlier):
                    continue  # in order already (a volley's shots may share a beat)
                why = (f"{later.actor.id}: attack routine {later.routine} after routine "
                       f"{earlier.routine}, which a rule moved later")
                self.board.place([later], earlier, "after", "DI-7", why)

    def timed(self, item: Item) -> bool:
        """Whether `item`'s declaration gives its routines timings of their own."""
        return any(i.timed is not None for i in self.whole(item))

    # DI-3: routines with timings of their own each have a place of their own: a later
    # routine left in an earlier one's beat goes into a beat just after it
    def timed_apart(self) -> None:
        book = self.book["routines_first_and_last"]
        for items in self.by_decl.values():
            if len(items) < 2 or not any(i.timed is not None for i in items):
                continue
            for earlier, later in zip(items, items[1:], strict=False):
                if self.board.pos(later) != self.board.pos(earlier):
                    continue
                why = (f"{later.actor.id}: routine {later.routine} "
                       f"({later.arm.name if later.arm else 'no weapon'}, "
                       f"{later.timed or 'normal'}) in a beat of its own, after routine "
                       f"{earlier.routine}: each routine keeps its own timing")
                self.board.lift([later])
                self.board.add([later], ["DI-3"] + (["DMG-62"] if book else []), [why],
                               at=self.board.pos(earlier) + 1)

    # DMG-62 (by the book): multiple attack routines (G) strike first and last, whichever
    # side won (a missile volley keeps DI-7; the volley switch, DMG-63, spreads its shots)
    def first_and_last(self) -> None:
        several = [i for i in self.items if i.role == "strike" and i.routine is not None
                   and not self.timed(i)]
        if len({i.side for i in several}) > 1:
            self.routine_by_routine(several)
            return
        # the first routines that go before the same attack share one beat, and so do the
        # last ones that go after the same attack (as DI-7's, di-rule-07-losers-slot-in-
        # together): in roster order, whatever order they were declared in
        firsts: dict[Beat, Beat] = {}  # the enemy's first attack -> the beat just before it
        lasts: dict[Beat, Beat] = {}  # the enemy's last attack -> the beat just after it
        for first in sorted(self.items, key=by_place):
            if first.routine != 1 or first.role != "strike" or self.timed(first):
                continue
            enemies = frozenset(self.sides - {first.side})
            whole = self.whole(first)
            anchor = self.first_attack(enemies)
            if anchor is not None and self.board.pos(first) > self.board.slots.index(anchor):
                why = (f"{first.actor.id}: first of {len(whole)} attack routines strikes "
                       "first, before the enemy's first attack (by the book)")
                self.routine_beside(first, anchor, firsts, 0, why)
            last = whole[-1]
            final = self.last_attack(enemies)
            if final is not None and self.board.pos(last) <= self.board.slots.index(final):
                why = (f"{last.actor.id}: last of {len(whole)} attack routines strikes last, "
                       "after the enemy's last attack (by the book)")
                self.routine_beside(last, final, lasts, 1, why)

    def routine_beside(self, item: Item, anchor: Beat, made: dict[Beat, Beat], offset: int,
                       why: str) -> None:
        """DMG-62: `item` into a beat just before (`offset` 0) or after (1) `anchor`: the
        one an earlier routine moved there made, if it is still on the board."""
        shared = made.get(anchor)
        if shared is not None and shared in self.board.sides:
            self.board.join([item], shared, "DMG-62", why)
            return
        self.board.lift([item])
        made[anchor] = self.board.add([item], ["DMG-62"], [why],
                                      at=self.board.slots.index(anchor) + offset)

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

    # DMG-66 (by the book): a much faster weapon strikes twice before the slower one
    def extra_blows(self) -> None:
        if not self.book["weapon_speed_blows"]:
            return
        made: dict[tuple[int, int], Beat] = {}  # (slower beat, blow) -> the beat made
        for blow in self.firsts(lambda i: i.routine is None, "strike"):
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
