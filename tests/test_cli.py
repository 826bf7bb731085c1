"""The command line: argparse subcommands and their help, usage errors, roll, the demos,
`play` (new, --demo, existing), a ruleset's acts as command words, and one referee per
save."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from referee import cli
from referee.cli import main, play
from referee.rulesets.demon_idol import events as di
from referee.session import demos
from referee.session.files import LoadError
from referee.session.lock import SaveLock, SaveLocked, sidecar
from referee.session.store import SaveError, Session
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "demo.toml"
COUNT_UP_DEMO = ROOT / "saves" / "count-up.toml"
LATECOMER = "tests/scenarios/count-up/cu-02-latecomer.toml"


@pytest.fixture(autouse=True)
def wide_help(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # help laid out the same in any terminal


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- help and usage --------------------------------------------------------------------


def test_help_lists_every_command(capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and out.startswith("usage: referee")
    for command in ("plan", "check", "replay", "export", "roll", "play", "demo"):
        assert f"\n    {command} " in out


@pytest.mark.parametrize(("command", "shown"), [
    ("plan", "[--json] [--round N] SAVE"), ("check", "FILE"), ("replay", "[--to N] [--json] SAVE"),
    ("export", "[--markdown] [-o FILE] [--force] SAVE"), ("roll", "[--seed N] EXPR"),
    ("play", "[--ruleset ID] [--demo] [--party FILE] [--catalogue F] [--seed N] "
             "[--max-viewers N] SAVE"),
    ("demo", "[--ruleset ID]"),
])
def test_each_command_has_its_own_help(command, shown, capsys):
    code, out, _ = run([command, "--help"], capsys)
    usage = " ".join(out.split())  # argparse wraps a long usage line
    assert code == 0 and usage.startswith(f"usage: referee {command} [-h] {shown}")


def test_a_core_command_parsed_alone_is_the_subcommand_of_the_full_tree():
    _, subparsers = cli.full_parser()
    for name, command in cli.CORE.items():
        alone = cli.command_parser(None, name, command)
        assert alone.format_help() == subparsers.choices[name].format_help()


def test_usage_errors_exit_2_with_argparse_message(capsys):
    code, _, err = run(["bogus"], capsys)
    assert code == 2 and "invalid choice: 'bogus'" in err and "'plan'" in err
    assert "an act of a save's ruleset takes the save: referee bogus SAVE" in err
    code, _, err = run(["plan"], capsys)
    assert code == 2 and "referee plan: error: the following arguments are required: SAVE" in err
    code, _, err = run(["replay", "x.toml", "--to", "five"], capsys)
    assert code == 2 and "argument --to: takes a whole number, not 'five'" in err
    code, _, err = run(["plan", "x.toml", "--rou", "1"], capsys)  # no abbreviations
    assert code == 2 and "unrecognized arguments: --rou" in err
    code, _, err = run(["export", "x.toml"], capsys)
    assert code == 1 and "needs --markdown" in err


def test_a_bad_file_is_one_line_exit_1(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(DEMO.read_text().replace("hp = 14", 'hp = "lots"'))
    code, out, err = run(["plan", str(bad)], capsys)
    assert code == 1 and out == "" and err.startswith(f"referee: {bad}:")
    assert err.count("\n") == 1 and "Traceback" not in err


# -- roll, demo, plan ------------------------------------------------------------------


def test_roll_is_repeatable_with_a_seed_and_shows_every_die(capsys):
    first = run(["roll", "4d6kh3", "--seed", "9"], capsys)[1]
    assert first == run(["roll", "4d6kh3", "--seed", "9"], capsys)[1]
    assert first.startswith("4d6kh3: [") and "~" in first
    code, out, _ = run(["roll", "-2+d8", "--seed", "1"], capsys)
    assert code == 0 and out.startswith("-2+1d8:")
    assert run(["roll", "--seed", "1", "-2+d8"], capsys)[1] == out
    code, _, err = run(["roll", "3d"], capsys)
    assert code == 1 and "bad dice expression" in err


def test_demo_shows_roster_and_plan(capsys):
    code, out, _ = run(["demo"], capsys)
    assert code == 0 and "Goblins at the ford" in out and "The ogre" in out
    assert "(no beats yet)" in out


def test_demo_of_a_ruleset(capsys):
    code, out, _ = run(["demo", "--ruleset", "count-up"], capsys)
    assert code == 0 and "(the bundled demo, count-up.toml)" in out and "Count-up" in out
    code, out, err = run(["demo", "--ruleset", "nope"], capsys)
    assert code == 1 and out == ""
    assert err.startswith("referee: no bundled demo for ruleset 'nope' (demos exist for: ")
    assert "count-up, " in err and "demon-idol" in err and err.count("\n") == 1


def test_plan_json_and_round_option(capsys):
    latest = json.loads(run(["plan", LATECOMER, "--json"], capsys)[1])
    first = json.loads(run(["plan", LATECOMER, "--json", "--round", "1"], capsys)[1])
    assert latest["round"] == 2 and [b["count"] for b in latest["beats"]] == [-4, 7, 8]
    assert first["round"] == 1 and first["skipped"][0]["actor"] == "ghoul"


def test_headless_commands_import_no_textual_rich_or_the_acts():
    """A core command never renders acts: neither the acts' command line (cli.acts) nor
    sanctum's acts are imported, even for a sanctum save."""
    code = ("import sys; from referee.cli import main; "
            "main(['plan', 'saves/demo.toml', '--json']); main(['roll', 'd6']); "
            "main(['plan', 'saves/sanctum.toml', '--json']); "
            "main(['check', 'saves/count-up.toml']); print('\\n'.join(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=120).stdout.split()
    assert not [m for m in out if m.split(".")[0] in ("textual", "rich")]
    assert "referee.rulesets.sanctum" in out
    assert not [m for m in out if m in ("referee.cli.acts", "referee.rulesets.sanctum.acts")]


def test_a_folder_that_cannot_be_written_is_a_message_not_a_traceback(tmp_path, capsys,
                                                                      monkeypatch):
    blocker = tmp_path / "saves"
    blocker.write_text("a file where the saves folder should be")
    monkeypatch.chdir(tmp_path)
    code, _, err = run([], capsys)
    assert code == 1 and err.startswith("referee:") and "Traceback" not in err


# -- a torn last event ---------------------------------------------------------------------

CUT_SHORT = "the last event (events[{n}]) was cut short, as by a crash while it was written"


@pytest.fixture
def played(tmp_path) -> Path:
    """A save with four events; a crash may tear the last."""
    path = tmp_path / "fight.toml"
    shutil.copyfile(DEMO, path)
    with Session.open(path) as session:
        session.append(di.Declare(round=1, actor="brann", action="G", weapon="long sword",
                                  target=("gob1",)))
        session.append(di.Declare(round=1, actor="gob1", action="G", target=("brann",)))
        session.append(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
        session.append(di.Declare(round=1, actor="mira", action="G", target=("gob2",)))
    return path


@pytest.mark.parametrize(("cut", "below", "cause"), [
    ('"actor" = "mi', 2, "events[3].actor: TOML syntax error: unterminated string"),
    ('"target" = "gob2"\n', 0, "events[3].round: missing required field (event 4 of the log)"),
], ids=["inside-a-value", "at-a-line-end"])
def test_check_explains_a_torn_last_event_in_the_words_plan_uses(played, cut, below, cause,
                                                                  capsys):
    """The save cut just after `cut`; `below`: how far below the torn event's header
    the fault is reported."""
    text = played.read_text()
    last = text.rindex("[[events]]")
    played.write_text(text[: text.index(cut, last) + len(cut)])
    at = text.count("\n", 0, last) + 1 + below
    said = CUT_SHORT.format(n=3)
    code, _, err = run(["plan", str(played)], capsys)
    assert code == 0 and err.startswith(f"referee: warning: {played}: {said} ({cause}, ")
    code, out, err = run(["check", str(played)], capsys)
    assert code == 1 and ": ok (" not in out
    assert err == (f"referee: {played}:{at}: {said} ({cause}); plan, replay and play drop it "
                   "with a warning\n")


@pytest.mark.parametrize("cut", ["[", "[[eve", "[[events]", "[[events]]", "[[events]]\n"])
def test_a_cut_in_an_event_header_tears_that_event_only(played, cut, capsys):
    text = played.read_text()
    played.write_text(text[: text.rindex("[[events]]") + len(cut)])
    code, out, err = run(["replay", str(played), "--json"], capsys)
    assert code == 0 and len(json.loads(out)["events"]) == 3  # the complete ones all kept
    assert err.startswith(f"referee: warning: {played}: {CUT_SHORT.format(n=3)} (")
    code, _, err = run(["check", str(played)], capsys)
    assert code == 1 and CUT_SHORT.format(n=3) in err


# -- the bundled demos -------------------------------------------------------------------


def test_bundled_demos_from_the_checkout():
    assert demos.default_demo() == DEMO.resolve()
    assert demos.default_ruleset() == "demon-idol"
    assert demos.demo_for("demon-idol") == DEMO.resolve()
    assert demos.demo_for("count-up") == COUNT_UP_DEMO.resolve()
    with pytest.raises(LookupError, match=r"demos exist for: .*count-up, .*demon-idol"):
        demos.demo_for("demo")  # demo.toml is demon-idol's, not a ruleset called "demo"


def save_header(ruleset: str) -> str:
    return (f'format = "referee-save"\nversion = 1\nruleset = "{ruleset}"  # the rules\n\n'
            '[[combatants]]\nruleset = "not-this-one"\n')


def test_a_demo_is_found_by_name_or_by_its_header(tmp_path, monkeypatch):
    folder = tmp_path / "saves"
    folder.mkdir()
    (folder / "demo.toml").write_text(save_header("alpha"))
    (folder / "another.toml").write_text(save_header("beta"))
    (folder / "beta.toml").write_text(save_header("beta"))
    (folder / "ambush.toml").write_text(save_header("gamma").replace('"', "'", 2))
    (folder / "demo-20250101-120000.toml").write_text(save_header("delta"))  # a played copy
    monkeypatch.setattr(demos, "demo_folders", lambda: [tmp_path / "_saves", folder])
    assert demos.default_ruleset() == "alpha"
    assert demos.demo_for("beta") == folder / "beta.toml"  # <id>.toml first
    assert demos.demo_for("gamma") == folder / "ambush.toml"  # else by its header
    with pytest.raises(demos.NoDemo) as missing:
        demos.demo_for("delta")
    assert str(missing.value) == ("no bundled demo for ruleset 'delta' "
                                  "(demos exist for: alpha, beta, gamma)")
    (tmp_path / "_saves").mkdir()  # an installed wheel's folder comes first
    (tmp_path / "_saves" / "demo.toml").write_text(save_header("omega"))
    assert demos.default_demo() == tmp_path / "_saves" / "demo.toml"
    assert demos.default_ruleset() == "omega"


# -- play -----------------------------------------------------------------------------------


@pytest.fixture
def no_app(monkeypatch):
    """`play` runs up to the app, which is recorded instead of started."""
    started = []
    monkeypatch.setattr(play, "open_app",
                        lambda path, setup, *own, **named: started.append((path, setup)) or 0)
    return started


def test_play_a_missing_save_creates_an_encounter_of_the_default_ruleset(tmp_path, no_app):
    save = tmp_path / "new-fight.toml"
    assert main(["play", str(save)]) == 0
    assert no_app == [(save, True)]
    assert f'ruleset = "{demos.default_ruleset()}"' in save.read_text()


def test_play_demo_copies_the_rulesets_bundled_demo(tmp_path, no_app, capsys):
    assert main(["play", str(tmp_path / "a.toml"), "--demo", "--ruleset", "count-up"]) == 0
    assert main(["play", str(tmp_path / "b.toml"), "--demo"]) == 0
    copied = [(tmp_path / name).read_text() for name in ("a.toml", "b.toml")]
    seeds = [int(re.search(r"^seed = (\d+)$", text, re.M)[1])
             for text in copied]
    assert copied[0] == demos.seeded(COUNT_UP_DEMO.read_text(), seeds[0])  # a seed of its own
    assert copied[1] == demos.seeded(DEMO.read_text(), seeds[1])
    assert no_app == [(tmp_path / "a.toml", False), (tmp_path / "b.toml", False)]
    code, _, err = run(["play", str(tmp_path / "c.toml"), "--demo", "--ruleset", "nope"], capsys)
    assert code == 1 and "no bundled demo for ruleset 'nope'" in err
    assert not (tmp_path / "c.toml").exists() and len(no_app) == 2


def test_play_an_existing_save_refuses_a_conflicting_ruleset_or_demo(tmp_path, no_app, capsys):
    save = tmp_path / "fight.toml"
    shutil.copyfile(COUNT_UP_DEMO, save)
    assert main(["play", str(save), "--ruleset", "count-up"]) == 0
    code, _, err = run(["play", str(save), "--ruleset", "demon-idol"], capsys)
    assert code == 1 and err == (f"referee: {save}: is a count-up save; --ruleset demon-idol "
                                 "applies only to a new save (leave it out)\n")
    code, _, err = run(["play", str(save), "--demo"], capsys)
    assert code == 1 and "--demo copies a demo to a new file only" in err
    assert no_app == [(save, False)]


# -- one referee per save -------------------------------------------------------------------


@pytest.fixture
def save(tmp_path) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(COUNT_UP_DEMO, path)
    return path


def refused(path: Path, pid: int) -> str:
    return f"{path}: already open in another referee (pid {pid}); close it there first"


def test_a_second_session_for_play_is_refused_until_the_first_closes(save):
    first = Session.open(save, lock=True)
    with pytest.raises(SaveLocked) as second:
        Session.open(save, lock=True)
    assert isinstance(second.value, SaveError)
    assert str(second.value) == refused(save, os.getpid())
    Session.open(save).close()  # reading never locks
    first.replace_encounter(first.encounter)  # the save is replaced: still locked
    with pytest.raises(SaveLocked):
        Session.open(save, lock=True)
    first.close()
    assert not sidecar(save).exists()
    with Session.open(save, lock=True):
        pass


def test_a_failed_open_leaves_no_lock(tmp_path):
    missing = tmp_path / "missing.toml"
    with pytest.raises(Exception, match="no such file"):
        Session.open(missing, lock=True)
    assert not sidecar(missing).exists()


def test_a_stale_lock_file_never_blocks(save):
    sidecar(save).write_text("999999\n")  # left by a referee that was killed
    with Session.open(save, lock=True):
        assert sidecar(save).read_text() == f"{os.getpid()}\n"
    assert not sidecar(save).exists()


def test_the_lock_follows_save_as(save, tmp_path):
    moved, taken = tmp_path / "moved.toml", tmp_path / "taken.toml"
    shutil.copyfile(save, taken)
    session = Session.open(save, lock=True)
    session.save_as(moved)
    Session.open(save, lock=True).close()  # the old path is free again
    with pytest.raises(SaveLocked):
        Session.open(moved, lock=True)
    other = Session.open(taken, lock=True)
    before = taken.read_text()
    with pytest.raises(SaveLocked, match="already open in another referee"):
        session.save_as(taken)  # open elsewhere: refused before anything is written
    assert taken.read_text() == before and session.path == moved
    with pytest.raises(SaveLocked):
        Session.open(moved, lock=True)
    other.close()
    session.close()
    Session.open(moved, lock=True).close()


def test_a_hard_link_finds_the_same_lock(save, tmp_path):
    """The lock is the file's identity, not its name: a second name (a path through `..`,
    a symlink) is refused while the first is open, before and after the session replaces
    the file; a hard link is refused for writing whatever is open (issue 31, point 7:
    tests/test_hard_links.py), and the lock itself still knows its inode."""
    link = tmp_path / "link.toml"
    link.symlink_to(save)
    dotted = tmp_path / "sub"
    dotted.mkdir()
    session = Session.open(save, lock=True)
    for other in (link, dotted / ".." / "link.toml", dotted / ".." / save.name):
        with pytest.raises(SaveLocked, match="already open in another referee"):
            Session.open(other, lock=True)
    hard = tmp_path / "hard.toml"
    os.link(save, hard)
    with pytest.raises(SaveLocked):
        SaveLock.acquire(hard)
    with pytest.raises(LoadError, match="has 2 names"):
        Session.open(hard, lock=True)
    hard.unlink()
    session.replace_encounter(session.encounter)  # a new inode: the lock moves with it
    for other in (link, dotted / ".." / save.name):
        with pytest.raises(SaveLocked):
            Session.open(other, lock=True)
    session.close()
    Session.open(link, lock=True).close()


def test_play_refuses_a_save_open_under_another_name(save, tmp_path, capsys):
    other = tmp_path / "other.toml"
    other.symlink_to(save)
    with Session.open(save, lock=True):
        assert main(["play", str(other)]) == 1
    assert "already open in another referee" in capsys.readouterr().err


def test_a_lock_is_not_a_session(save):
    with SaveLock.acquire(save) as lock:
        assert lock.held and lock.covers(save.parent / ".." / save.parent.name / save.name)
        with pytest.raises(SaveLocked):
            SaveLock.acquire(save)
    assert not lock.held


def test_a_save_reached_through_a_symlink_is_the_same_save(save, tmp_path):
    link = tmp_path / "elsewhere" / "link.toml"
    link.parent.mkdir()
    link.symlink_to(save)
    with Session.open(save, lock=True), pytest.raises(SaveLocked):
        Session.open(link, lock=True)


HOLDER = ("import sys; from referee.session.store import Session; "
          "s = Session.open(sys.argv[1], lock=True); print('held', flush=True); sys.stdin.read()")


def test_play_refuses_a_save_open_in_another_process(save, capsys, monkeypatch):
    def no_app(path, setup):
        raise AssertionError("the app must not start")

    monkeypatch.setattr(play, "open_app", no_app)
    monkeypatch.setitem(sys.modules, "referee.app", None)  # importing the app fails: no hang
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(save)], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        ready, _, _ = select.select([holder.stdout], [], [], 60)
        assert ready and holder.stdout.readline() == "held\n"
        code, out, err = run(["play", str(save)], capsys)
        assert code == 1 and out == "" and err == f"referee: {refused(save, holder.pid)}\n"
        code, out, _ = run(["plan", str(save), "--json"], capsys)  # reading never locks
        assert code == 0 and json.loads(out)["round"] == 1
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
    assert sidecar(save).read_text() == f"{holder.pid}\n"  # left behind by the killed holder
    with Session.open(save, lock=True):  # the kernel dropped its lock
        pass


# -- a ruleset's acts as command words -------------------------------------------------------

TOY = ROOT / "tests" / "rulesets"


@pytest.fixture
def toy(tmp_path) -> Path:
    """A save of the toy ruleset, which lives only in the tests: found, like every
    ruleset, through the rulesets package (its PACKAGE_DIRS, see conftest.py)."""
    shutil.copyfile(TOY / "toy.toml", tmp_path / "toy.toml")
    shutil.copyfile(TOY / "toy-demo.toml", tmp_path / "toy-demo.toml")
    return tmp_path / "toy-demo.toml"


def test_core_commands_never_import_the_acts_command_line(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "referee.cli.acts", raising=False)
    assert run(["roll", "2d6", "--seed", "3"], capsys)[0] == 0
    assert run(["plan", LATECOMER, "--json"], capsys)[0] == 0
    assert run(["plan", "--help"], capsys)[0] == 0
    assert run(["plan"], capsys)[0] == 2
    assert run(["--help"], capsys)[0] == 0
    assert "referee.cli.acts" not in sys.modules


def test_a_rulesets_act_is_a_command_word_with_its_own_help(toy, capsys):
    """`referee WORD SAVE` is `referee act SAVE WORD`: the same act, found through the
    save's ruleset, the same events."""
    code, out, _ = run(["shout", str(toy), "--actor", "ann", "--text", "Ho!"], capsys)
    assert code == 0 and "Ho!" in out
    code, again, _ = run(["act", str(toy), "shout", "--actor", "ann", "--text", "Ho!"], capsys)
    assert code == 0 and again.split(".", 1)[1] == out.split(".", 1)[1]
    shouts = [e for e in Session.open(toy).fight.log if e.TYPE == "shout"]
    assert [(e.actor, e.text) for e in shouts] == [("ann", "Ho!")] * 2
    code, out, _ = run(["shout", str(toy), "--actor", "ann", "--help"], capsys)
    assert code == 0 and out.startswith("usage: referee shout [-h] [--actor ID] [--text TEXT]")
    assert "the selected combatant shouts (TOY-2)" in out and out.rstrip().endswith(
        "replace the output file if it exists (never the input)")
    code, _, err = run(["shout", str(toy), "--actor", "ann", "--loud"], capsys)
    assert code == 2 and "referee shout: error: unrecognized arguments: --loud" in err
    code, out, _ = run(["shout", "--help"], capsys)  # no save: what a word names, in general
    assert code == 0 and out.startswith("usage: referee shout [-h]") and "SAVE" in out
    assert "an act of the save's ruleset" in out


def test_top_level_help_and_unknown_words_point_to_the_acts(toy, capsys):
    code, out, _ = run(["--help"], capsys)
    assert code == 0 and "`referee ACT SAVE [options]`" in out and "referee act SAVE" in out
    code, _, err = run(["shout"], capsys)
    assert code == 2 and "invalid choice: 'shout'" in err and "referee shout SAVE" in err
    code, out, err = run(["bogus", str(toy)], capsys)  # an error, never the app
    assert code == 1 and out == ""
    assert err == (f"referee: {toy}: Toy has no act 'bogus' (acts: initiative, dice, next, "
                   "hit, miss, heal, condition, round, join, undo, redo, end, note, "
                   "declare-act, shout)\n")


def test_a_core_word_is_never_an_act(toy, capsys, monkeypatch):
    """An act named like a core command is done through `referee act SAVE WORD` only."""
    from referee.engine.specs import Act
    from tests.rulesets.toy import ToyActs, shout

    def plan(fight, actor, values, rng):
        return shout(fight, "ann", {"text": "planned"}, rng)

    monkeypatch.setattr(ToyActs, "acts", lambda self, fight: [Act("plan", "Plan", run=plan)])
    code, out, _ = run(["plan", str(toy), "--json"], capsys)
    assert code == 0 and json.loads(out)["round"] == 1  # the core command
    code, out, _ = run(["act", str(toy), "plan"], capsys)
    assert code == 0 and "planned" in out  # the act
