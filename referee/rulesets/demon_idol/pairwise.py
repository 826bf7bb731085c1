"""What every pairwise rule works from (DI-0: a rule moves only the actions it names):
one round's items looked up by declaration, actor and target, each side's first D, the
enemy's place on the board, and how two times compare. The rules themselves are in
overrides.py, missiles.py, attacks.py, casters.py, charges.py and fired.py; order.py
runs them in turn."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from referee.hints import TYPE_CHECKING

from . import book

if TYPE_CHECKING:
    from referee.engine.plan import Beat
    from referee.engine.view import Fight

    from .board import Board
    from .items import Item
    from .settings import Settings


class Pairwise:
    """One round's board and items, as the pairwise rules ask of them."""

    def __init__(self, settings: Settings, fight: Fight, board: Board, items: list[Item],
                 dice: dict[str, int]) -> None:
        self.settings, self.fight, self.board, self.dice = settings, fight, board, dice
        # the by-the-book switches (all off: the DI procedure)
        self.book = settings.book
        self.items: list[Item] = []  # all but preparations and psionics
        self.prepared: list[Item] = []
        self.by_decl: dict[int, list[Item]] = defaultdict(list)
        self.by_actor: dict[str, list[Item]] = defaultdict(list)
        self.aimed_at: dict[str, list[Item]] = defaultdict(list)
        self.aims: dict[int, list[str]] = {}
        self.first_items: list[Item] = []
        self.first_of: dict[str, list[Item]] = defaultdict(list)  # by role
        self.lost: list[tuple[Item, str]] = []  # shots without their reaction bonus (DI-6)
        # DI-6's beats of shots moved first, last or to the D place, by the move and the
        # two sides: a second such shot between the same sides joins the first's beat
        self.joint: dict[tuple[str, frozenset[str]], Beat] = {}
        self.first_discharge: dict[str, Item] = {}  # each side's first D item (DI-6)
        self.sides: set[str] = set()
        self.letter_rank = {letter: n for n, letter in enumerate(settings.order)}
        self._moving: dict[int, frozenset[str]] = {}
        roster, members = fight.roster, fight.members
        by_decl, by_actor, aimed_at, aims = self.by_decl, self.by_actor, self.aimed_at, self.aims
        kept, first_items, first_discharge = self.items, self.first_items, self.first_discharge
        first_of, sides, prepared = self.first_of, self.sides, self.prepared
        for item in items:  # one pass: a big round has thousands
            decl, role = item.decl, item.role
            if decl.prepared:
                prepared.append(item)
                continue
            if role == "psionic":
                continue
            kept.append(item)
            side = item.side
            sides.add(side)
            if role == "discharge" and (side not in first_discharge
                                        or item.place < first_discharge[side].place):
                first_discharge[side] = item  # first in the roster, not in the log
            by_decl[item.index].append(item)
            if item.first:
                first_items.append(item)
                first_of[role].append(item)
                by_actor[item.actor.id].append(item)
                target = decl.target or decl.shots
                # one combatant named: itself (what `members` gives, without its scan)
                aimed = ([target[0]] if len(target) == 1 and target[0] in roster
                         else members(target))
                aims[item.index] = aimed
                for cid in aimed:
                    aimed_at[cid].append(item)

    def moving(self, round_: int) -> frozenset[str]:
        """Who declared an E in `round_` (DI-6: no missile reaction bonus), worked out
        once a plan, not once a shot."""
        found = self._moving.get(round_)
        if found is None:
            found = self._moving[round_] = book.movers(self.settings.role_of, self.fight,
                                                       round_)
        return found

    def firsts(self, predicate: Callable[[Item], object] | None, role: str) -> list[Item]:
        """The first items of `role` that `predicate` accepts (all with None), in order."""
        items = self.first_of.get(role, [])
        return list(items) if predicate is None else [i for i in items if predicate(i)]

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

    @staticmethod
    def compare(time: int, other: int) -> tuple[str, str]:
        if time < other:
            return "before", "<"
        if time > other:
            return "after", ">"
        return "with", "="
