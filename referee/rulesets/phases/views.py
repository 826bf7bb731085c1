"""How phases shows itself: the plan phase by phase, the tracker, the log lines."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.specs import Cell, Column

from . import events as ph
from . import manoeuvres, modifiers, squads, stats
from .rounds import KINDS, WORD, Run

if TYPE_CHECKING:
    from .ruleset import Phases

COLUMNS = (
    Column("squad", "squad", 10, fold=4),
    Column("phase", "ph", 3),
    Column("cd", "C/D", 6),
    Column("hits", "hits", 6, fold=5),
    Column("move", "move", 7),
    Column("action", "action", 7),
    Column("status", "status", 14, fold=3),
)
NAMES_SHOWN = 6


def name(fight: Fight, cid: str) -> str:
    c = fight.roster.get(cid)
    return c.name if c else cid


def names(fight: Fight, ids: list[str]) -> str:
    shown = [name(fight, cid) for cid in ids[:NAMES_SHOWN]]
    more = len(ids) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


# -- the plan ------------------------------------------------------------------------------


def plan(rs: Phases, fight: Fight, round_: int) -> Plan:
    log = rs.at_round(fight, round_)
    runs = rs.runs(fight, round_)
    state = rs.state(fight)
    out = Plan(rs.id, round_, [])
    total = len(log.order)
    way = "up" if rs.direction == "up" else "down"
    top = max(log.order) if log.order else 0
    defenders = {c.id for c in fight.encounter.combatants
                 if stats.defending(fight.encounter.side(c.side))}
    delaying = rs.delaying(state)
    by_pos: dict[int, list[tuple[str, Run]]] = {}
    for cid, run in runs.items():
        if run.base_pos is not None:
            by_pos.setdefault(run.base_pos, []).append((cid, run))
    blocked: dict[int, list[tuple[str, str, str, str]]] = {}
    for cid, run in runs.items():
        for pos, kind, rule, why in run.blocked:
            blocked.setdefault(pos, []).append((cid, kind, rule, why))
    holders = [(cid, run) for cid, run in runs.items() if any(run.holding.values())]
    for pos, phase in enumerate(log.order):
        beat = Beat([], tag=f"phase {phase}")
        beat.cite("PH-1", f"phase {phase} ({pos + 1} of {total}: highest base Combat {top} "
                          f"+ 1, counting {way})")
        gaining = []
        for cid, run in by_pos.get(pos, []):
            for kind in run.gains:
                beat.actions.append(PlannedAction(cid, kind))
            if run.gains:
                gaining.append(cid)
        if gaining:
            verb = "gains" if len(gaining) == 1 else "gain"
            beat.cite("PH-2", f"{names(fight, gaining)} {verb} on base Combat {phase}")
        stopped: dict[tuple[str, str], list[str]] = {}
        for cid, _kind, rule, why in blocked.get(pos, []):
            stopped.setdefault((rule, why.split(":")[0]), []).append(cid)
        for (rule, why), ids in stopped.items():
            if len(ids) == 1:
                beat.cite(rule, f"{why}: gains none of it")
            else:
                beat.cite(rule, f"{len(ids)} units stopped ({why.split(' ', 1)[-1]})")
        holding: list[dict[str, Any]] = []
        for cid, run in holders:
            held = run.holding.get(pos)
            if held:
                holding.append({"actor": cid, "delayed": [k for k in KINDS if k in held]})
        if holding:
            ids = [str(h["actor"]) for h in holding]
            beat.cite("PH-3", f"holding delayed: {names(fight, ids)}")
            if round_ == 1 and any(cid in defenders and cid in log.start for cid in ids):
                beat.cite("PH-4", "the defenders began holding a delayed Move and Action")
            if any(cid in delaying for cid in ids):
                beat.cite("PH-20", "a squad on Delay holds its members' Moves and Actions")
        lost = [cid for cid in log.ops if "move" in runs[cid].lost
                and runs[cid].lost["move"].endswith("(PH-5)")] if pos == max(
            log.reached, 0) else []
        if lost:
            beat.cite("PH-5", f"Move lost: {names(fight, lost)}")
        if state.surrendered:
            beat.cite("PH-10", "surrendered: " + ", ".join(rs.side_name(fight, s)
                                                            for s in state.surrendered))
        beat.extra = {"phase": phase, "holding": holding}
        beat.note = f"{len(holding)} holding" if holding else ""
        out.beats.append(beat)
    for side in state.surrendered:
        out.notes.append(f"{rs.side_name(fight, side)} has surrendered (PH-10)")
    return out


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
    if kind in run.lost:
        return Cell("lost", "bad")
    if run.base_pos is not None and run.base_pos > now and \
            not any(b[1] == kind for b in run.blocked):
        return Cell(f"@{order[run.base_pos]}", "")
    return Cell("—", "dim")


def now_run(rs: Phases, fight: Fight, cid: str) -> tuple[Run | None, int]:
    from .rounds import simulate

    state = rs.state(fight)
    log = state.now
    key = ("now", len(fight.resolved.get(log.round, ())))
    now = state.memo.get(key)
    if now is None:
        now = rs.now_pos(fight)
        state.memo[key] = now
    if cid not in log.fighting and cid not in log.start and cid not in log.ops:
        return None, now
    key2 = ("now-run", cid, now)
    run = state.memo.get(key2)
    if run is None:
        run = simulate(log, rs.unit(fight, cid), upto=now)
        state.memo[key2] = run
    return run, now


def cells(rs: Phases, fight: Fight, cid: str) -> dict[str, Cell]:
    state = rs.state(fight)
    c = fight.roster[cid]
    sid = state.member.get(cid)
    squad = state.squads.get(sid) if sid else None
    squad_text = ""
    if squad is not None:
        squad_text = f"{squad.id}★" if squad.leader == cid else squad.id
    com, dfn = rs.effective(fight, cid)
    base_c, base_d = stats.combat(c), stats.defense(c)
    tone = "bad" if (com, dfn) < (base_c, base_d) else "good" if (com, dfn) > (
        base_c, base_d) else ""
    run, now = now_run(rs, fight, cid)
    order = state.now.order
    status = fight.status[cid]
    fatigue = status.marks.get("fatigue", 0)
    hits = f"{status.hp}/{status.max_hp}" + (f" F{fatigue}" if fatigue else "")
    words = rs.statuses(fight, cid)
    return {
        "squad": Cell(squad_text, "strong" if squad and squad.leader == cid else ""),
        "phase": Cell(str(base_c)),
        "cd": Cell(f"{com}/{dfn}", tone),
        "hits": Cell(hits, "bad" if status.hp <= 0 else ""),
        "move": kind_cell(run, "move", now, order),
        "action": kind_cell(run, "action", now, order),
        "status": Cell(", ".join(words), "warn" if words else ""),
    }


def facts(rs: Phases, fight: Fight, cid: str) -> dict[str, Any]:
    state = rs.state(fight)
    run = rs.run_of(fight, cid)
    com, dfn = rs.effective(fight, cid)
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
        "statuses": rs.statuses(fight, cid),
        "fatigue": fight.status[cid].marks.get("fatigue", 0),
        "modifiers": list(chosen),
        "attacks": modifiers.attacks(c, chosen),
        "leader": sid is not None and state.squads[sid].leader == cid,
        "tactic": state.squads[sid].order.tactic if sid is not None else None,
        "mounted": bool(c.stats.get("mount")) and cid not in state.dismounted,
        "rush_dice": manoeuvres.rush_dice(manoeuvres.rusher_of(fight, cid)),
        "elevation_defense": dfn + 4 * min(stats.elevation(c), 4),
    }


def status_parts(rs: Phases, fight: Fight) -> list[str]:
    state = rs.state(fight)
    log = state.now
    parts = []
    if log.order:
        now = rs.now_pos(fight)
        if now >= 0:
            parts.append(f"phase {log.order[now]} ({now + 1}/{len(log.order)})")
        else:
            parts.append(f"{len(log.order)} phases")
    if state.squads:
        parts.append(f"{len(state.squads)} squads")
    for side in state.surrendered:
        parts.append(f"{rs.side_name(fight, side)} surrendered (PH-10)")
    return parts


# -- the log -------------------------------------------------------------------------------


def tell(rs: Phases, fight: Fight, event: ev.Event) -> str | None:
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
        return f"{name(fight, event.target)} {verb} {event.name}{when} (PH-10)"
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
        kind = "extended decay" if event.extended else "decay"
        return (f"{name(fight, event.target)} {kind}: -{event.combat} Combat, "
                f"-{event.defense} Defense, -{event.hits} Hits (PH-17)")
    if isinstance(event, ph.Manoeuvre):
        targets = ", ".join(name(fight, t) for t in event.target)
        verdict = "succeeds" if event.success else "fails"
        cost = " (simultaneous: no Action, PH-6)" if event.simultaneous else ""
        return (f"{name(fight, event.actor)}'s {event.kind} against {targets} {verdict}"
                f"{cost}" + (f": {event.result}" if event.result else ""))
    if isinstance(event, ph.Surrender):
        return (f"{rs.side_name(fight, event.side)} surrenders: every unit calm, "
                "incapacitated or croaked (PH-10)")
    if isinstance(event, ph.Damage) and event.fatigue:
        return f"{name(fight, event.target)} takes {event.amount} Fatigue (PH-14)"
    return None


def squad_line(rs: Phases, fight: Fight, sid: str) -> str:
    squad = rs.state(fight).squads[sid]
    leader = squad.leader or "none"
    alive = [m for m in squad.members if not rs.croaked(fight, m)]
    word = ""
    if squad.leader is None or rs.croaked(fight, squad.leader):
        others = [m for m in alive if squads.command_unit(fight.roster[m])]
        word = " — leader down: Regroup names " + (", ".join(others) if others else
                                                   "nobody: the squad dissolves") + " (PH-7)"
    return (f"{squad.id} ({squad.kind}, {len(alive)}/{len(squad.members)}): leader {leader}; "
            f"order {squad.order.text()}{word}")
