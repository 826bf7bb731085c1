"""phases on the command line, played headless: an act whose form names the phase is done
in the phase given (`--phase`), as the form in the app is; what it makes is refused as the
log refuses it, and a unit out of the fight as the app refuses it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.rulesets.phases import events as ph
from referee.session.files import load_save
from tests.conftest import ROOT


def siege(tmp_path: Path) -> Path:
    path = tmp_path / "siege.toml"
    shutil.copyfile(ROOT / "saves" / "phases.toml", path)
    return path


def test_a_later_phase_given_is_the_phase_the_action_is_taken_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The round is at phase 4 (Grusk's); Ironfang 1's phase is 3. Without `--phase` its
    Action is refused for phase 4; with `--phase 3` it is taken there (PH-2), and its
    Move is lost (PH-5)."""
    path = siege(tmp_path)
    assert main(["action", str(path), "--actor", "orc1", "--note", "stabs"]) == 1
    assert "Ironfang 1's phase is 3: in phase 4 it holds no delayed Action" in \
        capsys.readouterr().err
    assert main(["action", str(path), "--actor", "orc1", "--phase", "3",
                 "--note", "stabs"]) == 0
    assert "Ironfang 1 takes its Action in phase 3: stabs" in capsys.readouterr().out
    use = load_save(path).fight.log[-1]
    assert isinstance(use, ph.Use) and (use.actor, use.phase, use.what) == ("orc1", 3, "action")
    assert main(["move", str(path), "--actor", "orc1", "--phase", "3"]) == 1
    assert "Ironfang 1 has no Move: took its Action (PH-5)" in capsys.readouterr().err


def test_a_phase_given_before_the_units_own_is_still_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Redcap 1 (phase 2) cannot act in phase 3: it holds nothing delayed (PH-2, PH-3);
    nothing is written."""
    path = siege(tmp_path)
    before = path.read_text()
    assert main(["action", str(path), "--actor", "gob1", "--phase", "3"]) == 1
    assert "Redcap 1's phase is 2: in phase 3 it holds no delayed Action" in \
        capsys.readouterr().err
    assert path.read_text() == before


def test_a_unit_out_of_the_fight_is_refused_whatever_the_phase(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PH-21: a fled unit takes no Action, in any phase given."""
    path = siege(tmp_path)
    assert main(["status", str(path), "--actor", "orc1", "--name", "fled"]) == 0
    capsys.readouterr()
    before = path.read_text()
    assert main(["action", str(path), "--actor", "orc1", "--phase", "3"]) == 1
    assert "Ironfang 1 is" in capsys.readouterr().err
    assert path.read_text() == before
