"""sanctum's fold: what each logged step does to its state and to the minions (the fold
reads the logged results, so a replay never draws again; the minions' wounds and the
combats done are the step's `effects`, which the core stores), the turn's opening every
step is held to (SA-11), and the steps still to log from it."""

from __future__ import annotations

from collections.abc import Callable

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.record import replace
from referee.engine.roles import Fold
from referee.engine.view import Effects, Fight
from referee.hints import TYPE_CHECKING

from . import events as se
from . import stats, turns
from .seeded import Opening
from .settings import Settled
from .state import State, counted

if TYPE_CHECKING:
    from typing import Any, cast
else:
    from referee.hints import Any, cast


class SanctumFold(Settled[State], Fold[State]):
    def start(self, fight: Fight) -> State:
        return State()

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        return self.opened(fight, state, folded(fight, state, event), event)

    def effects(self, fight: Fight, event: ev.Event) -> Effects | None:
        find = EFFECTS.get(type(event))
        return find(fight, event) if find is not None else None

    def opened(self, fight: Fight, before: State, after: State, event: ev.Event) -> State:
        """The turn's opening kept up to date (SA-11): a step keeps it (taking it now if
        none was), any other event before the turn's first step takes it again."""
        same = before.opening is not None and before.opening.turn == fight.round
        if event.TYPE in se.STEPS:
            if same:
                return counted(after, before.logged + 1)
            return replace(after, opening=self.opening_of(fight, before), logged=1)
        if same and before.logged:
            return after  # the turn has begun: its opening stays
        return replace(after, opening=self.opening_of(fight, after), logged=0)

    def opening_of(self, fight: Fight, state: State) -> Opening:
        """The turn's start as `fight` stands now (no simulation yet)."""
        turn = fight.round
        return Opening(turn, turns.roster(self.settings, fight, state), turns.hit_points(fight),
                       list(state.pairs.get(turn, ())), self.rs.schema.reader.types)

    def opening(self, fight: Fight) -> tuple[Opening, int]:
        """The opening of the fight's turn and the steps logged since."""
        state = self.state(fight)
        if state.opening is not None and state.opening.turn == fight.round:
            return state.opening, state.logged
        return self.opening_of(fight, state), 0

    def shapes_plan(self, event: ev.Event) -> bool:
        return event.TYPE in ("combats", "combat", "combat-end", "undo", "redo", "resolve",
                              "death", "damage", "end")  # an end: no combat to come

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """`n` on a pair's beat fights that pair (and logs any skipped pair before it)."""
        if not isinstance(event, ev.Resolve) or not turns.pairs(fight, self.state(fight)):
            return []
        wanted = 0
        for key in event.actions:
            head = key.split("#", 1)
            if len(head) == 2 and head[0].endswith(":combat") and head[1].isdigit():
                wanted = max(wanted, int(head[1]))
        started = self.state(fight).started.get(fight.round, 0)
        if wanted <= started or self.state(fight).current:
            return []
        events, _ = self.pending(fight)
        out: list[ev.Event] = []
        reached = started
        for step in events:
            out.append(step)
            if isinstance(step, se.CombatEnd) or (isinstance(step, se.Combat)
                                                  and step.skipped):
                reached += 1
                if reached >= wanted:
                    break
        return out

    def turn_seed(self, fight: Fight, first: ev.Event | None = None) -> int:
        """The seed of the turn's draws: its first step's (a `combat` event carries it),
        else the save's. `first`: the turn's first step, as it is logged."""
        if first is None:
            return self.state(fight).seeds.get(fight.round, fight.encounter.seed)
        seed = getattr(first, "seed", None)
        return fight.encounter.seed if seed is None else int(seed)

    def pending(self, fight: Fight, seed: int | None = None) -> tuple[list[ev.Event], int]:
        """The steps still to log for the turn's combats (SA-2), and the seed. A turn half
        fought (a fight cut short) goes on from its own seed: the steps logged are the
        first ones it gives (every step is checked as it is logged)."""
        turn = fight.round
        if fight.ended:
            raise IllegalEvent(turns.OVER)
        if not turns.pairs(fight, self.state(fight)):
            raise IllegalEvent(f"turn {max(turn, 1)} lists no combats: add a `combats` event "
                               "(SA-2)")
        opening, done = self.opening(fight)
        if done:
            used = self.turn_seed(fight)
            if seed is not None and seed != used:
                raise IllegalEvent(f"turn {turn} was begun with seed {used}: it goes on with "
                                   f"it (fight a copy of the save made before it with seed "
                                   f"{seed})")
            seed = used
        elif seed is None:
            seed = fight.encounter.seed
        return opening.steps(seed)[done:], seed


def folded(fight: Fight, state: State, event: ev.Event) -> State:
    """What a logged step does to the state."""
    step = STEPS.get(type(event))
    return step(fight, state, event) if step is not None else state


def listed(fight: Fight, state: State, event: se.Combats) -> State:
    return replace(state, pairs={**state.pairs, event.round: event.pairs})


def combat(fight: Fight, state: State, event: se.Combat) -> State:
    turn = event.round
    seeds = state.seeds if event.seed is None else {**state.seeds, turn: event.seed}
    current = () if event.skipped else (event.first or "", other(event))
    return replace(state, started={**state.started, turn: state.started.get(turn, 0) + 1},
                   seeds=seeds, current=current)


def attack(fight: Fight, state: State, event: se.Attack) -> State:
    """SA-9: a recruit that kills is promoted (the victim's wounds: `wounded`)."""
    if event.hit and event.result == "killed" and \
            turns.level(fight, event.attacker, state) == 0:
        return replace(state, promoted={**state.promoted, event.attacker: event.round})
    return state


def combat_end(fight: Fight, state: State, event: se.CombatEnd) -> State:
    done = state.ends.get(event.round, ())
    entry = {"groups": list(event.groups), "rounds": event.rounds, "ended": event.ended}
    return replace(state, current=(), ends={**state.ends, event.round: done + (entry,)})


# Keyed by the event's own class; any other event leaves the state as it is
STEPS: dict[type[ev.Event], Callable[[Fight, State, Any], State]] = {
    se.Combats: listed,
    se.Combat: combat,
    se.Attack: attack,
    se.CombatEnd: combat_end,
}


# -- what a logged step does to the minions and the plan (`SanctumFold.effects`) -------


def wounded(fight: Fight, event: se.Attack) -> Effects | None:
    """A hit takes its damage less what was soaked; a kill leaves the victim dead."""
    if not event.hit:
        return None
    status = fight.status[event.victim]
    hp = status.hp - (event.damage - event.soaked)
    return Effects({event.victim: status.changed(hp=hp, dead=True) if event.result ==
                    "killed" else status.changed(hp=hp)})


def fought_out(fight: Fight, event: se.CombatEnd) -> Effects:
    """A combat over is its pair's beat done, as `n` would have marked it: every
    minion of the two groups."""
    number = cast(State, fight.rs).started.get(event.round, 0)
    return Effects(resolved=frozenset(f"{cid}:combat#{number}"
                                      for cid, c in fight.roster.items()
                                      if stats.group(c) in event.groups))


EFFECTS: dict[type[ev.Event], Callable[[Fight, Any], Effects | None]] = {
    se.Attack: wounded,
    se.CombatEnd: fought_out,
}


def other(event: se.Combat) -> str:
    a, b = event.groups
    return b if event.first == a else a
