"""phases' planner: the plan of a round, phase by phase, and who can no longer act: a
croaked unit, or one out of the fight (PH-21)."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import roles
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import stats
from .manoeuvres import name
from .naming import names, side_name
from .rounds import DROPPED, HELD, KINDS, WORD, RoundLog, Run
from .settings import Settled
from .standing import at_round, can_act, runs
from .state import State, state_of

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class Planner(Settled[State], roles.Planner[State]):
    def plan(self, fight: Fight, round_: int) -> Plan:
        """The round phase by phase; once the fight is over, what its last round had
        still to do never comes (ended)."""
        up = self.settings.up
        found = plan(fight, round_, up, self.rs.id)
        state = self.state(fight)
        if state.over and found.round == state.over:
            return ended(fight, found, state.over_at, up)
        return found

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def can_act(self, fight: Fight, cid: str) -> str:
        return can_act(fight, cid)

    def mark_unable(self, fight: Fight, plan: Plan) -> Plan:
        """A unit out of the fight is not in the plan at all, neither gaining nor holding
        (PH-21), so no action of its waits to be skipped."""
        return plan


# A big battle's plan is worked out again after every event, and an event changes one
# unit's round (its Run; the others keep theirs, the same objects). So each Run's share of
# the plan is worked out once, and a phase no changed share touches keeps its beat from
# the last plan: the same object, never changed after it is made (nothing is marked
# skipped in it: a unit out of the fight is left out of the runs, PH-21).


NO_BLOCKED: Mapping[int, list[tuple[str, str]]] = {}  # shared: never changed
NO_HOLDING: Mapping[int, dict[str, Any]] = {}


class Share:
    """What one unit's round puts into the plan: its gains (at its base phase), what
    was stopped, what it holds phase by phase, and whether it lost its Move (PH-5).
    Most units only gain: theirs is made with as few objects as can be (a first plan
    makes a thousand)."""

    __slots__ = ("cid", "base_pos", "actions", "blocked", "holding", "lost_move")

    def __init__(self, run: Run) -> None:
        cid = run.unit.cid
        self.cid = cid
        self.base_pos = run.base_pos
        self.actions = tuple([PlannedAction(cid, kind) for kind in run.gains])
        self.blocked = NO_BLOCKED
        if run.blocked:
            self.blocked = stopped(run.blocked)
        self.holding = NO_HOLDING
        if run.holding:
            self.holding = holding_of(cid, run.holding)
        self.lost_move = "move" in run.lost and run.lost["move"].endswith("(PH-5)")

    def positions(self) -> set[int]:
        """The phases the share puts anything into."""
        out = set(self.blocked) | set(self.holding)
        if self.base_pos is not None:
            out.add(self.base_pos)
        return out

    def at(self, pos: int) -> tuple[Any, ...]:
        """All the share puts into phase `pos` (to compare one run with another)."""
        return (self.actions if pos == self.base_pos else None, self.blocked.get(pos),
                self.holding.get(pos))


def stopped(blocked: list[tuple[int, str, str, str]]) -> dict[int, list[tuple[str, str]]]:
    """Each phase's (rule, why) for what a unit does not gain there, the kinds one reason
    stops told in one why that names them (the other may well be gained: a why never
    contradicts the actions). The why, up to its colon, is the reason."""
    grouped: dict[int, dict[tuple[str, str], list[str]]] = {}
    for pos, kind, rule, why in blocked:
        grouped.setdefault(pos, {}).setdefault((rule, why.split(":")[0]), []).append(kind)
    return {pos: [stopped_why(rule, head, kinds) for (rule, head), kinds in reasons.items()]
            for pos, reasons in grouped.items()}


def stopped_why(rule: str, head: str, kinds: list[str]) -> tuple[str, str]:
    words = [WORD[k] for k in KINDS if k in kinds]
    if DROPPED in head:  # PH-10: "is stunned: loses the delayed Move and Action it held"
        return rule, f"{head.replace(DROPPED, '')}: loses the delayed {' and '.join(words)} " \
            "it held"
    if HELD in head:  # PH-3: "holds a delayed Move and Action: gains no new one"
        return rule, f"{head.replace(HELD, ' and '.join(words))}: gains no new one"
    return rule, f"{head}: gains no {' or '.join(words)}"


def holding_of(cid: str, holding: dict[int, frozenset[str]]) -> dict[int, dict[str, Any]]:
    """The unit's entry in each phase's "holding": one object while what it holds stays
    the same (a defender holds both all round: one entry, not one a phase)."""
    out: dict[int, dict[str, Any]] = {}
    entries: dict[frozenset[str], dict[str, Any]] = {}
    for pos, held in holding.items():
        if held:
            entry = entries.get(held)
            if entry is None:
                entry = entries[held] = {"actor": cid, "delayed": [k for k in KINDS
                                                                  if k in held]}
            out[pos] = entry
    return out


def share(run: Run) -> Share:
    found: Share | None = run.share
    if found is None:
        found = run.share = Share(run)
    return found


class Inputs:
    """One phase's shares, in roster order."""

    __slots__ = ("gaining", "blocked", "holding")

    def __init__(self) -> None:
        self.gaining: list[Share] = []
        self.blocked: list[tuple[str, str]] = []
        self.holding: list[dict[str, Any]] = []


