"""Against a caster: DI-8 (caster against caster), DI-10 (a blow against a spell) and, by
the book, DMG-67 (the losing die off the speed factor), DMG-65 (a missile landing on
the segment of the caster's side's die) and DMG-64 (a device on its usage time)."""

from __future__ import annotations

from referee.hints import TYPE_CHECKING

from . import stats
from .items import Item
from .pairwise import Pairwise
from .wording import delayed, possessive, timed

if TYPE_CHECKING:
    from typing import cast
else:
    from referee.hints import cast


class CasterRules(Pairwise):
    """Where a spell or device goes against what is aimed at its caster."""

    # DI-8: caster against caster
    def casters(self) -> None:
        for a in self.firsts(lambda i: i.decl.spell is not None, "discharge"):
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

    # DI-10: melee against a caster
    def melee(self) -> None:
        for blow in self.firsts(None, "strike"):
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
        for shot in self.firsts(lambda i: i.missile, "discharge"):
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
        for d in self.in_order(self.firsts(lambda i: i.casting and i.is_device, "discharge")):
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
