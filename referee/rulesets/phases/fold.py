"""phases' fold: its state at the start, what each event does to it (changes.py holds
the steps), and the events the rules add: Calm broken, surrenders (PH-10), decay
(PH-17)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine import roles
from referee.engine.model import Combatant
from referee.engine.record import replace
from referee.engine.view import Effects, Fight, Status
from referee.hints import TYPE_CHECKING

from . import events as ph
from . import squads, stats
from .changes import (
    OUT_NAMES,
    apply_hits,
    apply_join,
    apply_manoeuvre,
    apply_order,
    apply_out,
    apply_regroup,
    decayed,
    delay_pos,
    elite_hits,
    with_condition,
)
from .rounds import BOTH, STATUSES, Op, RoundLog, Start, added, phase_order
from .settings import Settled
from .standing import bound, croaked, now_pos, roll, statuses
from .state import State, carried

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class Fold(Settled[State], roles.Fold[State]):
    SHAPING = frozenset({"use", "delay", "condition", "order", "regroup", "manoeuvre",
                         "surrender", "join", "death", "damage", "decay", "end"})

    def start(self, fight: Fight) -> State:
        encounter = fight.encounter
        table = squads.squads_of(encounter)
        member = {cid: sid for sid, s in table.items() for cid in s.members}
        out = {cid: (0, "croaked") for cid, s in fight.status.items() if s.dead or s.hp <= 0}
        fighting = frozenset(cid for cid in fight.roster if cid not in out)
        order = phase_order([stats.combat(fight.roster[c]) for c in fighting],
                            self.settings.up)
        opening = {c.id: Start(held=BOTH) for c in encounter.combatants
                   if stats.defending(encounter.side(c.side)) and c.id in fighting}  # PH-4
        log = RoundLog(1, order, fighting, opening, delaying=squads.delaying(table))
        return State(log, {}, table, member, out=out, bound=bound(fight))

    def entering(self, combatant: Combatant, status: Status) -> Status:
        return elite_hits(combatant, status.changed(marks={"fatigue": 0}))

    def effects(self, fight: Fight, event: ev.Event) -> Effects | None:
        if type(event) is ph.Decay:  # PH-17: the Hits it takes, before who croaked is seen
            return Effects({event.target: decayed(fight, event)})
        return None

    def new_round(self, fight: Fight, state: State) -> State:
        while state.now.round < fight.round:
            state = roll(fight, state, self.settings.up)
        return state

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        step = STEPS.get(type(event))  # one lookup: the fold of a long save runs it for each
        if step is None:
            return state
        return step(fight, state, event, state.seq + 1)

    def steps(self, kind: type[ev.Event]) -> bool:
        return kind in STEPS

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> Status:
        marks = status.marks
        fatigue = marks.get("fatigue", 0)
        if getattr(event, "fatigue", False):
            return status.changed(marks={**marks, "fatigue": fatigue + event.amount})  # PH-14
        return status.changed(hp=status.hp - event.amount - fatigue,  # Fatigue into lost Hits
                              marks={**marks, "fatigue": 0})

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        out: list[ev.Event] = []
        round_ = max(fight.round, 1)
        # PH-10: any attack breaks the Calm, a subdue's (Fatigue, PH-14) too
        if isinstance(event, ev.Damage) and "calm" in statuses(fight, event.target):
            out.append(ph.Condition(round=round_, target=event.target, name="calm", on=False))
        # a round's or the fight's end follows its decay (PH-17), which may croak the last
        # unit of a side that kept it from surrendering
        if isinstance(event, (ev.Condition, ev.Damage, ev.Death, ph.Decay, ev.NewRound,
                              ev.End)):
            trial = fight.copy() if out else fight
            if out:
                for extra in out:
                    trial.push(extra)
            out += [ph.Surrender(round=round_, side=side) for side in self.surrendering(trial)]
        return out

    def surrendering(self, fight: Fight) -> list[str]:
        """PH-10: sides whose units are all Calm, Incapacitated or croaked (unless
        Constructs or Uncroaked), not yet surrendered."""
        state = self.state(fight)
        out = []
        for side in fight.encounter.sides:
            if side.id in state.surrendered:
                continue
            units = [cid for cid, c in fight.roster.items() if c.side == side.id]
            if not units:
                continue
            standing = [cid for cid in units if not croaked(fight, cid)]
            if any(stats.has(fight.roster[cid], "Construct")
                   or stats.uncroaked(fight.roster[cid]) for cid in standing):
                continue
            if all({"calm", "incapacitated"} & set(statuses(fight, cid))
                   for cid in standing):
                out.append(side.id)
        return out

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        """PH-17: every Uncroaked unit decays; every third turn the extended decay as well
        as the normal one (that turn -2 Combat, -2 Defense, -5 Hits)."""
        out: list[ev.Event] = []
        s = self.settings
        extended = fight.round % s.decay_every == 0
        for cid, c in fight.roster.items():
            if stats.uncroaked(c) and not croaked(fight, cid):
                out.append(ph.Decay(round=fight.round, target=cid, combat=1, defense=1,
                                    hits=s.decay_hits))
                if extended:
                    out.append(ph.Decay(round=fight.round, target=cid, combat=1, defense=1,
                                        hits=s.extended_hits, extended=True))
        return out


# -- what each event does to the state: one step per event class ------------------------


def use(fight: Fight, state: State, event: ph.Use, seq: int) -> State:
    log = state.now
    op = Op(log.pos(event.phase) or 0, seq, "use", event.what, engaged=event.engaged)
    return replace(state, now=added(log, event.actor, op), seq=seq,
                   memo=carried(state, event.actor))


def delay(fight: Fight, state: State, event: ph.Delay, seq: int) -> State:
    op = Op(delay_pos(fight, state.now, event.actor), seq, "delay", keep=frozenset(event.keep))
    return replace(state, now=added(state.now, event.actor, op, reach=False), seq=seq,
                   memo=carried(state, event.actor))


def condition(fight: Fight, state: State, event: ph.Condition, seq: int) -> State:
    if event.name in OUT_NAMES:
        return apply_out(fight, state, event.target, event.name, event.on)
    if event.name not in STATUSES:
        return state
    return replace(state, now=with_condition(state.now, event, seq), seq=seq,
                   memo=carried(state, event.target))


def order(fight: Fight, state: State, event: ph.Order, seq: int) -> State:
    return apply_order(fight, state, event)


def regroup(fight: Fight, state: State, event: ph.Regroup, seq: int) -> State:
    return apply_regroup(fight, state, event, seq)


def manoeuvre(fight: Fight, state: State, event: ph.Manoeuvre, seq: int) -> State:
    return apply_manoeuvre(fight, state, event, seq)


def decay(fight: Fight, state: State, event: ph.Decay, seq: int) -> State:
    com, dfn = state.decay.get(event.target, (0, 0))  # its Hits: `effects`
    return apply_hits(fight, state, event.target, decay={
        **state.decay, event.target: (com + event.combat, dfn + event.defense)})


def surrender(fight: Fight, state: State, event: ph.Surrender, seq: int) -> State:
    state = replace(state, surrendered=state.surrendered + (event.side,))
    for cid, c in fight.roster.items():  # PH-21: the whole side is out
        if c.side == event.side and cid not in state.out:
            state = apply_out(fight, state, cid, "surrendered", True)
    return replace(state, memo=carried(state))


def join(fight: Fight, state: State, event: ev.Join, seq: int) -> State:
    if event.combatant is None:
        return state
    return apply_join(fight, state, event.combatant.id)


def end(fight: Fight, state: State, event: ev.End, seq: int) -> State:
    """The tracker and the plan read the round as it ended."""
    return replace(state, over=max(fight.round, 1), over_at=now_pos(fight),
                   memo=carried(state))


def hits(fight: Fight, state: State, event: ev.Event, seq: int) -> State:
    """Damage, a death or healing: who stands, and so who can act, may change."""
    return apply_hits(fight, state, getattr(event, "target", ""))


# Keyed by the event's own class (a subclass is listed itself: phases' Damage beside the
# core's); an event not here leaves the state as it is. phases' Condition is its own
# (stun, immobilized ... PH-10); the core's condition changes nothing here.
STEPS: dict[type[ev.Event], Callable[[Fight, State, Any, int], State]] = {
    ph.Use: use,
    ph.Delay: delay,
    ph.Condition: condition,
    ph.Order: order,
    ph.Regroup: regroup,
    ph.Manoeuvre: manoeuvre,
    ph.Decay: decay,
    ph.Surrender: surrender,
    ev.Join: join,
    ev.End: end,
    ev.Damage: hits,
    ph.Damage: hits,
    ev.Death: hits,
    ev.Heal: hits,
}
