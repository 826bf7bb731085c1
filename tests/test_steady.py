"""Screens shown are laid out once at their size (referee/app/steady.py), counted, never
timed; a new terminal size still lays out the screen on top and those behind it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen

from referee.app.combat import CombatScreen
from referee.app.help import HelpScreen
from tests.test_app_flows import app_on, demo


@pytest.fixture
def layouts(monkeypatch) -> list[str]:
    laid: list[str] = []
    before = Screen._refresh_layout

    def counted(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        laid.append(type(self).__name__)
        before(self, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    return laid


async def test_the_help_opened_is_laid_out_alone_not_the_fight_behind(tmp_path: Path,
                                                                   layouts: list[str]):
    async with app_on(demo(tmp_path)).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        fight = pilot.app.screen
        assert isinstance(fight, CombatScreen)
        layouts.clear()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        assert layouts and type(fight).__name__ not in layouts  # the help only


async def test_a_new_size_under_the_help_reaches_the_fight_behind(tmp_path: Path,
                                                                 layouts: list[str]):
    async with app_on(demo(tmp_path)).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        fight = pilot.app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        layouts.clear()
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert pilot.app.screen.size == (120, 40)
        assert fight.size == (120, 40) and type(fight).__name__ in layouts
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is fight
        assert fight.query_one("Tracker").size.width > 80  # drawn at the new width
