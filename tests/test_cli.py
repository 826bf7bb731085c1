"""The command line's own parsing: help, usage errors, roll, the demo."""

from __future__ import annotations

import json

from referee.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_command(capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0
    for command in ("plan", "check", "replay", "export", "roll"):
        assert f"referee {command}" in out


def test_usage_errors_exit_2_with_a_message(capsys):
    assert run(["bogus"], capsys)[0:1] == (2,)
    code, _, err = run(["plan"], capsys)
    assert code == 2 and err.startswith("referee: plan takes SAVE")
    code, _, err = run(["replay", "x.toml", "--to", "five"], capsys)
    assert code == 2 and "--to takes a whole number, not 'five'" in err
    code, _, err = run(["export", "x.toml"], capsys)
    assert code == 1 and "needs --markdown" in err


def test_roll_is_repeatable_with_a_seed_and_shows_every_die(capsys):
    first = run(["roll", "4d6kh3", "--seed", "9"], capsys)[1]
    assert first == run(["roll", "4d6kh3", "--seed", "9"], capsys)[1]
    assert first.startswith("4d6kh3: [") and "~" in first
    code, out, _ = run(["roll", "-2+d8", "--seed", "1"], capsys)
    assert code == 0 and out.startswith("-2+1d8:")
    code, _, err = run(["roll", "3d"], capsys)
    assert code == 1 and "bad dice expression" in err


def test_demo_shows_roster_and_plan(capsys):
    code, out, _ = run(["demo"], capsys)
    assert code == 0 and "Goblins at the ford" in out and "The ogre" in out
    assert "(no beats yet)" in out


def test_plan_json_and_round_option(capsys):
    path = "tests/scenarios/count-up/cu-02-latecomer.toml"
    latest = json.loads(run(["plan", path, "--json"], capsys)[1])
    first = json.loads(run(["plan", path, "--json", "--round", "1"], capsys)[1])
    assert latest["round"] == 2 and [b["count"] for b in latest["beats"]] == [-4, 7, 8]
    assert first["round"] == 1 and first["skipped"][0]["actor"] == "ghoul"


def test_a_folder_that_cannot_be_written_is_a_message_not_a_traceback(tmp_path, capsys,
                                                                      monkeypatch):
    blocker = tmp_path / "saves"
    blocker.write_text("a file where the saves folder should be")
    monkeypatch.chdir(tmp_path)
    code, _, err = run([], capsys)
    assert code == 1 and err.startswith("referee:") and "Traceback" not in err
