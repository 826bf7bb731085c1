"""What a replay and a demon-idol plan do, counted (never timed): each event of the log is
told once and looked at again once applied only when it may have changed something the
chronicle keeps; a past round's order is laid out without its actions' keys; a plain
step of a demon-idol round is laid as one beat, without its tie splits or a Counter."""

from __future__ import annotations

import collections
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.engine.plan import Beat
from referee.rulesets.demon_idol import events as di
from referee.session.store import Session
from tests.conftest import ROOT


@pytest.fixture
def fought(tmp_path: Path) -> Path:
    """Two rounds of the demo: declarations, dice, blows and heals, beats resolved."""
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    with Session.open(path) as s:
        for round_ in (1, 2):
            if round_ > 1:
                s.append(ev.NewRound(round=round_))
            s.append(di.Declare(round=round_, actor="brann", action="G", target=("gob1",)))
            s.append(di.Declare(round=round_, actor="gob1", action="B", target=("brann",)))
            s.append(di.Declare(round=round_, actor="mira", action="A", target=("gob2",)))
            s.append(di.Initiative(round=round_, rolls={"party": 5, "goblins": 2}))
            for beat in (1, 2, 3):
                s.append(ev.Roll(round=round_, expr="1d8", dice=(3,), total=3,
                                 purpose="damage"))
                s.append(ev.Damage(round=round_, target="gob2", amount=1))
                s.append(ev.Heal(round=round_, target="gob2", amount=1))
                s.append(ev.Resolve(round=round_, beat=beat))
    return path


def counting(monkeypatch: pytest.MonkeyPatch, cls: type, name: str,
             at: int | None = None) -> list[Any]:
    """Each call of `cls.name` from now on, by its argument `at` (after self; None: the
    arguments)."""
    calls: list[Any] = []
    method = getattr(cls, name)

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(args if at is None else args[at])
        return method(self, *args, **kwargs)

    monkeypatch.setattr(cls, name, counted)
    return calls


def test_a_replay_tells_each_event_once_and_looks_again_only_where_it_must(
        fought, capsys, monkeypatch):
    """The ruleset tells each event once (a resolve written by number twice, the second
    time as kept); once applied, the chronicle looks again only at a resolve (its round's
    plan) and, for the JSON's recap of who fell, at an event that may change a state word
    (a blow, a heal, a new round): a declaration, a roll or the dice are told and done,
    and the text, which has no recap, asks no one's state word."""
    from referee.session.files import load_save
    from referee.session.replay import Chronicler

    log = load_save(fought).fight.log
    tracker = type(load_save(fought).ruleset.tracker)
    told = counting(monkeypatch, tracker, "tell", 1)
    resolved = counting(monkeypatch, Chronicler, "resolved", 1)
    falls = counting(monkeypatch, Chronicler, "falls", 2)
    assert main(["replay", str(fought)]) == 0
    assert "order of round 2:" in capsys.readouterr().out
    # (a resolve written by beat number is told again as the fight kept it: by actions)
    assert [e.TYPE for e in told] == [t for e in log
                                      for t in [e.TYPE] * (2 if e.TYPE == "resolve" else 1)]
    assert len(resolved) == sum(1 for e in log if e.TYPE == "resolve") == 6
    assert falls == []
    assert main(["replay", "--json", str(fought)]) == 0
    assert '"fell"' in capsys.readouterr().out
    assert [e.TYPE for e in falls] == [e.TYPE for e in log
                                       if e.TYPE in ("damage", "heal", "round")]


def test_a_replays_past_orders_are_laid_out_without_keys(fought, capsys, monkeypatch):
    """A past round's order has nothing resolved to look for: no action's key is worked
    out to lay it out, and no row is kept for the app's next drawing."""
    from referee.session import view

    keys = counting(monkeypatch, Beat, "action_keys")
    kept = dict(view._ROWS)
    assert main(["replay", str(fought)]) == 0
    assert main(["export", "--markdown", str(fought)]) == 0
    out = capsys.readouterr().out
    assert "order of round 1:" in out and "**Order**" in out
    assert keys == []
    assert kept == view._ROWS


def test_a_plain_demon_idol_step_is_laid_as_one_beat(fought, monkeypatch):
    """An untied round whose steps have no delay, preparation or failed morale check:
    each step is one beat laid as it is, no tie split asked for and no Counter made."""
    from referee.rulesets.demon_idol.layout import Layout
    from referee.session.files import load_save

    fight = load_save(fought).fight
    splits = counting(monkeypatch, Layout, "keys")
    counters = counting(monkeypatch, collections.Counter, "__init__")
    plan = fight.plan(1)
    assert [a.label() for beat in plan.beats for a in beat.actions] == \
        ["mira:A", "brann:G", "gob1:B"]
    assert splits == [] and counters == []


SCENARIOS = sorted(p for p in (ROOT / "tests" / "scenarios").glob("*/*.toml")
                   if not p.name.endswith(".expect.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_a_past_rounds_rows_are_the_rows_of_its_plan_with_nothing_resolved(path: Path) -> None:
    """A replay's and a recap's rows of a past round's order (`past_rows`, which works out
    neither the actions' keys nor keeps a row) are `plan_rows` of the plan with nothing
    resolved: every round of every scenario, skips, points and notes included."""
    from referee.session.files import load_save
    from referee.session.view import past_rows, plan_rows

    fight = load_save(path).fight
    for round_ in range(1, max(fight.round, 1) + 1):
        plan = fight.plan(round_)
        assert past_rows(plan) == plan_rows(plan, set()), round_
        assert plan_rows(plan, set(), kept=False) == plan_rows(plan, set())
