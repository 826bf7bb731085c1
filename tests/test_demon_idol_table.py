"""demon-idol at the table (issue 24 B.4, 5, 8, 9, 10, 17 and E.16), through the app's own
keys and forms as a referee uses them: what a form offers and refuses, what the tracker,
the plan pane and the log say."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, StatusLine, Tracker
from referee.rulesets.demon_idol import events as di
from tests.conftest import ROOT

LARGE = (120, 40)


class Clock:
    """The declaration clock's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_on(tmp_path: Path, clock: Clock | None = None) -> RefereeApp:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return RefereeApp(path, tmp_path, random.Random(3), clock=clock or Clock())


def form(pilot) -> FormScreen:
    screen = pilot.app.screen
    assert isinstance(screen, FormScreen), screen
    return screen


def field(pilot, name: str):
    return form(pilot).query_one(f"#f-{name}")


def row_text(pilot, cid: str) -> str:
    tracker = pilot.app.screen.query_one(Tracker)
    return " ".join(text for text, _ in tracker.row_cells(tracker.keys.index(cid)))


def plan_rows(pilot) -> list[tuple[str, ...]]:
    pane = pilot.app.screen.query_one(PlanView)
    return [tuple(text for text, _ in pane.row_cells(n)) for n in range(pane.row_count)]


async def select(pilot, cid: str) -> None:
    pilot.app.screen.query_one(Tracker).select(cid)
    await pilot.pause()


def redraw(pilot) -> None:
    """What the table did behind the screen's back, drawn (as after any key)."""
    screen = pilot.app.screen
    assert isinstance(screen, CombatScreen)
    screen.refresh_view()


# B.4: a D needs a missile or thrown weapon, a device, a spell or turning


async def test_a_d_naming_a_melee_weapon_is_refused_beside_the_field_as_typed(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        await select(pilot, "zed")
        await pilot.press("d")
        field(pilot, "weapon").value = "dagger"
        field(pilot, "spell").value = None
        await pilot.press("enter")
        assert "dagger is a melee weapon" in form(pilot).fault()
        assert pilot.app.focused is field(pilot, "weapon")
        assert field(pilot, "weapon").value == "dagger"  # kept as typed
        assert not pilot.app.table.fight.log
        await pilot.press("escape")
        await select(pilot, "brann")  # a long sword and a spear: nothing to discharge
        await pilot.press("d")
        assert isinstance(pilot.app.screen, CombatScreen)
        assert not pilot.app.table.fight.log


# B.5: a volley split between targets


async def test_the_d_form_splits_a_volley_between_targets(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        await select(pilot, "mira")
        await pilot.press("d")
        field(pilot, "shots").value = "Goblin 1, gob2"
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, CombatScreen)
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare)
        assert decl.shots == ("gob1", "gob2") and decl.target == ("gob1", "gob2")
        assert "D short bow → Goblin 1, Goblin 2" in row_text(pilot, "mira")


# B.8: F asks whom it fires before; the hit form of a spell; a group that broke


