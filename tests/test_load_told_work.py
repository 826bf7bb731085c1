"""A save told as it loads (`referee replay`, the app's log pane) is folded in the load's
one loop (`Fight.extend`), never pushed event by event, and its chronicle takes one plan
a round, however many events the round holds. A watcher's own fault on an event the
fight refuses gives way to the fight's, as when the checks came first. Counted, never
timed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.session.files import LoadError, load_save
from referee.session.replay import chronicle, told
from referee.session.writer import save_text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import session_bench  # noqa: E402


def long_save(folder: Path, rounds: int, beats: int) -> Path:
    """The benchmark's long fight (benchmarks/session_bench.py) over `rounds` rounds of
    `beats` beats each."""
    declarations = len(load_save(ROOT / "saves" / "demo.toml").fight.roster)
    per_round = declarations + 2 + 4 * beats  # the initiative, the next round's start
    fight = session_bench.generated_fight(rounds * per_round, beats=beats)
    assert fight.round == rounds + 1  # every round whole, the next begun
    path = folder / "long.toml"
    path.write_text(save_text(fight.encounter, fight.log))
    return path


def counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of `Fight.push` (an event pushed on its own) and of the planner's plans."""
    counts = {"push": 0, "plan": 0}
    push, plan = Fight.push, Fight.plan

    def pushed(self: Fight, event: Any, checked: bool = False) -> None:
        counts["push"] += 1
        push(self, event, checked)

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
