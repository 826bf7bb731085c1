"""A fight that ends, and notes (issue 24 E): `E` ends the fight (asked first) with the
ruleset's end rules logged; an ended save reopens as ended and refuses what would move it
on; ctrl+z reopens it. `N` writes a note, which the players' view leaves out when it is
kept from them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import StatusLine
from referee.app.widgets.keys import KeyLine
from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.session.files import load_save
from referee.session.follow import Follower, players_view
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT


def demo(tmp_path: Path, name: str = "demo.toml") -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / name, path)
    return path


async def test_e_ends_the_fight_and_ctrl_z_reopens_it(tmp_path):
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("E")
        assert isinstance(app.screen, FormScreen)
        await pilot.press("enter")  # asked first: no is the default, nothing happens
        assert not app.table.fight.ended and not app.table.fight.log
        await pilot.press("E", "space", "down", *"fled", "enter")
        assert app.table.fight.ended
        end = [e for e in app.table.fight.log if isinstance(e, ev.End)]
        assert len(end) == 1 and end[0].note == "fled"
        line = app.screen.query_one(KeyLine).line().plain
        assert " n " not in line and " r " not in line and " ^z " in line
        assert " h " not in line and " m " not in line  # no beat to hit or miss in
        assert "the fight is over: fled" in app.screen.query_one("#log").lines[-1]
    reopened = load_save(path).fight
    assert reopened.ended  # an ended save reopens as ended
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        assert "fight.toml" in app.screen.query_one(StatusLine).text + \
            app.screen.query_one(StatusLine).keep
        await pilot.press("ctrl+z")
        assert not app.table.fight.ended
        assert " r " in app.screen.query_one(KeyLine).line().plain


@pytest.mark.parametrize("name", ["demo.toml", "count-up.toml", "agility-order.toml",
                                  "phases.toml", "sanctum.toml"])
def test_an_ended_fight_refuses_what_would_move_it_on(tmp_path, name):
    path = demo(tmp_path, name)
    with Session.open(path) as session:
        table = Table(session, random.Random(2))
        table.end("a truce")
        assert table.fight.ended
        with pytest.raises(RefereeError, match="the fight is over"):
            table.next_round()
        table.note("they parley", hidden=True)  # a note still goes in
        table.undo()
        table.undo()
        assert not table.fight.ended
    assert not load_save(path).fight.ended


def test_a_hidden_note_never_reaches_the_players(tmp_path):
    path = demo(tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(2))
        table.note("the ogre carries the key", hidden=True)
        table.note("a storm rolls in")
    follower = Follower(path)
    follower.poll()
    assert follower.fight is not None
    shown = "\n".join(players_view(follower.fight, follower.title, follower.told).log)
    assert "a storm rolls in" in shown
    assert "ogre" not in shown and "key" not in shown
    line = [e for e in load_save(path).fight.log if isinstance(e, ev.Note)][0]
    assert line.hidden


async def test_n_writes_a_note_kept_from_the_players(tmp_path):
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("N", *"the ogre has the key", "down", "space", "enter")
        note = app.table.fight.log[-1]
        assert isinstance(note, ev.Note) and note.hidden and note.text == "the ogre has the key"
        assert "(kept from the players)" in app.screen.query_one("#log").lines[-1]


def test_the_recap_says_the_fight_is_over(tmp_path, capsys):
    from referee.cli import main

    path = demo(tmp_path)
    with Session.open(path) as session:
        Table(session, random.Random(2)).end("the goblins fled")
    assert main(["export", str(path), "--markdown"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("**The fight is over: the goblins fled**")


async def test_an_ended_fight_offers_no_hit_or_miss_in_any_ruleset(tmp_path):
    for name in ("agility-order.toml", "phases.toml", "sanctum.toml"):
        path = tmp_path / name
        shutil.copyfile(ROOT / "saves" / name, path)
        app = RefereeApp(path, tmp_path, random.Random(1))
        async with app.run_test(size=(120, 40)) as pilot:
            app.table.end("a truce")
            app.screen.refresh_view()
            await pilot.pause()
            line = app.screen.query_one(KeyLine).line().plain
            assert " h " not in line and " m " not in line and " n " not in line, (name, line)


def test_an_empty_beat_after_the_fight_ended_is_not_ticked() -> None:
    """A beat with nothing to do is passed once the round goes past it; the fight that
    ended before it never got there (phases' last phases after E)."""
    from referee.engine.plan import Beat, Plan, PlannedAction
    from referee.session.view import plan_rows

    def beat(*actors: str) -> Beat:
        return Beat([PlannedAction(a, "turn") for a in actors], [], [], {})

    plan = Plan("toy", 1, [beat("ann"), beat(), beat("bob"), beat()])
    done = {"ann:turn"}
    plan.over = True
    assert [row.mark for row in plan_rows(plan, done)] == ["✓", "", "", ""]
    plan.over = False
    assert [row.mark for row in plan_rows(plan, done | {"bob:turn"})] == ["✓"] * 4
