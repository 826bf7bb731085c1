"""phases' table operations: use a Move or an Action, delay, set a status, change an
order, regroup, wake a calm unit, and the manoeuvres (bull rush, dismount, subdue)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.specs import Command, Field, Form

from . import events as ph
from . import manoeuvres, squads, stats
from .rounds import KINDS, STATUSES

if TYPE_CHECKING:
    from .ruleset import Phases

COMMANDS = (
    Command("move", "Move", "v", "the selected unit takes its Move in this phase (PH-2, PH-5)",
            needs_actor=True),
    Command("action", "Action", "a", "the selected unit takes its Action in this phase; its "
            "Move is lost (PH-2, PH-5)", needs_actor=True),
    Command("delay", "Delay", "d", "the selected unit keeps its Move and/or Action into the "
            "next round (PH-3)", needs_actor=True),
    Command("status", "Status", "s", "stun, immobilize, incapacitate or calm the selected "
            "unit from this phase (PH-10), or mark it fled (PH-21)", needs_actor=True),
    Command("order", "Order", "o", "change the selected unit's squad's order at the start of "
            "a round (PH-9, PH-20)", show=False, needs_actor=True),
    Command("regroup", "Regroup", "G", "an Action: leave or join a squad, name a leader, "
            "change combat modifiers (PH-7, PH-12)", show=False, needs_actor=True),
    Command("wake", "Wake", "w", "an Action: wake an adjacent calm unit (PH-10)", show=False,
            needs_actor=True),
    Command("bull-rush", "Bull rush", "B", "roll a bull rush (PH-13, PH-6)", show=False,
            needs_actor=True),
    Command("dismount", "Dismount", "D", "try to dismount a rider (PH-15)", show=False,
            needs_actor=True),
    Command("subdue", "Subdue", "S", "an attack dealing Fatigue (PH-14)", show=False,
            needs_actor=True),
)


def current_phase(rs: Phases, fight: Fight) -> int:
    log = rs.state(fight).now
    if not log.order:
        return 0
    now = rs.now_pos(fight)
    return log.order[max(now, 0)]


def available(rs: Phases, fight: Fight, cid: str) -> list[str]:
    """The kinds the unit has now or will gain later this round."""
    run = rs.run_of(fight, cid)
    if run is None:
        return []
    return [k for k in KINDS if k in run.held or k in run.fresh]


def would(rs: Phases, fight: Fight, command: str, actor: str,
          values: Mapping[str, Any]) -> list[ev.Event]:
    return run_command(rs, fight, command, actor, values, random.Random(0))


def can_run(rs: Phases, fight: Fight, command: str, actor: str | None) -> str:
    if actor is None or actor not in fight.roster:
        return "select a unit first"
    if fight.ended and command != "status":
        return "the fight is over: an undo (ctrl+z) takes the end back"
    out = rs.can_act(fight, actor)  # croaked, fled, surrendered (PH-21)
    if out:
        return f"{fight.roster[actor].name} is {out}"
    state = rs.state(fight)
    if command == "order" and state.member.get(actor) is None:
        return f"{fight.roster[actor].name} is in no squad"
    if command == "dismount" and not riders(rs, fight, actor):
        return "no enemy rider to dismount"
    if command in ("bull-rush", "subdue") and not enemies(rs, fight, actor):
        return "no enemy in the fight"
    if command == "wake" and not calm_allies(rs, fight, actor):
        return "no calm unit to wake"
    if command in ("status", "order"):
        return ""
    if command in ("move", "action", "delay", "wake", "regroup", "bull-rush", "dismount",
                   "subdue"):
        spec = command_form(rs, fight, command, actor)
        if command == "delay" and spec is not None and not any(f.default for f in spec.fields):
            return (f"{fight.roster[actor].name} has no Move or Action left to keep this "
                    "round (PH-3)")
        values = {f.name: f.default for f in spec.fields} if spec else {}
        if command == "subdue":
            values["damage"] = 1
        try:
            events = would(rs, fight, command, actor, values)
            if events and command in ("move", "action", "delay", "wake", "regroup"):
                rs.check_event(fight, events[0])
            elif command in ("bull-rush", "dismount", "subdue"):
                last = [e for e in events if isinstance(e, ph.Manoeuvre)]
                if last:
                    rs.check_event(fight, last[0])
        except RefereeError as error:
            return error.reason
    return ""


def enemies(rs: Phases, fight: Fight, actor: str) -> list[str]:
    side = fight.roster[actor].side
    return [cid for cid, c in fight.roster.items()
            if c.side != side and not rs.croaked(fight, cid)]


def riders(rs: Phases, fight: Fight, actor: str) -> list[str]:
    gone = rs.state(fight).dismounted
    return [cid for cid in enemies(rs, fight, actor)
            if fight.roster[cid].stats.get("mount") and cid not in gone]


def calm_allies(rs: Phases, fight: Fight, actor: str) -> list[str]:
    side = fight.roster[actor].side
    return [cid for cid, c in fight.roster.items() if c.side == side and cid != actor
            and "calm" in rs.statuses(fight, cid)]


def choices(fight: Fight, ids: list[str]) -> tuple[tuple[str, Any], ...]:
    return tuple((fight.roster[cid].name, cid) for cid in ids)


def command_form(rs: Phases, fight: Fight, command: str, actor: str | None) -> Form | None:
    if actor is None or actor not in fight.roster:
        return None
    phase = current_phase(rs, fight)
    name = fight.roster[actor].name
    phase_field = Field("phase", "phase", "int", phase, minimum=0)
    if command in ("move", "action"):
        fields: tuple[Field, ...] = (phase_field,)
        if command == "move":
            fields += (Field("engaged", "ends beside an enemy", "bool", False,
                             help="its Move drops to 0 (not Agile, PH-5)"),)
        else:  # the attack, spell or potion it was, in the log (the Use's note)
            fields += (Field("note", "note", "text", help="what it did: attacks Aldra, "
                             "casts, drinks a potion …"),)
        return Form(f"{name}: {command} (PH-2)", fields)
    if command == "delay":
        has = available(rs, fight, actor)
        run = rs.run_of(fight, actor)
        later = run is not None and run.base_pos is not None and not run.gained
        return Form(f"{name} delays into the next round (PH-3)", (
            Field("move", "keep the Move", "bool", "move" in has or later),
            Field("action", "keep the Action", "bool", "action" in has or later)))
    if command == "status":
        return Form(f"{name}: a status (PH-10)", (
            Field("name", "status", "choice", "stun",
                  options=tuple((s, s) for s in STATUSES + ("fled",))),
            Field("on", "on (off: it ends)", "bool", True), phase_field,
            Field("duration", "rounds (blank: until ended)", "int", minimum=1)))
    if command == "order":
        sid = rs.state(fight).member.get(actor)
        order = rs.state(fight).squads[sid].order if sid else squads.Order()
        return Form(f"Squad {sid}: a new order (PH-9)", (
            Field("tactic", "tactic", "choice", order.tactic,
                  options=tuple((t, t) for t in squads.TACTICS)),
            Field("target", "target", "text", order.target),
            Field("x", "x (rally, bull rush, withdraw)", "int",
                  order.at[0] if order.at else None),
            Field("y", "y", "int", order.at[1] if order.at else None)))
    if command == "regroup":
        state = rs.state(fight)
        own = state.member.get(actor)
        side = fight.roster[actor].side
        others = tuple((sid, sid) for sid, s in state.squads.items() if sid != own and any(
            fight.roster[m].side == side for m in s.members))
        chosen = state.chosen.get(actor, stats.modifiers(fight.roster[actor]))
        leaders: tuple[tuple[str, Any], ...] = (("(no change)", ""),)
        if own and may_name_leader(rs, fight, actor, own):
            leaders += choices(fight, [m for m in state.squads[own].members
                                       if squads.command_unit(fight.roster[m])
                                       and not rs.can_act(fight, m)])
        return Form(f"{name} regroups (an Action, PH-12)", (
            Field("join", "join squad", "choice", "", options=(("(stay)", ""),) + others),
            Field("leave", "leave its squad", "bool", False),
            Field("leader", "name a leader", "choice", "", options=leaders),
            Field("modifiers", "combat modifiers", "text", ", ".join(chosen),
                  help="comma-separated, one per level (PH-11)"), phase_field))
    if command == "wake":
        calm = calm_allies(rs, fight, actor)
        return Form(f"{name} wakes a calm unit (an Action, PH-10)", (
            Field("target", "whom", "choice", calm[0] if calm else None, required=True,
                  options=choices(fight, calm)), phase_field))
    foes = enemies(rs, fight, actor)
    if command == "bull-rush":
        return Form(f"{name} bull rushes (PH-13)", (
            Field("target", "whom", "choice", foes[0] if foes else None, required=True,
                  options=choices(fight, foes)),
            Field("others", "others in the square (ids)", "text", ""),
            Field("dodging", "the defender dodges (loses)", "bool", False),
            Field("room", "a square to push them to", "bool", True),
            Field("simultaneous", "both moving in at once (PH-6)", "bool", False),
            Field("dice", "real dice (blank: rolled)", "text", "",
                  help="e.g. 4 5; 3 6 — the rusher's, then each other's in turn"),
            phase_field))
    if command == "dismount":
        ride = riders(rs, fight, actor)
        return Form(f"{name} tries to dismount a rider (PH-15)", (
            Field("target", "rider", "choice", ride[0] if ride else None, required=True,
                  options=choices(fight, ride)),
            Field("helpers", "other enemies helping", "int", 0, minimum=0),
            Field("defense", "mount's Defense (blank: worked out)", "int"),
            Field("dice", "real dice (blank: the program rolls)", "text", ""), phase_field))
    if command == "subdue":
        return Form(f"{name} subdues (PH-14)", (
            Field("target", "whom", "choice", foes[0] if foes else None, required=True,
                  options=choices(fight, foes)),
            Field("damage", "the attack's damage", "int", None, required=True, minimum=0),
            Field("dice", "real d6 (blank: the program rolls)", "text", ""), phase_field))
    return None


def may_name_leader(rs: Phases, fight: Fight, actor: str, sid: str) -> bool:
    """PH-7: the leader names the next as it drops out; with the leader gone, any member."""
    leader = rs.state(fight).squads[sid].leader
    return leader is None or leader == actor or leader not in fight.roster or \
        bool(rs.can_act(fight, leader))


def _phase(values: Mapping[str, Any], rs: Phases, fight: Fight) -> int:
    phase = values.get("phase")
    return current_phase(rs, fight) if phase is None else int(phase)


def run_command(rs: Phases, fight: Fight, command: str, actor: str | None,
                values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    round_ = max(fight.round, 1)
    if actor is None:
        raise RefereeError("select a unit first")
    if command in ("move", "action"):
        note = str(values.get("note") or "").strip() or None
        return [ph.Use(round=round_, phase=_phase(values, rs, fight), actor=actor,
                       what=command, engaged=bool(values.get("engaged", False)), note=note)]
    if command == "delay":
        keep = tuple(k for k in KINDS if values.get(k, True))
        return [ph.Delay(round=round_, actor=actor, keep=keep)]
    if command == "status":
        return [ph.Condition(round=round_, target=actor, name=values.get("name") or "stun",
                             on=bool(values.get("on", True)), duration=values.get("duration"),
                             phase=_phase(values, rs, fight))]
    if command == "order":
        sid = rs.state(fight).member.get(actor)
        x, y = values.get("x"), values.get("y")
        at = (int(x), int(y)) if x is not None and y is not None else ()
        return [ph.Order(round=round_, squad=sid or "", tactic=values.get("tactic") or "hold",
                         target=values.get("target") or "any", at=at, by=actor)]
    if command == "regroup":
        text = values.get("modifiers")
        mods = None if text is None else tuple(
            m.strip() for m in str(text).split(",") if m.strip())
        return [ph.Regroup(round=round_, actor=actor, phase=_phase(values, rs, fight),
                           join=values.get("join") or None, leave=bool(values.get("leave")),
                           leader=values.get("leader") or None, modifiers=mods)]
    if command == "wake":
        phase = _phase(values, rs, fight)
        return [ph.Use(round=round_, phase=phase, actor=actor, what="action",
                       note=f"wakes {manoeuvres.name(fight, str(values.get('target')))} "
                            "(PH-10)"),
                ph.Condition(round=round_, target=values["target"], name="calm", on=False,
                             phase=phase)]
    phase = _phase(values, rs, fight)
    if command == "bull-rush":
        others = [o.strip() for o in str(values.get("others") or "").replace(",", " ").split()]
        targets = [values["target"]] + [o for o in others if o]
        dodging = [values["target"]] if values.get("dodging") else []
        typed = [manoeuvres.real_dice(part) for part in str(values.get("dice") or "").split(";")]
        return manoeuvres.bull_rush(rs, fight, actor, targets, dodging,
                                    bool(values.get("room", True)),
                                    bool(values.get("simultaneous", False)), phase, rng,
                                    [t for t in typed if t is not None])
    if command == "dismount":
        return manoeuvres.dismount(rs, fight, actor, values["target"],
                                   int(values.get("helpers") or 0), values.get("defense"),
                                   phase, manoeuvres.real_dice(values.get("dice")), rng)
    if command == "subdue":
        return manoeuvres.subdue(rs, fight, actor, values["target"], int(values["damage"]),
                                 phase, manoeuvres.real_dice(values.get("dice")), rng)
    raise RefereeError(f"phases has no command {command!r}")
