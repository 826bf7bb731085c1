"""A save never grows past what a save may weigh (issue 31, point 4), and a save with a
second name (a hard link) is never written through either (point 7)."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

import referee.session.files as files
import referee.session.store as store
from referee.cli import main
from referee.session.files import LoadError, load_save
from referee.session.store import SaveError, SaveFull, Session
from referee.session.table import Table
from tests.conftest import ROOT


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


def capped(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    """A save may weigh `size` bytes, for reading and for writing alike."""
    monkeypatch.setattr(store, "SAVE_BYTES", size)
    monkeypatch.setattr(files, "SAVE_BYTES", size)
    monkeypatch.setattr(files, "CAPS", {**files.CAPS, "a save": size})


def test_the_cap_is_the_same_for_reading_and_for_writing():
    assert store.SAVE_BYTES == files.SAVE_BYTES == files.CAPS["a save"] == files.MAX_BYTES


def test_an_append_that_would_cross_the_cap_is_refused_and_the_save_still_opens(
        save, monkeypatch):
    with Session.open(save, lock=True) as session:
        table = Table(session, random.Random(1))
        table.note("the first")
        size = save.stat().st_size
        capped(monkeypatch, size + 60)  # room for a short note, not for a long one
        table.note("short")
        kept = save.read_bytes()
        logged = list(session.fight.log)
        with pytest.raises(SaveFull) as refused:
            table.note("a note far too long to fit in what is left of the save")
        assert save.read_bytes() == kept  # nothing written
        assert session.fight.log == logged  # nothing of it kept: the fight goes on
        message = str(refused.value)
        assert f"{save}: this event would take the save past" in message
        assert "nothing was written and the fight goes on" in message
        assert (f"referee party {save} -o party.toml, then referee play NEW.toml --party "
                "party.toml") in message

    assert len(save.read_bytes()) <= size + 60
    assert load_save(save).fight.log == session.fight.log  # every acknowledged save opens


def test_the_advice_works(save, tmp_path, capsys, monkeypatch):
    """`referee party SAVE -o party.toml` then `referee play NEW.toml --party party.toml`:
    the commands the refusal names exist and take those arguments."""
    party = tmp_path / "party.toml"
    assert main(["party", str(save), "-o", str(party)]) == 0
    monkeypatch.setattr("referee.cli.play.open_app", lambda *args, **kwargs: 0)
    assert main(["play", str(tmp_path / "NEW.toml"), "--party", str(party)]) == 0
    assert "combatants joined" in capsys.readouterr().err


def test_a_roster_or_a_save_as_past_the_cap_is_refused(save, tmp_path, monkeypatch):
    from referee.engine.record import replace
    from referee.session.writer import save_text

    with Session.open(save, lock=True) as session:
        capped(monkeypatch, len(save_text(session.encounter, []).encode()))
        kept = save.read_bytes()
        longer = replace(session.encounter, title=session.encounter.title + " and more")
        with pytest.raises(SaveFull, match="this roster would take the save past"):
            session.replace_encounter(longer)
        capped(monkeypatch, len(save_text(session.encounter, []).encode()) - 1)
        with pytest.raises(SaveFull, match="saving it would take the save past"):
            session.save_as(tmp_path / "copy.toml")
        assert not (tmp_path / "copy.toml").exists()
        assert save.read_bytes() == kept


def test_a_save_over_the_cap_is_refused_before_it_is_read(save, capsys):
    with save.open("r+b") as handle:  # sparse: the size is real, the disk is not used
        handle.truncate(files.SAVE_BYTES + 1)
    assert main(["check", str(save)]) == 1
    err = capsys.readouterr().err
    assert f"larger than a save may be ({files.SAVE_BYTES // files.MIB} MiB)" in err


# -- hard links (point 7) ---------------------------------------------------------------


def test_a_save_with_a_second_name_is_refused_for_writing_but_read(save, tmp_path, capsys):
    hard = tmp_path / "hard.toml"
    os.link(save, hard)
    before = save.read_bytes()
    for name in (save, hard):
        with pytest.raises(LoadError, match="has 2 names \\(hard links to one file\\)"):
            Session.open(name, lock=True)
        code = main(["add", str(name), "goblin", "--side", "goblins"])
        err = capsys.readouterr().err
        assert code == 1 and f"{name}: has 2 names" in err and "stale copies" in err, err
        assert main(["plan", str(name)]) == 0  # reading is fine
        capsys.readouterr()
    assert save.read_bytes() == hard.read_bytes() == before
    hard.unlink()
    Session.open(save, lock=True).close()


def test_a_link_made_while_the_save_is_open_stops_every_write(save, tmp_path):
    hard = tmp_path / "hard.toml"
    with Session.open(save, lock=True) as session:
        table = Table(session, random.Random(1))
        table.note("before the link")
        os.link(save, hard)
        kept = save.read_bytes()
        with pytest.raises(SaveError, match="has 2 names .*; this event was not written"):
            table.note("after the link")
        with pytest.raises(SaveError, match="has 2 names .*; the roster was not written"):
            session.replace_encounter(session.encounter)
        with pytest.raises(SaveError, match="has 2 names"):
            session.save_as(save)
        assert save.read_bytes() == hard.read_bytes() == kept  # no copy went stale
        hard.unlink()
        table.note("alone again")
    assert "alone again" in save.read_text()


def test_a_name_with_a_control_character_is_refused_for_writing(tmp_path):
    path = tmp_path / "ford\x1b]0;x\x07.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    with pytest.raises(LoadError, match="its name holds a control character") as refused:
        Session.open(path, lock=True)
    assert "\x1b" not in str(refused.value)
    assert load_save(path).fight is not None


def test_add_past_the_cap_says_so_on_the_command_line(save, capsys, monkeypatch):
    capped(monkeypatch, save.stat().st_size)
    before = save.read_bytes()
    assert main(["add", str(save), "goblin", "--side", "goblins", "--count", "6"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"referee: {save}: this roster would take the save past")
    assert "Traceback" not in err and save.read_bytes() == before
