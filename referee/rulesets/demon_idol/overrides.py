"""DI-3 for one action: haste or a weapon of speed wins initiative for it, slow loses it;
and for one routine, the timing an item or a spell gives it (first wins, last loses)."""

from __future__ import annotations

from .items import WORDS, Item
from .pairwise import Pairwise


class OverrideRules(Pairwise):
    """An action (or a routine) with its own initiative, before or after the enemy."""

    # DI-3 for one action: haste or a weapon of speed wins initiative, slow loses it
    def overrides(self) -> None:
        for first in self.first_items:
            if first.override is None and not first.decl.routines:
                continue  # (most actions: nothing overrides their side's initiative)
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
        what = {"haste": "hasted", "speed": "a weapon of speed", "slow": "slowed",
                "first": "its timing first", "last": "its timing last"}[word]
        who, this = first.actor.id, "action"
        if first.decl.routines and first.routine is not None:  # one routine of several
            who += f" (routine {first.routine}, {first.arm.name if first.arm else 'no weapon'})"
            this = "routine"
        if WORDS[word] == "wins":
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
        at = (min(s[0] for s in spans) if WORDS[word] == "wins"
              else max(s[1] for s in spans) + 1)
        rules = ["DI-3"]
        if first.timed is not None and self.book["routines_first_and_last"]:
            rules.append("DMG-62")  # by the book too, a routine strikes first or last
            why += " (by the book: routines strike first and last)"
        self.board.add(movers, rules, [why], at=at)