async def test_f_asks_whom_it_fires_before_when_several_act(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("mira", "D", weapon="short bow", target="gob1", prepared=True,
                      trigger="a goblin strikes")
        table.declare("gob1", "G", target="brann")
        table.declare("gob3", "G", weapon="club", target="brann")
        table.enter_initiative({"party": 2, "goblins": 5})
        redraw(pilot)
        await select(pilot, "mira")
        await pilot.press("F")
        assert [v for _, v in field(pilot, "before").options] == ["gob1", "gob3", None]
        field(pilot, "before").value = "gob3"
        await pilot.press("enter")
        fire = table.fight.log[-1]
        assert isinstance(fire, di.Fire) and fire.before == "gob3"


async def test_the_hit_form_of_a_spell_never_offers_the_weapons_dice(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("zed", "D", spell="sleep", target="gob1")
        table.declare("gob1", "G", target="zed")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        await select(pilot, "zed")
        await pilot.press("h")
        assert field(pilot, "by").value == "zed"
        assert field(pilot, "amount").value == ""  # sleep does no damage: not the dagger's 1d4


async def test_a_group_that_broke_no_longer_shows_its_declaration(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        redraw(pilot)
        assert "G → Brann the fighter" in row_text(pilot, "gob1")
        await select(pilot, "gob1")
        await pilot.press("M")
        field(pilot, "passed").value = False
        await pilot.press("enter")
        assert "G → Brann the fighter" not in row_text(pilot, "gob1")
        assert "A flee (morale, DI-18)" in row_text(pilot, "gob1")


# B.9: the delay the declaration clock added, shown with the declaration


async def test_the_clocks_delay_is_shown_in_the_tracker(tmp_path):
    clock = Clock()
    async with app_on(tmp_path, clock).run_test(size=LARGE) as pilot:
        await select(pilot, "zed")
        await pilot.press("d")  # the party's own: the clock runs
        clock.now += 13  # the player takes 13 seconds: 2 segments (DI-16)
        await pilot.press("enter")
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare) and decl.delay == 2
        assert "D (+2 seg) sleep" in row_text(pilot, "zed")


# B.10: a G after an E strikes whom the E closed on


async def test_a_g_after_an_e_defaults_to_this_rounds_target(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.enter_initiative({"party": 5, "goblins": 2})
        table.next_round()
        redraw(pilot)
        await select(pilot, "brann")
        await pilot.press("e")
        field(pilot, "target").value = "gob3"
        await pilot.press("enter")
        await select(pilot, "brann")
        await pilot.press("g")
        assert "declared already" in form(pilot).spec.title
        await pilot.press("enter")  # add a further action
        await pilot.pause()
        assert field(pilot, "target").value == "gob3"  # not last round's gob1


# E.16: E ends the fight: the recovery turn logged (DI-20); nothing reads as under way


async def test_e_logs_the_recovery_turn_and_leaves_no_beat_under_way(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        table = pilot.app.table
        table.declare("mira", "D", weapon="short bow", target="gob1")
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        table.resolve_next()
        redraw(pilot)
        assert any(row[0] == "▶" for row in plan_rows(pilot))
        await pilot.press("E", "space", "down", *"they fled", "enter")
        assert table.fight.ended
        screen = pilot.app.screen
        assert "one recovery turn passes (DI-20)" in screen.query_one(LogView).lines[-1]
        rows = plan_rows(pilot)
        assert not any(row[0] == "▶" for row in rows)
        assert any("recovery turn" in " ".join(row) for row in rows)
        assert not [cid for cid in table.fight.roster if row_text(pilot, cid).startswith("▶")]
        assert "recovery" in screen.query_one(StatusLine).text


# B.17: the A form takes a note


async def test_the_a_form_takes_a_note(tmp_path):
    async with app_on(tmp_path).run_test(size=LARGE) as pilot:
        await select(pilot, "odo")
        await pilot.press("a")
        field(pilot, "note").value = "slams the door"
        await pilot.press("enter")
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare) and decl.note == "slams the door"
        assert pilot.app.screen.query_one(LogView).lines[-1].endswith(
            "Brother Odo declares A — slams the door")
        assert "A: slams the door" in row_text(pilot, "odo")


# issue 30 B.16: a caster who holds a bow: the D form starts on the bow, and what the
# referee picks instead goes through alone


async def test_a_casters_d_form_starts_on_the_bow_and_a_spell_picked_goes_through(tmp_path):
    from tests.test_demon_idol_rules import ARCHER_MAGE

    path = tmp_path / "archer-mage.toml"
    path.write_text(ARCHER_MAGE, encoding="utf-8")
    app = RefereeApp(path, tmp_path, random.Random(3), clock=Clock())
    async with app.run_test(size=LARGE) as pilot:
        await select(pilot, "ael")
        await pilot.press("d")
        assert field(pilot, "weapon").value == "long bow"
        assert field(pilot, "spell").value is None
        field(pilot, "spell").value = "sleep"  # the bow left as it opened
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, CombatScreen), form(pilot).fault()
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare)
        assert (decl.spell, decl.weapon) == ("sleep", None)
