"""The recap (`referee export --markdown`, the JSON's rounds): each round still in effect
once and in order, what is still in effect only, and who fell, by name."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.session.files import load_save
from referee.session.replay import chronicle, describe
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT


def fresh(tmp_path: Path) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


def a_round(table: Table, target: str, damage: int | None) -> None:
    table.declare("brann", "G", weapon="long sword", target=target)
    table.enter_initiative({"party": 5, "goblins": 2})
    table.resolve_next()
    if damage is not None:
        table.damage(target, damage, source="brann")


@pytest.fixture
def undone_across_rounds(tmp_path: Path) -> Path:
    """Played to round 4, undone back into round 3 and played on to round 4 again."""
    path = fresh(tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        a_round(table, "gob1", 1)
        table.next_round()
        a_round(table, "gob1", 1)
        table.next_round()
        a_round(table, "gob2", 1)
        table.next_round()
        a_round(table, "gob3", 2)  # round 4, then taken back whole
        while table.round == 4:
            table.undo()
        table.damage("ogre", 3, source="brann")  # round 3 again
        table.next_round()
        a_round(table, "shaman", 4)  # round 4 again
    return path


def export(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["export", str(path), "--markdown"]) == 0
    return capsys.readouterr().out


def section(markdown: str, number: int) -> str:
    return markdown.split(f"## Round {number}\n", 1)[1].split("\n## ", 1)[0]


def test_the_recap_tells_each_round_once_in_order_after_an_undo_across_rounds(
        undone_across_rounds, capsys):
    out = export(undone_across_rounds, capsys)
    assert re.findall(r"^## .*", out, re.MULTILINE) == [
        "## Round 1", "## Round 2", "## Round 3", "## Round 4"]
    three, four = section(out, 3), section(out, 4)
    assert "**Initiative:** The party 5, Goblins 2" in three
    assert "declares G (long sword) at Goblin 2" in three and "**Order**" in three
    assert "Goblin 2 takes 1 damage" in three and "The ogre takes 3 damage" in three
    assert "declares G (long sword) at Goblin shaman" in four and "**Order**" in four
    assert "Goblin shaman takes 4 damage" in four
    assert "Goblin 3" not in out  # round 4 as first played was undone
    assert "undo" not in out


def test_the_recap_plan_is_the_one_still_in_effect(undone_across_rounds):
    story = chronicle(load_save(undone_across_rounds))
    assert [r.number for r in story.rounds] == [1, 2, 3, 4]
    four = story.rounds[-1]
    assert four.plan is not None and four.plan_at in four.kept  # not the undone round 4's
    assert [a.actor for beat in four.plan.beats for a in beat.actions] == ["brann"]


def test_a_round_undone_whole_is_left_out_of_the_recap(tmp_path, capsys):
    path = fresh(tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        a_round(table, "gob1", 1)
        table.next_round()
        table.declare("brann", "G", weapon="long sword", target="gob2")
        while table.round == 2:
            table.undo()
    out = export(path, capsys)
    assert re.findall(r"^## .*", out, re.MULTILINE) == ["## Round 1"]
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["round"] for r in data["rounds"]] == [1]


# -- who fell ----------------------------------------------------------------------------


def test_the_recap_names_who_went_down_dying_or_dead(tmp_path, capsys):
    path = fresh(tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        a_round(table, "gob1", 15)  # Goblin 1 to -10 hit points: dead (DI-19)
        table.damage("brann", 15, source="ogre")  # to -1: dying
        table.damage("gob2", 4, source="brann")  # to 0: down
        table.damage("zed", 3, source="gob3")  # hurt, still up: not fallen
        table.damage("mira", 20, source="ogre")
        table.undo()  # taken back: Mira did not fall
        table.next_round()
        table.damage("gob2", 1, source="brann")  # from down to dying: worse, so a fall
        table.heal("brann", 2)  # from dying to fine: not a fall
    out = export(path, capsys)
    assert ("**Fell:** Goblin 1 (dead), Brann the fighter (dying), Goblin 2 (down)"
            in section(out, 1))
    assert "**Fell:** Goblin 2 (dying)" in section(out, 2)
    assert "Mira" not in out
    assert main(["replay", str(path), "--json"]) == 0
    rounds = json.loads(capsys.readouterr().out)["rounds"]
    assert rounds[0]["fell"] == ["Goblin 1 (dead)", "Brann the fighter (dying)",
                                 "Goblin 2 (down)"]


def test_a_round_where_no_one_fell_says_nobody(tmp_path, capsys):
    path = fresh(tmp_path)
    with Session.open(path) as session:
        a_round(Table(session, random.Random(1)), "ogre", 5)
    assert "**Fell:** nobody" in export(path, capsys)


# -- names, not ids ------------------------------------------------------------------------


def test_core_tellers_name_sides_and_combatants_not_ids():
    fight = load_save(ROOT / "saves" / "demo.toml").fight
    assert describe(fight, ev.Surprise(round=1, surprised=("goblins",))) == (
        "surprise: Goblins surprised")
    assert describe(fight, ev.Morale(round=1, group=("goblins",))) == (
        "morale check due for Goblins (DI-18)")
    assert describe(fight, ev.Morale(round=1, group=("gob1", "gob2"), roll=9, target=7,
                                     passed=False, avoid="flee")) == (
        "morale for Goblin 1, Goblin 2: 9 vs 7: breaks and will flee")
