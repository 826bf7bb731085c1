"""The fold asks a ruleset's hooks only what concerns them: `apply` for the event
classes its fold steps (`Fold.steps`), `effects` and `shapes_plan` only where the
ruleset has its own; each event class's way through the fold is worked out once a
fight. Counted, never timed."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.roles import Fold
from referee.rulesets.demon_idol.fold import STEPS, DemonIdolFold
from referee.session.files import load_save

ROOT = Path(__file__).resolve().parent.parent


def test_demon_idols_fold_is_asked_only_of_the_events_it_steps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: Counter[type] = Counter()
    apply = DemonIdolFold.apply

    def counted(self: DemonIdolFold, fight: Any, state: Any, event: Any) -> Any:
        asked[type(event)] += 1
        return apply(self, fight, state, event)

    monkeypatch.setattr(DemonIdolFold, "apply", counted)
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    fight.refold()  # the demo's log, folded with the hook counted
    stepped = Counter(type(e) for e in fight.events if type(e) in STEPS)
    assert asked == stepped


def test_a_hook_the_ruleset_keeps_as_the_engines_is_not_called(
        monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    effects = Fold.effects

    def counted(self: Fold[Any], fight: Any, event: Any) -> Any:
        called.append(event.TYPE)
        return effects(self, fight, event)

    fight = load_save(ROOT / "saves" / "demo.toml").fight
    assert type(fight.ruleset.fold).effects is Fold.effects  # demon-idol has none
    monkeypatch.setattr(Fold, "effects", counted)  # (the fight worked it out already)
    fight.refold()
    assert called == []


def test_each_event_class_is_routed_once_a_fight(monkeypatch: pytest.MonkeyPatch) -> None:
    routed: list[type] = []
    route = Fight._route

    def counted(self: Fight, cls: Any) -> Any:
        routed.append(cls)
        return route(self, cls)

    monkeypatch.setattr(Fight, "_route", counted)
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    assert sorted(map(str, routed)) == sorted(map(str, {type(e) for e in fight.log}))


def _counted_checks(fight: Fight, cls: type) -> list[Any]:
    """The events the core's check of `cls` is asked of, from now on in `fight`."""
    route = fight._routes.get(cls) or fight._route(cls)
    check, asked = route.check, []

    def counted(self: Fight, event: Any) -> None:
        asked.append(event)
        if check is not None:
            check(self, event)

    route.check = counted
    return asked


def test_an_event_entered_is_checked_once() -> None:
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    asked = _counted_checks(fight, ev.Damage)
    target = next(iter(fight.roster))
    fight.enter(ev.Damage(round=fight.round, target=target, amount=1))
    assert len(asked) == 1  # `enter` checked it; its push takes that word


def test_an_event_entered_changed_is_checked_again_as_pushed() -> None:
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    asked = _counted_checks(fight, ev.Damage)
    target = next(iter(fight.roster))
    fight.enter(ev.Damage(round=fight.round, target=target, amount=1, follows=True))
    assert [e.follows for e in asked] == [True, False]  # pushed as a batch's first


def test_an_event_after_the_rounds_closing_events_is_checked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    fight.enter(ev.NewRound(round=1))  # (the demo has not begun: no round to close)
    asked = _counted_checks(fight, ev.NewRound)
    monkeypatch.setattr(fight.ruleset.fold, "end_of_round",
                        lambda f: [ev.Note(round=f.round, text="closed")])
    fight.enter(ev.NewRound(round=2))
    assert len(asked) == 2  # against the state the closing events left
    assert fight.log[-2].TYPE == "note"
