"""How the fight stands, read from phases' state: a unit's facts, the rounds (this one,
one gone by, one to come), every unit's round (its `Run`), its statuses, where the round
is. The fold, the checks, the plan, the tracker and the acts all read these; what is
worked out is kept in the fight's own state (its memo and caches), never elsewhere.

`up`: the house rule that phases run up (PH-1), for a round worked out ahead.
"""

from __future__ import annotations

from referee.engine.record import replace
from referee.engine.view import Fight

from . import carrying, modifiers, stats
from .rounds import EMPTY, RoundLog, Run, Start, Unit, phase_order, simulate
from .state import SINCE, State, state_of


def unit(fight: Fight, cid: str) -> Unit:
    """The facts of `cid` the simulation reads, worked out once a fight (its caches)
    and kept while its combatant is the same object and what binds it (PH-18) the
    same: a unit's round is kept while its Unit is the same object."""
    c = fight.roster[cid]
    state = state_of(fight)
    bound = state.bound.get(cid, "")
    cache = state.caches.units
    found = cache.get(cid)
    if found is not None and found[0] is c and found[1].bound == bound:
        return found[1]
    traits = stats.lowered(c)
    made = Unit(cid, c.name, stats.combat(c), "agile" in traits,
                not traits.isdisjoint(stats.STUN_IMMUNE),
                carried=bool(c.stats.get("carried_by")), bound=bound)
    cache[cid] = (c, made)
    return made


def bound(fight: Fight, state: State | None = None) -> dict[str, str]:
    """PH-18: the units a carry or a drag keeps from acting; `state`'s own (the same
    object) while they stay the same."""
    found = carrying.bound(fight.roster)
    if state is not None and found == state.bound:
        return state.bound
    return found


def out_of_fight(fight: Fight, cid: str) -> str:
    """PH-21: how the unit left the fight (croaked, fled, surrendered, removed), or ""."""
    gone = state_of(fight).out.get(cid)
    return gone[1] if gone is not None else ""


def croaked(fight: Fight, cid: str) -> bool:
    status = fight.status[cid]
    return status.dead or status.hp <= 0


def can_act(fight: Fight, cid: str) -> str:
    """Why the unit can no longer act ("" when it can): croaked, or out of the fight
    (fled, surrendered, removed: PH-21)."""
    if croaked(fight, cid):
        return "croaked"
    return out_of_fight(fight, cid)


def roll(fight: Fight, state: State, up: bool) -> State:
    """The next round: what each unit keeps (PH-3, PH-20), who still fights, how
    many phases (PH-1, PH-17)."""
    log = state.now
    delaying, out = log.delaying, state.out
    nexts: dict[str, Start] = {}
    for cid in fight.roster:
        keep_all = cid in delaying
        if cid in out or (cid not in log.ops and cid not in log.start and not keep_all):
            continue  # PH-21: a unit out of the fight carries nothing on
        run = simulate(log, unit(fight, cid), keep_all=keep_all)
        end = run.end()
        if end != EMPTY:
            nexts[cid] = end
    gave_up = set(state.surrendered)
    fighting = frozenset(cid for cid, c in fight.roster.items() if cid not in out
                         and not croaked(fight, cid) and c.side not in gave_up)
    order = phase_order([stats.combat(fight.roster[c]) for c in fighting], up)
    new = RoundLog(log.round + 1, order, fighting, nexts, delaying=delaying)
    return replace(state, now=new, past={**state.past, log.round: log}, memo={})


def at_round(fight: Fight, round_: int, up: bool) -> RoundLog:
    """The round's log: this one, one gone by, or one to come (worked out ahead)."""
    state = state_of(fight)
    if round_ == state.now.round:
        return state.now
    if round_ in state.past:
        return state.past[round_]
    key = ("ahead", round_)
    if key not in state.memo:
        ahead = state
        while ahead.now.round < round_:
            ahead = roll(fight, ahead, up)
        state.memo[key] = ahead.now
    log: RoundLog = state.memo[key]
    return log


def runs(fight: Fight, round_: int, up: bool) -> dict[str, Run]:
    """Every unit's round (those with anything to show), worked out once a state."""
    state = state_of(fight)
    key = ("runs", round_)
    found: dict[str, Run] | None = state.memo.get(key)
    if found is None:
        log = at_round(fight, round_, up)
        now = round_ == state.now.round
        found = runs_since(fight, log, state.memo.pop(SINCE, None) if now else None)
        if found is None:
            found = {}
            for cid in fight.roster:
                run = fresh_run(fight, log, cid)
                if run is not None:
                    found[cid] = run
        state.memo[key] = found
    return found