def inputs(runs: dict[str, Run], positions: set[int]) -> dict[int, Inputs]:
    """The shares of the phases at `positions`, in one walk of the runs."""
    out = {pos: Inputs() for pos in positions}
    for run in runs.values():
        found = share(run)
        here = out.get(found.base_pos) if found.base_pos is not None else None
        if here is not None:
            here.gaining.append(found)
        for pos, entries in found.blocked.items():
            if pos in out:
                out[pos].blocked += entries
        for pos, entry in found.holding.items():
            if pos in out:
                out[pos].holding.append(entry)
    return out


class Frame:
    """What every phase's beat reads besides the shares; a change in any of it (a new
    round, an order, a surrender) works out every beat again."""

    def __init__(self, fight: Fight, round_: int, up: bool) -> None:
        state = state_of(fight)
        self.fight = fight
        self.round = round_
        self.log = at_round(fight, round_, up)
        self.way = "up" if up else "down"
        self.delaying = self.log.delaying
        self.surrendered = tuple((s, side_name(fight, s)) for s in state.surrendered)
        # PH-21: the units that left the fight in this round, by their own phase
        self.gone: dict[int, list[tuple[str, str]]] = {}
        for cid, (round_gone, how) in state.out.items():
            if round_gone == round_ and cid in self.log.fighting and cid in fight.roster:
                pos = self.log.pos(stats.combat(fight.roster[cid]))
                if pos is not None:
                    self.gone.setdefault(pos, []).append((cid, how))
        self._defenders: set[str] | None = None

    def same(self, other: Frame) -> bool:
        return (self.round == other.round and self.log.order == other.log.order
                and self.log.start is other.log.start
                and self.fight.encounter is other.fight.encounter
                and self.way == other.way and self.delaying == other.delaying
                and self.surrendered == other.surrendered and self.gone == other.gone)

    def keep(self, other: Frame) -> None:
        """What `other`, the same frame, worked out already."""
        self._defenders = other._defenders

    def defenders(self) -> set[str]:
        """PH-4: the units of defending sides (worked out only when a beat asks)."""
        if self._defenders is None:
            encounter = self.fight.encounter
            defending: dict[str, bool] = {}
            for side in encounter.sides:  # the first side of an id, as Encounter.side
                defending.setdefault(side.id, stats.defending(side))
            self._defenders = {c.id for c in encounter.combatants
                               if defending.get(c.side, False)}
        return self._defenders


