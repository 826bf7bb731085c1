"""Forms that know who is at the table (issue 24 B.9, B.10): the declaration clock stops
when the referee moves between fields and does not run for the referee's own monsters;
healing and conditions start on the combatant under the cursor."""

from __future__ import annotations

from referee.app.forms import ClockForm
from referee.app.widgets import Tracker
from tests.test_table_ready import LARGE, app_on, demo, form, value


class Ticking:
    """A clock that moves on a second each time it is read."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def test_the_clock_stops_when_the_referee_moves_between_fields(tmp_path):
    app = app_on(demo(tmp_path))
    app.clock = Ticking()
    async with app.run_test(size=LARGE) as pilot:
        pilot.app.screen.query_one(Tracker).select("brann")  # a player's fighter
        await pilot.press("g")
        screen = form(pilot)
        assert isinstance(screen, ClockForm) and screen.clock.running
        await pilot.pause()
        await pilot.press("down")  # the arrows alone: the player has said what they do
        assert not screen.clock.running


async def test_the_clock_is_off_for_the_referees_own_monsters(tmp_path):
    app = app_on(demo(tmp_path))
    async with app.run_test(size=LARGE) as pilot:
        pilot.app.screen.query_one(Tracker).select("gob1")
        await pilot.press("g")
        screen = form(pilot)
        assert isinstance(screen, ClockForm) and not screen.clock.running
        await pilot.press("ctrl+t")  # the referee may start it all the same
        assert screen.clock.running


async def test_heal_and_condition_start_on_the_one_under_the_cursor(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("odo", "G", weapon="mace", target="gob1")
        pilot.app.screen.refresh_view()
        pilot.app.screen.query_one(Tracker).select("odo")
        await pilot.press("plus")
        assert value(pilot, "target") == "odo"  # not odo's declared target, gob1
        await pilot.press("escape", "exclamation_mark")
        assert value(pilot, "target") == "odo"


async def test_i_with_combatants_undeclared_says_who_and_asks(tmp_path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        pilot.app.screen.refresh_view()
        await pilot.press("i")
        asked = form(pilot)
        assert asked.spec.title.startswith("Not declared yet: Zed the magic-user")
        assert "Brann" not in asked.spec.title
        await pilot.press("enter")  # no: nothing rolled
        assert not [e for e in table.fight.log if e.TYPE == "initiative"]
        await pilot.press("i", "space", "enter")
        assert [e for e in table.fight.log if e.TYPE == "initiative"]
