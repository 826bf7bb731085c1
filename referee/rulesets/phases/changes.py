"""What phases' own events do to its state, event by event (the fold's steps): a unit
joins, loses or regains Hits, leaves the fight or comes back (PH-21); the squads change
(PH-7, PH-20); an order (PH-9), a regroup (PH-12), a manoeuvre; Elite Hits (PH-17). Each
returns a new state and never changes the one it is given."""

from __future__ import annotations

from referee.engine.model import Combatant
from referee.engine.record import replace
from referee.engine.view import Fight, Status
from referee.hints import TYPE_CHECKING

from . import events as ph
from . import squads, stats
from .rounds import Op, RoundLog, added
from .squads import Squad
from .standing import bound, croaked
from .state import State, carried

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

ELITE_HITS = 5
OUT_NAMES = ("fled", "removed")  # conditions that take a unit out of the fight (PH-21)


def elite_hits(c: Combatant, status: Status) -> Status:
    """PH-17: an Elite unit enters with +5 Hits, on its hit points and their maximum (a
    unit croaked at the start stays croaked)."""
    if not stats.has(c, "Elite"):
        return status
    if status.hp <= 0:
        return status.changed(max_hp=status.max_hp + ELITE_HITS)
    hp = status.hp + ELITE_HITS
    return status.changed(max_hp=status.max_hp + ELITE_HITS, hp=hp, hp_at_round_start=hp)


def decayed(fight: Fight, event: ph.Decay) -> Status:
    """PH-17: the Hits a decay takes."""
    status = fight.status[event.target]
    return status.changed(hp=status.hp - event.hits)


def apply_join(fight: Fight, state: State, cid: str) -> State:
    state = replace(state, bound=bound(fight, state))  # it may carry, drag, be dragged
    log = state.now
    if croaked(fight, cid):
        return replace(state, out={**state.out, cid: (max(fight.round, 1), "croaked")},
                       memo={})
    new = RoundLog(log.round, log.order, log.fighting | {cid}, log.start, log.ops,
                   log.reached, log.delaying)
    return replace(state, now=new, memo={})


def apply_hits(fight: Fight, state: State, cid: str, **changes: Any) -> State:
    """Hits lost or healed (and `changes` to the state): a unit croaked leaves the
    fight, one healed comes back (PH-21); only a change of either works its round out
    again."""
    down = cid in fight.status and croaked(fight, cid)
    gone = state.out.get(cid)
    if down and gone is None:
        return apply_out(fight, replace(state, **changes), cid, "croaked", True)
    if not down and gone is not None and gone[1] == "croaked" and cid in fight.status:
        return apply_out(fight, replace(state, **changes), cid, "croaked", False)
    return replace(state, memo=carried(state), **changes)


def apply_out(fight: Fight, state: State, cid: str, how: str, on: bool) -> State:
    """PH-21: `cid` leaves the fight (`on`), or comes back; a squad whose leader left
    with no Command Unit standing in it dissolves (PH-7)."""
    out = dict(state.out)
    if on and cid not in out:
        out[cid] = (max(fight.round, 1), how)
    elif not on and cid in out and out[cid][1] == how:
        del out[cid]
    else:
        return replace(state, memo=carried(state))
    state = replace(state, out=out)
    sid = state.member.get(cid)
    if on and sid is not None:
        return settled(fight, state, state.squads, state.member, sid, cid)
    return replace(state, memo=carried(state, cid))


def settled(fight: Fight, state: State, table: dict[str, Squad], member: dict[str, str],
            sid: str, *changed: str, now: RoundLog | None = None) -> State:
    """The squads after `sid` changed: it dissolves when it has no standing leader
    and no standing Command Unit to name one, or no members (PH-7)."""
    squad = table.get(sid)
    if squad is not None and leaderless(fight, state, squad):
        table, member = dict(table), dict(member)
        del table[sid]
        for cid in squad.members:
            member.pop(cid, None)
        changed += squad.members
    return with_squads(state, table, member, *changed, now=now)


