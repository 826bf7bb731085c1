"""The table's questions of the round kept across presses (never timed): the round's
declarations are read again only when one is added or the round changes, the beat's hits
and misses only from the events added since; either way the answers are those worked out
afresh, through undos and redos."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as hs

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.rulesets.demon_idol import events as di
from referee.session.questions import Questions
from tests.test_press_checkpoints import crowd


def answers(questions: Questions) -> tuple[Any, ...]:
    return (questions.declared(), questions.undeclared(), questions.recorded(),
            questions.to_record(), questions.working())


def act(fight: Any, rng: random.Random) -> None:
    """Declare, roll initiative, record a hit or a miss in the beat under way, check
    off a beat, a new round, an undo or a redo (some refused: skipped)."""
    round_ = max(fight.round, 1)
    ids = [cid for cid in fight.roster if fight.alive(cid)]
    declared = {d.actor for _, d in fight.declared(round_)}
    beat = Questions(SimpleNamespace(fight=fight)).current_beat()  # type: ignore[arg-type]
    pick = rng.random()
    try:
        if pick < 0.3 and ids:
            actor = rng.choice(ids)
            fight.enter(di.Declare(round=round_, actor=actor, action=rng.choice("ABCEFG"),
                                   target=(rng.choice(list(fight.roster)),),
                                   replaces=actor in declared))
        elif pick < 0.38:
            fight.enter(di.Initiative(round=round_, rolls={
                s.id: rng.randint(1, 6) for s in fight.encounter.sides}))
        elif pick < 0.55:
            fight.enter(ev.Damage(round=round_, target=rng.choice(list(fight.roster)),
                                  amount=rng.randint(0, 2), source=rng.choice(ids or [None]),
                                  beat=beat))
        elif pick < 0.62:
            fight.enter(ev.Note(round=rng.choice([round_, max(round_ - 1, 0)]), text="x",
                                source=rng.choice(ids or [None]), beat=beat))
        elif pick < 0.72:
            fight.enter(ev.Resolve(round=round_, beat=rng.randint(1, 3)))
        elif pick < 0.76:
            fight.enter(ev.NewRound(round=round_ + 1))
        elif pick < 0.9:
            fight.enter(ev.Undo(round=round_))
        else:
            fight.enter(ev.Redo(round=round_))
    except IllegalEvent:
        pass


@settings(max_examples=30, deadline=None)
@given(hs.integers(0, 2**32 - 1))
# a dying actor's action checked off, the plan first read after it (unmarked: it is done),
# then the check-off undone: the plan revision is as before, the mark must come back
@example(561)
def test_kept_answers_are_the_answers_worked_out_afresh(seed: int) -> None:
    rng = random.Random(seed)
    fight = crowd(rng)
    session = SimpleNamespace(fight=fight)
    kept = Questions(session)  # type: ignore[arg-type]
    for _ in range(150):
        act(fight, rng)
        if rng.random() < 0.2:
            fight.keep_state(every=rng.randint(1, 3))
        if rng.random() < 0.5:  # now and then: several events between two readings
            fresh = Questions(SimpleNamespace(fight=fight))  # type: ignore[arg-type]
            assert answers(kept) == answers(fresh)


def test_a_press_that_declares_nothing_reads_no_declarations() -> None:
    """Misses added one by one: the declarations are read once (the same answer kept),
    and the events in effect are read on from where they were read before; a declaration
    added is read."""
    fight = crowd(random.Random(5))
    ids = list(fight.roster)
    for cid in ids[1:]:
        fight.enter(di.Declare(round=1, actor=cid, action="A", target=(ids[0],)))
    fight.enter(di.Initiative(round=1, rolls={s.id: 3 for s in fight.encounter.sides}))
    questions = Questions(SimpleNamespace(fight=fight))  # type: ignore[arg-type]
    assert questions.declared()
    read = questions._declared_now
    beat = questions.current_beat()
    source = questions.acting()[0]
    before = len(fight.events)
    for n in range(10):
        fight.enter(ev.Note(round=1, text=f"miss {n}", source=source, beat=beat))
        assert len(questions.declared()) == len(ids) - 1
        assert questions._declared_now is read  # not read again
        assert len(questions.recorded()) == n + 1
        assert questions._recorded_from is not None
        assert questions._recorded_from[1] == before + n + 1
    fight.enter(di.Declare(round=1, actor=ids[0], action="A", target=(ids[1],)))
    assert ids[0] in questions.declared() and questions._declared_now is not read
