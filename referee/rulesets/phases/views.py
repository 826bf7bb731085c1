"""How phases shows itself: the plan phase by phase, the tracker, the log lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.specs import Cell, Column
from referee.engine.words import counted

from . import events as ph
from . import manoeuvres, modifiers, outcomes, squads, stats
from .manoeuvres import name
from .rounds import DROPPED, HELD, KINDS, WORD, RoundLog, Run
from .standing import (
    at_round,
    croaked,
    effective,
    now_pos,
    out_of_fight,
    run_of,
    runs,
    statuses,
    unit,
)
from .state import state_of

# On a narrow screen (80 columns) the squad goes first (its heading names it and its
# leader), the statuses last (the state column keeps the first of them); Hits, Move and
# Action are what the referee plays by: never left out.
COLUMNS = (
    Column("squad", "squad", 10, fold=5),
    Column("phase", "ph", 3),
    Column("cd", "C/D", 6),
    Column("hits", "hits", 9),
    Column("move", "move", 7),
    Column("action", "action", 7),
    Column("status", "status", 14, fold=1),
)
NAMES_SHOWN = 6


def names(fight: Fight, ids: list[str]) -> str:
    shown = [name(fight, cid) for cid in ids[:NAMES_SHOWN]]
    more = len(ids) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def side_name(fight: Fight, side: str) -> str:
    found = fight.encounter.side(side)
    return found.name if found else side


# -- the plan ------------------------------------------------------------------------------
#
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


# -- the tracker ---------------------------------------------------------------------------


def kind_cell(run: Run | None, kind: str, now: int, order: tuple[int, ...]) -> Cell:
    if run is None:
        return Cell("—", "dim")
    if kind in run.held:
        return Cell("held", "warn")
    if kind in run.fresh:
        return Cell("kept", "warn") if kind in run.keep else Cell("ready", "good")
    if kind in run.used:
        return Cell("used", "dim")
    if kind in run.stun:  # the next one it gains goes to the stun (PH-10)
        return Cell("stun", "bad")
    if run.base_pos is not None and run.base_pos > now and will_gain(run, kind):
        return Cell(f"@{order[run.base_pos]}", "")  # a delayed one lost, a new one to come
    if kind in run.lost:
        return Cell("lost", "bad")
    return Cell("—", "dim")


def will_gain(run: Run, kind: str) -> bool:
    """Whether nothing that stands now will stop the unit gaining `kind` on its phase
    (as Run.gain tells them: PH-3, PH-10, PH-18)."""
    if run.has("incapacitated") or kind in run.held:
        return False
    if kind == "move":
        return not run.has("immobilized")
    return not run.unit.bound


def statuses_now(fight: Fight, cid: str, run: Run | None) -> list[str]:
    """The unit's statuses as the round stands now (`run`, from `now_run`): a stun that
    will take a Move or Action it has yet to gain shows until it does (PH-10)."""
    words = statuses(fight, cid)
    if run is not None and run.stun and "stunned" not in words:
        words.append("stunned")
    return words


def now_run(fight: Fight, cid: str) -> tuple[Run | None, int]:
    from .rounds import simulate

    state = state_of(fight)
    log = state.now
    # where the round is hangs on what was resolved, which a Resolve adds to the fight's
    # set of the round in place (the state stays): kept while it is the same set, as
    # large, or (an undo folds a copy of it) a set that holds the same actions
    done = fight.resolved.get(log.round)
    size = len(done) if done is not None else 0
    kept = state.memo.get("now")
    if kept is not None and ((kept[0] is done and kept[1] == size)
                             or (kept[1] == size and kept[2] == (done or frozenset()))):
        now: int = kept[3]
        if kept[0] is not done:
            state.memo["now"] = (done, size, kept[2], now)
    else:
        now = now_pos(fight)
        state.memo["now"] = (done, size, frozenset(done or ()), now)
    if cid not in log.fighting and cid not in log.start and cid not in log.ops:
        return None, now
    if cid in state.out:
        return None, now  # PH-21: nothing held, nothing to gain
    key2 = ("now-run", cid, now)
    run = state.memo.get(key2)
    if run is None:
        run = simulate(log, unit(fight, cid), upto=now)
        state.memo[key2] = run
    return run, now


def cells(fight: Fight, cid: str) -> dict[str, Cell]:
    state = state_of(fight)
    c = fight.roster[cid]
    sid = state.member.get(cid)
    squad = state.squads.get(sid) if sid else None
    squad_text = ""
    if squad is not None:
        squad_text = f"{squad.id}★" if squad.leader == cid else squad.id
    com, dfn = effective(fight, cid)
    base_c, base_d = stats.combat(c), stats.defense(c)
    tone = "bad" if (com, dfn) < (base_c, base_d) else "good" if (com, dfn) > (
        base_c, base_d) else ""
    run, now = now_run(fight, cid)
    order = state.now.order
    status = fight.status[cid]
    fatigue = status.marks.get("fatigue", 0)
    hits = f"{status.hp}/{status.max_hp}" + (f" F{fatigue}" if fatigue else "")
    words = statuses_now(fight, cid, run)
    move, action = kind_cell(run, "move", now, order), kind_cell(run, "action", now, order)
    if state.over:  # the fight is over: what was done stays, nothing is held or to come
        move, action = over_cell(run, "move"), over_cell(run, "action")
        words = [w for w in words if w != "stunned" or run is None or not run.stun]
    words += bearing(fight, cid)
    return {
        "squad": Cell(squad_text, "strong" if squad and squad.leader == cid else ""),
        "phase": Cell(str(base_c)),
        "cd": Cell(f"{com}/{dfn}", tone),
        "hits": Cell(hits, "bad" if status.hp <= 0 else ""),
        "move": move,
        "action": action,
        "status": Cell(", ".join(words), "warn" if words else ""),
    }


def bearing(fight: Fight, cid: str) -> list[str]:
    """What it carries, drags or rides (PH-18, PH-19), beside its statuses: why a
    carrier has no Action, and that a rider is still mounted until a dismount."""
    state = state_of(fight)
    out = []
    bound = state.bound.get(cid)
    if bound:
        out.append(bound.removeprefix("is "))  # "carries Redcap 2", "dragged"
    mount = fight.roster[cid].stats.get("mount")
    if mount and cid not in state.dismounted:
        out.append(f"on {name(fight, str(mount))}")
    return out


def over_cell(run: Run | None, kind: str) -> Cell:
    """A Move or Action once the fight is over: used or lost in its last round, else
    nothing (a delayed one lapses: there is no next round, PH-3)."""
    if run is not None and kind in run.used:
        return Cell("used", "dim")
    if run is not None and kind in run.lost:
        return Cell("lost", "bad")
    return Cell("—", "dim")


def facts(fight: Fight, cid: str) -> dict[str, Any]:
    state = state_of(fight)
    run = run_of(fight, cid)
    com, dfn = effective(fight, cid)
    c = fight.roster[cid]
    chosen = state.chosen.get(cid, stats.modifiers(c))
    sid = state.member.get(cid)
    return {
        "squad": state.member.get(cid),
        "combat": com,
        "defense": dfn,
        "held": [k for k in KINDS if run is not None and k in run.held],
        "ready": [k for k in KINDS if run is not None and k in run.fresh],
        "used": [k for k in KINDS if run is not None and k in run.used],
        "gained": list(run.gained) if run is not None else [],
        "statuses": statuses(fight, cid),
        "fatigue": fight.status[cid].marks.get("fatigue", 0),
        "modifiers": list(chosen),
        "attacks": modifiers.attacks(c, chosen),
        "leader": sid is not None and state.squads[sid].leader == cid,
        "tactic": state.squads[sid].order.tactic if sid is not None else None,
        "mounted": bool(c.stats.get("mount")) and cid not in state.dismounted,
        "rush_dice": manoeuvres.rush_dice(manoeuvres.rusher_of(fight, cid)),
        "elevation_defense": dfn + 4 * min(stats.elevation(c), 4),
    }


def status_parts(fight: Fight) -> list[str]:
    state = state_of(fight)
    log = state.now
    parts = []
    if log.order and not state.over:  # once over, no phase is under way
        now = now_pos(fight)
        if now >= 0:
            parts.append(f"phase {log.order[now]} ({now + 1}/{len(log.order)})")
        else:
            parts.append(counted(len(log.order), "phase"))
    if state.squads:
        parts.append(counted(len(state.squads), "squad"))
    for side in state.surrendered:
        parts.append(f"{side_name(fight, side)} surrendered (PH-10)")
    return parts


# -- the log -------------------------------------------------------------------------------


def tell(fight: Fight, event: ev.Event) -> str | None:
    if isinstance(event, ph.Use):
        word = WORD.get(event.what, event.what)
        text = f"{name(fight, event.actor)} takes its {word} in phase {event.phase}"
        if event.engaged:
            text += ", ending beside an enemy (PH-5)"
        return text + (f": {event.note}" if event.note else "")
    if isinstance(event, ph.Delay):
        kept = " and ".join(WORD.get(k, k) for k in event.keep)
        return f"{name(fight, event.actor)} delays its {kept} into round {event.round + 1} (PH-3)"
    if isinstance(event, ph.Condition):
        when = f" from phase {event.phase}" if event.phase is not None else ""
        verb = "is" if event.on else "is no longer"
        word = "stunned" if event.name == "stun" else event.name
        return f"{name(fight, event.target)} {verb} {word}{when} (PH-10)"
    if isinstance(event, ph.Order):
        at = f" at ({', '.join(str(n) for n in event.at)})" if event.at else ""
        by = f" (from {name(fight, event.by)})" if event.by else ""
        return (f"squad {event.squad} ordered: {event.tactic}{at}, target "
                f"{event.target or 'any'}{by} (PH-9)")
    if isinstance(event, ph.Regroup):
        parts = []
        if event.join:
            parts.append(f"joins {event.join}")
        elif event.leave:
            parts.append("leaves its squad")
        if event.leader:
            parts.append(f"names {name(fight, event.leader)} leader")
        if event.modifiers is not None:
            parts.append("modifiers: " + (", ".join(event.modifiers) or "none"))
        return f"{name(fight, event.actor)} regroups (an Action, PH-12): " + (
            "; ".join(parts) or "no change")
    if isinstance(event, ph.Decay):
        kind = "extended decay (as well as the normal)" if event.extended else "decay"
        return (f"{name(fight, event.target)} {kind}: -{event.combat} Combat, "
                f"-{event.defense} Defense, -{event.hits} Hits (PH-17)")
    if isinstance(event, ph.Manoeuvre):
        targets = ", ".join(name(fight, t) for t in event.target)
        verdict = "succeeds" if event.success else "fails"
        cost = " (simultaneous: no Action, PH-6)" if event.simultaneous else ""
        kind = outcomes.LABELS.get(event.kind, event.kind)
        return (f"{name(fight, event.actor)}'s {kind} against {targets} {verdict}"
                f"{cost}" + (f": {event.result}" if event.result else ""))
    if isinstance(event, ph.Surrender):
        return (f"{side_name(fight, event.side)} surrenders: every unit calm, "
                "incapacitated or croaked (PH-10)")
    if isinstance(event, ev.Damage):
        return tell_damage(fight, event)
    if isinstance(event, ev.Resolve) and event.actions:
        return tell_resolve(fight, event)
    if isinstance(event, ev.End):
        return tell_end(fight, event)
    return None


def tell_end(fight: Fight, event: ev.End) -> str:
    """The fight is over: how each side stands (PH-10, PH-21), and what the units held
    lapses (PH-3: a delay keeps into the next round, and there is none)."""
    text = "the fight is over" + (f": {event.note}" if event.note else "")
    sides = "; ".join(side_at_end(fight, side.id) for side in fight.encounter.sides)
    now = runs(fight, state_of(fight).now.round, False)  # the round it ended in
    holding = sum(1 for run in now.values() if run.held or run.fresh & run.keep)
    lapse = f"; the delayed Moves and Actions of {holding} unit{'s' if holding != 1 else ''} " \
        "lapse (PH-3)" if holding else ""
    return f"{text} — {sides}{lapse}"


def side_at_end(fight: Fight, side: str) -> str:
    """"Harrowgate: 6 of 8 standing, 2 croaked", or "... surrendered (PH-10)"."""
    state = state_of(fight)
    name_ = side_name(fight, side)
    if side in state.surrendered:
        return f"{name_} surrendered (PH-10)"
    units = [cid for cid, c in fight.roster.items() if c.side == side]
    gone: dict[str, int] = {}
    for cid in units:
        how = "croaked" if croaked(fight, cid) else out_of_fight(fight, cid)
        if how:
            gone[how] = gone.get(how, 0) + 1
    standing = len(units) - sum(gone.values())
    return f"{name_}: {standing} of {len(units)} standing" + "".join(
        f", {count} {how}" for how, count in gone.items())


def tell_damage(fight: Fight, event: ev.Damage) -> str | None:
    """Fatigue dealt, or normal damage that turns the Fatigue a unit has into lost Hits
    (PH-14); other damage is the core's line."""
    status = fight.status.get(event.target)
    source = f" from {name(fight, event.source)}" if event.source else ""
    note = f" — {event.note}" if event.note else ""
    if getattr(event, "fatigue", False):
        return f"{name(fight, event.target)} takes {event.amount} Fatigue{source} (PH-14){note}"
    fatigue = status.marks.get("fatigue", 0) if status is not None else 0
    if not fatigue or status is None:
        return None
    hp = status.hp - event.amount - fatigue  # told before it is applied
    return (f"{name(fight, event.target)} takes {event.amount} damage{source} (hp {hp}/"
            f"{status.max_hp}): its {fatigue} Fatigue turns to lost Hits (PH-14){note}")


