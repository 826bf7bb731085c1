"""Who acts when in a demon-idol round: the plan (order.py), and who can no longer act in
it: the dead, the dying and the down (DI-19), save in the beat they fell in (DI-21)."""

from __future__ import annotations

from referee.engine.plan import Plan
from referee.engine.roles import Planner, marked_unable
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class DemonIdolPlanner(Settled[State], Planner[State]):
    def plan(self, fight: Fight, round_: int) -> Plan:
        from .order import Kept, build_plan

        kept = self.__dict__.get("_kept")  # what one plan keeps for the next
        if kept is None:
            kept = self.__dict__["_kept"] = Kept()
        return build_plan(self.settings, fight, round_, kept)

    def acts_in(self, fight: Fight, cid: str, beat: int) -> bool:
        """DI-21: all the actions of a beat resolve, even where they fell each other's
        actors: one who fell (slain, dying or down) in a beat still acts in it; one who
        fell earlier does not."""
        status = fight.status[cid]
        if not status.dead and status.hp > 0:
            return True
        fell = self.state(fight).fell.get(cid)
        if fell is None or fell[0] != fight.round:
            return False
        _, during, done = fell
        return beat <= (during if during is not None else self._beat_when(fight, cid, done))

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        """The engine's (`Planner.mark_unable`), asking `unable` only of the actions of
        those who fell (dead, or at or below 0 hit points): one standing acts in every
        beat (`acts_in`), and a big round has thousands of actions."""
        fallen = {cid for cid, status in fight.status.items()
                  if status.dead or status.hp <= 0}
        return marked_unable(self, fight, plan, fallen) if fallen else plan

    def _beat_when(self, fight: Fight, cid: str, done: frozenset[str]) -> int:
        """The beat `cid` fell in when the blow named none: the first of the round's plan
        not all resolved by `done`. Worked out once a plan (a big round asks it for every
        fallen action)."""
        key = (fight.plan_revision, cid, done)
        kept: dict[Any, int] = self.__dict__.setdefault("_fell_beats", {})
        found = kept.get(key)
        if found is None:
            if len(kept) > 4096:
                kept.clear()
            plan = self.plan(fight, fight.round)
            found = next((n for n in range(1, len(plan.beats) + 1)
                          if not set(plan.keys(n)) <= done), len(plan.beats) + 1)
            kept[key] = found
        return found

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        status = fight.status[cid]
        if self.acts_in(fight, cid, beat):
            return None  # standing, or fell in this very beat: it still acts (DI-21)
        if status.dead:
            return ("DI-21", "slain before this beat: does not act")
        if status.hp < 0:
            return ("DI-19", f"below 0 hit points ({status.hp}): dying, does not act")
        return ("DI-19", "at 0 hit points: down, does not act")

    def can_act(self, fight: Fight, cid: str) -> str:
        status = fight.status[cid]
        if status.dead:
            return "dead"
        if status.hp < 0:
            return "dying"
        return "down" if status.hp == 0 else ""
