"""Nothing the referee saved is written over (issue 24 A.1): every command with an output
path refuses its own input (by name, symlink, hard link or `..`), refuses an existing
file unless --force, and writes through a temporary file renamed into place."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

import pytest

from referee import cli
from referee.cli import main
from referee.engine.options import acts_of
from referee.session.output import OutputRefused, claim, write_output
from referee.session.store import SaveError, Session
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "demo.toml"
SANCTUM = ROOT / "saves" / "sanctum.toml"


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "ford.toml"
    shutil.copy(DEMO, path)
    return path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def same_names(save: Path) -> dict[str, Path]:
    """The save named four ways: itself, a symlink, a hard link, and through `..`."""
    link = save.with_name("link.toml")
    link.symlink_to(save)
    hard = save.with_name("hard.toml")
    os.link(save, hard)
    (save.parent / "sub").mkdir()
    return {"name": save, "symlink": link, "hard link": hard,
            "dotdot": save.parent / "sub" / ".." / save.name}


def no_temporary_left(folder: Path) -> None:
    assert not [p for p in folder.rglob("*.tmp")], list(folder.rglob("*"))


@pytest.mark.parametrize("force", [False, True])
def test_export_never_writes_over_its_own_save(save, capsys, force):
    before = save.read_bytes()
    for way, target in same_names(save).items():
        argv = ["export", str(save), "--markdown", "-o", str(target)] + (
            ["--force"] if force else [])
        code, out, err = run(argv, capsys)
        assert code == 1, way
        assert "which this reads" in err and "nothing was written" in err, (way, err)
        assert "Traceback" not in err
        assert save.read_bytes() == before, way
    no_temporary_left(save.parent)


def test_export_refuses_an_existing_file_unless_forced(save, tmp_path, capsys):
    other = tmp_path / "notes.md"
    other.write_text("my campaign notes\n")
    code, _, err = run(["export", str(save), "--markdown", "-o", str(other)], capsys)
    assert code == 1 and "exists; --force replaces it" in err
    assert other.read_text() == "my campaign notes\n"
    code, out, _ = run(["export", str(save), "--markdown", "-o", str(other), "--force"], capsys)
    assert code == 0 and out == f"wrote {other}\n"
    assert other.read_text().startswith("# Goblins at the ford")
    no_temporary_left(tmp_path)


def test_export_to_a_new_file_writes_it(save, tmp_path, capsys):
    target = tmp_path / "recap.md"
    assert run(["export", str(save), "--markdown", "-o", str(target)], capsys)[0] == 0
    assert target.read_text().startswith("# Goblins at the ford")


def test_export_refuses_what_is_not_a_regular_file(save, tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (folder, fifo, Path("/dev/null")):
        code, _, err = run(["export", str(save), "--markdown", "-o", str(target), "--force"],
                           capsys)
        assert code == 1 and "not a regular file" in err, (target, err)


def test_a_dangling_symlink_is_refused(save, tmp_path, capsys):
    dangling = tmp_path / "gone.md"
    dangling.symlink_to(tmp_path / "nowhere.md")
    code, _, err = run(["export", str(save), "--markdown", "-o", str(dangling)], capsys)
    assert code == 1 and "missing file" in err
    assert dangling.is_symlink() and not (tmp_path / "nowhere.md").exists()


@pytest.fixture
def sanctum(tmp_path: Path) -> Path:
    path = tmp_path / "sanctum.toml"
    shutil.copy(SANCTUM, path)
    return path


@pytest.mark.parametrize("force", [False, True])
def test_fight_never_writes_over_its_own_save(sanctum, capsys, force):
    before = sanctum.read_bytes()
    for way, target in same_names(sanctum).items():
        argv = ["fight", str(sanctum), "--seed", "7", "-o", str(target)] + (
            ["--force"] if force else [])
        code, _, err = run(argv, capsys)
        assert code == 1 and "which this reads" in err, (way, err)
        assert sanctum.read_bytes() == before, way
    no_temporary_left(sanctum.parent)


def test_fight_refuses_an_existing_run_unless_forced(sanctum, tmp_path, capsys):
    run_file = tmp_path / "run.toml"
    run_file.write_text("a run I kept\n")
    code, _, err = run(["fight", str(sanctum), "--seed", "7", "-o", str(run_file)], capsys)
    assert code == 1 and "exists; --force replaces it" in err
    assert run_file.read_text() == "a run I kept\n"
    before = sanctum.read_bytes()
    code, _, _ = run(["fight", str(sanctum), "--seed", "7", "-o", str(run_file), "--force"],
                     capsys)
    assert code == 0 and "format = \"referee-save\"" in run_file.read_text()
    assert sanctum.read_bytes() == before  # a copy was fought, not the save


def test_play_demo_never_writes_over_a_file(save, capsys):
    before = save.read_bytes()
    code, _, err = run(["play", str(save), "--demo"], capsys)
    assert code == 1 and "exists" in err
    assert save.read_bytes() == before


def every_parser() -> dict[str, argparse.ArgumentParser]:
    """Every core command's parser, and every act's of every bundled demo (as
    `referee ACT SAVE` renders it from the act's spec)."""
    from referee.cli.acts import act_parser
    from referee.session.files import load_save

    parser, subparsers = cli.full_parser()
    parsers = dict(subparsers.choices)
    for demo in sorted((ROOT / "saves").glob("*.toml")):
        fight = load_save(demo).fight
        actor = next(iter(fight.roster))
        for act in acts_of(fight.ruleset, fight):
            form = act.form(fight, actor)
            fields = (form.fields if form is not None else ()) + act.options
            parsers[f"{demo.stem} {act.id}"] = act_parser(act, fields)
    return parsers


def test_every_command_with_an_output_path_takes_force():
    """Today's and later ones: a command that writes a file offers --force, through
    `output_arguments` (and so writes through `write_output`); every act that makes events
    is one (done on a copy), a report none."""
    writers = set()
    for name, parser in every_parser().items():
        options = {o for action in parser._actions for o in action.option_strings}
        if "-o" in options or "--output" in options:
            writers.add(name)
            assert "--force" in options, name
    assert {"export", "sanctum fight", "sanctum pairs", "demo morale"} <= writers
    assert "sanctum odds" not in writers  # a report writes nothing


def test_claim_and_write_output_directly(tmp_path):
    source = tmp_path / "a.toml"
    source.write_text("x")
    with pytest.raises(OutputRefused, match="which this reads"):
        claim(source, [source], force=True)
    target = tmp_path / "b.md"
    write_output(target, "one", [source])
    with pytest.raises(OutputRefused, match="exists"):
        write_output(target, "two", [source])
    assert target.read_text() == "one"
    write_output(target, "two", [source], force=True)
    assert target.read_text() == "two"
    no_temporary_left(tmp_path)


def test_a_new_save_never_replaces_a_file(tmp_path):
    taken = tmp_path / "taken.toml"
    taken.write_text("someone's fight\n")
    encounter = Session.open(DEMO, lock=False).encounter
    with pytest.raises(SaveError, match="exists; nothing was written"):
        Session.create(taken, encounter)
    assert taken.read_text() == "someone's fight\n"
    no_temporary_left(tmp_path)
