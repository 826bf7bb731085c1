"""phases' checks of its own events, each refusing what the rules do not allow now
(`IllegalEvent`, naming the field): a phase passed or not in the round (PH-1), a unit out
of the fight (PH-21) or on Delay (PH-20), a Move or Action it does not have (PH-2, PH-3),
conflicting orders (PH-9), a full squad, a leader who may not be named (PH-7), a pair
parted (PH-19), a manoeuvre that may not be tried (PH-13, PH-15).

`up`: the house rule that phases run up (PH-1), for an event of a round to come."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.errors import FormatError, IllegalEvent
from referee.engine.view import Fight

from . import carrying, manoeuvres, modifiers, outcomes, squads
from . import events as ph
from .changes import action_pos, delay_pos
from .rounds import KINDS, STATUSES, Op, RoundLog, simulate
from .standing import at_round, croaked, out_of_fight, unit
from .state import state_of


def log_for(fight: Fight, round_: int, up: bool) -> RoundLog:
    state = state_of(fight)
    if round_ <= state.now.round:
        return state.now
    return at_round(fight, round_, up)


def check_phase(log: RoundLog, phase: int) -> int:
    pos = log.pos(phase)
    if pos is None:
        span = f"{log.order[0]} to {log.order[-1]}" if log.order else "none"
        raise IllegalEvent(f"round {log.round} has no phase {phase} (phases {span}, "
                           "PH-1)", ("phase",))
    if pos < log.reached:
        raise IllegalEvent(f"phase {phase} has passed: round {log.round} is at phase "
                           f"{log.order[log.reached]} (PH-1)", ("phase",))
    return pos


def check_actor_fights(fight: Fight, cid: str) -> None:
    if croaked(fight, cid):
        raise IllegalEvent(f"{fight.roster[cid].name} is croaked", ("actor",))
    how = out_of_fight(fight, cid)
    if how:
        raise IllegalEvent(f"{fight.roster[cid].name} is out of the fight ({how}): it "
                           "holds and gains nothing (PH-21)", ("actor",))
    sid = state_of(fight).member.get(cid)
    if sid is not None and cid in state_of(fight).now.delaying:  # PH-20: on Delay
        raise IllegalEvent(f"{fight.roster[cid].name}'s squad {sid} is on Delay: it holds "
                           "its Moves and Actions until the order changes (PH-20)",
                           ("actor",))


def check_use(fight: Fight, event: ph.Use, up: bool) -> None:
    if event.what not in KINDS:
        raise IllegalEvent(f"expected move or action, found {event.what!r}", ("what",))
    log = log_for(fight, event.round, up)
    pos = check_phase(log, event.phase)
    check_actor_fights(fight, event.actor)
    op = Op(pos, state_of(fight).seq + 1, "use", event.what, engaged=event.engaged)
    simulate(log, unit(fight, event.actor), extra=op)


def check_delay(fight: Fight, event: ph.Delay, up: bool) -> None:
    for index, kind in enumerate(event.keep):
        if kind not in KINDS:
            raise IllegalEvent(f"expected move or action, found {kind!r}",
                               ("keep", index))
    if not event.keep:
        raise IllegalEvent("keep names move, action or both (PH-3)", ("keep",))
    log = log_for(fight, event.round, up)
    op = Op(delay_pos(fight, log, event.actor), state_of(fight).seq + 1, "delay",
            keep=frozenset(event.keep))
    simulate(log, unit(fight, event.actor), extra=op)


def check_condition(fight: Fight, event: ph.Condition, up: bool) -> None:
    if event.name in STATUSES and event.phase is not None:
        check_phase(log_for(fight, event.round, up), event.phase)


def check_order(fight: Fight, event: ph.Order) -> None:
    state = state_of(fight)
    if event.squad not in state.squads:
        known = ", ".join(state.squads) or "none"
        raise IllegalEvent(f"unknown squad {event.squad!r} (squads: {known})", ("squad",))
    try:
        squads.check_order(event.tactic, tuple(event.at), ())
    except FormatError as error:
        raise IllegalEvent(error.reason, error.path) from None
    if event.by is not None and event.by not in fight.roster:
        raise IllegalEvent(f"unknown combatant {event.by!r}", ("by",))
    log = state.now
    if event.round <= log.round and (log.reached >= 0 or any(
            op.op == "use" for ops in log.ops.values() for op in ops)):
        raise IllegalEvent(f"round {log.round} is under way: orders change only at the "
                           "start of a round (PH-9)", ("round",))
    squad = state.squads[event.squad]
    rank = squads.order_rank(fight.roster, squad, event.by)
    given = state.ordered.get(squad.id)
    if given is not None and given[0] == max(event.round, 1) and given[1] < rank:
        raise IllegalEvent(f"squad {squad.id} already has an order this round from a "
                           "higher command (PH-9: its leader, the Chief Warlord, highest "
                           "Leadership, the closest leader)", ("by",))


def check_regroup(fight: Fight, event: ph.Regroup, up: bool,
                  limits: Mapping[str, int]) -> None:
    """`limits`: how many units a stack and a horde hold (PH-7)."""
    state = state_of(fight)
    cid = event.actor
    c = fight.roster[cid]
    own = state.member.get(cid)
    if event.join is not None:
        if event.join not in state.squads:
            known = ", ".join(state.squads) or "none"
            raise IllegalEvent(f"unknown squad {event.join!r} (squads: {known})", ("join",))
        target = state.squads[event.join]
        if event.join == own:
            raise IllegalEvent(f"{c.name} is already in squad {own}", ("join",))
        if len(target.members) >= limits[target.kind]:
            raise IllegalEvent(f"{target.kind} {target.id} is full: at most "
                               f"{limits[target.kind]} units (PH-7)", ("join",))
        sides = {fight.roster[m].side for m in target.members}
        if sides and c.side not in sides:
            raise IllegalEvent(f"squad {target.id} is on another side", ("join",))
    if event.leader is not None:
        check_new_leader(fight, event, own)
    check_pair_stays(fight, event, own)
    if event.modifiers is not None:
        modifiers.check(c, tuple(event.modifiers), ("modifiers",), event=True)
    check_actor_fights(fight, cid)
    check_action(fight, event.round, cid, event.phase, up)


def check_new_leader(fight: Fight, event: ph.Regroup, own: str | None) -> None:
    """PH-7: the leader that drops out names a Command Unit of its squad; with the
    leader gone (croaked, fled), any member of it may."""
    state = state_of(fight)
    actor = fight.roster[event.actor].name
    if own is None:
        raise IllegalEvent(f"{actor} is in no squad to name a leader for", ("leader",))
    squad = state.squads[own]
    if event.leader not in squad.members or event.leader not in fight.roster:
        who = fight.roster[event.leader].name if event.leader in fight.roster else \
            repr(event.leader)
        raise IllegalEvent(f"leader {who} is not a member of squad {own} (PH-7)",
                           ("leader",))
    if not squads.command_unit(fight.roster[event.leader]):
        raise IllegalEvent(f"{fight.roster[event.leader].name} is not a Command Unit "
                           "(PH-8)", ("leader",))
    leader = squad.leader
    standing = leader is not None and leader in fight.roster and leader in squad.members \
        and leader not in state.out
    if standing and leader is not None and leader != event.actor:
        raise IllegalEvent(f"squad {own} is led by {fight.roster[leader].name}: only the "
                           "leader names the next one, as it drops out (PH-7)",
                           ("leader",))


def check_pair_stays(fight: Fight, event: ph.Regroup, own: str | None) -> None:
    """PH-19: a mount with a rider is in a squad only if its rider is in it too; a
    Regroup that would part them is refused (a dismounted pair are two units)."""
    if event.join is None and not event.leave:
        return
    state = state_of(fight)
    pairs = {m: r for m, r in carrying.ridden(fight.roster).items()
             if r not in state.dismounted}
    riders = {r: m for m, r in pairs.items()}
    actor, joins = event.actor, event.join
    rider = pairs.get(actor)
    named = fight.roster
    if rider is not None and joins is not None and state.member.get(rider) != joins:
        raise IllegalEvent(carrying.pair_apart(named[actor].name, named[rider].name),
                           ("join",))
    mount = riders.get(actor)
    stays = state.member.get(mount) if mount is not None else None
    if mount is not None and stays is not None and stays != joins:
        raise IllegalEvent(f"{named[actor].name} rides {named[mount].name}, which stays "
                           f"in squad {stays}: a mount with a rider is in a squad only "
                           "if its rider is in it too (PH-19)",
                           ("join" if joins else "leave",))


def check_action(fight: Fight, round_: int, cid: str, phase: int | None, up: bool) -> None:
    log = log_for(fight, round_, up)
    if phase is not None:
        check_phase(log, phase)
    op = Op(action_pos(fight, log, cid, phase), state_of(fight).seq + 1, "use", "action")
    simulate(log, unit(fight, cid), extra=op)


def check_manoeuvre(fight: Fight, event: ph.Manoeuvre, up: bool) -> None:
    if event.kind not in manoeuvres.KINDS:
        raise IllegalEvent(f"expected one of {', '.join(manoeuvres.KINDS)}, found "
                           f"{event.kind!r}", ("kind",))
    for index, cid in enumerate(event.target):
        if cid not in fight.roster:
            raise IllegalEvent(f"unknown combatant {cid!r}", ("target", index))
    why = manoeuvres.agile(fight, event.actor) if event.kind == "bull-rush" else ""
    if why:
        raise IllegalEvent(why, ("actor",))
    if event.kind == "dismount":
        check_dismount(fight, event)
    if not event.simultaneous:
        check_actor_fights(fight, event.actor)
        check_action(fight, event.round, event.actor, event.phase, up)
    outcomes.check(fight, event)


def check_dismount(fight: Fight, event: ph.Manoeuvre) -> None:
    """PH-15: an enemy tries it (never the rider's own side), on a rider still
    mounted."""
    actor = fight.roster[event.actor]
    for index, cid in enumerate(event.target):
        where = ("target", index) if len(event.target) > 1 else ("target",)
        rider = fight.roster[cid]
        if rider.side == actor.side:
            raise IllegalEvent(f"{actor.name} is on {rider.name}'s own side: only an enemy "
                               "may try to dismount a rider (PH-15)", ("actor",))
        if not rider.stats.get("mount"):
            raise IllegalEvent(f"{rider.name} rides no mount (PH-15)", where)
        if cid in state_of(fight).dismounted:
            raise IllegalEvent(f"{rider.name} is already dismounted (PH-15)", where)