Lost = tuple[int, list[str]]  # where the Moves lost (PH-5) are told, and whose


class Kept:
    """The last plan of a round: the runs it was worked out from and its beats."""

    __slots__ = ("frame", "runs", "beats", "lost")

    def __init__(self, frame: Frame, runs: dict[str, Run], beats: list[Beat],
                 lost: Lost) -> None:
        self.frame, self.runs, self.beats, self.lost = frame, runs, beats, lost


def plan(fight: Fight, round_: int, up: bool, ruleset: str) -> Plan:
    """The plan of round `round_`, phase by phase, for the ruleset of id `ruleset`."""
    found = runs(fight, round_, up)
    frame = Frame(fight, round_, up)
    plans: dict[int, Kept] = state_of(fight).caches.plans  # the fight's own, never the rs's
    kept = plans.get(round_)
    if kept is not None and kept.frame.same(frame):
        frame.keep(kept.frame)
        beats, lost = kept_beats(frame, kept, found)
    else:
        beats, lost = all_beats(frame, found)
    if len(plans) > 8:
        plans.clear()
    plans[round_] = Kept(frame, found, beats, lost)
    out = Plan(ruleset, round_, list(beats))
    for _side, named in frame.surrendered:
        out.notes.append(f"{named} has surrendered (PH-10)")
    return out


def kept_beats(frame: Frame, kept: Kept, runs: dict[str, Run]) -> tuple[list[Beat], Lost]:
    """The beats of the last plan, those whose shares changed worked out again."""
    changed = changed_units(kept.runs, runs)
    stale = None if changed is None else stale_positions(kept.runs, runs, changed)
    if changed is None or stale is None:
        return all_beats(frame, runs)
    # only a changed run that loses its Move (before or now) changes who lost it, or
    # their order (the log's)
    lost_at = max(frame.log.reached, 0)
    if any(share(runs[cid]).lost_move or share(kept.runs[cid]).lost_move for cid in changed):
        lost = (lost_at, lost_moves(frame.log, runs))
    else:
        lost = (lost_at, kept.lost[1])
    if lost != kept.lost and (lost[1] or kept.lost[1]):
        stale |= {kept.lost[0], lost_at}
    return new_beats(frame, runs, stale, lost, kept.beats), lost


def all_beats(frame: Frame, runs: dict[str, Run]) -> tuple[list[Beat], Lost]:
    lost = (max(frame.log.reached, 0), lost_moves(frame.log, runs))
    return new_beats(frame, runs, set(range(len(frame.log.order))), lost, []), lost


def new_beats(frame: Frame, runs: dict[str, Run], stale: set[int], lost: Lost,
              old: list[Beat]) -> list[Beat]:
    """Each phase's beat: worked out at `stale` positions, else the old one."""
    fresh = inputs(runs, stale) if stale else {}
    return [beat(frame, pos, fresh[pos], lost) if pos in fresh else old[pos]
            for pos in range(len(frame.log.order))]


def changed_units(old: dict[str, Run], runs: dict[str, Run]) -> list[str] | None:
    """The units whose runs are new objects since the last plan; None when the units
    are not the same, in the same order, or so many changed that every beat is worked
    out again."""
    if len(old) != len(runs):
        return None
    changed = [cid for cid, run in runs.items() if old.get(cid) is not run]
    if len(changed) * 4 > len(runs) or list(old) != list(runs):
        return None
    return changed


def stale_positions(old: dict[str, Run], runs: dict[str, Run],
                    changed: list[str]) -> set[int] | None:
    """The phases the changed units' shares put something else into; None when a run
    is another unit's (its name may differ in the beats' words)."""
    out: set[int] = set()
    for cid in changed:
        was, now = old[cid], runs[cid]
        if was.unit is not now.unit:
            return None
        before, after = share(was), share(now)
        out |= {pos for pos in before.positions() | after.positions()
                if before.at(pos) != after.at(pos)}
    return out


