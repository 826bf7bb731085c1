"""agility-order's plan: each unit's turn in the lineup (AO-1 … AO-3), the lineup kept
while the log stays the same, and whose turn it is now."""

from __future__ import annotations

from functools import cached_property

from referee.engine.errors import IllegalEvent
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.roles import Planner, Role
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import lineup as lu
from . import units
from .settings import ID, Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any, TypeVar

    from referee.engine.port import Ruleset
else:
    from referee.hints import Any, TypeVar

S = TypeVar("S")
KEPT = 256  # lineups kept (by plan revision and round) before the cache starts afresh


class AgilityPlanner(Settled[State], Planner[State]):
    def __init__(self, rs: Ruleset[State]) -> None:
        super().__init__(rs)
        # by (plan revision, round, fight's round): the first lineup made there (its
        # `touchy`); with the turns taken that change it, the lineup; with the order the
        # turns were taken in, every turn taken and "first", the lineup as planned
        # (`taken_first`)
        self._lineups: dict[tuple[Any, ...], lu.Lineup] = {}
        # the last turns taken worked out: the round's resolved keys (a set that only
        # grows, and is a new one after an undo), its size then, and the turns in it;
        # whose turn it is is asked on every act, and a long round holds hundreds of keys
        self._taken: tuple[set[str] | None, int, frozenset[str]] = (None, 0, frozenset())
        # the runs of equal Agility placed (`lineup.lineup`'s `placed`), and each slot's
        # beat by the slot (the same slot, the same beat: a plan's rows are kept by beat)
        self._placed: lu.Placed = {}
        self._beats: dict[int, tuple[lu.Slot, Beat]] = {}

    def taken(self, fight: Fight, round_: int) -> frozenset[str]:
        """`lineup.taken`, worked out again only when the round's resolved keys change."""
        keys = fight.resolved.get(round_)
        seen, size, turns = self._taken
        if keys is not None and seen is keys and size == len(keys) \
                and round_ == max(fight.round, 1) <= fight.round:
            return turns
        turns = lu.taken(fight, round_)
        self._taken = (keys, len(keys) if keys is not None else 0, turns)
        return turns

    def lineup(self, fight: Fight, round_: int,
               begun: frozenset[str] | None = None) -> lu.Lineup:
        """The round's lineup, kept while the log stays the same. A resolve leaves the plan
        revision as it was: the turns taken since are put first (`taken_first`), and the
        lineup is worked out again only when one of them changes it (`Lineup.touchy`), or
        when a turn under way (`begun`: the fold's unless given) is of a unit out of the
        fight (it stays where it is)."""
        taken = self.taken(fight, round_)
        order = self.took(fight, round_, taken)
        begun = lu.begun(fight, round_) if begun is None else begun
        base = (fight.plan_revision, round_, fight.round)
        found = self._lineups.get(base + (order, taken, begun, "first"))
        if found is not None:
            return found
        if len(self._lineups) > KEPT:
            self._lineups.clear()
        made_first = self._lineups.get(base)
        touchy = made_first.touchy if made_first is not None else None
        key = base + ((taken, begun) if touchy is None else (taken & touchy, begun & touchy))
        made = self._lineups.get(key)
        if made is None:
            if len(self._placed) > KEPT * 16:
                self._placed.clear()
            made = lu.lineup(fight, round_, self.settings.tie_mode, key[3], key[4],
                             placed=self._placed)
            self._lineups.setdefault(base, made)
            self._lineups[key] = self._lineups[
                base + (key[3] & made.touchy, key[4] & made.touchy)] = made
        found = self._lineups[base + (order, taken, begun, "first")] = lu.taken_first(
            made, taken, order, begun)
        return found

    @staticmethod
    def took(fight: Fight, round_: int, taken: frozenset[str]) -> tuple[str, ...]:
        """The turns `taken` of `round_` in the order they were taken (the fold's)."""
        if not taken:
            return ()
        state = units.state(fight)
        return state.took if state.round == round_ else ()

    def holder(self, fight: Fight, round_: int, beat: int, begun: frozenset[str],
               stood: str | None = None) -> str | None:
        """The unit whose turn is beat `beat` of `round_` and is the turn under way (the
        lineup's first not done), with the turns `begun` kept in it and the unit `stood`
        as it stood before the hit that just felled it (a lineup of a moment ago, not
        kept); else None."""
        done = fight.resolved.get(round_, set())
        if stood is None:
            slots = self.lineup(fight, round_, begun).slots
        else:
            taken = self.taken(fight, round_)
            slots = lu.taken_first(lu.lineup(fight, round_, self.settings.tie_mode, taken, begun,
                                             stood), taken, self.took(fight, round_, taken),
                                   begun).slots
        for number, slot in enumerate(slots, start=1):
            if f"{slot.cid}:turn" not in done:
                return slot.cid if number == beat else None
        return None

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def plan(self, fight: Fight, round_: int) -> Plan:
        found = self.lineup(fight, round_)
        plan = Plan(ID, round_, self.beats(found.slots))
        plan.skipped = [dict(item) for item in found.skipped]
        if found.unrolled:
            plan.notes.append("ties to roll (t): " + ", ".join(found.unrolled))
        return plan

    def beats(self, slots: tuple[lu.Slot, ...]) -> list[Beat]:
        """A beat a slot, the same beat for the same slot (this planner marks none
        skipped: a beat is never changed once made)."""
        kept = self._beats
        if len(kept) > KEPT * 16:
            kept.clear()
        beats = []
        for s in slots:
            found = kept.get(id(s))
            if found is None or found[0] is not s:
                found = kept[id(s)] = (s, Beat([PlannedAction(s.cid, "turn")], list(s.rules),
                                                list(s.why), {"agility": s.agility}))
            beats.append(found[1])
        return beats

    def can_act(self, fight: Fight, cid: str) -> str:
        return units.can_act(fight, cid)

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        return plan  # the lineup leaves out who takes no turn, and lists them as skipped

    def turn(self, fight: Fight, round_: int | None = None) -> str | None:
        """Whose turn it is: the lineup's first unit not done this round."""
        round_ = max(fight.round, 1) if round_ is None else round_
        done = fight.resolved.get(round_, set()) if round_ <= fight.round else set()
        for slot in self.lineup(fight, round_).slots:
            if f"{slot.cid}:turn" not in done:
                return slot.cid
        return None

    def on_turn(self, fight: Fight, cid: str, round_: int, what: str) -> None:
        now = self.turn(fight, round_)
        if now != cid:
            who = f"{fight.roster[now].name}'s" if now else "nobody's (the round is over)"
            raise IllegalEvent(f"it is {who} turn, not {fight.roster[cid].name}'s: "
                               f"{what} on its own turn", ("actor",))

    def ties_due(self, fight: Fight) -> list[str]:
        """AO-1: the tied units still to roll (or roll again) in this round's lineup."""
        if self.settings.tie_mode == "players":
            return []
        return list(self.lineup(fight, max(fight.round, 1)).unrolled)


class Planned(Role[S]):
    """A role that asks the lineup (whose turn it is, the ties due, a turn's check):
    agility-order's planner, which keeps it, looked up the first time it is asked (the
    roles are built one by one, the planner after some of those asking)."""

    @cached_property
    def planner(self) -> AgilityPlanner:
        found = self.rs.role(AgilityPlanner)
        assert found is not None  # agility-order's own, always there
        return found
