"""Charges and closing: DI-9 (a charge against a D), DI-13 (weapon length against a
charge), the segments an E takes to close, and a further declaration after its E."""

from __future__ import annotations

from referee.hints import TYPE_CHECKING

from . import book, stats
from .items import Item
from .pairwise import Pairwise
from .wording import delayed, segments, timed

if TYPE_CHECKING:
    from referee.engine.plan import Beat


class ChargeRules(Pairwise):
    """Where a charge meets what answers it, and what a closing says."""

    # DI-9: charge against D
    def charges(self) -> None:
        for charge in self.firsts(lambda i: i.decl.charge, "move"):
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
        why = f"E-vs-D: {what} time {timed(d)} {sign} {segments(closing)} to close"
        self.board.place([d], charge, how, "DI-9", f"{why} ({how_far})" if how_far else why,
                         delayed(raw, how))

    # DI-13: charge and weapon length
    def lengths(self) -> None:
        # two charging each other clash where the first of them goes
        for charge in self.in_order(self.firsts(lambda i: i.decl.charge, "move")):
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

    # several declarations: a further one resolves after its actor's E (close, strike)
    def after_closing(self) -> None:
        book.after_closing(self.board, self.items, self.by_decl)

    # E with a distance: how many segments it takes, said in its beat
    def closings(self) -> None:
        for move in self.firsts(lambda i: i.decl.distance is not None, "move"):
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
