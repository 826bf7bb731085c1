"""A save told as it loads (`referee replay`, the app's log pane) is folded in the load's
one loop (`Fight.extend`), never pushed event by event, and its chronicle takes one plan
a round, however many events the round holds. A watcher's own fault on an event the
fight refuses gives way to the fight's, as when the checks came first. Counted, never
timed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.rulesets.demon_idol import events as di
from referee.session.files import LoadError, load_save
from referee.session.replay import chronicle, told
from referee.session.writer import save_text

ROOT = Path(__file__).resolve().parent.parent


def long_save(folder: Path, rounds: int, beats: int) -> Path:
    """The demo's fight over `rounds` rounds of declarations, initiative and `beats`
    beats of rolls, damage, heals and resolves each (as benchmarks/session_bench.py)."""
    demo = load_save(ROOT / "saves" / "demo.toml").fight
    fight = Fight(demo.encounter, demo.ruleset)
    rng = random.Random(5)
    ids = list(fight.roster)
    for round_ in range(1, rounds + 1):
        for cid in ids:
            target = rng.choice([o for o in ids if fight.roster[o].side != fight.roster[cid].side])
            fight.enter(di.Declare(round=round_, actor=cid, action=rng.choice("ABCEFG"),
                                   target=(target,)))
        fight.enter(di.Initiative(round=round_, rolls={"party": rng.randint(1, 6),
                                                       "goblins": rng.randint(1, 6)}))
        for beat in range(1, beats + 1):
            die = rng.randint(1, 8)
            fight.enter(ev.Roll(round=round_, expr="1d8", dice=(die,), total=die,
                                purpose="damage"))
            target = rng.choice(ids)
            fight.enter(ev.Damage(round=round_, target=target, amount=rng.randint(0, 2)))
            fight.enter(ev.Heal(round=round_, target=target, amount=2))
            fight.enter(ev.Resolve(round=round_, beat=beat))
        fight.enter(ev.NewRound(round=round_ + 1))
    path = folder / "long.toml"
    path.write_text(save_text(fight.encounter, fight.log))
    return path


def counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of `Fight.push` (an event pushed on its own) and of the planner's plans."""
    counts = {"push": 0, "plan": 0}
    push, plan = Fight.push, Fight.plan

    def pushed(self: Fight, event: Any) -> None:
        counts["push"] += 1
        push(self, event)

    def planned(self: Fight, round_: int | None = None) -> Any:
        counts["plan"] += 1
        return plan(self, round_)

    monkeypatch.setattr(Fight, "push", pushed)
    monkeypatch.setattr(Fight, "plan", planned)
    return counts


@pytest.mark.parametrize("beats", [1, 7])
def test_a_told_load_folds_in_one_loop_and_plans_each_round_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beats: int) -> None:
    path = long_save(tmp_path, rounds=4, beats=beats)
    counts = counting(monkeypatch)
    save, story = told(path)
    assert counts == {"push": 0, "plan": 4}  # one plan a round, not one a resolved beat
    assert len(story.lines) == len(save.fight.log)
    counts.update(push=0, plan=0)
    again = chronicle(save)  # the chronicle of a loaded save: the same, told the same way
    assert counts == {"push": 0, "plan": 4}
    assert again.lines == story.lines


def test_a_watchers_fault_gives_way_to_the_fights_refusal(tmp_path: Path) -> None:
    path = long_save(tmp_path, rounds=1, beats=1)
    text = path.read_text()
    broken = tmp_path / "broken.toml"  # damage to no one in the fight
    damage = '[[events]]\n"type" = "damage"\n"target" = "'
    assert damage in text
    broken.write_text(text.replace(damage, damage + "x", 1))
    with pytest.raises(LoadError) as plain:
        load_save(broken, recover=False)

    class Clumsy:
        """Fails on what the fight refuses (a name it cannot find), as a careless
        teller might."""

        def before(self, fight: Fight, event: Any) -> None:
            if isinstance(event, ev.Damage):
                fight.roster[event.target]  # noqa: B018 - a KeyError for an unknown one

        def after(self, fight: Fight, event: Any) -> None:
            pass

        def done(self, fight: Fight) -> None:
            pass

    with pytest.raises(LoadError) as watched:
        load_save(broken, recover=False, watch=lambda fight: Clumsy())
    assert str(watched.value) == str(plain.value)
    assert "event" in str(plain.value)
