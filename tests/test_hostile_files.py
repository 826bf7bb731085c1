"""Hostile files (issue 20, points 2 to 4): device paths, pipes and deep nesting give a
message naming the file and a non-zero exit, never a hang, a traceback or a memory
blow-up; explaining a syntax error costs no more than reading the file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.session.files import (
    MAX_BYTES,
    MIB,
    LoadError,
    load_ruleset,
    load_save,
    read_text,
)
from referee.session.syntax import explain
from referee.session.tomlpos import _Scanner
from tests.conftest import ROOT

COMMANDS = [["check"], ["plan"], ["replay"], ["export", "--markdown"]]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


def every_command(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    messages = []
    for command in COMMANDS:
        code, err = run([command[0], str(path), *command[1:]], capsys)
        assert code == 1, (command, err)
        assert "Traceback" not in err and err.startswith("referee: "), err
        messages.append(err)
    return messages


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_device_is_refused_directly_and_through_a_symlink(device, tmp_path, capsys):
    if not os.path.exists(device):
        pytest.fail(f"{device} is missing on this machine")
    link = tmp_path / "save.toml"
    link.symlink_to(device)
    for path in (Path(device), link):
        for err in every_command(path, capsys):
            assert "is not a regular file" in err and str(path) in err


def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path, capsys):
    fifo = tmp_path / "save.toml"
    os.mkfifo(fifo)
    for err in every_command(fifo, capsys):
        assert f"{fifo}: is not a regular file" in err
    with pytest.raises(LoadError, match="not a regular file"):
        load_ruleset(str(fifo))


def test_a_folder_is_refused(tmp_path, capsys):
    for err in every_command(tmp_path, capsys):
        assert "is a folder, not a file" in err


def test_the_cap_holds_for_what_is_read(tmp_path):
    big = tmp_path / "big.toml"
    with big.open("wb") as handle:  # sparse: the size is real, the disk is not used
        handle.truncate(MAX_BYTES + 1)
    with pytest.raises(LoadError, match=f"larger than a save may be \\({MAX_BYTES // MIB} MiB"):
        read_text(big)


def deep(depth: int, opener: str = "[", closer: str = "]", head: str = "") -> str:
    return (f'format = "referee-save"\nversion = 1\n{head}ruleset = "demon-idol"\n'
            f"x = {opener * depth}{closer * depth}\n")


@pytest.mark.parametrize(("opener", "closer"), [("[", "]"), ("{a=", "}")])
def test_deep_nesting_is_a_message_in_every_command(tmp_path, capsys, opener, closer):
    path = tmp_path / "deep.toml"
    path.write_text(deep(3000, opener, closer))
    for err in every_command(path, capsys):
        assert f"{path}:4: lists or tables nested more than 100 deep" in err


def test_deep_nesting_in_a_ruleset_file(tmp_path):
    ruleset = tmp_path / "house.toml"
    text = (ROOT / "rulesets" / "demon-idol.toml").read_text()
    ruleset.write_text(text + "\nhouse = " + "[" * 2000 + "]" * 2000 + "\n")
    with pytest.raises(LoadError, match="nested more than 100 deep"):
        load_ruleset(str(ruleset))


def test_watch_says_so_and_exits_non_zero_on_a_deep_save(tmp_path, capsys):
    path = tmp_path / "deep.toml"
    path.write_text(deep(3000))
    code, err = run(["watch", str(path)], capsys)
    assert code == 1 and "nested more than 100 deep" in err


def test_an_early_error_before_a_deep_value_is_explained_from_its_line(tmp_path, capsys):
    path = tmp_path / "early.toml"
    path.write_text(deep(200_000, head="title = goblins\n"))
    code, err = run(["check", str(path)], capsys)
    assert code == 1 and f"{path}:3: title: TOML syntax error: invalid value goblins" in err


def test_the_explainer_scans_no_further_than_the_line_at_fault():
    """Linear, whatever follows: the scanner sees only the text up to the error's line,
    and past 100 levels it gives brackets no paths (a deep value made it cubic)."""
    import tomllib

    text = deep(200_000, head="title = goblins\n")
    with pytest.raises(tomllib.TOMLDecodeError) as error:
        tomllib.loads(text)
    assert explain(error.value, text)[1] == 3
    lines = _Scanner("x = " + "[" * 5000 + "]" * 5000 + "\n").scan()
    assert len(lines) < 200


def test_the_bundled_saves_still_load():
    for name in ("demo.toml", "count-up.toml", "phases.toml", "sanctum.toml",
                 "agility-order.toml"):
        assert load_save(ROOT / "saves" / name).fight is not None


def test_a_symlink_to_a_save_still_loads(tmp_path):
    link = tmp_path / "link.toml"
    link.symlink_to(shutil.copy(ROOT / "saves" / "demo.toml", tmp_path / "real.toml"))
    assert load_save(link).encounter.title == "Goblins at the ford"


def with_events(tmp_path: Path, block: str) -> Path:
    path = tmp_path / "huge.toml"
    path.write_text((ROOT / "saves" / "demo.toml").read_text() + "\n[[events]]\n" + block)
    return path


@pytest.mark.parametrize(("block", "said"), [
    ('type = "note"\ntext = "far ahead"\nround = 1000000\n',
     "round: 1000000 is out of range (0 to 9999)"),
    ('type = "damage"\ntarget = "gob1"\namount = 100000000000000000000000000\nround = 1\n',
     "amount: 100000000000000000000000000 is out of range (0 to 1000000000)"),
    ('type = "roll"\nexpr = "1d6"\ndice = [10000000000]\ntotal = 3\nround = 1\n',
     "dice[0]: 10000000000 is out of range (-1000000000 to 1000000000)"),
])
def test_huge_numbers_in_events_are_refused_with_their_range(tmp_path, capsys, block, said):
    path = with_events(tmp_path, block)
    for err in every_command(path, capsys):
        assert said in err and str(path) in err, err


def test_huge_and_endless_numbers_in_the_roster_are_refused(tmp_path, capsys):
    text = (ROOT / "saves" / "demo.toml").read_text()
    for old, new, said in (("hp = 14", "hp = 10000000000", "10000000000 is out of range"),):
        assert old in text
        path = tmp_path / "roster.toml"
        path.write_text(text.replace(old, new, 1))
        for err in every_command(path, capsys):
            assert said in err, err


# -- each kind of file capped before it is parsed (issue 31, point 3) ---------------------


def padded(text: str, size: int) -> str:
    """`text` grown to `size` bytes by a comment line at its end (still valid TOML)."""
    return text + "\n#" + "x" * (size - len(text.encode()) - 2)


def not_parsed(monkeypatch: pytest.MonkeyPatch, *paths: Path) -> None:
    """Parsing any of `paths` fails the test."""
    import referee.session.files as files

    real = files.parse_toml

    def parse(text: str, name: str) -> Any:
        if name in {str(p) for p in paths}:
            raise AssertionError(f"{name} was parsed")
        return real(text, name)

    monkeypatch.setattr(files, "parse_toml", parse)


CATALOGUE = ('format = "referee-catalogue"\nruleset = "demon-idol"\nkind = "weapons"\n\n'
             '[[entries]]\nname = "club"\nspeed_factor = 4\ndamage = "1d6"\n')
ROSTER = ('format = "referee-roster"\nruleset = "demon-idol"\n\n[[sides]]\nid = "p"\n'
          'name = "P"\n\n[[combatants]]\nid = "a"\nname = "A"\nside = "p"\nhp = 5\n')


@pytest.mark.parametrize(("kind", "text", "cap"), [
    ("ruleset", None, 1), ("catalogue", CATALOGUE, 4), ("roster", ROSTER, 1)])
def test_a_file_over_its_kinds_cap_is_refused_before_it_is_parsed(tmp_path, capsys,
                                                                   monkeypatch, kind, text,
                                                                   cap):
    if text is None:
        text = (ROOT / "rulesets" / "demon-idol.toml").read_text()
    path = tmp_path / f"big-{kind}.toml"
    path.write_text(text)
    code, err = run(["check", str(path)], capsys)
    assert code == 0, err  # the file itself is good
    path.write_text(padded(text, cap * MIB + 1))
    code, err = run(["check", str(path)], capsys)
    assert code == 1
    assert err == (f"referee: {path}: is {(cap * MIB + 1) / MIB:.1f} MiB: larger than a {kind} "
                   f"may be ({cap} MiB); refused before it was parsed\n")
    path.write_text(padded(text, cap * MIB))
    assert run(["check", str(path)], capsys)[0] == 0  # the cap itself is allowed
    sparse = tmp_path / f"sparse-{kind}.toml"  # 60 MB said, nothing on disk: never read
    sparse.write_text(text)
    with sparse.open("r+b") as handle:
        handle.truncate(60_000_000)
    not_parsed(monkeypatch, sparse)
    code, err = run(["check", str(sparse)], capsys)
    assert code == 1 and f"is 57.2 MiB: larger than a {kind} may be ({cap} MiB)" in err


def test_a_big_catalogue_ruleset_or_party_is_refused_where_it_is_used(tmp_path, capsys,
                                                                       monkeypatch):
    from referee.session.roster import RosterEditor
    from referee.session.store import Session

    save = tmp_path / "ford.toml"
    shutil.copy(ROOT / "saves" / "demo.toml", save)
    catalogue = tmp_path / "mine.weapons.toml"
    catalogue.write_text(padded(CATALOGUE, 4 * MIB + 10))
    party = tmp_path / "party.toml"
    party.write_text(padded(ROSTER, MIB + 10))
    ruleset = tmp_path / "house.toml"
    ruleset.write_text(padded((ROOT / "rulesets" / "demon-idol.toml").read_text(), MIB + 10))
    house = tmp_path / "house-save.toml"
    house.write_text(save.read_text().replace('ruleset = "demon-idol"',
                                              'ruleset = "house.toml"'))
    not_parsed(monkeypatch, catalogue, party, ruleset)
    code, err = run(["catalogue", "demon-idol", "--file", str(catalogue)], capsys)
    assert code == 1 and "larger than a catalogue may be (4 MiB)" in err, err
    code, err = run(["plan", str(house)], capsys)
    assert code == 1 and "house.toml: is 1.0 MiB: larger than a ruleset may be" in err, err
    with Session.open(save) as session, pytest.raises(LoadError,
                                                      match="larger than a roster may be"):
        RosterEditor(session).import_roster(party)


def test_a_roster_of_too_many_combatants_is_refused_by_count(tmp_path, capsys):
    head = ('format = "referee-roster"\nruleset = "demon-idol"\n\n'
            '[[sides]]\nid = "p"\nname = "P"\n')
    many = "".join(f'\n[[combatants]]\nid = "a{n}"\nname = "A"\nside = "p"\nhp = 5\n'
                   for n in range(2001))
    path = tmp_path / "party.toml"
    path.write_text(head + many)
    code, err = run(["check", str(path)], capsys)
    assert code == 1
    assert f"{path}:8: combatants: 2001 combatants: a roster holds at most 2000" in err, err


def test_a_catalogue_of_too_many_entries_is_refused_by_count(tmp_path, capsys):
    many = "".join(f'\n[[entries]]\nname = "club {n}"\nspeed_factor = 4\n' for n in range(2001))
    path = tmp_path / "mine.weapons.toml"
    path.write_text(CATALOGUE.split("[[entries]]")[0] + many)
    code, err = run(["check", str(path)], capsys)
    assert code == 1 and "entries: 2001 entries: a catalogue holds at most 2000" in err, err
