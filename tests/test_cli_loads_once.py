"""A command-line act and `play` load the save once (counted, never timed): the load that
checks the save and reads the act's options is the one the locked session writes on, as
long as the file still holds what was read; a file changed in between is loaded again,
so nothing written meanwhile is lost."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.app.app import RefereeApp
from referee.app.told import Told
from referee.cli import acts, main
from referee.engine import events as ev
from referee.session import files
from referee.session.files import load_save
from referee.session.store import Session

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The path of every save folded, in turn."""
    folded: list[Path] = []
    load = files._load

    def counted(path: Path, *args: Any) -> Any:
        folded.append(path)
        return load(path, *args)

    monkeypatch.setattr(files, "_load", counted)
    return folded


def demo(tmp_path: Path) -> Path:
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


def test_an_act_folds_the_save_once(tmp_path: Path, loads: list[Path]) -> None:
    path = demo(tmp_path)
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1"]) == 0
    assert loads == [path]
    assert [type(e).__name__ for e in load_save(path).fight.log] == ["Declare"]


def test_a_save_changed_after_it_was_read_is_loaded_again_and_kept(
        tmp_path: Path, loads: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    path = demo(tmp_path)
    reading = acts.reading_table

    def meanwhile(save: Any) -> Any:  # another referee's note lands after the read
        other = Session.open(path, lock=True)
        other.append(ev.Note(round=1, text="meanwhile"))
        other.close()
        return reading(save)

    monkeypatch.setattr(acts, "reading_table", meanwhile)
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1"]) == 0
    assert len(loads) == 3  # read, the other's open, and again under the lock
    log = load_save(path).fight.log
    assert [type(e).__name__ for e in log] == ["Note", "Declare"]


def test_an_output_copy_is_not_the_save_read(tmp_path: Path, loads: list[Path]) -> None:
    path, copy = demo(tmp_path), tmp_path / "copy.toml"
    before = path.read_bytes()
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1",
                 "-o", str(copy)]) == 0
    assert loads == [path, copy]  # the act run on the read fight, the copy opened afresh
    assert path.read_bytes() == before
    assert [type(e).__name__ for e in load_save(copy).fight.log] == ["Declare"]


def test_the_app_given_the_checked_save_folds_it_no_more(tmp_path: Path,
                                                        loads: list[Path]) -> None:
    path = demo(tmp_path)
    told = Told()
    save = load_save(path, watch=told.watch)
    app = RefereeApp(path, tmp_path, read=(save, told))
    try:
        assert loads == [path]
        assert app.session.fight is save.fight
        assert app.told is not None and len(app.told) == len(save.fight.log)
    finally:
        app.session.close()


def test_the_app_loads_a_save_changed_since_it_was_checked(tmp_path: Path,
                                                          loads: list[Path]) -> None:
    path = demo(tmp_path)
    told = Told()
    save = load_save(path, watch=told.watch)
    other = Session.open(path, lock=True)
    other.append(ev.Note(round=1, text="meanwhile"))
    other.close()
    app = RefereeApp(path, tmp_path, read=(save, told))
    try:
        assert app.session.fight is not save.fight
        assert [type(e).__name__ for e in app.session.fight.log] == ["Note"]
        assert app.told is not None and len(app.told) == 1  # told by the second load
    finally:
        app.session.close()
