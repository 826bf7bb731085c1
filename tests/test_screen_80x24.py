"""The screen says what is true at 80x24 too (issue 24 C): the why a narrow plan cuts
is read whole with Enter on its beat; shortened columns; the status keeps the file."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.widgets import PlanView, StatusLine, Tracker
from tests.conftest import ROOT


def demo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "a-long-name-for-the-mill-fight.toml"
    shutil.copyfile(ROOT / "saves" / name, path)
    return path


async def test_enter_on_a_beat_shows_its_why_whole(tmp_path):
    app = RefereeApp(demo(tmp_path, "agility-order.toml"), tmp_path, random.Random(1))
    told: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        app.notify = lambda message, **kw: told.append(str(message))  # type: ignore[method-assign]
        plan = app.screen.query_one(PlanView)
        await pilot.press("tab")
        assert app.focused is plan
        await pilot.press("down", "enter")
        assert told and told[-1].startswith("2. brann:turn")
        assert "the tie is not rolled yet (roster order)" in " ".join(told[-1].split())


async def test_the_status_keeps_the_file_and_columns_come_back_short(tmp_path):
    app = RefereeApp(demo(tmp_path, "count-up.toml"), tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        assert status.line(80).endswith("· a-long-name-for-the-mill-fight.toml")
        tracker = app.screen.query_one(Tracker)
        columns, widths = tracker.fit()
        labels = [tracker.labels[c] for c in columns]
        assert "side" in labels  # shortened, not dropped
        side = tracker.row_strip(tracker.row_cells(3), None).text
        assert "pack" in side  # "The pack", its article dropped, not "The pa…"


async def test_a_long_placeholder_is_read_whole_under_its_field(tmp_path):
    from referee.app.forms import FormScreen
    from referee.app.setup import SetupScreen

    app = RefereeApp(demo(tmp_path, "demo.toml"), tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+e")
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("a")
        form = app.screen
        assert isinstance(form, FormScreen)
        helps = [str(n.render()) for n in form.query(".field-help")]
        weapons = next(f for f in form.spec.fields if f.name == "weapons")
        assert weapons.help in helps  # whole, under the field
        assert form.query_one("#f-weapons").placeholder == ""  # not cut in the input


async def test_the_plan_keeps_room_for_rules_and_why_and_ticks_no_empty_beat_early(tmp_path):
    """phases: a beat of many actors left no room for its rules and why; a phase where
    everyone holds was ticked off before the fight began."""
    app = RefereeApp(demo(tmp_path, "phases.toml"), tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        plan = app.screen.query_one(PlanView)
        columns, widths = plan.fit()
        assert [plan.labels[c] for c in columns] == ["", "beat", "actions", "rules", "why"]
        assert widths[4] >= 10
        marks = [plan.row_cells(n)[0][0] for n in range(len(plan.rows))]
        assert "✓" not in marks  # nothing done yet, not even the phase where all hold


async def test_no_column_is_lost_at_80x24(tmp_path):
    """The columns a narrow screen dropped (side, agility-order's wounds, sanctum's
    effects, count-up's conditions) come back shortened, one cell apart."""
    wanted = {"agility-order.toml": ["side", "wounds", "conditions"],
              "sanctum.toml": ["side", "effects", "conditions"],
              "count-up.toml": ["side", "conditions"]}
    for name, labels in wanted.items():
        app = RefereeApp(demo(tmp_path, name), tmp_path, random.Random(1))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            tracker = app.screen.query_one(Tracker)
            shown = [tracker.labels[c] for c in tracker.visible_columns()]
            assert all(label in shown for label in labels), (name, shown)
