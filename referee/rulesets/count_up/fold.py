"""count-up's part of the fold: base initiative kept for the whole combat (CU-2), the
combat injuries suffered (CU-9), who died when (CU-4, CU-8) and the fight's surprise
(CU-1); and what damage and healing do to Stress and Wound Points (CU-7, CU-8)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.model import Combatant
from referee.engine.record import field, record, replace
from referee.engine.roles import Fold
from referee.engine.view import Effects, Fight, Status
from referee.hints import TYPE_CHECKING

from . import events as cu
from . import morale, stats
from .conditions import condition

if TYPE_CHECKING:
    from typing import Any, cast
else:
    from referee.hints import Any, cast


@record(frozen=True)
class State:
    """count-up's part of the fold: base initiative, kept for the whole combat (CU-2),
    and the combat injuries each combatant has suffered (CU-9)."""

    base: dict[str, int]
    injuries: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # who has died, in which round, and the planned actions done when it did: one slain
    # while its own beat is under way still acts in it (CU-4: double knock-outs happen)
    died: dict[str, tuple[int, frozenset[str]]] = field(default_factory=dict)
    # the fight's surprise, the last one logged: who does not act in round 1 (CU-1)
    surprise: ev.Surprise | None = None


class CountUpFold(Fold[State]):
    SHAPING = Fold.SHAPING | {"surprise", "morale"}

    def start(self, fight: Fight) -> State:
        return State({}, {})

    def entering(self, combatant: Combatant, status: Status) -> Status:
        # big hits taken, and how many of them (and by how much it was outnumbered) its
        # last morale check already answered: a check is not asked for twice (CU-6);
        # `stable`: stabilised by a Heal check (CU-8), a mark the tracker watches
        return status.changed(marks={
            "stress": stats.stress(combatant), "wounds": stats.wound_points(combatant),
            "big_hit_round": 0, "big_hits": 0, "checked_hits": 0, "checked_margin": 0,
            "broke": False, "largest_wound": 0, "stable": False})

    def effects(self, fight: Fight, event: ev.Event) -> Effects | None:
        """A morale check made settles what it answers (CU-6)."""
        if not isinstance(event, ev.Morale) or event.passed is None:
            return None
        return Effects({cid: morale.settled(fight, cid, event.passed)
                        for cid in fight.members(event.group)})

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        return self.deaths(fight, self.folded(fight, state, event), event)

    def folded(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, ev.Surprise):
            return replace(state, surprise=event)  # CU-1
        step = FOLDS.get(type(event))  # one lookup: the fold of a long save runs it for each
        # an end wipes initiative (CU-10): `base` is the one in force
        return state if step is None else step(fight, state, event)

    def deaths(self, fight: Fight, state: State, event: ev.Event) -> State:
        """A death (an event, or damage to minus Strength) noted with what was done of
        the round's plan then (CU-4, CU-8)."""
        target = getattr(event, "target", None)
        if not isinstance(event, (ev.Death, ev.Damage)) or target in state.died \
                or target not in fight.roster:
            return state
        if condition(fight.roster[target], fight.status[target]) != "dead":
            return state
        done = frozenset(fight.resolved.get(event.round, ()))
        return replace(state, died={**state.died, target: (event.round, done)})

    @staticmethod
    def base_initiative(fight: Fight, event: cu.Initiative) -> dict[str, int]:
        base = {}
        for cid, combatant in fight.roster.items():
            group = stats.group(combatant)
            if cid in event.base:
                base[cid] = event.base[cid]
            elif group and group in event.base:
                base[cid] = event.base[group]
        return base

    def base(self, fight: Fight) -> dict[str, int]:
        """The base initiative in force (`base`: the roles read it there)."""
        return base(fight)

    def rolled(self, fight: Fight) -> dict[str, int]:
        """The base initiative rolled for this combat (`rolled`)."""
        return rolled(fight)

    # -- damage, dying and death ---------------------------------------------------

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> Status:
        marks = dict(status.marks)
        amount = event.amount
        if not event.critical:
            soaked = min(marks["stress"], amount)
            marks["stress"] -= soaked
            amount -= soaked
        marks["wounds"] -= amount
        marks["largest_wound"] = max(marks["largest_wound"], amount)  # its TN (CU-8)
        if amount * 2 > status.max_hp and event.note is None:
            marks["big_hit_round"] = event.round
            marks["big_hits"] += 1
        return status.changed(hp=marks["wounds"], marks=marks)

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        if not isinstance(event, ev.Damage):
            return []
        combatant, status = fight.roster[event.target], fight.status[event.target]
        if not status.dead and status.marks["wounds"] <= -stats.strength(combatant):
            return [ev.Death(round=event.round, target=event.target,
                             cause=f"{status.marks['wounds']} Wound Points, Strength "
                                   f"{stats.strength(combatant)} (CU-8)")]
        return []

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        out: list[ev.Event] = []
        for cid, status in fight.status.items():
            combatant = fight.roster[cid]
            if condition(combatant, status) != "dying" or status.marks["stable"]:
                continue
            out.append(ev.Damage(round=fight.round, target=cid, amount=1, critical=True,
                                 note="dying: 1 Wound Point at the end of the round (CU-8)"))
            if status.marks["wounds"] - 1 <= -stats.strength(combatant):
                out.append(ev.Death(round=fight.round, target=cid, cause="died of wounds (CU-8)"))
        return out


def state_of(fight: Fight) -> State:
    """count-up's state as the fight's fold has it now (held untyped there)."""
    return cast(State, fight.rs)


def base(fight: Fight) -> dict[str, int]:
    """The base initiative in force: none once the fight has ended (CU-10)."""
    return {} if fight.ended else state_of(fight).base


def rolled(fight: Fight) -> dict[str, int]:
    """The base initiative rolled for this combat, wiped or not: the order of its
    rounds as they were fought."""
    return state_of(fight).base


# -- what each of its events does to the state: one step per event class -------------------


def initiative(fight: Fight, state: State, event: cu.Initiative) -> State:
    return replace(state, base={**state.base, **CountUpFold.base_initiative(fight, event)})


def join(fight: Fight, state: State, event: cu.Join) -> State:
    if event.base is None or not event.combatant:
        return state
    return replace(state, base={**state.base, event.combatant.id: event.base})


def injury(fight: Fight, state: State, event: cu.Injury) -> State:
    if not event.injury:  # blank: none (CU-9)
        return state
    had = state.injuries.get(event.target, ())
    return replace(state, injuries={**state.injuries, event.target: had + (event.injury,)})


# Keyed by the event's own class (the surprise is CountUpFold.folded's own)
FOLDS: dict[type[ev.Event], Callable[[Fight, State, Any], State]] = {
    cu.Initiative: initiative,
    cu.Join: join,
    cu.Injury: injury,
}
