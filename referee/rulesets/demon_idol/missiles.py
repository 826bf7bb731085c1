"""Missiles: DI-6 (the reaction adjustment against the enemy's die, a bonus lost to
moving) and, by the book, DMG-63 (a volley's shots one after another, stopped by a
charge's contact)."""

from __future__ import annotations

from collections import defaultdict

from referee.hints import TYPE_CHECKING

from . import book
from .items import Item, by_place
from .pairwise import Pairwise
from .wording import delayed, possessive

if TYPE_CHECKING:
    from typing import cast
else:
    from referee.hints import cast


class MissileRules(Pairwise):
    """Where shots go against the enemy's turn, and a volley's shots."""

    # DI-6: missiles and reaction
    def missiles(self) -> None:
        # in roster order, not the order of declarations: two shots that move against each
        # other's side (both first in a tied round) share a beat, its lines in that order
        for shot in sorted(self.firsts(lambda i: i.missile, "discharge"), key=by_place):
            reaction, lost = book.missile_reaction(shot, self.moving)
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
            how = self.compare(theirs, own)[0]  # "before": it shoots first
            if how == self.compare(theirs, self.dice[shot.side])[0]:
                # first for a winner, last for a loser: its usual place, whatever other
                # shots moved before it was looked at (the order of declarations never
                # decides where a shot goes)
                continue
            # DI-16 beside DI-6 when the declaration delay changed where the shot goes
            raw = self.compare(theirs, self.dice[shot.side] + reaction)[0] if reaction else ""
            also = delayed(raw, how)
            if how == "before":
                self.shoot_first(shot, spots, f"{who} shoots first: {sums} beats {theirs_text}",
                                 also)
            elif how == "after":
                self.shoot_last(shot, spots, f"{who} shoots last: {sums} is below {theirs_text}",
                                also)
            else:
                self.shoot_with(shot, enemy, f"{who} shoots with {possessive(enemy)} turn: "
                                f"{sums} equals {theirs_text}", also)

    def shoot_first(self, shot: Item, spots: tuple[int, int], why: str,
                    also: tuple[str, ...] = ()) -> None:
        movers = self.whole(shot)
        if max(self.board.positions(movers)) < spots[0]:
            return
        enemy = self.enemy_side(shot) or ""
        if self.joined("first", shot, enemy, why, also):
            return
        self.board.lift(movers)
        after = self.enemy_span(enemy)
        assert after is not None  # the shot's own items moved, not the enemy's
        self.joint[("first", frozenset((shot.side, enemy)))] = self.board.add(
            movers, ["DI-6", *also], [why], at=after[0],
            owned=owned(movers, why))

    def shoot_last(self, shot: Item, spots: tuple[int, int], why: str,
                   also: tuple[str, ...] = ()) -> None:
        movers = self.whole(shot)
        if min(self.board.positions(movers)) > spots[1]:
            return
        enemy = self.enemy_side(shot) or ""
        if self.joined("last", shot, enemy, why, also):
            return
        self.board.lift(movers)
        after = self.enemy_span(enemy)
        assert after is not None  # the shot's own items moved, not the enemy's
        self.joint[("last", frozenset((shot.side, enemy)))] = self.board.add(
            movers, ["DI-6", *also], [why], at=after[1] + 1,
            owned=owned(movers, why))

    def shoot_with(self, shot: Item, enemy: str, why: str, also: tuple[str, ...] = ()) -> None:
        movers = self.whole(shot)
        their_d = self.first_discharge.get(enemy)
        if their_d is not None:
            if not self.board.satisfied(movers, their_d, "with"):
                self.board.join_owning(movers, self.board.slot_of(their_d), "DI-6", why, also)
            return
        why += ", at the D place among its actions"
        if self.joined("with", shot, enemy, why, also):
            return
        s = self.settings
        order = s.order.index(s.letter_of["discharge"])
        self.board.lift(movers)
        self.joint[("with", frozenset((shot.side, enemy)))] = self.board.add(
            movers, ["DI-6", *also], [why], at=self.first_later(enemy, order),
            owned=owned(movers, why))

    def joined(self, move: str, shot: Item, enemy: str, why: str,
               also: tuple[str, ...]) -> bool:
        """A shot that moves first, last or to the D place between two sides where another
        already has (one of its own side's, or the enemy's against its own side in a tied
        round): it shoots with that one, in its beat, which a shot first (last) then keeps
        before (after) every action of its enemy. Shots never shoot one after another for
        the order they were looked at in."""
        slot = self.joint.get((move, frozenset((shot.side, enemy))))
        if slot is None or slot not in self.board.sides:
            return False
        self.board.join_owning(self.whole(shot), slot, "DI-6", why, also)
        if move != "with":
            self.board.keep_outside(slot, enemy, first=move == "first")
        return True

    def first_later(self, enemy: str, order: int) -> int:
        rank = self.letter_rank
        later = self.board.first_index(
            enemy, lambda a: a.role != "psionic" and rank[a.letter] > order)
        if later is not None:
            return later
        spots = self.enemy_span(enemy)
        return spots[1] + 1 if spots is not None else len(self.board.slots)

    # DI-6: a bonus lost to moving, said where the shot ended up
    def said_lost(self) -> None:
        for shot, why in self.lost:
            if self.board.where.get((shot.index, shot.routine)) is not None:
                self.board.slot_of(shot).cite("DI-6", why)

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
                movers = sorted(shots[number], key=by_place)  # roster order, as declared or not
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


def owned(movers: list[Item], why: str) -> list[tuple[Item, str, str]]:
    """A shot's DI-6 line, said of its items: it leaves a beat with them."""
    return [(item, "DI-6", why) for item in movers]


def reaction_sum(die: int, reaction: int, delay: int) -> str:
    """DI-6's sum as a person says it: `die 1 + reaction 2 = 3`."""
    text = f"die {die}"
    if reaction:
        text += f" {'+' if reaction > 0 else '-'} reaction {abs(reaction)}"
    if delay:
        text += f" - delay {delay}"
    return f"{text} = {die + reaction - delay}"
