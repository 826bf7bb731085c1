"""DI-14 in the plan: a fired preparation goes just before the action that triggered it
(a spell's prepared start: started there, completed after it)."""

from __future__ import annotations

from .board import mark_ready
from .items import Item
from .pairwise import Pairwise
from .state import state_of


class FiredRules(Pairwise):
    """Where a prepared action that fired goes."""

    # DI-14: a fired preparation goes just before the action that triggered it
    def fired(self) -> None:
        fired = state_of(self.fight).fired
        for item in self.prepared:
            fire = fired.get((item.decl.round, item.actor.id))
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
