"""An undo's checkpoints share each round's declarations and resolved keys with the state
they were copied from (`FightState.copy`): a fight taken back and brought forward from them
is the fight folded from scratch, and nothing the live state does afterwards changes a
checkpoint (the first change of a shared round copies it)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from referee.engine import Combatant, Encounter, Fight, Weapon
from referee.engine import events as ev
from referee.engine import fight as fight_module
from referee.engine.errors import IllegalEvent
from referee.engine.fight import FightState
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save

DEMO = Path(__file__).resolve().parents[1] / "saves" / "demo.toml"


def snapshot(state: FightState, positions: list[int] | None = None) -> dict[str, Any]:
    """What the state holds, as plain values (copied: a later change cannot reach it);
    with `positions`, the events' indices it holds read as the log's (`Straight`)."""
    at = (lambda index: index) if positions is None else positions.__getitem__
    return {
        "round": state.round, "phase": state.phase, "ended": state.ended,
        "roster": dict(state.roster),
        "status": {cid: vars(s).copy() for cid, s in state.status.items()},
        "initiatives": dict(state.initiatives),
        "initiative_at": {r: at(i) for r, i in state.initiative_at.items()},
        "declarations": {r: [(at(i), d) for i, d in items]
                         for r, items in state.declarations.items()},
        "declared_by": {r: {k: at(i) for k, i in by.items()}
                        for r, by in state.declared_by.items()},
        "resolved": {r: set(keys) for r, keys in state.resolved.items()},
        "ranks": dict(state.ranks), "sides": set(state.sides), "joins": dict(state.joins),
    }


def crowd(rng: random.Random, size: int = 6) -> Fight:
    demo = load_save(DEMO)
    sides = demo.encounter.sides
    roster = tuple(
        Combatant(f"c{n}", f"Combatant {n}", sides[n % 2].id, 9, 9,
                  stats={"reaction": rng.choice([-1, 0, 1])},
                  weapons=(Weapon("sword", damage="1d8", stats={"speed_factor": 5}),))
        for n in range(size))
    return Fight(Encounter("demon-idol", "checkpoints", 1, sides, roster), demo.ruleset)


def step(fight: Fight, rng: random.Random) -> None:
    """One act of a referee at random: declare (again), roll initiative, check off a
    beat, hurt or heal, a new round, or an undo or a redo (some refused: skipped)."""
    ids = [cid for cid in fight.roster if fight.alive(cid)]
    round_ = max(fight.round, 1)
    declared = {d.actor for _, d in fight.declared(round_)}
    pick = rng.random()
    try:
        if pick < 0.35 and ids:
            actor = rng.choice(ids)
            foes = [c for c in fight.roster if fight.roster[c].side != fight.roster[actor].side]
            fight.enter(di.Declare(round=round_, actor=actor, action=rng.choice("ABCEFG"),
                                   target=(rng.choice(foes),),
                                   replaces=actor in declared))
        elif pick < 0.45:
            fight.enter(di.Initiative(round=round_, rolls={
                s.id: rng.randint(1, 6) for s in fight.encounter.sides}))
        elif pick < 0.6:
            fight.enter(ev.Resolve(round=round_, beat=rng.randint(1, 3)))
        elif pick < 0.68:
            fight.enter(ev.Damage(round=round_, target=rng.choice(list(fight.roster)),
                                  amount=rng.randint(0, 3)))
        elif pick < 0.72:
            fight.enter(ev.NewRound(round=round_ + 1))
        elif pick < 0.88:
            fight.enter(ev.Undo(round=round_))
        else:
            fight.enter(ev.Redo(round=round_))
    except IllegalEvent:
        pass
    if rng.random() < 0.3:
        fight.keep_state(every=rng.randint(1, 4))  # as the table does, now and then


def in_effect(log: list[ev.Event]) -> list[tuple[int, ev.Event]]:
    """The events of `log` in effect, each with its index in the log, worked out from the
    log alone: an undo takes back the last batch (an event and those that follow it),
    a redo brings back the last batch taken back, and a new batch forgets what was."""
    effect: list[tuple[int, ev.Event]] = []
    starts: list[int] = []  # where each batch starts in `effect`
    undone: list[list[tuple[int, ev.Event]]] = []
    for index, event in enumerate(log):
        if type(event) is ev.Undo:
            start = starts.pop()
            undone.append(effect[start:])
            del effect[start:]
        elif type(event) is ev.Redo:
            starts.append(len(effect))
            effect += undone.pop()
        else:
            if not event.follows or not starts:
                starts.append(len(effect))
                undone.clear()
            effect.append((index, event))
    return effect


class Straight:
    """The fold from scratch, of the plainest kind: the events in effect pushed in turn
    into a fight of their own, that never undoes, redoes or keeps a checkpoint (so never
    copies a state after its start); its indices are read as the log's. Brought up to
    date by pushing the events new since; folded again from the start when an event it
    holds is no longer in effect (an undo)."""

    def __init__(self, fight: Fight) -> None:
        self.encounter, self.ruleset, self.later = fight.encounter, fight.ruleset, fight.later
        self.start()

    def start(self) -> None:
        self.fight = Fight(self.encounter, self.ruleset)
        self.fight.later = set(self.later)
        self.pairs: list[tuple[int, ev.Event]] = []
        self.positions: list[int] = []

    def follow(self, pairs: list[tuple[int, ev.Event]]) -> Fight:
        if pairs[:len(self.pairs)] != self.pairs:
            self.start()
        for position, event in pairs[len(self.pairs):]:
            self.fight.push(event)
            self.pairs.append((position, event))
            self.positions.append(position)
        return self.fight

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self.fight.state, self.positions)


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 2**32 - 1))
def test_undo_and_redo_from_shared_checkpoints_fold_as_from_scratch(seed: int) -> None:
    """After every step: the events in effect are those the log says (`in_effect`), the
    state and the plan are those of those events folded from scratch (`Straight`), and
    no checkpoint has changed since it was kept; at the end, each checkpoint is the
    straight fold of its first events in effect, and the fight is `at` of its whole log
    (which replays every undo and redo)."""
    rng = random.Random(seed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fight_module, "CHECKPOINT_EVERY", 3)
        fight = crowd(rng)
        straight = Straight(fight)
        kept: dict[int, tuple[FightState, dict[str, Any]]] = {}
        for _ in range(120):
            step(fight, rng)
            for mark, state in fight.checkpoints.items():
                if mark not in kept or kept[mark][0] is not state:
                    kept[mark] = (state, snapshot(state))
                assert snapshot(state) == kept[mark][1], mark  # never changed since
            pairs = in_effect(fight.log)
            assert list(zip(fight.positions, fight.events, strict=True)) == pairs
            fresh = straight.follow(pairs)
            assert snapshot(fight.state) == straight.snapshot()
            assert fight.plan().labels() == fresh.plan().labels()
        # each checkpoint is the fight as it stood with its first `mark` events in
        # effect: those events folded straight
        straight.start()
        marks = sorted(fight.checkpoints)
        assert marks[0] == 0 and marks[-1] <= len(pairs)
        for mark in marks:
            straight.follow(pairs[:mark])
            assert snapshot(fight.checkpoints[mark]) == straight.snapshot(), mark
        whole = fight.at(len(fight.log))
        assert whole.positions == fight.positions and whole.events == fight.events
        assert snapshot(whole.state) == snapshot(fight.state)
        assert whole.plan().labels() == fight.plan().labels()


def test_a_copys_changes_never_reach_the_state_it_was_copied_from() -> None:
    """Both ways: the copy and the original each change a shared round, and neither sees
    the other's change."""
    fight = crowd(random.Random(3))
    fight.enter(di.Declare(round=1, actor="c0", action="A", target=("c1",)))
    fight.enter(ev.Resolve(round=1, actions=("c0:A",)))
    before = snapshot(fight.state)
    checkpoint = fight.state.copy()
    fight.enter(di.Declare(round=1, actor="c2", action="A", target=("c1",)))
    fight.enter(di.Declare(round=1, actor="c0", action="B", target=("c3",), replaces=True))
    fight.enter(ev.Resolve(round=1, actions=("c2:A",)))
    assert snapshot(checkpoint) == before
    after = snapshot(fight.state)
    other = checkpoint.copy()
    fight.state, live = other, fight.state
    fight.enter(di.Declare(round=1, actor="c4", action="C", target=("c1",)))
    fight.enter(ev.Resolve(round=1, actions=("c4:C",)))
    assert snapshot(live) == after and snapshot(checkpoint) == before
