"""The log's sentences read as a referee would say them (issue 30, B24)."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.cli import main
from referee.engine import events as ev
from referee.session.files import load_save
from referee.session.replay import tell_condition, tell_roll
from tests.conftest import ROOT

OWN = """format = "referee-catalogue"
version = 1
ruleset = "demon-idol"
kind = "monsters"

[[entries]]
name = "captain"
hit_dice = 2
hp = "2d8"
ac = 4
weapons = [{ name = "long sword", damage = "1d8", speed_factor = 5 }]
"""


def demo(tmp_path: Path, name: str = "demo.toml") -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / name, path)
    return path


def test_a_roll_nobody_made_is_the_referees(tmp_path: Path) -> None:
    fight = load_save(demo(tmp_path)).fight
    told = tell_roll(fight, ev.Roll(round=1, expr="1d8", dice=(5,), total=5,
                                    purpose="healing for Mira"))
    assert told == "the referee rolls 1d8 for healing for Mira: [5] = 5"


def test_a_condition_counts_its_rounds_in_words(tmp_path: Path) -> None:
    fight = load_save(demo(tmp_path)).fight
    told = [tell_condition(fight, ev.Condition(round=1, target="brann", name="blinded",
                                               duration=n)) for n in (1, 2)]
    assert told == ["Brann the fighter is blinded for 1 round",
                    "Brann the fighter is blinded for 2 rounds"]


def test_one_monster_alone_has_no_number_and_the_next_does(tmp_path: Path) -> None:
    save, own = demo(tmp_path), tmp_path / "mine.monsters.toml"
    own.write_text(OWN)
    for _ in range(2):
        assert main(["add", str(save), "captain", "--side", "guards", "--seed", "2",
                     "--file", str(own)]) == 0
    roster = load_save(save).fight.roster
    assert (roster["captain1"].name, roster["captain2"].name) == ("Captain", "Captain 2")


def test_the_count_up_demos_wolves_bite() -> None:
    fight = load_save(ROOT / "saves" / "count-up.toml").fight
    wolves = [c for c in fight.roster.values() if c.side == "wolves"]
    assert wolves and all(w.weapons[0].name == "bite" for w in wolves)


def test_segments_are_counted_in_words() -> None:
    from referee.rulesets.demon_idol.wording import segments

    assert (segments(1), segments(3)) == ("1 segment", "3 segments")


def test_counted_says_one_or_many() -> None:
    from referee.engine.words import counted

    assert [counted(n, "shot") for n in (0, 1, 2)] == ["0 shots", "1 shot", "2 shots"]
    assert counted(3, "action") == "3 actions" and counted(1, "wound") == "1 wound"


def test_no_message_says_a_word_with_an_s_in_brackets() -> None:
    import ast
    import re

    found = [f"{path}:{node.lineno}" for path in (ROOT / "referee").rglob("*.py")
             for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Constant) and isinstance(node.value, str)
             and re.search(r"[a-z]\(s\)", node.value)]
    assert found == []


def test_a_turn_with_one_combat_lists_one_combat(tmp_path: Path) -> None:
    from referee.rulesets.sanctum import events as se
    from referee.rulesets.sanctum.log_lines import tell

    fight = load_save(demo(tmp_path, "sanctum.toml")).fight
    told = tell(fight, se.Combats(round=1, pairs=(("a", "b"),)))
    assert told == "Turn 1: 1 combat listed: a vs b (SA-2)"


def test_check_counts_events_in_words() -> None:
    from types import SimpleNamespace

    from referee.cli.reading import events_said

    one = SimpleNamespace(log=[object()], events=[object()])
    many = SimpleNamespace(log=[object()] * 3, events=[object()] * 3)
    assert (events_said(one), events_said(many)) == ("1 event", "3 events")
