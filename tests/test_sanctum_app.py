"""sanctum in the app: F fights the turn into the log attack by attack; O shows the odds
as a chart, any run opening in replay; P lists a turn's pairs; set-up edits groups."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.app import RefereeApp
from referee.app.charts import ChartView
from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.replay import ReplayScreen
from referee.app.report import ReportScreen
from referee.app.setup import SetupScreen
from referee.cli import main
from referee.session.files import load_save
from tests.conftest import ROOT


def demo(tmp_path: Path) -> Path:
    target = tmp_path / "sanctum.toml"
    shutil.copyfile(ROOT / "saves" / "sanctum.toml", target)
    return target


async def test_f_fights_the_turn_and_the_log_fills(tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F")
        await pilot.pause()
    fight = load_save(path).fight
    attacks = [e for e in fight.log if e.TYPE == "attack"]
    assert attacks and any(e.TYPE == "combat-end" for e in fight.log)
    # the same steps as `referee fight` from the save's seed
    fresh = load_save(ROOT / "saves" / "sanctum.toml").fight
    steps, seed = fresh.ruleset.fold.pending(fresh)
    assert seed == 11
    def plain(event):  # the app enters a fight as one act: its steps follow the first
        return {k: v for k, v in event.to_dict().items() if k != "follows"}

    assert [plain(e) for e in steps] == [plain(e) for e in fight.log[1:]]
    assert all(e.follows for e in fight.log[2:])
    plan = fight.plan()  # every combat done: fought ones ticked off, a repeat skipped
    done = fight.resolved[1]
    for beat in plan.beats:
        if beat.extra.get("skipped"):
            assert all(a.flag("skipped") for a in beat.actions)
        else:
            assert done.issuperset(beat.action_keys())
    assert plan.current(done) is None


async def odds_shown(pilot: Any) -> ReportScreen:
    """O pressed, its worker waited for: the chart screen as it shows the report."""
    await pilot.press("O")
    screen = pilot.app.screen
    assert isinstance(screen, ReportScreen)
    await screen.workers.wait_for_complete()
    await pilot.pause()
    return screen


async def test_n_fights_one_pair_and_o_shows_the_odds_writing_nothing(tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        before = path.read_text()
        screen = await odds_shown(pilot)
        report = screen.report
        assert report is not None and report.title.startswith(
            "Odds (SA-11): turn 1, 1000 runs from seed 11")
        assert len(report.runs) == 1000 and len(screen.query(ChartView)) == 4
        assert path.read_text() == before  # the odds never change the save
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, CombatScreen)
    fight = load_save(path).fight
    ends = [e for e in fight.log if e.TYPE == "combat-end"]
    assert len(ends) == 1 and ends[0].groups == ("red-1", "blue-1")
    assert not [e for e in fight.log if e.TYPE == "note"]


async def test_a_turn_set_up_fought_its_odds_and_one_run_replayed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Set up (a group edited), F, O, and run 3 opened in replay: its file is the one
    `referee fight SAVE --seed X -o RUN.toml` writes."""
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+e")
        setup = pilot.app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#items-groups").focus()
        await pilot.press("down", "e")  # blue-1
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-created").value = "0"  # now older than red-1's 1 (SA-1)
        await pilot.press("enter")
        await pilot.pause()
        assert [g["created"] for g in load_save(path).encounter.stats["groups"]] == [1, 0, 3]
        await pilot.press("escape")
        await pilot.press("F")
        await pilot.pause()
        fought = load_save(path).fight
        assert any(e.TYPE == "combat-end" for e in fought.log)
        screen = await odds_shown(pilot)
        assert screen.report is not None
        run = screen.report.runs[2]
        await pilot.press("g")
        pilot.app.screen.query_one("#f-run").value = "3"
        await pilot.press("enter")
        await pilot.pause()
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen)
        written = tmp_path / "sanctum-run-3.toml"
        assert replay.path == written
        steps = [e for e in replay.fight.log if e.TYPE == "attack"]
        assert steps and replay.at == len(replay.fight.log)  # the whole run, at its end
        await pilot.press("escape")
        assert pilot.app.screen is screen
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, CombatScreen)
    assert load_save(path).fight.log == fought.log  # neither O nor the run touched it
    cli = tmp_path / "cli-run.toml"
    assert main(["fight", str(path), "--seed", str(run.seed), "-o", str(cli)]) == 0
    capsys.readouterr()
    assert written.read_text() == cli.read_text()
    # the run differs from the fight the save holds only where the seed differs
    assert load_save(written).fight.log[0] == fought.log[0]


async def test_opening_a_run_twice_never_writes_over_the_first(tmp_path: Path) -> None:
    path = demo(tmp_path)
    (tmp_path / "sanctum-run-1.toml").write_text("mine")
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await odds_shown(pilot)
        await pilot.press("enter")  # the cursor is on run 1
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayScreen)
        assert pilot.app.screen.path.name == "sanctum-run-1-2.toml"
    assert (tmp_path / "sanctum-run-1.toml").read_text() == "mine"


def unlisted(tmp_path: Path) -> Path:
    """The demo without its `combats` event: turn 1 lists no pairs."""
    path = demo(tmp_path)
    text = path.read_text()
    path.write_text(text[: text.index("[[events]]")])
    return path


def combats(path: Path) -> list[Any]:
    return [e for e in load_save(path).fight.log if e.TYPE == "combats"]


