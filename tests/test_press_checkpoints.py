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


def snapshot(state: FightState) -> dict[str, Any]:
    """What the state holds, as plain values (copied: a later change cannot reach it)."""
    return {
        "round": state.round, "phase": state.phase, "ended": state.ended,
        "roster": dict(state.roster),
        "status": {cid: vars(s).copy() for cid, s in state.status.items()},
        "initiatives": dict(state.initiatives), "initiative_at": dict(state.initiative_at),
        "declarations": {r: list(items) for r, items in state.declarations.items()},
        "declared_by": {r: dict(by) for r, by in state.declared_by.items()},
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


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 2**32 - 1))
def test_undo_and_redo_from_shared_checkpoints_fold_as_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fight_module, "CHECKPOINT_EVERY", 3)
        fight = crowd(rng)
        kept: dict[int, tuple[FightState, dict[str, Any]]] = {}
        for _ in range(120):
            step(fight, rng)
            for mark, state in fight.checkpoints.items():
                if mark not in kept or kept[mark][0] is not state:
                    kept[mark] = (state, snapshot(state))
                assert snapshot(state) == kept[mark][1], mark  # never changed since
            fresh = fight.at(len(fight.log))
            assert snapshot(fight.state) == snapshot(fresh.state)
            assert fight.plan().labels() == fresh.plan().labels()
        for mark, state in fight.checkpoints.items():  # each is the fight as it stood
            # with its first `mark` events in effect: the log up to the last of them
            then = fight.at(fight.positions[mark - 1] + 1 if mark else 0)
            assert len(then.events) == mark
            assert snapshot(state) == snapshot(then.state), mark


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
