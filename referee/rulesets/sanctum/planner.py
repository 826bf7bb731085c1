"""sanctum's plan: a turn's pairs in their listed order, each a beat of both groups'
minions in SA-7's attack order (SA-1, SA-2, SA-3)."""

from __future__ import annotations

from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.roles import Planner
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import sim, turns
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class SanctumPlanner(Settled[State], Planner[State]):
    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(self.rs.id, round_, [])
        state = self.state(fight)
        pairs = turns.pairs(fight, state, round_)
        if not pairs:
            plan.notes.append(f"turn {round_} lists no combats (SA-2)")
            return plan
        roster = turns.roster(self.settings, fight, state)
        seen: set[tuple[str, str]] = set()
        now = round_ == fight.round
        started = state.started.get(round_, 0) if now else 0
        fought = 0
        ends = state.ends.get(round_, ())
        fallen = turns.fallen(fight) if now else set()
        left_out: set[str] = set()
        for number, (a, b) in enumerate(pairs, start=1):
            first, second, why = sim.precedence(roster, a, b)
            key = sim.pair_key(a, b)
            # SA-7's attack order: the minions of the group with precedence, then the other's
            minions = {g: [roster.ids[i] for i in roster.members[g]] for g in (first, second)}
            if number > started:  # a combat to come: the fallen no longer fight (SA-3)
                left_out.update(cid for ids in minions.values() for cid in ids
                                if cid in fallen)
                minions = {g: [cid for cid in ids if cid not in fallen]
                           for g, ids in minions.items()}
            actions = [PlannedAction(cid, "combat", routine=number)
                       for ids in minions.values() for cid in ids]
            extra: dict[str, Any] = {"pair": number, "groups": [a, b], "first": first}
            if key in seen:
                actions = [x.with_extra(skipped="this pair has fought this turn (SA-2)")
                           for x in actions]
                beat = Beat(actions, ["SA-2"], [f"{a} and {b} have fought: skipped"],
                            {**extra, "skipped": True}, tag=f"#{number}",
                            note=f"{a} vs {b}: skipped")
            else:
                beat = Beat(actions, ["SA-1", "SA-2"],
                            [f"pair {number} of the listed order", why], extra,
                            tag=f"#{number}", note=f"{first} vs {second}")
                for group in (g for g, ids in minions.items() if not ids):
                    beat.cite("SA-3", f"{group} has no minions left: the combat ends at once")
                if number <= started:  # fought already (F, n or `referee fight`)
                    fought += 1
                    fought_beat(beat, ends[fought - 1] if fought <= len(ends) else None)
                elif fight.ended and now:  # never fought: the fight ended first
                    over = "the fight is over: never fought"
                    beat.actions = [x.with_extra(skipped=over) for x in actions]
                    beat.note += f" — {over}"
            seen.add(key)
            plan.beats.append(beat)
        if any("never fought" in beat.note for beat in plan.beats):
            plan.notes.append("the fight is over: its combats not fought never will be")
        plan.skipped.extend({"actor": cid, "action": "combat", "rule": "SA-3",
                             "why": "dead: no longer fights"}
                            for cid in fight.roster if cid in left_out)
        return plan

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        if fight.status[cid].dead:
            return ("SA-3", "dead: no longer fights")
        return None


def fought_beat(beat: Beat, end: dict[str, Any] | None) -> None:
    """A pair's beat once its combat has begun: over, it is done (the fold marks its
    actions resolved) and says how it ended; under way (a fight cut short), it is
    passed over by `n`, which would not go on with it: F does."""
    beat.extra["fought"] = True
    if end is not None:
        beat.note += f" — fought: {end['ended']}, {end['rounds']} rounds"
        return
    beat.actions = [x.with_extra(skipped="being fought: F goes on with it")
                    for x in beat.actions]
    beat.note += " — being fought"
