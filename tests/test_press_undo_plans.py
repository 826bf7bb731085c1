"""A round of many beats checked off and then taken back one undo at a time works out its
plan once (counted, never timed): each undo finds the plan it had, though the round has
more check-offs than the table keeps plans, and each plan is the one worked out afresh."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from referee.engine import Combatant, Encounter, Fight, Weapon
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session import questions
from referee.session.files import load_save
from referee.session.questions import Questions
from tests.test_press_checkpoints import DEMO


def many_beats(size: int = 40, seed: int = 3) -> Fight:
    """Everyone declared, with weapons of every speed, and initiative rolled: a round of
    more beats than the table keeps plans."""
    demo = load_save(DEMO)
    rng = random.Random(seed)
    sides = demo.encounter.sides
    roster = tuple(
        Combatant(f"c{n}", f"Combatant {n}", sides[n % 2].id, 40, 40,
                  stats={"reaction": rng.choice([-1, 0, 1]), "attacks": rng.choice([1, 2])},
                  weapons=(Weapon("sword", damage="1d8",
                                  stats={"speed_factor": rng.randint(1, 9)}),))
        for n in range(size))
    fight = Fight(Encounter("demon-idol", "many beats", seed, sides, roster), demo.ruleset)
    for combatant in roster:
        foes = [c.id for c in roster if c.side != combatant.side]
        fight.enter(di.Declare(round=1, actor=combatant.id, action=rng.choice("ABCEFG"),
                               target=(rng.choice(foes),)))
    fight.enter(di.Initiative(round=1, rolls={s.id: rng.randint(1, 6) for s in sides}))
    return fight


def test_undoing_a_long_rounds_check_offs_works_out_no_plan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fight = many_beats()
    counts: Counter[str] = Counter()
    planned = Fight.plan

    def counted(self: Fight, *args: Any, **kwargs: Any) -> Any:
        counts["plans"] += 1
        return planned(self, *args, **kwargs)

    monkeypatch.setattr(Fight, "plan", counted)
    table = Questions(SimpleNamespace(fight=fight))  # type: ignore[arg-type]
    beats = len(table.plan().beats)
    assert beats > questions.KEPT_PLANS  # more check-offs than plans kept
    seen = [table.plan()]
    while (resolving := table.resolving()) is not None:  # `n`, as the table does it
        fight.enter(resolving)
        seen.append(table.plan())
        # the plan kept is the one worked out afresh (a Plan equals only itself)
        assert repr(seen[-1]) == repr(planned(fight, 1))
    assert len(seen) == beats + 1
    assert counts["plans"] == 1  # each check-off keeps the round's plan
    for back in reversed(seen[:-1]):  # ctrl+z, one check-off at a time
        fight.enter(ev.Undo(round=1))
        assert table.plan() is back
        assert repr(back) == repr(planned(fight, 1))
    assert counts["plans"] == 1  # no undo worked the round's plan out again
    for forth in seen[1:]:  # ctrl+y
        fight.enter(ev.Redo(round=1))
        assert table.plan() is forth
    assert counts["plans"] == 1


def test_the_plans_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many check-offs and rounds, no more than KEPT_KEYS keys and KEPT_PLANS
    distinct plans are held."""
    monkeypatch.setattr(questions, "KEPT_KEYS", 5)
    fight = many_beats()
    table = Questions(SimpleNamespace(fight=fight))  # type: ignore[arg-type]
    while (resolving := table.resolving()) is not None:
        fight.enter(resolving)
        table.plan()
        assert len(table._plans) <= 5
    for round_ in range(2, 2 + 2 * questions.KEPT_PLANS):
        fight.enter(ev.NewRound(round=round_))
        table.plan()
        assert len({id(plan) for plan in table._plans.values()}) <= questions.KEPT_PLANS
