"""count-up's plan: lowest count first, equal counts at once (CU-4); the surprised skip
round 1 (CU-1), a latecomer acts at the count reached or twice the next round (CU-5),
the dead take no turn after the beat they fell in (CU-8)."""

from __future__ import annotations

from collections import defaultdict

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.plan import Plan, PlannedAction
from referee.engine.roles import Planner
from referee.engine.view import Fight

from . import events as cu
from . import order
from .conditions import condition
from .fold import State, rolled
from .order import Turn, key_of
from .settings import ID, Settled


class CountUpPlanner(Settled[State], Planner[State]):
    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(ID, round_, [])
        if not fight.initiative_at:
            if fight.declared(round_):
                plan.notes.append("roll base initiative to order the round (CU-2)")
            return plan
        turns: list[Turn] = []
        for index, d in fight.declared(round_):
            if isinstance(d, cu.Declare):
                turns.extend(self.turns(fight, index, d, plan))
        if round_ == max(fight.round, 1):  # a round gone by: its plan is what happened
            turns = self.standing(fight, round_, turns, plan)
        by_count: dict[int, list[Turn]] = defaultdict(list)
        for turn in turns:
            by_count[turn.count].append(turn)
        for count in sorted(by_count):
            plan.beats.append(order.beat(fight, count, by_count[count]))
        return order.after_the_end(fight, plan)

    def can_act(self, fight: Fight, cid: str) -> str:
        """CU-8: incapacitated and dying creatures still act (at a cost); the dead do not."""
        word = condition(fight.roster[cid], fight.status[cid])
        return "dead" if word == "dead" else ""

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        """None: the plan leaves out the turns the dead no longer take (`standing`), and
        one slain in its own beat still acts there (CU-4)."""
        return None

    def round_initiative(self, fight: Fight, d: cu.Declare) -> tuple[int, str]:
        base_of = rolled(fight)
        if d.actor not in base_of:
            at = max(fight.initiative_at.values())
            raise IllegalEvent(f"round {d.round}: {d.actor} has no base initiative yet (CU-2)",
                               ("events", at, "base", d.actor))
        base = base_of[d.actor]
        modifier, why = order.modifier(self.settings.kinds, fight.roster[d.actor], d)
        return base + modifier, f"base {base}, {why}"

    def standing(self, fight: Fight, round_: int, turns: list[Turn], plan: Plan) -> list[Turn]:
        """The turns still taken (CU-8): the dead take none after the beat they fell in.
        A turn already done stays (it is what happened); one slain while its own beat was
        under way still acts in it, for equal counts act at once (CU-4)."""
        done = fight.resolved.get(round_, set())
        died = self.state(fight).died
        kept: list[Turn] = []
        for turn in sorted(turns, key=lambda t: t.count):
            cid = turn.action.actor
            if not self.can_act(fight, cid) or key_of(turn) in done or \
                    order.fell_in_beat(died.get(cid), round_, turn, kept):
                kept.append(turn)
                continue
            plan.skipped.append({"actor": cid, "action": turn.action.action, "rule": "CU-8",
                                 "why": "dead: does not act"})
        return kept

    def turns(self, fight: Fight, index: int, d: cu.Declare, plan: Plan) -> list[Turn]:
        count, why = self.round_initiative(fight, d)
        action = PlannedAction(d.actor, d.action, None, None, index)
        if self.surprised(fight, d):
            plan.skipped.append({"actor": d.actor, "action": d.action, "rule": "CU-1",
                                 "why": "surprised in round 1: does not act (CU-1)"})
            return []
        joined = fight.joins.get(d.actor)
        if joined is None:
            return [Turn(count, action, ("CU-3",), f"count {count} = {why}")]
        return self.latecomer_turns(fight, joined, d, count, why, action, plan)

    def latecomer_turns(self, fight: Fight, joined: tuple[int, ev.Join], d: cu.Declare,
                        count: int, why: str, action: PlannedAction, plan: Plan) -> list[Turn]:
        join_round, join = joined
        at_count = getattr(join, "at_count", None)
        at = at_count if at_count is not None else -10**6
        if d.round == join_round:
            if count < at:
                plan.skipped.append({"actor": d.actor, "action": d.action, "rule": "CU-5",
                                     "why": (f"joined at count {at}; its count {count} had "
                                             "passed: acts twice next round (CU-5)")})
                return []
            return [Turn(count, action, ("CU-3", "CU-5"), f"joined at count {at}: {why}")]
        if d.round == join_round + 1 and self.missed(fight, join_round, d.actor, at):
            shift = self.settings.shift
            early = count - shift
            first = PlannedAction(d.actor, d.action, None, 1, action.declared)
            second = PlannedAction(d.actor, d.action, None, 2, action.declared)
            return [
                Turn(early, first, ("CU-5",),
                     f"latecomer's extra turn: {count} - {shift} = {early}"),
                Turn(count, second, ("CU-3", "CU-5"), f"latecomer's own turn: {why}"),
            ]
        return [Turn(count, action, ("CU-3",), f"count {count} = {why}")]

    def missed(self, fight: Fight, join_round: int, cid: str, at: int) -> bool:
        earlier = [d for _, d in fight.declared(join_round)
                   if d.actor == cid and isinstance(d, cu.Declare)]
        if earlier:
            count, _ = self.round_initiative(fight, earlier[0])
        else:
            count = rolled(fight).get(cid, at)
        return count < at

    def surprised(self, fight: Fight, d: ev.Declare) -> bool:
        surprise = self.state(fight).surprise
        return (d.round == 1 and surprise is not None
                and fight.is_member(d.actor, surprise.surprised))
