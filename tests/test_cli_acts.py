"""`referee act`: a ruleset's acts on the command line, from the same specs the app shows
as keys and forms (issue 21: one way to act, the CLI renders acts as it renders forms)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine.options import Declaring, acts_of
from referee.engine.specs import Act, Field, Form, Report
from referee.session.files import load_save
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT
from tests.test_contract import DEMOS, Demo, copy_of


def copy(tmp_path: Path, demo: str) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / demo, path)
    return path


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.name)
def test_every_demo_lists_its_acts_and_each_says_what_it_needs(
        demo: Demo, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ruleset's demo, the directory's (a ruleset of the tests too): its own acts
    and its declarations, each a line."""
    path = copy_of(demo.path, tmp_path)
    save = load_save(path)
    assert main(["act", str(path)]) == 0
    out = capsys.readouterr().out
    declaring = save.ruleset.role(Declaring)
    acts = acts_of(save.ruleset, save.fight) + (
        declaring.declaration_acts() if declaring is not None else [])
    for act in acts:
        line = next(line for line in out.splitlines() if line.startswith(f"{act.id} "))
        assert act.label in line
        assert ("needs --actor ID" in line) == act.needs_actor
    # the table's own acts, every ruleset's: a fight is played from the command line alone
    table = Table(Session(save))
    listed = [line.split()[0] for line in out.splitlines()]
    assert listed == [act.id for act in table.acts()]
    assert {"hit", "miss", "heal", "condition", "note", "initiative", "next", "round", "end",
            "undo", "redo", "join"} <= set(listed)


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
    (["dance"], "has no act 'dance' (acts: initiative, dice, next, hit, miss"),
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
    """sanctum's odds: its options (`--runs N`, required) and its own lines, the same as
    `referee odds SAVE` prints."""
    path = copy(tmp_path, "sanctum.toml")
    text = path.read_bytes()
    assert main(["act", str(path), "odds", "--runs", "50", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("50 runs from seed 1, turn 1\nwins:")
    assert out.endswith(f"replay a run: referee fight {path} --seed SEED -o RUN.toml\n")
    assert main(["odds", str(path), "--runs", "50", "--seed", "1"]) == 0
    assert capsys.readouterr().out == out
    assert main(["act", str(path), "odds"]) == 2
    assert "the following arguments are required: --runs" in capsys.readouterr().err
    assert path.read_bytes() == text


# -- what an act's spec gives the command line (Act: options, gated, told, stream, summary,
# -- and -o for an act that makes events), on the toy ruleset of the tests -----------------

TOY = ROOT / "tests" / "rulesets"


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    shutil.copyfile(TOY / "toy.toml", tmp_path / "toy.toml")
    shutil.copyfile(TOY / "toy-demo.toml", tmp_path / "toy-demo.toml")
    return tmp_path / "toy-demo.toml"


def chant(fight: Any, actor: str | None, values: Any, rng: Any) -> list[Any]:
    from tests.rulesets.toy import Shout

    return [Shout(round=max(fight.round, 1), actor=actor or "ann", text=f"{values['word']}{n}")
            for n in range(values["times"])]


def toy_acts(monkeypatch: pytest.MonkeyPatch, *acts: Act) -> None:
    from tests.rulesets.toy import ToyActs

    monkeypatch.setattr(ToyActs, "acts", lambda self, fight: list(acts))


CHANT = Act("chant", "Chant", "c", "shouts, one by one", run=chant, gated=False,
            allowed=lambda fight, actor: "never in the app",
            form=lambda fight, actor: Form("Chant", (Field("word", "word", default="ho"),)),
            options=(Field("times", "N", "int", 2, minimum=1, help="how many shouts"),),
            told=lambda fight, made, save: [f"{len(made)} shouts into {save}"],
            stream=lambda fight, event: f"  {event.actor}: {event.text}",
            summary=lambda fight, made: {"shouts": [e.text for e in made],
                                         "log": len(fight.log)})


def test_an_acts_options_told_and_streamed_lines_come_from_its_spec(
        toy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    toy_acts(monkeypatch, CHANT)
    before = len(load_save(toy).fight.log)
    assert main(["chant", str(toy), "--times", "3", "--word", "la"]) == 0
    assert capsys.readouterr().out == f"3 shouts into {toy}\n  ann: la0\n  ann: la1\n  ann: la2\n"
    log = load_save(toy).fight.log
    assert [e.text for e in log[before:]] == ["la0", "la1", "la2"]
    # streamed: written one at a time, and undone whole, as the app's one write is
    assert [e.follows for e in log[before:]] == [False, True, True]
    assert main(["chant", str(toy), "--json"]) == 0  # gated=False: `allowed` is the app's
    assert json.loads(capsys.readouterr().out) == {"shouts": ["ho0", "ho1"],
                                                   "log": before + 5}
    assert main(["chant", str(toy), "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert out.startswith("usage: referee chant [-h] [--actor ID] [--word TEXT] [--times N] "
                          "[--seed X] "
                          "[--json] [-o FILE] [--force] SAVE")
    assert "--times N how many shouts" in out
    assert main(["chant", str(toy), "--times", "0"]) == 2
    assert "argument --times: at least 1, not 0" in capsys.readouterr().err


def test_an_act_without_stream_is_one_write_told_as_the_log_numbers_it(
        toy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    plain = Act("chant", "Chant", run=chant, options=CHANT.options,
                form=CHANT.form)
    toy_acts(monkeypatch, plain)
    before = len(load_save(toy).fight.log)
    assert main(["chant", str(toy)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(". ", 1)[0].strip() for line in out] == [str(before + 1), str(before + 2)]
    assert [e.follows for e in load_save(toy).fight.log[before:]] == [False, True]
    assert main(["chant", str(toy), "--json"]) == 0  # no summary: the events it made
    made = json.loads(capsys.readouterr().out)
    assert [e["text"] for e in made] == ["ho0", "ho1"]
    assert made[1]["follows"] is True


def test_a_gated_act_is_refused_by_allowed_and_writes_nothing(
        toy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    gated = Act("chant", "Chant", run=chant, options=CHANT.options, form=CHANT.form,
                allowed=CHANT.allowed)
    toy_acts(monkeypatch, gated)
    text = toy.read_bytes()
    assert main(["chant", str(toy)]) == 1
    assert capsys.readouterr().err == f"referee: {toy}: Chant: never in the app\n"
    assert toy.read_bytes() == text


def test_an_act_on_a_copy_writes_the_copy_only(
        toy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    toy_acts(monkeypatch, CHANT)
    text = toy.read_bytes()
    out = toy.with_name("copy.toml")
    assert main(["chant", str(toy), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"2 shouts into {toy}\n  ann: ho0\n  ann: ho1\n"  # the save named
    assert captured.err == f"wrote {out}\n"
    assert toy.read_bytes() == text
    assert [e.text for e in load_save(out).fight.log[-2:]] == ["ho0", "ho1"]
    assert main(["chant", str(toy), "-o", str(out)]) == 1
    assert "exists; --force replaces it" in capsys.readouterr().err
    assert main(["chant", str(toy), "-o", str(toy), "--force"]) == 1
    assert "which this reads" in capsys.readouterr().err
    assert toy.read_bytes() == text


def test_a_report_without_its_own_lines_prints_its_title_and_lines(
        toy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    report = Act("tally", "Tally", report=lambda fight, values, progress: Report(
        "Tally", (f"{len(fight.log)} events",)))
    toy_acts(monkeypatch, report)
    text = toy.read_bytes()
    assert main(["tally", str(toy)]) == 0
    assert capsys.readouterr().out == f"Tally\n{len(load_save(toy).fight.log)} events\n"
    for flag in ("-o", "--json", "--seed"):  # a report writes nothing and draws nothing
        assert main(["tally", str(toy), flag, "x"]) == 2
        assert "unrecognized arguments" in capsys.readouterr().err
    assert toy.read_bytes() == text


def test_an_acts_help_shows_its_fields(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "count-up.toml")
    assert main(["act", str(path), "injury", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--target" in out and "--damage" in out


def test_a_declaration_is_an_act_the_command_line_can_do(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each action of a declaring ruleset's catalogue is an act (`declare-G`): its form's
    fields are options, a second declaration replaces the first, a refusal names why."""
    path = copy(tmp_path, "demo.toml")
    assert main(["act", str(path)]) == 0
    assert "declare-G" in capsys.readouterr().out
    assert main(["act", str(path), "declare-G", "--actor", "brann", "--target", "gob2"]) == 0
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1"]) == 0
    out = capsys.readouterr().out
    assert "declares G (long sword) at Goblin 2" in out and "declares again G" in out
    log = load_save(path).fight.log
    assert [(e.TYPE, e.actor, e.target, e.replaces) for e in log] == [
        ("declare", "brann", ("gob2",), False), ("declare", "brann", ("gob1",), True)]
    text = path.read_bytes()
    assert main(["act", str(path), "declare-D", "--actor", "brann"]) == 1
    assert "has nothing a D discharges" in capsys.readouterr().err
    assert path.read_bytes() == text


def test_a_ruleset_without_declarations_offers_no_declaring_act(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "phases.toml")
    assert main(["act", str(path)]) == 0
    assert "declare-" not in capsys.readouterr().out
