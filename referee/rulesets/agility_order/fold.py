"""agility-order's part of the fold (state.py holds what it keeps): a new round's budgets
and lineup Agility, each event's mark, a hit's damage through armour (AO-11), and what
the rules add: a hit's wound, the battle's end (AO-15)."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.record import replace
from referee.engine.roles import Fold
from referee.engine.view import Fight, Status
from referee.hints import TYPE_CHECKING

from . import events as ao
from . import lineup as lu
from . import state as st
from . import units, wounds
from .planner import Planned
from .settings import Settled
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


class AgilityFold(Settled[State], Planned[State], Fold[State]):
    def start(self, fight: Fight) -> State:
        return State()

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if event.round > state.round:
            state = st.new_round(state, event.round, {cid: units.agility(fight, state, cid)
                                                      for cid in fight.roster})
        if isinstance(event, (ev.Damage, ev.Note)) and event.beat is not None \
                and event.round == fight.round:
            state = self._in_beat(fight, state, event, event.beat)
        state = wounds.folded(fight, state, event)
        step = STEPS.get(type(event))  # one lookup: the fold of a long save runs it for each
        return state if step is None else step(self, fight, state, event)

    def _in_beat(self, fight: Fight, state: State, event: ev.Damage | ev.Note,
                 beat: int) -> State:
        """A hit or a miss recorded in the beat of the turn under way: that turn has
        begun. A hit may have just felled the unit whose turn it is: the turn is looked
        for in the lineup as it stood before the hit (`state` is the fold's before it:
        the hit points it took off)."""
        stood = None
        if isinstance(event, ev.Damage) and event.target not in state.begun:
            target = event.target
            before = fight.status[target].hp + wounds.net(fight, state, event)
            if units.no_turn(fight, target) and not units.no_turn(fight, target, before):
                stood = target  # this hit felled it: it stood a moment ago
        return st.begun(state, self.planner.holder(fight, event.round, beat,
                                                      state.begun, stood))

    def _apply_spend(self, fight: Fight, state: State, event: ao.Spend) -> State:
        later = event.off_turn and f"{event.actor}:turn" in fight.resolved.get(
            event.round, set())
        out = st.spend(state, event.actor, event.aa, event.ma, event.ba, later)
        if event.use in st.BOUGHT:
            out = st.bought(out, event.actor, event.use)
        if event.use == "move" and event.ma:
            out = replace(out, moved={**out.moved, event.actor: event.how or ""})
        if event.mp:
            out = replace(out, mp_spent={**out.mp_spent, event.actor:
                                         out.mp_spent.get(event.actor, 0) + event.mp})
        return out

    def _after_tail(self, fight: Fight, event: ao.Delay) -> tuple[str, ...]:
        """AO-3: the units after `event.after` in the lineup as the delay is made: where
        the delayed unit goes if `after` falls or flees before its turn."""
        if event.after is None:
            return ()
        order = [s.cid for s in lu.lineup(fight, event.round, self.settings.tie_mode).slots]
        return tuple(order[order.index(event.after) + 1:]) if event.after in order else ()

    def shapes_plan(self, event: ev.Event) -> bool:
        """Every event but a roll and a spend may change the plan here, and so does a
        resolve (a turn taken goes first and rolls no tie: those tied with it may be
        ordered by their kept rolls now), a note in a beat (a miss: the turn is under way,
        and stays if its unit falls) and an attack whose chain fells (AO-8, AO-9); a
        plan kept past them (the table's) would tell another unit's turn."""
        if isinstance(event, ev.Note):
            return event.beat is not None
        if isinstance(event, ao.Attack):
            return (event.hit and event.crit >= 3) or (event.fumble >= 3 and event.zone)
        return event.TYPE not in ("roll", "spend")

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> Status:
        """AO-11: a hit entered as damage alone goes through the target's armour."""
        return status.changed(hp=status.hp - wounds.net(fight, self.state(fight), event))

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """AO-11: a hit entered as damage alone that deals 6+ net wounds; AO-15: the
        battle ends when one team has nobody standing."""
        return (wounds.wound_of_hit(fight, event, self.settings.wound_at)
                + self._battle_over(fight, event))

    def _battle_over(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        if fight.ended or event.TYPE not in ("damage", "death", "condition"):
            return []
        sides = units.standing_sides(fight)
        if len(sides) > 1 or len({c.side for c in fight.roster.values()}) < 2:
            return []
        names = [s.name for s in fight.encounter.sides if s.id in sides]
        victors = ", ".join(names) or "nobody"
        return [ev.End(round=max(fight.round, 1),
                       note=f"the battle is over: {victors} stand (AO-15)")]


# -- what each of its events does to the state: one step per event class -------------------


def initiative(fold: AgilityFold, fight: Fight, state: State, event: ao.Initiative) -> State:
    ties = dict(state.ties)
    for cid, value in event.ties.items():
        ties[cid] = ties.get(cid, ()) + (value,)
    return replace(state, ties=ties)


def delay(fold: AgilityFold, fight: Fight, state: State, event: ao.Delay) -> State:
    """Its turn comes later: not under way till then."""
    delayed = (event.actor, event.after, fold._after_tail(fight, event))
    return replace(st.begun(state, event.actor, False), delays=state.delays + (delayed,))


def resolve(fold: AgilityFold, fight: Fight, state: State, event: ev.Resolve) -> State:
    """The turns it resolves are taken, after those taken before them: each keeps the beat
    it was taken in (issue 30 A3). Several at once (an older save's resolve by number) go
    in the order the lineup had them."""
    if event.round != state.round:
        return state  # a turn of a round gone by: the round under way is as it was
    keys = event.actions or tuple(fight.resolved.get(event.round, ()))
    new = {key[:-5] for key in keys if key.endswith(":turn")} - set(state.took)
    if not new:
        return state
    if len(new) > 1:
        slots = fold.planner.lineup(fight, event.round).slots
        at = {s.cid: index for index, s in enumerate(slots)}
        ordered = sorted(new, key=lambda c: (at.get(c, len(at)), c))
    else:
        ordered = list(new)
    return replace(state, took=state.took + tuple(ordered))


def attack(fold: AgilityFold, fight: Fight, state: State, event: ao.Attack) -> State:
    return st.attack(state, event)


def wound(fold: AgilityFold, fight: Fight, state: State, event: ao.Wound) -> State:
    return st.wound(state, event)


def heal(fold: AgilityFold, fight: Fight, state: State, event: ev.Heal) -> State:
    return st.heal(state, event, fold.settings.heal_removes)


def end(fold: AgilityFold, fight: Fight, state: State, event: ev.End) -> State:
    victors = units.victors(fight)
    winners = [cid for cid, c in fight.roster.items() if c.side in victors]
    return st.end(state, tuple(victors), winners)


# Keyed by the event's own class: a heal the core enters as its own, and agility-order's
STEPS: dict[type[ev.Event], Callable[[AgilityFold, Fight, State, Any], State]] = {
    ao.Initiative: initiative,
    ao.Delay: delay,
    ev.Resolve: resolve,
    ao.Spend: AgilityFold._apply_spend,
    ao.Attack: attack,
    ao.Wound: wound,
    ev.Heal: heal,
    ao.Heal: heal,
    ev.End: end,
}