def leaderless(fight: Fight, state: State, squad: Squad) -> bool:
    def standing(cid: str) -> bool:
        return cid in fight.roster and cid not in state.out

    if not squad.members:
        return True
    if squad.leader is not None and squad.leader in squad.members and \
            standing(squad.leader):
        return False
    return not any(standing(cid) and squads.command_unit(fight.roster[cid])
                   for cid in squad.members)


def with_squads(state: State, table: dict[str, Squad], member: dict[str, str],
                *changed: str, now: RoundLog | None = None, **more: Any) -> State:
    """The state with new squads; the members whose squad's Delay (PH-20) began or
    ended have their rounds worked out again."""
    log = state.now if now is None else now
    delaying = squads.delaying(table)
    moved = delaying ^ log.delaying
    if moved:
        log = replace(log, delaying=delaying)
    return replace(state, now=log, squads=table, member=member, **more,
                   memo=carried(state, *changed, *moved))


def with_condition(log: RoundLog, event: ph.Condition, seq: int) -> RoundLog:
    pos = -1 if event.phase is None else (log.pos(event.phase) or 0)
    until = None if event.duration is None else event.round + event.duration - 1
    op = Op(pos, seq, "cond", event.name, event.on, until)
    return added(log, event.target, op, reach=event.phase is not None)


def action_pos(fight: Fight, log: RoundLog, cid: str, phase: int | None) -> int:
    """Where an Action without a phase falls: now, or the unit's own phase if later
    and it holds no delayed Action."""
    if phase is not None:
        return log.pos(phase) or 0
    return max(log.reached, 0)


def delay_pos(fight: Fight, log: RoundLog, cid: str) -> int:
    own = log.pos(stats.combat(fight.roster[cid])) if cid in fight.roster else None
    return max(log.reached, own if own is not None else 0, 0)


def apply_order(fight: Fight, state: State, event: ph.Order) -> State:
    squad = state.squads[event.squad]
    order = squads.Order(event.tactic, event.target or "any", tuple(event.at))
    rank = squads.order_rank(fight.roster, squad, event.by)
    return with_squads(state, {**state.squads, squad.id: replace(squad, order=order)},
                       state.member, ordered={**state.ordered, squad.id: (
                           event.round, rank)})


def apply_regroup(fight: Fight, state: State, event: ph.Regroup, seq: int) -> State:
    log = state.now
    op = Op(action_pos(fight, log, event.actor, event.phase), seq, "use", "action")
    table, member = dict(state.squads), dict(state.member)
    actor = event.actor
    own = member.get(actor)
    if own is not None and event.leader is not None:
        table[own] = replace(table[own], leader=event.leader)
    if own is not None and (event.join is not None or event.leave):
        old = table[own]
        leader = None if old.leader == actor else old.leader  # PH-7: it leaves with it
        table[own] = replace(old, members=tuple(m for m in old.members if m != actor),
                             leader=leader)
        del member[actor]
    if event.join is not None:
        new = table[event.join]
        table[event.join] = replace(new, members=new.members + (actor,))
        member[actor] = event.join
    chosen = dict(state.chosen)
    if event.modifiers is not None:
        chosen[actor] = tuple(event.modifiers)
    state = replace(state, chosen=chosen, seq=seq)
    now = added(log, actor, op)
    if own is not None:
        return settled(fight, state, table, member, own, actor, now=now)
    return with_squads(state, table, member, actor, now=now)


def apply_manoeuvre(fight: Fight, state: State, event: ph.Manoeuvre, seq: int) -> State:
    log = state.now
    if not event.simultaneous:
        op = Op(action_pos(fight, log, event.actor, event.phase), seq, "use", "action")
        log = added(log, event.actor, op)
    dismounted = state.dismounted
    if event.kind == "dismount" and event.success:
        dismounted = dismounted + tuple(t for t in event.target if t not in dismounted)
    changed = () if event.simultaneous else (event.actor,)
    return replace(state, now=log, dismounted=dismounted, seq=seq,
                   memo=carried(state, *changed))