async def test_p_lists_the_turns_pairs_and_enter_takes_every_hostile_pair(
        tmp_path: Path) -> None:
    path = unlisted(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-pairs").value == \
            "red-1 blue-1; red-1 wild-1; blue-1 wild-1"  # in creation order
        await pilot.press("enter")
        await pilot.pause()
        listed = combats(path)
        assert [(e.round, e.pairs) for e in listed] == [
            (1, (("red-1", "blue-1"), ("red-1", "wild-1"), ("blue-1", "wild-1")))]
        await pilot.press("P")  # listed already: refused before any form
        assert not isinstance(pilot.app.screen, FormScreen)
        await pilot.press("F")  # and they are the turn's combats
        await pilot.pause()
    assert any(e.TYPE == "combat-end" for e in load_save(path).fight.log)


async def test_p_refuses_pairs_the_event_would_refuse(tmp_path: Path) -> None:
    path = unlisted(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        for text, said in (("red-1 blue-1; blue-1 blue-1", "not hostile"),
                           ("red-1 ghost-9", "unknown group 'ghost-9'"),
                           ("red-1 blue-1 wild-1", "a pair is two groups")):
            await pilot.press("P")
            pilot.app.screen.query_one("#f-pairs").value = text
            await pilot.press("enter")
            await pilot.pause()
            form = pilot.app.screen
            assert isinstance(form, FormScreen)  # refused: kept open, as typed
            assert said in form.fault(), (text, form.fault())
            assert form.query_one("#f-pairs").value == text
            assert not combats(path)
            await pilot.press("escape")
        await pilot.press("P")
        pilot.app.screen.query_one("#f-pairs").value = "blue-1 red-1; wild-1 red-1"
        await pilot.press("enter")
        await pilot.pause()
    assert [e.pairs for e in combats(path)] == [(("blue-1", "red-1"), ("wild-1", "red-1"))]


async def test_p_lists_the_next_turn_once_this_ones_combats_are_fought(
        tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")  # turn 1 lists its combats, not fought yet
        assert not isinstance(pilot.app.screen, FormScreen)
        await pilot.press("F")
        await pilot.pause()
        await pilot.press("P")
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-pairs").value == ""  # only wild-1 has minions standing
        said = form.query_one("#f-pairs").placeholder  # C.13: no wiped-out group offered
        assert "red-1" not in said and "blue-1" not in said and "E ends the fight" in said
        form.query_one("#f-pairs").value = "wild-1 blue-1"
        await pilot.press("enter")
        await pilot.pause()
    assert [(e.round, e.pairs) for e in combats(path)][1:] == [(2, (("wild-1", "blue-1"),))]


# -- issue 24: C.13 and E.16 --------------------------------------------------------------


def plan_texts(pilot: Any) -> list[str]:
    from referee.app.widgets import PlanView

    rows = pilot.app.screen.query_one(PlanView).cells.values()
    return [f"{row.mark} {row.actions}" for row, _ in rows]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_after_f_the_fought_combats_read_done_and_the_turn_is_named_once(
        tmp_path: Path, size: tuple[int, int]) -> None:
    """C.13: after F every fought pair is ticked off, not [skipped] (the repeat pair
    alone is skipped, SA-2); the status line names the turn once."""
    from referee.app.widgets import StatusLine

    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=size) as pilot:
        await pilot.press("F")
        await pilot.pause()
        texts = plan_texts(pilot)
        fought = [t for t in texts if "fought:" in t]
        assert len(fought) == 3 and all(t.startswith("✓") and "[skipped]" not in t
                                        for t in fought)
        assert [t for t in texts if "[skipped]" in t] == [
            t for t in texts if "blue-1 vs red-1: skipped" in t]
        status = pilot.app.screen.query_one(StatusLine).text
        assert "turn 1" not in status and "4/4 pairs fought" in status


async def test_e_ends_the_fight_and_no_combat_is_offered(tmp_path: Path) -> None:
    """E.16: ended after one pair, no combat is offered: F, P and O are gone from the
    keys and do nothing, the status line says the fight is over, the plan has no current
    beat and says the pairs left are never fought."""
    from referee.app.widgets import StatusLine
    from referee.app.widgets.keys import KeyLine

    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("E", "right", "enter")
        table = pilot.app.table
        assert table.fight.ended and table.current_beat() is None
        keys = pilot.app.screen.query_one(KeyLine).line().plain
        assert " F " not in keys and " O " not in keys and "^z" in keys
        assert pilot.app.screen.query_one(StatusLine).text.endswith(
            "1/4 pairs fought · the fight is over")
        before = path.read_text()
        for key in ("F", "P", "O"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(pilot.app.screen, CombatScreen), key
        assert path.read_text() == before
        assert not [t for t in plan_texts(pilot) if t.startswith("▶")]
        assert any("never fought" in t for t in plan_texts(pilot))


def test_referee_fight_refuses_an_ended_fight(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """E.16: `referee fight` on an ended save says so, and writes nothing."""
    from referee.session.store import Session
    from referee.session.table import Table

    path = demo(tmp_path)
    with Session.open(path) as session:
        Table(session).end("a truce")
    before = path.read_text()
    assert main(["fight", str(path)]) == 1
    assert "the fight is over" in capsys.readouterr().err
    assert path.read_text() == before
