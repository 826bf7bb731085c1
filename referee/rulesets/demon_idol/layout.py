"""The first layout of a round: sides by their initiative dice, each side's actions in
letter order (DI-3; tied sides together, DI-4), psionics atop every segment (DI-5), tied
rounds split by speed factor and casting time (DI-11, DI-12), and a declaration delay
after its side's undelayed actions (DI-16). The pairwise rules move actions from here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from referee.hints import TYPE_CHECKING

from .items import Item, by_place, factor_of
from .wording import possessive, segments

if TYPE_CHECKING:
    from referee.engine.view import Fight

    from .board import Board
    from .settings import Settings


# -- DI-3 / DI-4 with the tie splits of DI-11, DI-12 and the delay of DI-16 -----------


class Layout:
    """Lays a round's items on the board: each group of tied sides, highest die first,
    letter by letter."""

    def __init__(self, settings: Settings, fight: Fight, board: Board, items: list[Item],
                 dice: dict[str, int]) -> None:
        self.settings, self.fight, self.board = settings, fight, board
        self.items, self.dice = items, dice
        self.by_step: dict[tuple[str, str], list[Item]] = defaultdict(list)
        for item in sorted(items, key=by_place):  # roster order: a beat's why whatever was
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
        by_step, order = self.by_step, self.settings.order
        for number, group in enumerate(self.groups):
            if len(group) == 1:  # (the common case: a side's own letters, as laid out)
                side = group[0]
                for letter in order:
                    found = by_step.get((side, letter))
                    if found:
                        self.lay_step(number, group, letter, found)
                continue
            for letter in order:
                step = [i for side in group for i in by_step.get((side, letter), ())]
                if step:
                    self.lay_step(number, group, letter, step)

    def lay_step(self, number: int, group: list[str], letter: str, step: list[Item]) -> None:
        tied = len(group) > 1
        role = self.settings.role_of[letter]
        base_rule, base_why = self.step_reason(number, group, letter)
        if (not tied or role != "strike" and (role != "discharge"
                                                  or not self.mixed_discharge(step))) and \
                not any(item.delay or item.decl.prepared or item.replaced for item in step):
            # (most steps: no tie split, and nothing said of an item alone) one beat of
            # them all, as the buckets below would make it
            self.board.add(step, [base_rule, "DI-2"] if self.many_sides else [base_rule],
                           [base_why])
            return
        buckets: dict[tuple[float, ...], tuple[list[Item], list[str], list[str],
                                               list[tuple[Item, str, str]], set[Lines]]] = {}
        keyed = list(self.keys(tied, role, step, group))
        ranks = (delay_ranks([(item, time_key) for item, time_key, _ in keyed])
                 if any(item.delay for item in step) else None)
        many_sides = self.many_sides
        for item, time_key, lines in keyed:
            prepared = item.decl.prepared
            slot_key = time_key + ((ranks[id(item)] if ranks else 0), prepared)
            entry = buckets.get(slot_key)
            if entry is None:  # (with many sides, DI-2 comes first: its first item adds it)
                entry = buckets[slot_key] = (
                    [], [base_rule, "DI-2"] if many_sides else [base_rule], [base_why], [],
                    set())
            members, cites, whys, owned, cited = entry
            members.append(item)
            if item.delay or prepared or item.replaced:
                lines = (*lines, *self.own_lines(item, letter))
            elif not lines:
                continue  # nothing said of it alone (the most common item)
            if lines not in cited:  # its tie split's lines (DI-11, DI-12), then its own
                cited.add(lines)
                for rule, text in lines:
                    if rule not in cites:
                        cites.append(rule)
                    if text not in whys:
                        whys.append(text)
            for rule, text in lines:
                owned.append((item, rule, text))
        for slot_key in sorted(buckets):
            members, cites, whys, owned, _ = buckets[slot_key]
            self.board.add(members, cites, whys, ready=bool(slot_key[-1]), owned=owned)

    def own_lines(self, item: Item, letter: str) -> Iterator[tuple[str, str]]:
        """Lines (with their rules) a beat says of `item` alone: its declaration delay
        (DI-16), its preparation (DI-14), the failed morale check that replaced it (DI-18).
        Like a tie split's line (its speed factor, DI-11; its casting time, DI-12), each is
        said of the actions it is true of and leaves a beat with the last of them: a
        delayed shot that DI-6 moves leaves no word of its delay behind (`Board.owned`)."""
        if item.delay:
            yield "DI-16", self.delay_rank_note(item, letter)
        if item.decl.prepared:
            yield "DI-14", "prepared: becomes ready here, fires when its trigger happens"
        if item.replaced:
            yield "DI-18", f"failed morale: avoidance replaces the declared {item.replaced}"

    @staticmethod
    def delay_rank_note(item: Item, letter: str) -> str:
        return f"declared {segments(item.delay)} late, after its side's undelayed {letter}"

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
             group: list[str]) -> Iterator[tuple[Item, tuple[float, ...], Lines]]:
        if tied and role == "strike":
            yield from self.speed_factor_keys(step)
        elif tied and role == "discharge" and self.mixed_discharge(step):
            yield from self.tied_discharge_keys(step, self.dice[group[0]])
        else:
            for item in step:
                yield item, (), ()

    @staticmethod
    def speed_factor_keys(step: list[Item]) -> Iterator[tuple[Item, tuple[float, ...], Lines]]:
        lowest = min((f for i in step if (f := factor_of(i)) is not None), default=0)
        said: dict[int | None, Lines] = {}  # each factor's line, made once
        for item in step:
            factor = factor_of(item)
            lines = said.get(factor)
            if lines is None:
                lines = said[factor] = (("DI-11", (
                    f"tied round: G by speed factor, low to high ({factor})"
                    if factor is not None else
                    "tied round: attacks without a speed factor join the first G beat")),)
            time = (factor if factor is not None else lowest) + item.delay
            yield item, (time,), lines

    @staticmethod
    def mixed_discharge(step: list[Item]) -> bool:
        casting = [i for i in step if i.casting]
        return bool(casting) and len(casting) < len(step)

    @staticmethod
    def tied_discharge_keys(step: list[Item],
                            die: int) -> Iterator[tuple[Item, tuple[float, ...], Lines]]:
        shots = sorted({die + i.delay for i in step if not i.casting})
        said: dict[str, Lines] = {}  # each line, made once

        def line(text: str) -> Lines:
            found = said.get(text)
            if found is None:
                found = said[text] = (("DI-12", text),)
            return found

        for item in step:
            if not item.casting:
                yield item, (die + item.delay,), line(
                    "tied round: missiles and turning at the tied die")
                continue
            time = item.cast_time()
            if time in shots:
                yield item, (time,), line(
                    f"tied round: casting time {time} = die {die}, with the missiles")
                continue
            earlier = [s for s in shots if s < time]
            place = (earlier[-1] + 0.5) if earlier else shots[0] - 0.5
            relation = f"{time} < die {die}, before" if time < die else f"{time} > die {die}, after"
            yield item, (place,), line(f"tied round: casting time {relation} the missiles")


# what a tie split says of an item: (rule, line) pairs, one tuple shared by the items
# it is said of (a beat cites it once)
Lines = tuple[tuple[str, str], ...]




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
