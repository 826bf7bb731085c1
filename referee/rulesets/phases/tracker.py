"""phases' tracker view: its columns and cells (a unit's squad, phase, Combat/Defense,
Hits, Move and Action), a unit's state in its own words, the status line, the notices and
the log lines (log_lines.py tells them)."""

from __future__ import annotations

from typing import Any

from referee.engine import events as ev
from referee.engine import roles
from referee.engine.specs import Cell, Column
from referee.engine.view import Fight
from referee.engine.words import counted

from . import log_lines, manoeuvres, modifiers, stats
from .manoeuvres import name
from .naming import side_name
from .rounds import KINDS, Run
from .standing import effective, now_pos, out_of_fight, run_of, statuses, unit
from .state import State, state_of

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


class Tracker(roles.Tracker[State]):
    def columns(self) -> tuple[Column, ...]:
        return COLUMNS

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
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

    def row_basis(self, fight: Fight, cid: str) -> tuple[Any, ...]:
        """What `cells` and `state_word` read of the unit: where the round is, the unit's
        own part of the round's log (how it began, its events: its Move and Action, its
        statuses, as `simulate` works them out), its squad, modifiers, decay, what binds
        or carries it, and whether the fight or its side gave up. A unit's Move works out
        again its own row, not the whole tracker's."""
        state = state_of(fight)
        log = state.now
        sid = state.member.get(cid)
        squad = state.squads.get(sid) if sid else None
        mount = fight.roster[cid].stats.get("mount")
        return (now_of(fight), log.round, log.order, cid in log.fighting,
                log.start.get(cid), log.ops.get(cid), cid in log.delaying,
                state.out.get(cid), state.bound.get(cid), state.over, sid,
                squad is not None, squad is not None and squad.leader == cid,
                state.chosen.get(cid), state.decay.get(cid),
                fight.roster[cid].side in state.surrendered, cid in state.dismounted,
                fight.roster.get(str(mount)) if mount else None)

    def state_word(self, fight: Fight, cid: str) -> str:
        status = fight.status[cid]
        if status.dead or status.hp <= 0:
            return "croaked"
        side = fight.roster[cid].side
        if side in self.state(fight).surrendered:
            return "surrendered"
        how = out_of_fight(fight, cid)
        if how:
            return how  # fled, removed (PH-21)
        names = statuses_now(fight, cid, now_run(fight, cid)[0])
        for word in ("incapacitated", "immobilized", "stunned", "calm"):
            if word in names:
                return word
        return ""

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        state = state_of(fight)
        run = run_of(fight, cid)
        com, dfn = effective(fight, cid)
        c = fight.roster[cid]
        chosen = state.chosen.get(cid, stats.modifiers(c))
        sid = state.member.get(cid)
        out.update({
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
        })
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        log = state.now
        return {"phases": list(log.order), "surrendered": list(state.surrendered),
                "squads": {sid: {"leader": s.leader, "members": list(s.members),
                                 "tactic": s.order.tactic, "target": s.order.target}
                           for sid, s in state.squads.items()}}

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # the phase it is at is a part of its own

    def status_parts(self, fight: Fight) -> list[str]:
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

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        state = self.state(fight)
        return [("Surrender (PH-10)", f"{side_name(fight, side)} surrenders: every "
                 "unit calm, incapacitated or croaked") for side in state.surrendered]

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        return log_lines.tell(fight, event)


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


def now_of(fight: Fight) -> int:
    """`now_pos`, worked out once while the state and what was resolved stay."""
    state = state_of(fight)
    # where the round is hangs on what was resolved, which a Resolve adds to the fight's
    # set of the round in place (the state stays): kept while it is the same set, as
    # large, or (an undo folds a copy of it) a set that holds the same actions
    done = fight.resolved.get(state.now.round)
    size = len(done) if done is not None else 0
    kept = state.memo.get("now")
    if kept is not None and ((kept[0] is done and kept[1] == size)
                             or (kept[1] == size and kept[2] == (done or frozenset()))):
        now: int = kept[3]
        if kept[0] is not done:
            state.memo["now"] = (done, size, kept[2], now)
        return now
    now = now_pos(fight)
    state.memo["now"] = (done, size, frozenset(done or ()), now)
    return now


def now_run(fight: Fight, cid: str) -> tuple[Run | None, int]:
    from .rounds import simulate

    state = state_of(fight)
    log = state.now
    now = now_of(fight)
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
