"""Nothing typed is lost (issue 24 A.2): a form whose answer fits its fields but is
refused when it is applied stays open, with the message beside the field at fault and
everything as typed; put right, the same form goes through."""

from __future__ import annotations

from pathlib import Path

from referee.app.forms import FormScreen
from referee.app.setup import SetupScreen
from referee.app.widgets import Tracker
from tests.test_table_ready import LARGE, SMALL, app_on, declare_round, demo, form


def fault_beside(pilot, field: str) -> str:
    """The fault's text, checked to sit right under `field`'s row."""
    screen = form(pilot)
    rows = list(screen.query_one("#form").children)
    note = screen.query_one("#form-fault")
    assert rows[rows.index(note) - 1].id == f"row-{field}"
    return screen.fault()


async def test_a_hit_by_one_who_cannot_act_keeps_the_form_as_typed(tmp_path: Path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        await declare_round(pilot)
        await pilot.press("i")
        table.damage("gob1", 7)  # 5 hp: dying at -2, so cannot act
        pilot.app.screen.refresh_view()
        pilot.app.screen.query_one(Tracker).select("gob1")
        await pilot.press("h")
        screen = form(pilot)
        screen.query_one("#f-amount").value = "7"
        screen.query_one("#f-by").value = "gob1"
        hits = len(table.fight.log)
        await pilot.press("enter")
        assert form(pilot) is screen  # still open
        assert "cannot act" in fault_beside(pilot, "anyway")
        assert pilot.app.focused is screen.query_one("#f-anyway")
        assert screen.query_one("#f-amount").value == "7"  # as typed
        assert len(table.fight.log) == hits
        screen.query_one("#f-anyway").value = True
        await pilot.press("enter")
        assert not isinstance(pilot.app.screen, FormScreen)
        assert table.fight.log[-1].TYPE == "damage" and table.fight.log[-1].amount == 7


async def test_a_join_the_roster_refuses_stays_open(tmp_path: Path):
    async with app_on(demo(tmp_path)).run_test(size=SMALL) as pilot:
        await pilot.press("j")
        screen = form(pilot)
        screen.query_one("#f-id").value = "brann"  # taken
        screen.query_one("#f-name").value = "Brann again"
        count = len(pilot.app.table.fight.roster)
        await pilot.press("enter")
        assert form(pilot) is screen
        assert "brann" in screen.fault()
        assert screen.query_one("#f-name").value == "Brann again"
        assert len(pilot.app.table.fight.roster) == count
        screen.query_one("#f-id").value = "brann2"
        await pilot.press("enter")
        assert not isinstance(pilot.app.screen, FormScreen)
        assert "brann2" in pilot.app.table.fight.roster


async def test_save_as_never_writes_over_a_file_unless_asked(tmp_path: Path):
    path = demo(tmp_path)
    other = tmp_path / "other.toml"
    other.write_text("another fight\n")
    async with app_on(path).run_test(size=LARGE) as pilot:
        await pilot.press("ctrl+s")
        screen = form(pilot)
        screen.query_one("#f-path").value = "other.toml"
        await pilot.press("enter")
        assert form(pilot) is screen and "exists" in fault_beside(pilot, "path")
        assert other.read_text() == "another fight\n"
        screen.query_one("#f-path").value = "fight.toml"  # this save itself
        screen.query_one("#f-force").value = True
        await pilot.press("enter")
        assert form(pilot) is screen and "which this reads" in screen.fault()
        screen.query_one("#f-path").value = "other.toml"
        await pilot.press("enter")
        assert not isinstance(pilot.app.screen, FormScreen)
        assert pilot.app.session.path == other
        assert "format = \"referee-save\"" in other.read_text()


async def test_a_declaration_the_rules_refuse_keeps_its_form(tmp_path: Path):
    """The declaration clock's form too: the actor fell while the player decided."""
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        pilot.app.screen.query_one(Tracker).select("gob1")
        await pilot.press("g")
        screen = form(pilot)
        typed = screen.query_one("#f-trigger").value = "when the chief falls"
        table.damage("gob1", 99)  # down while the form was open
        await pilot.press("enter")
        assert form(pilot) is screen
        # refused as the key refuses it: the declaration act checks its actor again
        assert screen.fault() == "Goblin 1 is dead"
        assert screen.query_one("#f-trigger").value == typed
        assert "gob1" not in table.declared()


async def test_set_up_keeps_a_refused_combatant_as_typed(tmp_path: Path):
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await pilot.press("ctrl+e")
        assert isinstance(pilot.app.screen, SetupScreen)
        await pilot.press("a")
        screen = form(pilot)
        screen.query_one("#f-id").value = "zed"  # taken
        screen.query_one("#f-name").value = "Zed the second"
        await pilot.press("enter")
        assert form(pilot) is screen and "zed" in screen.fault()
        assert screen.query_one("#f-name").value == "Zed the second"
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, SetupScreen)