def lost_moves(log: RoundLog, runs: dict[str, Run]) -> list[str]:
    return [cid for cid in log.ops if cid in runs and share(runs[cid]).lost_move]


class Cites:
    """Beat.cite kept in dicts: a phase of a big battle cites a thousand units, and a
    list's `in` for each would be slow."""

    def __init__(self) -> None:
        self.rules: dict[str, None] = {}
        self.why: dict[str, None] = {}

    def cite(self, rule: str, why: str = "") -> None:
        self.rules.setdefault(rule)
        if why:
            self.why.setdefault(why)


def beat(frame: Frame, pos: int, here: Inputs, lost: Lost) -> Beat:
    fight, log = frame.fight, frame.log
    phase, total = log.order[pos], len(log.order)
    top = max(log.order) if log.order else 0
    out = Cites()
    out.cite("PH-1", f"phase {phase} ({pos + 1} of {total}: highest base Combat {top} "
                     f"+ 1, counting {frame.way})")
    actions: list[PlannedAction] = []
    gaining = []
    for found in here.gaining:
        actions += found.actions
        if found.actions:
            gaining.append(found.cid)
    if gaining:
        verb = "gains" if len(gaining) == 1 else "gain"
        out.cite("PH-2", f"{names(fight, gaining)} {verb} on base Combat {phase}")
    for rule, why in here.blocked:
        out.cite(rule, why)
    for cid, how in frame.gone.get(pos, ()):
        out.cite("PH-21", f"{name(fight, cid)} left the fight ({how}): gains and holds "
                          "nothing")
    holding = here.holding
    if holding:
        ids = [str(h["actor"]) for h in holding]
        out.cite("PH-3", f"holding delayed: {names(fight, ids)}")
        if frame.round == 1 and any(cid in log.start and cid in frame.defenders()
                                    for cid in ids):
            out.cite("PH-4", "the defenders began holding a delayed Move and Action")
        if not frame.delaying.isdisjoint(ids):
            out.cite("PH-20", "a squad on Delay holds its members' Moves and Actions")
    if pos == lost[0] and lost[1]:
        out.cite("PH-5", f"Move lost: {names(fight, lost[1])}")
    if frame.surrendered:
        out.cite("PH-10", "surrendered: " + ", ".join(name for _, name in frame.surrendered))
    return Beat(actions, list(out.rules), list(out.why), {"phase": phase, "holding": holding},
                tag=f"phase {phase}", note=f"{len(holding)} holding" if holding else "")


def ended(fight: Fight, plan: Plan, at: int, up: bool) -> Plan:
    """The plan of the round the fight ended in: what was not done never will be (its
    actions marked skipped, so no beat is current), and the phases after the one it
    ended in gain and hold nothing (PH-3: what a unit held lapses). New beats: the kept
    ones are shared with later plans."""
    done = fight.resolved.get(plan.round, set())
    log = at_round(fight, plan.round, up)
    where = f"phase {log.order[at]}" if 0 <= at < len(log.order) else "its first phase"
    why = f"the fight ended in {where}: nothing more is gained or held (PH-3)"
    beats = []
    for pos, beat in enumerate(plan.beats):
        actions = [action if key in done else action.with_extra(skipped="the fight is over")
                   for key, action in zip(beat.action_keys(), beat.actions, strict=True)]
        if pos <= at:
            beats.append(Beat(actions, beat.rules, beat.why, beat.extra, beat.tag, beat.note))
            continue
        out = Cites()
        out.cite("PH-1", beat.why[0] if beat.why else "")
        out.cite("PH-3", why)
        beats.append(Beat(actions, list(out.rules), list(out.why),
                          {**beat.extra, "holding": []}, beat.tag))
    notes = plan.notes + [f"the fight is over (round {plan.round}, {where})"]
    return Plan(plan.ruleset, plan.round, beats, notes, plan.skipped, plan.points)
