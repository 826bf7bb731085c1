"""`referee act`: a ruleset's acts on the command line, from the same specs the app shows
as keys and forms (issue 21: one way to act, the CLI renders acts as it renders forms)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.session.files import load_save
from tests.conftest import ROOT


def copy(tmp_path: Path, demo: str) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / demo, path)
    return path


@pytest.mark.parametrize("demo", sorted(p.name for p in (ROOT / "saves").glob("*.toml")
                                        if not p.name.startswith("demo-")))
def test_every_demo_lists_its_acts_and_each_says_what_it_needs(
        demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, demo)
    save = load_save(path)
    assert main(["act", str(path)]) == 0
    out = capsys.readouterr().out
    acts = save.ruleset.acts(save.fight)
    for act in acts:
        line = next(line for line in out.splitlines() if line.startswith(f"{act.id} "))
        assert act.label in line
        assert ("needs --actor ID" in line) == act.needs_actor
    if not acts:
        assert "no acts" in out


def test_an_act_with_its_form_as_options_goes_into_the_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "agility-order.toml")
    before = len(load_save(path).fight.log)
    assert main(["act", str(path), "ties", "--seed", "1"]) == 0
    assert main(["act", str(path), "attack", "--actor", "sable", "--target", "vask",
                 "--d20", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "tie rolls" in out and "Sable the scout's attack at Vask the spearman" in out
    after = load_save(path).fight
    assert len(after.log) > before + 1
    attack = next(e for e in after.log if e.TYPE == "attack")
    assert (attack.actor, attack.target) == ("sable", "vask")


def test_the_options_are_checked_as_the_form_checks_its_fields(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "agility-order.toml")
    text = path.read_bytes()
    assert main(["act", str(path), "ties", "--seed", "1"]) == 0
    text = path.read_bytes()
    assert main(["act", str(path), "attack", "--actor", "sable", "--target", "nobody"]) == 2
    assert "one of" in capsys.readouterr().err
    assert main(["act", str(path), "attack", "--actor", "sable", "--d20", "x"]) == 2
    assert "a whole number" in capsys.readouterr().err
    assert path.read_bytes() == text


@pytest.mark.parametrize(("argv", "words"), [
    (["dance"], "has no act 'dance' (acts: attack, move"),
    (["move"], "Move is done by a combatant: --actor ID (one of sable"),
    (["move", "--actor", "nobody"], "--actor ID (one of sable"),
])
def test_a_wrong_act_or_actor_is_refused_by_name(
        argv: list[str], words: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "agility-order.toml")
    text = path.read_bytes()
    assert main(["act", str(path), *argv]) == 1
    assert words in capsys.readouterr().err
    assert path.read_bytes() == text


def test_a_report_prints_and_writes_nothing(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "sanctum.toml")
    text = path.read_bytes()
    assert main(["act", str(path), "odds"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Odds (SA-11)") and "wins:" in out
    assert path.read_bytes() == text


def test_an_acts_help_shows_its_fields(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "count-up.toml")
    assert main(["act", str(path), "injury", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--target" in out and "--damage" in out
