"""The work a form's answer and a key press cost on the combat screen, counted (never
timed): a form closing draws the screen once, with everything its answer changed already
in it (the tracker, plan and log drawn once, not again a frame later), and the combat
screen's own background, which its widgets cover whole, is never worked out."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, Tracker, plain
from tests.test_table_ready import LARGE, app_on, declare_round, demo, form


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each of the combat screen's parts was asked for its lines (once a
    frame that shows it), and how many of the screen's own lines were worked out."""
    counts: Counter[str] = Counter()
    render_lines, plain_lines = Widget.render_lines, plain.plain_lines

    def counted(self: Widget, crop: object) -> list[Strip]:
        counts[type(self).__name__ if not isinstance(self, CombatScreen) else "screen"] += 1
        return render_lines(self, crop)  # type: ignore[arg-type]

    def background(self: Widget, y: int) -> Strip:
        counts["screen line"] += 1
        return Widget.render_line(self, y)

    def plainly(widget: Widget, crop: Region) -> list[Strip] | None:
        lines = plain_lines(widget, crop)  # drawn without Widget.render_lines
        if lines is not None:
            counts[type(widget).__name__] += 1
        return lines

    monkeypatch.setattr(Widget, "render_lines", counted)
    monkeypatch.setattr(plain, "plain_lines", plainly)
    monkeypatch.setattr(CombatScreen, "render_line", background)
    return counts


async def settled(pilot) -> None:
    """Until every frame the last key caused has been drawn."""
    for _ in range(3):
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.05)


async def test_a_form_answered_draws_the_screen_once(tmp_path: Path, drawn: Counter[str]):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        for cid in ("brann", "gob1", "ogre"):  # a player's (its clock runs) and monsters'
            pilot.app.screen.query_one(Tracker).select(cid)
            await pilot.press("g")
            form(pilot)
            await settled(pilot)
            drawn.clear()
            await pilot.press("enter")
            await settled(pilot)
            assert not isinstance(pilot.app.screen, FormScreen)
            assert cid in table.declared()
            parts = ["screen", Tracker.__name__, PlanView.__name__, LogView.__name__]
            assert [drawn[name] for name in parts] == [1, 1, 1, 1], drawn
            assert drawn["screen line"] == 0


async def test_a_key_press_draws_what_changed_once(tmp_path: Path, drawn: Counter[str]):
    """`i` then `n`: the plan and the log drawn once a press, no second frame after."""
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        await settled(pilot)
        log = pilot.app.table.fight.log
        for _ in range(3):
            drawn.clear()
            events = len(log)
            await pilot.press("n")
            await settled(pilot)
            assert len(log) == events + 1
            assert drawn["screen"] == 1 and drawn[PlanView.__name__] == 1, drawn
            assert drawn[LogView.__name__] == 1, drawn
            assert drawn["screen line"] == 0
