"""phases' table operations, each one act: use a Move or an Action (PH-2, PH-5), delay
(PH-3), set a status (PH-10, PH-21), change an order (PH-9, PH-20), regroup (PH-7, PH-12),
wake a calm unit (PH-10), and the manoeuvres (bull rush PH-13, dismount PH-15, subdue
PH-14), the ruleset's Acting role (`Acts`). The rules stay where they live: the
manoeuvres' dice in manoeuvres.py, the checks in checks.py.

Every act is of the selected unit (`unit_act`): without one it is refused ("select a unit
first") and has no form; once the fight is over only a status may still be set, and a unit
out of the fight (croaked, fled, surrendered, PH-21) does nothing. What an act would make
with its form's defaults is checked as the log would check it (`tried`), so a key that
cannot be used now says why before its form opens.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent, RefereeError
from referee.engine.options import Acting
from referee.engine.record import replace
from referee.engine.specs import Act, Field, Form, Run, actor_act
from referee.engine.view import Fight

from . import events as ph
from . import manoeuvres, squads, stats
from .rounds import KINDS, STATUSES
from .standing import can_act, croaked, now_kept, run_of, statuses
from .state import State, state_of

if TYPE_CHECKING:
    from referee.engine.port import Ruleset

# an event checked as the log would check it (the roster schema's checks)
Check = Callable[[Fight, ev.Event], None]
# what an act of a unit is made of, each given the fight and the unit (whether it is
# allowed, also how to check what it would make)
UnitAllowed = Callable[[Check, Fight, str], str]
UnitForm = Callable[[Fight, str], Form]
UnitRun = Callable[[Fight, str, Mapping[str, Any], random.Random], list[ev.Event]]


class Acts(Acting[State]):
    """Its table operations: the same for every fight, so made once, with the ruleset.
    What they would make is checked by the roster schema, the role that checks the log."""

    def __init__(self, rs: Ruleset[State]) -> None:
        super().__init__(rs)
        self._acts = tuple(acts(self._check))

    def acts(self, fight: Fight) -> list[Act]:
        return list(self._acts)

    def _check(self, fight: Fight, event: ev.Event) -> None:
        self.rs.schema.check_event(fight, event)


def acts(check: Check) -> list[Act]:
    """The table, in the order the footer and the help list it; `check` checks an
    event as the log would."""
    return [phased(act) if act.id in PHASED else act for act in table(check)]


# the acts whose form names the phase they are done in (a status's may name any phase)
PHASED = frozenset({"move", "action", "regroup", "wake", "bull-rush", "dismount", "subdue"})


def phased(act: Act) -> Act:
    """An act done in the phase its form names: `allowed` asks of the current phase (the
    key, the footer, the list of acts), but the command line does it in the phase given
    (`--phase`, as the app's form may), so it is not refused beforehand: what it makes is
    refused as the log refuses it, and a unit out of the fight as `allowed` refuses it."""
    assert act.run is not None
    return replace(act, gated=False, run=partial(standing_run, act.run))


def standing_run(run: Run, fight: Fight, actor: str | None,
                 values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    if actor is not None and actor in fight.roster:
        out = can_act(fight, actor)  # croaked, fled, surrendered (PH-21)
        if out:
            raise IllegalEvent(f"{fight.roster[actor].name} is {out}")
    return run(fight, actor, values, rng)


def table(check: Check) -> list[Act]:
    return [
        unit_act(check, "move", "Move", "v", "the selected unit takes its Move in this phase "
                 "(PH-2, PH-5)", move_allowed, move_form, run_move),
        unit_act(check, "action", "Action", "a", "the selected unit takes its Action in this "
                 "phase; its Move is lost (PH-2, PH-5)", action_allowed, action_form,
                 run_action),
        unit_act(check, "delay", "Delay", "d", "the selected unit keeps its Move and/or Action "
                 "into the next round (PH-3)", delay_allowed, delay_form, run_delay),
        unit_act(check, "status", "Status", "s", "stun, immobilize, incapacitate or calm the "
                 "selected unit from this phase (PH-10), or mark it fled (PH-21)",
                 status_allowed, status_form, run_status, ends=False),
        unit_act(check, "order", "Order", "o", "change the selected unit's squad's order at the "
                 "start of a round (PH-9, PH-20)", order_allowed, order_form, run_order,
                 show=False),
        unit_act(check, "regroup", "Regroup", "G", "an Action: leave or join a squad, name a "
                 "leader, change combat modifiers (PH-7, PH-12)", regroup_allowed,
                 regroup_form, run_regroup, show=False),
        unit_act(check, "wake", "Wake", "w", "an Action: wake an adjacent calm unit (PH-10)",
                 wake_allowed, wake_form, run_wake, show=False),
        unit_act(check, "bull-rush", "Bull rush", "B", "roll a bull rush (PH-13, PH-6)",
                 bull_rush_allowed, bull_rush_form, run_bull_rush, show=False),
        unit_act(check, "dismount", "Dismount", "D", "try to dismount a rider (PH-15)",
                 dismount_allowed, dismount_form, run_dismount, show=False),
        unit_act(check, "subdue", "Subdue", "S", "an attack dealing Fatigue (PH-14)",
                 subdue_allowed, subdue_form, run_subdue, show=False),
    ]


# -- an act of the selected unit ---------------------------------------------------------


def unit_act(check: Check, id_: str, label: str, key: str, help_: str,
             allowed: UnitAllowed, form: UnitForm, run: UnitRun, show: bool = True,
             ends: bool = True) -> Act:
    """An act of the selected unit. `ends`: refused once the fight is over (all but a
    status). Its run is not refused again: what it makes is checked as the log checks
    it (`check`)."""
    return actor_act(id_, label, key, help_, partial(unit_allowed, check, allowed, ends),
                     form, run, show, recheck=False, after_end=not ends)


def unit_allowed(check: Check, allowed: UnitAllowed, ends: bool, fight: Fight,
                 actor: str) -> str:
    if ends and fight.ended:
        return "the fight is over: an undo (ctrl+z) takes the end back"
    out = can_act(fight, actor)  # croaked, fled, surrendered (PH-21)
    if out:
        return f"{fight.roster[actor].name} is {out}"
    return allowed(check, fight, actor)


def tried(check: Check, fight: Fight, actor: str, run: UnitRun, values: Mapping[str, Any],
          kind: type[ev.Event] = ev.Event) -> str:
    """Why the act, done now with `values`, would be refused: the first event of `kind` it
    makes (a manoeuvre's own, after its dice) checked as the log would check it."""
    try:
        events = run(fight, actor, values, random.Random(0))
        first = next((e for e in events if isinstance(e, kind)), None)
        if first is not None:
            check(fight, first)
    except RefereeError as error:
        return error.reason
    return ""


def defaults(form: Form) -> dict[str, Any]:
    return {f.name: f.default for f in form.fields}


# -- who and when ------------------------------------------------------------------------


def current_phase(fight: Fight) -> int:
    log = state_of(fight).now
    if not log.order:
        return 0
    now = now_kept(fight)
    return log.order[max(now, 0)]


def phase_field(fight: Fight) -> Field:
    return Field("phase", "phase", "int", current_phase(fight), minimum=0)


def given_phase(fight: Fight, values: Mapping[str, Any]) -> int:
    phase = values.get("phase")
    return current_phase(fight) if phase is None else int(phase)


def available(fight: Fight, cid: str) -> list[str]:
    """The kinds the unit has now or will gain later this round."""
    run = run_of(fight, cid)
    if run is None:
        return []
    return [k for k in KINDS if k in run.held or k in run.fresh]


def enemies(fight: Fight, actor: str) -> list[str]:
    side = fight.roster[actor].side
    return [cid for cid, c in fight.roster.items()
            if c.side != side and not croaked(fight, cid)]


def riders(fight: Fight, actor: str) -> list[str]:
    gone = state_of(fight).dismounted
    return [cid for cid in enemies(fight, actor)
            if fight.roster[cid].stats.get("mount") and cid not in gone]


def calm_allies(fight: Fight, actor: str) -> list[str]:
    side = fight.roster[actor].side
    return [cid for cid, c in fight.roster.items() if c.side == side and cid != actor
            and "calm" in statuses(fight, cid)]


def choices(fight: Fight, ids: list[str]) -> tuple[tuple[str, Any], ...]:
    return tuple((fight.roster[cid].name, cid) for cid in ids)


def may_name_leader(fight: Fight, actor: str, sid: str) -> bool:
    """PH-7: the leader names the next as it drops out; with the leader gone, any member."""
    leader = state_of(fight).squads[sid].leader
    return leader is None or leader == actor or leader not in fight.roster or \
        bool(can_act(fight, leader))


# -- a Move or an Action (PH-2, PH-5) ----------------------------------------------------


def move_allowed(check: Check, fight: Fight, actor: str) -> str:
    return tried(check, fight, actor, run_move, defaults(move_form(fight, actor)))


def move_form(fight: Fight, actor: str) -> Form:
    return Form(f"{fight.roster[actor].name}: move (PH-2)", (
        phase_field(fight),
        Field("engaged", "ends beside an enemy", "bool", False,
              help="its Move drops to 0 (not Agile, PH-5)")))


def run_move(fight: Fight, actor: str, values: Mapping[str, Any],
             rng: random.Random) -> list[ev.Event]:
    return [use(fight, actor, "move", values)]


def action_allowed(check: Check, fight: Fight, actor: str) -> str:
    return tried(check, fight, actor, run_action, defaults(action_form(fight, actor)))


def action_form(fight: Fight, actor: str) -> Form:
    # the note (the attack, spell or potion it was, in the log) is what is typed nearly
    # every time, so the form opens on it; the phase is the current one
    return Form(f"{fight.roster[actor].name}: action (PH-2)", (
        Field("note", "note", "text", help="what it did: attacks Aldra, casts, drinks a "
              "potion …"),
        phase_field(fight)), focus="note")


def run_action(fight: Fight, actor: str, values: Mapping[str, Any],
               rng: random.Random) -> list[ev.Event]:
    return [use(fight, actor, "action", values)]


def use(fight: Fight, actor: str, what: str, values: Mapping[str, Any]
        ) -> ph.Use:
    note = str(values.get("note") or "").strip() or None
    return ph.Use(round=max(fight.round, 1), phase=given_phase(fight, values),
                  actor=actor, what=what, engaged=bool(values.get("engaged", False)),
                  note=note)


# -- delay (PH-3) ------------------------------------------------------------------------


def delay_allowed(check: Check, fight: Fight, actor: str) -> str:
    form = delay_form(fight, actor)
    if not any(f.default for f in form.fields):
        return (f"{fight.roster[actor].name} has no Move or Action left to keep this "
                "round (PH-3)")
    return tried(check, fight, actor, run_delay, defaults(form))


def delay_form(fight: Fight, actor: str) -> Form:
    has = available(fight, actor)
    run = run_of(fight, actor)
    later = run is not None and run.base_pos is not None and not run.gained
    return Form(f"{fight.roster[actor].name} delays into the next round (PH-3)", (
        Field("move", "keep the Move", "bool", "move" in has or later),
        Field("action", "keep the Action", "bool", "action" in has or later)))


def run_delay(fight: Fight, actor: str, values: Mapping[str, Any],
              rng: random.Random) -> list[ev.Event]:
    keep = tuple(k for k in KINDS if values.get(k, True))
    return [ph.Delay(round=max(fight.round, 1), actor=actor, keep=keep)]


# -- a status (PH-10, PH-21) -------------------------------------------------------------


def status_allowed(check: Check, fight: Fight, actor: str) -> str:
    return ""  # even once the fight is over


def status_form(fight: Fight, actor: str) -> Form:
    return Form(f"{fight.roster[actor].name}: a status (PH-10)", (
        Field("name", "status", "choice", "stun",
              options=tuple((s, s) for s in STATUSES + ("fled",))),
        Field("on", "on (off: it ends)", "bool", True), phase_field(fight),
        Field("duration", "rounds (blank: until ended)", "int", minimum=1)))


def run_status(fight: Fight, actor: str, values: Mapping[str, Any],
               rng: random.Random) -> list[ev.Event]:
    return [ph.Condition(round=max(fight.round, 1), target=actor,
                         name=values.get("name") or "stun", on=bool(values.get("on", True)),
                         duration=values.get("duration"),
                         phase=given_phase(fight, values))]


# -- a squad's order (PH-9, PH-20) -------------------------------------------------------


def order_allowed(check: Check, fight: Fight, actor: str) -> str:
    if state_of(fight).member.get(actor) is None:
        return f"{fight.roster[actor].name} is in no squad"
    return ""


def order_form(fight: Fight, actor: str) -> Form:
    sid = state_of(fight).member.get(actor)
    order = state_of(fight).squads[sid].order if sid else squads.Order()
    return Form(f"Squad {sid}: a new order (PH-9)", (
        Field("tactic", "tactic", "choice", order.tactic,
              options=tuple((t, t) for t in squads.TACTICS)),
        Field("target", "target", "text", order.target),
        Field("x", "x (rally, bull rush, withdraw)", "int",
              order.at[0] if order.at else None),
        Field("y", "y", "int", order.at[1] if order.at else None)))


def run_order(fight: Fight, actor: str, values: Mapping[str, Any],
              rng: random.Random) -> list[ev.Event]:
    sid = state_of(fight).member.get(actor)
    x, y = values.get("x"), values.get("y")
    at = (int(x), int(y)) if x is not None and y is not None else ()
    return [ph.Order(round=max(fight.round, 1), squad=sid or "",
                     tactic=values.get("tactic") or "hold",
                     target=values.get("target") or "any", at=at, by=actor)]


# -- regroup (PH-7, PH-12) ---------------------------------------------------------------


def regroup_allowed(check: Check, fight: Fight, actor: str) -> str:
    return tried(check, fight, actor, run_regroup, defaults(regroup_form(fight, actor)))


def regroup_form(fight: Fight, actor: str) -> Form:
    state = state_of(fight)
    own = state.member.get(actor)
    side = fight.roster[actor].side
    others = tuple((sid, sid) for sid, s in state.squads.items() if sid != own and any(
        fight.roster[m].side == side for m in s.members))
    chosen = state.chosen.get(actor, stats.modifiers(fight.roster[actor]))
    leaders: tuple[tuple[str, Any], ...] = (("(no change)", ""),)
    if own and may_name_leader(fight, actor, own):
        leaders += choices(fight, [m for m in state.squads[own].members
                                   if squads.command_unit(fight.roster[m])
                                   and not can_act(fight, m)])
    return Form(f"{fight.roster[actor].name} regroups (an Action, PH-12)", (
        Field("join", "join squad", "choice", "", options=(("(stay)", ""),) + others),
        Field("leave", "leave its squad", "bool", False),
        Field("leader", "name a leader", "choice", "", options=leaders),
        Field("modifiers", "combat modifiers", "text", ", ".join(chosen),
              help="comma-separated, one per level (PH-11)"), phase_field(fight)))


def run_regroup(fight: Fight, actor: str, values: Mapping[str, Any],
                rng: random.Random) -> list[ev.Event]:
    text = values.get("modifiers")
    mods = None if text is None else tuple(
        m.strip() for m in str(text).split(",") if m.strip())
    return [ph.Regroup(round=max(fight.round, 1), actor=actor,
                       phase=given_phase(fight, values),
                       join=values.get("join") or None, leave=bool(values.get("leave")),
                       leader=values.get("leader") or None, modifiers=mods)]


# -- wake a calm unit (PH-10) ------------------------------------------------------------


def wake_allowed(check: Check, fight: Fight, actor: str) -> str:
    if not calm_allies(fight, actor):
        return "no calm unit to wake"
    return tried(check, fight, actor, run_wake, defaults(wake_form(fight, actor)))


def wake_form(fight: Fight, actor: str) -> Form:
    calm = calm_allies(fight, actor)
    return Form(f"{fight.roster[actor].name} wakes a calm unit (an Action, PH-10)", (
        Field("target", "whom", "choice", calm[0] if calm else None, required=True,
              options=choices(fight, calm)), phase_field(fight)))


def run_wake(fight: Fight, actor: str, values: Mapping[str, Any],
             rng: random.Random) -> list[ev.Event]:
    round_ = max(fight.round, 1)
    phase = given_phase(fight, values)
    return [ph.Use(round=round_, phase=phase, actor=actor, what="action",
                   note=f"wakes {manoeuvres.name(fight, str(values.get('target')))} "
                        "(PH-10)"),
            ph.Condition(round=round_, target=values["target"], name="calm", on=False,
                         phase=phase)]


# -- the manoeuvres: bull rush (PH-13, PH-6), dismount (PH-15), subdue (PH-14) ------------


def bull_rush_allowed(check: Check, fight: Fight, actor: str) -> str:
    if not enemies(fight, actor):
        return "no enemy in the fight"
    return tried(check, fight, actor, run_bull_rush, defaults(bull_rush_form(fight, actor)),
                 ph.Manoeuvre)


def bull_rush_form(fight: Fight, actor: str) -> Form:
    foes = enemies(fight, actor)
    return Form(f"{fight.roster[actor].name} bull rushes (PH-13)", (
        Field("target", "whom", "choice", foes[0] if foes else None, required=True,
              options=choices(fight, foes)),
        Field("others", "others in the square (ids)", "text", ""),
        Field("dodging", "the defender dodges (loses)", "bool", False),
        Field("room", "a square to push them to", "bool", True),
        Field("simultaneous", "both moving in at once (PH-6)", "bool", False),
        Field("dice", "real dice (blank: rolled)", "text", "",
              help="e.g. 4 5; 3 6 — the rusher's, then each other's in turn"),
        phase_field(fight)))


def run_bull_rush(fight: Fight, actor: str, values: Mapping[str, Any],
                  rng: random.Random) -> list[ev.Event]:
    phase = given_phase(fight, values)
    others = [o.strip() for o in str(values.get("others") or "").replace(",", " ").split()]
    targets = [values["target"]] + [o for o in others if o]
    dodging = [values["target"]] if values.get("dodging") else []
    typed = [manoeuvres.real_dice(part) for part in str(values.get("dice") or "").split(";")]
    return manoeuvres.bull_rush(fight, actor, targets, dodging,
                                bool(values.get("room", True)),
                                bool(values.get("simultaneous", False)), phase, rng,
                                [t for t in typed if t is not None])


def dismount_allowed(check: Check, fight: Fight, actor: str) -> str:
    if not riders(fight, actor):
        return "no enemy rider to dismount"
    return tried(check, fight, actor, run_dismount, defaults(dismount_form(fight, actor)),
                 ph.Manoeuvre)


def dismount_form(fight: Fight, actor: str) -> Form:
    ride = riders(fight, actor)
    return Form(f"{fight.roster[actor].name} tries to dismount a rider (PH-15)", (
        Field("target", "rider", "choice", ride[0] if ride else None, required=True,
              options=choices(fight, ride)),
        Field("helpers", "other enemies helping", "int", 0, minimum=0),
        Field("defense", "mount's Defense (blank: worked out)", "int"),
        Field("dice", "real dice (blank: the program rolls)", "text", ""),
        phase_field(fight)))


def run_dismount(fight: Fight, actor: str, values: Mapping[str, Any],
                 rng: random.Random) -> list[ev.Event]:
    phase = given_phase(fight, values)
    return manoeuvres.dismount(fight, actor, values["target"],
                               int(values.get("helpers") or 0), values.get("defense"),
                               phase, manoeuvres.real_dice(values.get("dice")), rng)


def subdue_allowed(check: Check, fight: Fight, actor: str) -> str:
    if not enemies(fight, actor):
        return "no enemy in the fight"
    values = defaults(subdue_form(fight, actor))
    values["damage"] = 1  # the form asks the attack's damage: any will do to try it
    return tried(check, fight, actor, run_subdue, values, ph.Manoeuvre)


def subdue_form(fight: Fight, actor: str) -> Form:
    foes = enemies(fight, actor)
    return Form(f"{fight.roster[actor].name} subdues (PH-14)", (
        Field("target", "whom", "choice", foes[0] if foes else None, required=True,
              options=choices(fight, foes)),
        Field("damage", "the attack's damage", "int", None, required=True, minimum=0),
        Field("dice", "real d6 (blank: the program rolls)", "text", ""),
        phase_field(fight)))


def run_subdue(fight: Fight, actor: str, values: Mapping[str, Any],
               rng: random.Random) -> list[ev.Event]:
    phase = given_phase(fight, values)
    return manoeuvres.subdue(fight, actor, values["target"], int(values["damage"]),
                             phase, manoeuvres.real_dice(values.get("dice")), rng)