def tell_resolve(fight: Fight, event: ev.Resolve) -> str:
    """A phase done, by the units' names: "phase 3 resolved: the Move and Action of
    Ironfang 1, Ironfang 2" (its keys are `unit:move`, `unit:action`)."""
    kinds: dict[str, list[str]] = {}
    for key in event.actions:
        actor, _, kind = key.rpartition(":")
        kinds.setdefault(actor or key, []).append(WORD.get(kind, kind))
    roster = fight.roster  # a phase of a big battle resolves hundreds of units
    whose: dict[str, list[str]] = {}
    phases = set()
    for actor, words in kinds.items():
        c = roster.get(actor)
        whose.setdefault(" and ".join(words), []).append(c.name if c else actor)
        if c is not None:
            phases.add(stats.combat(c))
    where = f"phase {phases.pop()} resolved" if len(phases) == 1 else "resolved"
    return f"{where}: " + "; ".join(f"the {words} of {', '.join(who)}"
                                    for words, who in whose.items())


def squad_line(fight: Fight, sid: str) -> str:
    squad = state_of(fight).squads[sid]
    leader = name(fight, squad.leader) if squad.leader else "none"
    alive = [m for m in squad.members if not croaked(fight, m)]
    word = ""
    if squad.leader is None or croaked(fight, squad.leader):
        others = [m for m in alive if squads.command_unit(fight.roster[m])]
        word = " — leader down: Regroup names " + (names(fight, others) if others else
                                                   "nobody: the squad dissolves") + " (PH-7)"
    return (f"{squad.id} ({squad.kind}, {len(alive)}/{len(squad.members)}): leader {leader}; "
            f"order {squad.order.text()}{word}")
