"""simple's plan: one beat per place in the initiative order (SI-3 ... SI-8)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.roles import Planner
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import order, standing
from .settings import Settled
from .standing import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

ACT = "act"


class SimplePlanner(Settled[State], Planner[State]):
    def can_act(self, fight: Fight, cid: str) -> str:
        """SI-8: the dead and the down (0 hit points or fewer) take no turn: the state
        words say which."""
        return self.rs.tracker.state_word(fight, cid)

    def plan(self, fight: Fight, round_: int) -> Plan:
        s = self.settings
        plan = Plan(self.rs.id, round_, [])
        rolls, _ = standing.rolls_for(s, fight, round_)
        for place in standing.places(s, fight, round_):
            beat = self.beat(fight, place, rolls)
            if beat.actions:
                plan.beats.append(beat)
        waiting = [standing.name_of(fight, w) for w in standing.who_rolls(s, fight)
                   if w not in rolls]
        if waiting:
            plan.notes.append(f"initiative to roll for {', '.join(waiting)}: i, or I to "
                              "type real dice (SI-2)")
        first = min((r for r, found in self.state(fight).rolls.items() if found),
                    default=round_)
        if s.rolled == "once" and round_ > first:
            plan.notes.append(f"initiative as rolled in round {first}: once per fight (SI-4)")
        return plan

    def beat(self, fight: Fight, place: order.Place, rolls: Mapping[str, int]) -> Beat:
        actors = [cid for w in place.who for cid in members(fight, w)]
        why = [self.told(fight, w, rolls[w]) for w in place.who]
        extra: dict[str, Any] = {"initiative": place.total}
        if place.open_tie:
            extra["tied"] = True
        return Beat([PlannedAction(cid, ACT) for cid in actors], list(place.rules),
                    why + list(place.why), extra, tag=str(place.total),
                    note="tied: re-roll with i" if place.open_tie else "")

    def told(self, fight: Fight, who: str, roll: int) -> str:
        """"Ria 15 (12 + dex 3)", or "The party 4" when nothing is added."""
        score = standing.score(self.settings, fight, who, roll)
        shown = f" ({score.told()})" if score.label else ""
        return f"{standing.name_of(fight, who)} {score.total}{shown}"


def members(fight: Fight, who: str) -> list[str]:
    """Who acts on a roller's place: the combatant, or its side's living."""
    if who in fight.roster:
        return [who] if not fight.status[who].dead else []
    return [cid for cid, c in fight.roster.items()
            if c.side == who and not fight.status[cid].dead]