def runs_since(fight: Fight, log: RoundLog,
               since: tuple[RoundLog, dict[str, Run], frozenset[str]] | None
               ) -> dict[str, Run] | None:
    """The runs of the state before with only the units an event touched worked out
    again (an event changes one unit's round), or None when that cannot be done:
    no runs before, another round, or a unit that joins the runs (roster order)."""
    if since is None:
        return None
    before, kept, changed = since
    if before.round != log.round or before.order is not log.order or \
            before.fighting is not log.fighting or before.start is not log.start:
        return None
    found = dict(kept)
    for cid in changed:
        run = fresh_run(fight, log, cid) if cid in fight.roster else None
        if run is None:
            found.pop(cid, None)
        elif cid in found:
            found[cid] = run
        else:
            return None
    return found


def fresh_run(fight: Fight, log: RoundLog, cid: str) -> Run | None:
    """`cid`'s round, or None when it has nothing to show; a unit whose round did not
    change since the last time keeps its run (the same object)."""
    ops_of, start_of, fighting = log.ops, log.start, log.fighting
    if cid not in fighting and cid not in start_of and cid not in ops_of:
        return None
    state = state_of(fight)
    gone = state.out.get(cid)
    if gone is not None and gone[0] <= log.round:
        return None  # PH-21: out of the fight, it holds nothing and gains nothing
    cache = state.caches.runs  # the fight's own: one run a unit, the latest
    found = unit(fight, cid)
    basis = (log.round, log.order, cid in fighting, start_of.get(cid), ops_of.get(cid),
             found, cid in log.delaying)
    kept = cache.get(cid)
    if kept is not None and kept[0] == basis[0] and kept[1] == basis[1] and \
            all(a is b for a, b in zip(kept[2:7], basis[2:], strict=True)):
        run: Run = kept[7]
        return run
    run = simulate(log, found)
    cache[cid] = basis + (run,)
    return run


def run_of(fight: Fight, cid: str) -> Run | None:
    """`cid`'s run of the round the fight is in (never one worked out ahead)."""
    return runs(fight, state_of(fight).now.round, False).get(cid)


def statuses(fight: Fight, cid: str) -> list[str]:
    run = run_of(fight, cid)
    if run is None:
        return []
    names = list(run.statuses)
    if run.unit.carried and "immobilized" not in names:
        names.append("immobilized")  # while carried (PH-18)
    if run.stun:
        names.append("stunned")
    return names


def now_pos(fight: Fight) -> int:
    """The phase (its index) the round is at: the furthest an event named, or the
    first with a Move or Action not yet resolved."""
    log = state_of(fight).now
    if max(fight.round, 1) < log.round:
        return -1
    done = fight.resolved.get(log.round, set())
    first = len(log.order) - 1
    for cid, run in runs(fight, log.round, False).items():
        if run.base_pos is not None and run.gains and run.base_pos < first and any(
                f"{cid}:{k}" not in done for k in run.gains):
            first = run.base_pos
    return max(log.reached, first)


def now_kept(fight: Fight) -> int:
    """`now_pos`, worked out once a state for the same round of the fight and the same
    actions resolved (a Resolve adds to the fight's set in place, the state staying;
    an undo folds a copy of it): the acts ask it several times over for one footer (a
    Move's phase, an Action's)."""
    state = state_of(fight)
    round_ = max(fight.round, 1)
    done = fight.resolved.get(state.now.round)
    size = len(done) if done is not None else 0
    kept = state.memo.get("now_pos")
    if kept is not None and kept[0] == round_ and kept[2] == size and (
            kept[1] is done or kept[3] == (done or frozenset())):
        found: int = kept[4]
        return found
    found = now_pos(fight)
    state.memo["now_pos"] = (round_, done, size, frozenset(done or ()), found)
    return found


def effective(fight: Fight, cid: str) -> tuple[int, int]:
    c = fight.roster[cid]
    state = state_of(fight)
    chosen = state.chosen.get(cid, stats.modifiers(c))
    return modifiers.effective(c, chosen, state.decay.get(cid, (0, 0)),
                               statuses(fight, cid))


__all__ = ["at_round", "bound", "croaked", "effective", "fresh_run", "now_kept",
           "now_pos", "out_of_fight", "roll", "run_of", "runs", "runs_since", "statuses", "unit"]
