"""What a new referee tripped over in the first fight (issue "Table-ready"), each as a
Pilot or unit test of the behaviour a referee at the table expects."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, StatusLine, Tracker
from referee.engine import events as ev
from referee.session.files import load_save
from tests.conftest import ROOT

SMALL, LARGE = (80, 24), (120, 40)
DI_ROUND = {"brann": "g", "zed": "d", "mira": "d", "odo": "g", "gob1": "g", "gob2": "g",
            "gob3": "d", "ogre": "g", "shaman": "d"}


class StillClock:
    def __call__(self) -> float:
        return 1000.0


def demo(tmp_path: Path, name: str = "demo.toml") -> Path:
    target = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / name, target)
    return target


def app_on(path: Path) -> RefereeApp:
    return RefereeApp(path, path.parent, random.Random(3), clock=StillClock())


async def declare_round(pilot) -> None:
    for _ in DI_ROUND:
        await pilot.press(DI_ROUND[pilot.app.screen.selected()], "enter")


def visible_rows(widget) -> range:
    top = widget.scroll_offset.y
    return range(top, top + widget.scrollable_content_region.height)


def form(pilot) -> FormScreen:
    screen = pilot.app.screen
    assert isinstance(screen, FormScreen)
    return screen


def value(pilot, name: str):
    return form(pilot).query_one(f"#f-{name}").value


# 1. The current beat and the newest log line are always on screen, at 80x24 too.


async def test_the_current_beat_and_the_newest_line_stay_in_view_at_80x24(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=SMALL) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        screen = pilot.app.screen
        log, plan = screen.query_one(LogView), screen.query_one(PlanView)
        for _ in range(6):
            await pilot.press("h", "enter")
            if isinstance(pilot.app.screen, FormScreen):  # refused (the actor is down): kept open
                await pilot.press("escape")
            await pilot.press("n")
            await pilot.pause()
            assert not log.show_horizontal_scrollbar and not plan.show_horizontal_scrollbar
            assert len(log.lines) - 1 in visible_rows(log)
            current = pilot.app.table.current_beat()
            if current is not None:
                assert current in visible_rows(plan)  # the header is row 0: beat n is row n


# 2. Hits and misses are by who acts now; one who cannot act is not recorded acting.


async def test_a_hit_is_by_the_current_beats_actor_not_the_highlighted_row(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        acting = pilot.app.table.acting()
        idle = next(cid for cid in pilot.app.table.fight.roster if cid not in acting)
        pilot.app.screen.query_one(Tracker).select(idle)
        await pilot.press("h")
        assert value(pilot, "by") == acting[0]
        await pilot.press("enter")
        hit = [e for e in pilot.app.table.fight.log if isinstance(e, ev.Damage)][-1]
        assert hit.source == acting[0]


async def test_one_who_cannot_act_is_refused_unless_on_purpose(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 2, "goblins": 5})
        table.damage("gob1", 7)  # 5 hp: dying at -2
        pilot.app.screen.refresh_view()
        pilot.app.screen.query_one(Tracker).select("gob1")
        await pilot.press("h")
        form(pilot).query_one("#f-by").index = [v for _, v in form(pilot).query_one(
            "#f-by").options].index("gob1")
        await pilot.press("enter")
        assert not [e for e in table.fight.log if isinstance(e, ev.Damage) and e.source]
        await pilot.press("h")
        by = form(pilot).query_one("#f-by")
        by.index = [v for _, v in by.options].index("gob1")
        form(pilot).query_one("#f-anyway").index = 1
        await pilot.press("enter")
        assert [e.source for e in table.fight.log if isinstance(e, ev.Damage)][-1] == "gob1"


# 4. A latecomer's blank "count reached" is the count the round is at.


async def test_a_latecomer_with_a_blank_count_joins_at_the_current_count(tmp_path):
    path = demo(tmp_path, "count-up.toml")
    async with app_on(path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        for cid in table.fight.roster:
            table.declare(cid, "attack", **table.prefill(cid, "attack"))
        table.roll_initiative()
        table.resolve_next()
        reached = table.plan().beats[0].extra["count"]
        pilot.app.screen.refresh_view()
        await pilot.press("j")
        for name, text in (("id", "ghoul"), ("hp", "9"), ("base", "8")):
            form(pilot).query_one(f"#f-{name}").value = text
        await pilot.press("enter")
        joined = [e for e in table.fight.log if e.TYPE == "join"][-1]
        assert joined.at_count == reached


# 5. Every amount takes dice or a number.


async def test_healing_takes_dice(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        pilot.app.table.damage("brann", 9)
        await pilot.press("plus")
        form(pilot).query_one("#f-amount").value = "1d8"
        await pilot.press("enter")
        log = pilot.app.table.fight.log
        assert log[-2].TYPE == "roll" and log[-2].expr == "1d8"
        assert log[-1].TYPE == "heal" and log[-1].amount == log[-2].total


# 6. Forms: the cursor on the first field, nothing dropped, Enter says what is missing.


async def test_the_condition_form_starts_on_its_first_field_and_refuses_what_does_not_fit(
        tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await pilot.press("exclamation_mark")
        assert pilot.app.focused is form(pilot).query_one("#f-name")
        await pilot.press("enter")  # nothing typed yet
        assert isinstance(pilot.app.screen, FormScreen)
        assert "missing: condition" in form(pilot).fault()
        await pilot.press(*"Down")
        form(pilot).query_one("#f-rounds").value = "two"
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, FormScreen)
        assert "whole number" in form(pilot).fault()
        assert pilot.app.focused is form(pilot).query_one("#f-rounds")  # the field at fault
        form(pilot).query_one("#f-rounds").value = "2"
        await pilot.press("enter")
        event = pilot.app.table.fight.log[-1]
        assert (event.TYPE, event.name, event.duration) == ("condition", "Down", 2)


# 7. Declaring again replaces; after initiative the referee is asked.


async def test_declaring_again_replaces_and_after_initiative_asks_first(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=LARGE) as pilot:
        await pilot.press("g", "enter")
        pilot.app.screen.query_one(Tracker).select("brann")
        await pilot.press("a", "enter")  # Brann has nothing to discharge: an A
        table = pilot.app.table
        assert table.declared()["brann"].action == "A"
        assert len(table.fight.declared(1)) == 1 and table.fight.log[-1].replaces
        await pilot.press("ctrl+z")
        assert table.declared()["brann"].action == "G"
        await pilot.press("i", "space", "enter")  # the others undeclared: asked, yes
        pilot.app.screen.query_one(Tracker).select("brann")
        await pilot.press("a")
        assert "declared already" in form(pilot).spec.title
        await pilot.press("enter")  # no: nothing changes
        assert table.declared()["brann"].action == "G"


# 9. The damage form offers the acting weapon's damage; healing aims at the declared target.


async def test_the_damage_form_offers_the_weapons_damage(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        pilot.app.screen.query_one(Tracker).select("ogre")
        await pilot.press("h")
        assert value(pilot, "amount") == pilot.app.table.damage_default(value(pilot, "by"))
        await pilot.press("escape")
        assert pilot.app.table.damage_default("ogre") == "2d6"


# 13. The small screen: one status line, every combatant, state words whole, help and quit.


async def test_the_small_screen_keeps_what_matters(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=SMALL) as pilot:
        pilot.app.table.damage("gob1", 7)
        pilot.app.screen.refresh_view()
        screen = pilot.app.screen
        assert screen.query_one(StatusLine).region.height == 1
        tracker = screen.query_one(Tracker)
        assert len(tracker.keys) == 9 and tracker.scrollable_content_region.height >= 10
        assert "state" in [tracker.labels[c] for c in tracker.visible_columns()]
        row = tracker.keys.index("gob1")
        text = "".join(seg.text for seg in tracker.render_line(row + 1))
        assert "dying" in text
        keys = "".join(seg.text for seg in screen.query_one("#keys").render_line(0))
        assert " ? " in keys and " q " in keys


# 14. Saves follow the user's umask; the app's dice go on after reopening.


async def test_saves_follow_the_umask_and_dice_go_on_after_reopening(tmp_path):
    path = demo(tmp_path)
    old = os.umask(0o022)
    try:
        rolls = []
        for _ in range(2):
            app = RefereeApp(path, tmp_path, clock=StillClock())
            async with app.run_test(size=LARGE) as pilot:
                rolls.append(pilot.app.table.rolled("1d20", "a test")[0])
                for _ in range(3):
                    rolls.append(pilot.app.table.rolled("1d20", "a test")[0])
        assert rolls[:4] != rolls[4:]
        pilot.app.table.session.save_as(tmp_path / "copy.toml")
        assert (tmp_path / "copy.toml").stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(old)
    assert len([e for e in load_save(path).fight.log if e.TYPE == "roll"]) == 8


# 10. The plan pane says what `referee plan` says: skipped actions and lost spells too.


async def test_the_plan_pane_shows_skipped_actions_and_lost_spells(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("shaman", "D", spell="cause fear", target="brann")
        table.declare("gob1", "G", target="brann")
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.enter_initiative({"party": 5, "goblins": 2})
        table.damage("gob1", 7, source="brann")  # gob1 dying: its blow is skipped (DI-19)
        table.damage("shaman", 1, source="brann")  # before its beat: the spell is lost
        pilot.app.screen.refresh_view()
        rows = pilot.app.screen.query_one(PlanView).rows
        texts = [" ".join(cell[0] for cell in row) for row in rows]
        assert any("[lost]" in t for t in texts)
        assert any(t.startswith("✗ skipped gob1:G") and "DI-19" in t for t in texts)


# 14. Set-up asks for the keys the save's ruleset reads.


async def test_count_up_set_up_asks_for_its_own_keys(tmp_path):
    async with app_on(demo(tmp_path, "count-up.toml")).run_test(size=LARGE) as pilot:
        await pilot.press("ctrl+e", "a")
        names = {f.name for f in form(pilot).spec.fields}
        assert {"stress", "strength", "agility"} <= names and "reaction" not in names
