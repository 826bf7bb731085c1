"""Options and positionals in any order, for every command (issue 30, B26): `referee
catalogue demon-idol --kind weapons "long sword"` is read as it is typed; a catalogue name
matches anywhere in an entry's name (`mace` finds both maces)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import CORE, PLAIN, command_parser, main, parse, plain_arguments
from referee.cli.act_words import act_order
from tests.conftest import ROOT

# each core command: its arguments options-first, and the same with the options after
ORDERS = {
    "plan": (["--json", "--round", "1", "S"], ["S", "--round", "1", "--json"]),
    "check": (["F"], ["F"]),
    "party": (["-o", "p.toml", "--force", "S"], ["S", "--force", "-o", "p.toml"]),
    "add": (["--count", "6", "--side", "gobs", "S", "goblin"],
            ["S", "--count", "6", "goblin", "--side", "gobs"]),
    "catalogue": (["--kind", "weapons", "demon-idol", "long sword"],
                  ["demon-idol", "--kind", "weapons", "long sword"]),
    "replay": (["--to", "3", "--json", "S"], ["S", "--json", "--to", "3"]),
    "export": (["--markdown", "-o", "x.md", "S"], ["S", "-o", "x.md", "--markdown"]),
    "roll": (["--seed", "3", "-2+d8"], ["-2+d8", "--seed", "3"]),
    "act": (["--actor", "hilde", "--seed", "2", "S", "morale"],
            ["S", "--actor", "hilde", "morale", "--seed", "2"]),
    "play": (["--ruleset", "count-up", "--demo", "--seed", "4", "S"],
             ["S", "--demo", "--seed", "4", "--ruleset", "count-up"]),
    "demo": (["--ruleset", "count-up"], ["--ruleset", "count-up"]),
    "watch": (["S"], ["S"]),
    "serve": (["--port", "8001", "--host", "0.0.0.0", "--players", "S"],
              ["S", "--host", "0.0.0.0", "--players", "--port", "8001"]),
    "links": (["--revoke", "--port", "8001", "S"], ["S", "--port", "8001", "--revoke"]),
    "config": (["--path"], ["--path"]),
    "completion": (["bash"], ["bash"]),
}


def test_every_core_command_is_covered() -> None:
    assert set(ORDERS) == set(CORE)


@pytest.mark.parametrize("command", sorted(ORDERS))
def test_options_after_the_positionals_read_as_before_them(command: str) -> None:
    first, after = ORDERS[command]
    assert vars(parse([command, *first])[0]) == vars(parse([command, *after])[0])


def test_an_acts_options_follow_save_and_act_in_the_order_typed() -> None:
    assert act_order(["S", "--target", "gob1", "attack", "--actor", "a"], 2) == \
        ["S", "attack", "--target", "gob1", "--actor", "a"]
    assert act_order(["--json", "S", "odds", "--runs", "-3"], 2) == \
        ["S", "odds", "--json", "--runs", "-3"]
    assert act_order(["S", "--help"], 2) == ["--help", "S"]  # no act: the command's own
    assert act_order(["S", "morale", "--help"], 2) == ["S", "morale", "--help"]


def test_an_act_is_found_with_the_actor_given_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "cu.toml"
    shutil.copyfile(ROOT / "saves" / "count-up.toml", save)
    assert main(["act", str(save), "--actor", "hilde", "morale", "--seed", "2"]) == 0
    assert "Hilde the sellsword rolls 3d6 for morale" in capsys.readouterr().out


def test_catalogue_takes_the_kind_between_ruleset_and_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogue", "demon-idol", "--kind", "weapons", "long sword"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("demon-idol weapon: long sword\n") and 'damage = "1d8"' in out


def test_a_name_matches_anywhere_in_an_entry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogue", "demon-idol", "mace"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1:3] for line in lines] == [["footman's", "mace"],
                                                      ["horseman's", "mace"]]
    assert main(["catalogue", "demon-idol", "de corb"]) == 0  # one: shown whole
    assert capsys.readouterr().out.startswith("demon-idol weapon: bec de corbin\n")
    assert main(["catalogue", "demon-idol", "zzz"]) == 1
    assert "no entry 'zzz'" in capsys.readouterr().err


# the plain arguments of the commands scripts run, read without argparse (PLAIN), and
# some that are not plain: each is read as the command's own parser reads it, or left to it
PLAIN_ARGVS = [
    ["S"], ["S", "--json"], ["--json", "S"], ["S", "--json", "--json"], [""],
    ["S", "--round", "2"], ["--round", "2", "S"], ["S", "--round=3"], ["S", "--round=-3"],
    ["S", "--round", " 4"], ["S", "--round", "1", "--round", "5"], ["S", "--to", "7"],
    ["S", "--to=0", "--json"], ["S", "--round", "-1"], ["S", "--round"], ["S", "--round="],
    ["S", "--round", "x"], ["S", "T"], [], ["--json"], ["S", "--js"], ["S", "--json=1"],
    ["S", "-h"], ["S", "--help"], ["--", "S"], ["-", "--json"], ["S", "-j"],
    ["S", "--round", "--json"], ["S", "--ROUND", "1"], ["-S"],
]


@pytest.mark.parametrize("command", sorted(PLAIN))
def test_plain_arguments_read_as_the_commands_parser_reads_them(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    parser = command_parser(None, command, CORE[command])
    read = 0
    for argv in PLAIN_ARGVS:
        plain = plain_arguments(command, argv)
        try:
            parsed = vars(parser.parse_intermixed_args(argv)) | {"command": command}
        except SystemExit:
            assert plain is None, argv  # argparse refuses it (or helps): so must we
            continue
        if plain is not None:
            assert vars(plain) == parsed, argv
            read += 1
        else:
            assert argv[0:1] in (["--"], ["-"]) or any(a.startswith("-") for a in argv), argv
    capsys.readouterr()
    assert read >= 2  # the plain path is taken at all


def test_plan_json_is_read_without_argparse() -> None:
    args, _ = parse(["plan", "S", "--json"])
    assert type(args).__name__ == "SimpleNamespace" and args.json and args.save == "S"


def test_plan_json_text_is_json_dumps() -> None:
    """plan --json's one line is made without importing json: exactly what json.dumps
    makes, for every scenario's plan and for values of every kind."""
    import json

    from referee.cli.reading import json_text
    from referee.session.files import load_save

    values: list[object] = [
        {"a": [1, 2.5, -0.0, 1e300, float("inf"), float("-nan")], "é\u2028": None, "t": True},
        "a string \x00 é", [], {}, (1, "x"), 3, {1: "int key", 2.5: "float key", None: 0},
        {"nested": [{"deep": [[[]]]}]}]
    for folder in sorted((ROOT / "tests" / "scenarios").iterdir()):
        for path in sorted(folder.glob("*.toml"))[:6]:
            if path.name.endswith(".expect.toml"):
                continue
            try:
                values.append(load_save(path).fight.plan(None).to_json())
            except Exception:  # a scenario of a fault: nothing to plan
                continue
    assert len(values) > 20
    for value in values:
        assert json_text(value) == json.dumps(value)
        assert json_text(value, 2) == json.dumps(value, indent=2)
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_text({"x": object()})
