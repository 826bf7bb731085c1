"""Pilot tests: every flow of the app on both rulesets, asserting what the save holds."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.forms import ClockForm as DeclareForm
from referee.app.forms import FormScreen as Form
from referee.engine import events as ev
from referee.rulesets.demon_idol.state import state_of
from referee.session.files import load_save
from tests.conftest import ROOT

SIZE = (120, 40)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def copy(source: Path, folder: Path, name: str = "fight.toml") -> Path:
    target = folder / name
    shutil.copyfile(source, target)
    return target


def demo(tmp_path: Path) -> Path:
    return copy(ROOT / "saves" / "demo.toml", tmp_path)


def app_on(path: Path, clock: FakeClock | None = None) -> RefereeApp:
    return RefereeApp(path, path.parent, random.Random(3), clock=clock or FakeClock())


DI_ROUND = {"brann": "g", "zed": "d", "mira": "d", "odo": "g", "gob1": "g", "gob2": "g",
            "gob3": "d", "ogre": "g", "shaman": "d"}


def fill(pilot, **values: str) -> None:
    """Type into the open form's fields, by name."""
    for name, value in values.items():
        pilot.app.screen.query_one(f"#f-{name}").value = value


async def declare_all(pilot, keys: dict[str, str]) -> None:
    for _ in keys:
        actor = pilot.app.screen.selected()
        await pilot.press(keys[actor])
        assert isinstance(pilot.app.screen, Form)
        await pilot.press("enter")


async def test_declare_a_full_round_roll_and_resolve(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        assert isinstance(pilot.app.screen, CombatScreen)
        await declare_all(pilot, DI_ROUND)
        table = pilot.app.table
        assert set(table.declared()) == set(DI_ROUND) and table.next_undeclared() is None
        await pilot.press("i")
        assert 1 in table.fight.initiatives
        beats = len(table.plan().beats)
        for _ in range(beats):
            await pilot.press("n")
        keys = {k for n in range(1, beats + 1) for k in table.plan().keys(n)}
        assert table.fight.resolved[1] == keys and table.current_beat() is None
    fight = load_save(path).fight
    assert fight.resolved[1] == keys and len(fight.declared(1)) == 9


async def test_damage_interrupts_a_spell_and_bleeding_follows(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await declare_all(pilot, DI_ROUND)
        table = pilot.app.table
        table.enter_initiative({"party": 2, "goblins": 5})
        pilot.app.screen.refresh_view()
        # the goblins won: their beats come first; gob1 strikes zed's side before spells
        shaman = [n for n, b in enumerate(table.plan().beats, 1)
                  if any(a.actor == "shaman" for a in b.actions)][0]
        assert shaman > 1
        pilot.app.screen.query_one("#tracker").select("brann")
        await pilot.press("h")
        form = pilot.app.screen
        assert isinstance(form, Form)
        form.query_one("#f-target").index = [v for _, v in form.query_one("#f-target")
                                             .options].index("shaman")
        await pilot.press("1", "2", "enter")
        log = [e.TYPE for e in table.fight.log]
        assert "spell_lost" in log and table.fight.status["shaman"].hp == -5
        await pilot.press("r")  # round 2: shaman was fine when round 1 began
        await pilot.press("r")  # round 3: below 0 at the start of round 2, so it bleeds
        bleeds = [e for e in table.fight.log if isinstance(e, ev.Damage) and e.note]
        assert bleeds and bleeds[0].target == "shaman" and table.fight.round == 3
        assert "bleeding" in pilot.app.screen.query_one("#log").lines[-2]


async def test_undo_redo_save_as_quit_and_resume(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("g", "enter", "d", "enter")
        table = pilot.app.table
        assert set(table.declared()) == {"brann", "zed"}
        await pilot.press("ctrl+z")
        assert set(table.declared()) == {"brann"}
        await pilot.press("ctrl+y")
        assert set(table.declared()) == {"brann", "zed"}
        await pilot.press("ctrl+z")
        await pilot.press("ctrl+s")
        assert isinstance(pilot.app.screen, Form)
        form_input = pilot.app.screen.query_one("#f-path")
        form_input.value = "copy.toml"
        await pilot.press("enter")
        assert pilot.app.session.path == tmp_path / "copy.toml"
        await pilot.press("q")
    resumed = load_save(tmp_path / "copy.toml").fight
    assert [e.TYPE for e in resumed.log][-3:] == ["undo", "redo", "undo"]
    async with app_on(tmp_path / "copy.toml").run_test(size=SIZE) as pilot:
        assert set(pilot.app.table.declared()) == {"brann"}
        assert pilot.app.screen.selected() == "zed"  # the next to declare
        lines = pilot.app.screen.query_one("#log").lines
        assert any("undo" in line for line in lines)


async def test_declaration_clock_adds_delay_and_pauses(tmp_path):
    clock = FakeClock()
    path = demo(tmp_path)
    async with app_on(path, clock).run_test(size=SIZE) as pilot:
        await pilot.press("g")
        form = pilot.app.screen
        assert isinstance(form, DeclareForm)
        clock.now += 7
        form.tick()
        assert "delay 1 seg" in str(form.query_one("#form-extra").render())
        await pilot.press("ctrl+t")  # a question to the referee
        clock.now += 30
        await pilot.press("ctrl+t")
        clock.now += 6
        await pilot.press("enter")
        assert pilot.app.table.declared()["brann"].delay == 2


async def test_real_initiative_dice_and_conditions(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("I")
        fill(pilot, party="6", goblins="2")
        await pilot.press("enter")
        assert pilot.app.table.fight.initiatives[1].rolls == {"party": 6, "goblins": 2}
        await pilot.press("exclamation_mark")
        fill(pilot, name="blinded", rounds="2")
        await pilot.press("enter")
        conditions = {cid: s.conditions for cid, s in pilot.app.table.fight.status.items()
                      if s.conditions}
        assert list(conditions.values()) == [{"blinded": 2}]


async def test_a_combatant_joins_mid_fight(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("j")
        fill(pilot, id="wolf", name="Wolf", hp="9", weapons="bite")
        await pilot.press("enter")
        assert "wolf" in pilot.app.table.fight.roster
        assert "wolf" in pilot.app.screen.query_one("#tracker").keys


async def test_replay_steps_back_and_forth(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("g", "enter", "d", "enter", "g", "enter")
        await pilot.press("R")
        replay = pilot.app.screen
        assert replay.at == 3
        await pilot.press("left", "left")
        assert replay.at == 1 and len(replay.query_one("#log").lines) == 1
        await pilot.press("home")
        assert replay.at == 0
        await pilot.press("end", "escape")
        assert isinstance(pilot.app.screen, CombatScreen)


async def test_help_and_command_palette(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        keys = pilot.app.screen.query_one("#help-keys")
        rows = {keys.get_row_at(i)[0]: str(keys.get_row_at(i)[1]) for i in range(keys.row_count)}
        assert rows["n"] == "Next beat" and rows["i"] == "Roll init"
        assert rows["+"] == "Heal" and rows["q"] == "Quit" and "ctrl+t" in rows
        assert rows["g"] == "declare G: strike blows"
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await pilot.press(*"roll init")
        await pilot.press("enter")
        await pilot.pause()
        assert "Not declared yet" in pilot.app.screen.spec.title  # nobody has: asked first
        await pilot.press("space", "enter")
        assert 1 in pilot.app.table.fight.initiatives


async def test_open_a_save_from_the_list(tmp_path):
    path = demo(tmp_path)
    other = copy(ROOT / "tests" / "scenarios" / "count-up" / "cu-01-count-order.toml",
                 tmp_path, "countup.toml")
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o")
        table = pilot.app.screen.query_one("DataTable")
        keys = [row.value for row in table.rows]
        table.move_cursor(row=keys.index(str(other)))
        await pilot.press("enter")
        assert pilot.app.session.path == other
        assert pilot.app.table.fight.ruleset.id == "count-up"


async def test_setting_up_adds_and_removes_combatants(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e")
        await pilot.press("a")
        fill(pilot, id="troll", name="Troll", hp="30",
             weapons="claw; big club, speed_factor=8, length=5")
        await pilot.press("enter")
        troll = pilot.app.session.encounter.combatant("troll")
        assert troll is not None
        assert [w.stat("speed_factor") for w in troll.weapons] == [None, 8]
        assert troll.weapons[1].stat("length") == 5.0
        await pilot.press("escape")
        assert "troll" in pilot.app.table.fight.roster
    assert load_save(path).encounter.combatant("troll").hp == 30


async def test_a_torn_save_opens_with_the_warning(tmp_path, monkeypatch):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("g", "enter", "d", "enter")
    text = path.read_text()
    path.write_text(text[: text.rindex('"round" = 1')])
    shown = []
    monkeypatch.setattr(RefereeApp, "notify", lambda self, message, **kw: shown.append(
        (message, kw.get("title"))))
    async with app_on(path).run_test(size=SIZE) as pilot:
        assert any("cut short" in message and title == "Recovered a torn save"
                   for message, title in shown)
        assert set(pilot.app.table.declared()) == {"brann"}


COUNT_UP = ROOT / "tests" / "scenarios" / "count-up" / "cu-01-count-order.toml"


async def test_count_up_round_with_counts_and_wounds(tmp_path):
    source = load_save(COUNT_UP)
    path = tmp_path / "cu.toml"
    text = COUNT_UP.read_text()
    path.write_text(text.split("[[events]]")[0])
    assert source.fight.ruleset.id == "count-up"
    async with app_on(path).run_test(size=SIZE) as pilot:
        await declare_all(pilot, {"brann": "a", "gob1": "a", "zed": "c"})
        table = pilot.app.table
        assert {d.action for d in table.declared().values()} == {"attack", "cast"}
        await pilot.press("i")
        plan = table.plan()
        assert all("count" in beat.extra for beat in plan.beats)
        counts = [b.extra["count"] for b in plan.beats]
        assert counts == sorted(counts)
        target = table.declared()[pilot.app.screen.selected()].target[0]
        await pilot.press("h", "4", "enter")
        assert table.fight.status[target].marks["wounds"] < 10
        while table.current_beat() is not None:
            await pilot.press("n")
        await pilot.press("r")
        assert table.fight.round == 2 and table.next_undeclared() == "brann"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_combat_screen_fits(tmp_path, size):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=size) as pilot:
        tracker = pilot.app.screen.query_one("#tracker")
        assert tracker.region.width > 0 and tracker.region.height >= 5
        assert pilot.app.screen.query_one("#plan").region.height >= 3
        assert pilot.app.screen.query_one("#log").region.height >= 3


async def test_morale_on_both_rulesets(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        pilot.app.screen.query_one("#tracker").select("gob1")
        await pilot.press("M")
        form = pilot.app.screen
        fill(pilot, roll="3", target="7")
        form.query_one("#f-passed").index = 2  # breaks
        await pilot.press("enter")
        morale = state_of(pilot.app.table.fight).morale[1][0]  # demon-idol's own fold
        assert morale.group == ("goblins",) and morale.passed is False
    cu = tmp_path / "cu.toml"
    cu.write_text(COUNT_UP.read_text())
    async with app_on(cu).run_test(size=SIZE) as pilot:
        pilot.app.screen.query_one("#tracker").select("gob1")
        await pilot.press("M")
        kinds = [e.TYPE for e in pilot.app.table.fight.log[-2:]]
        assert kinds == ["roll", "morale"]


async def test_a_new_encounter_from_the_saves_list(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+o", "n")
        form = pilot.app.screen
        fill(pilot, file="ambush", title="The ambush")
        form.query_one("#f-ruleset").index = [v for _, v in form.query_one("#f-ruleset")
                                              .options].index("count-up")
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.session.path == tmp_path / "ambush.toml"
        assert pilot.app.session.encounter.title == "The ambush"
        assert type(pilot.app.screen).__name__ == "SetupScreen"


async def test_a_new_save_is_set_up_then_fought(tmp_path):
    path = tmp_path / "new.toml"
    from referee.app.files import new_save

    new_save(path, "Ambush", "count-up")
    app = RefereeApp(path, tmp_path, random.Random(2), start_in_setup=True, clock=FakeClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for cid, side, hp in (("wolf", 1, "9"), ("cara", 0, "12")):
            await pilot.press("a")
            form = pilot.app.screen
            form.query_one("#f-id").value = cid
            form.query_one("#f-side").index = side
            form.query_one("#f-hp").value = hp
            form.query_one("#f-weapons").value = "bite, speed=2"
            await pilot.press("enter")
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, CombatScreen)
        await pilot.press("a", "enter", "a", "enter", "i")
        table = pilot.app.table
        assert set(table.declared()) == {"wolf", "cara"} and not table.initiative_due()
        assert len(pilot.app.screen.query_one("#log").lines) == 3


async def test_setting_up_renames_a_side(tmp_path):
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e")
        pilot.app.screen.query_one("#sides").focus()
        await pilot.press("e")
        pilot.app.screen.query_one("#f-name").value = "Heroes of the ford"
        await pilot.press("enter")
        assert pilot.app.session.encounter.side("party").name == "Heroes of the ford"


async def test_the_declaration_clock_stops_at_the_referees_first_key(tmp_path):
    clock = FakeClock()
    path = demo(tmp_path)
    async with app_on(path, clock).run_test(size=SIZE) as pilot:
        await pilot.press("g")
        clock.now += 7  # the player decides: one segment of delay
        await pilot.press("right")  # the referee's first key: the clock stops
        clock.now += 20  # the referee filling in the form is not timed
        form = pilot.app.screen
        form.tick()
        assert "stopped" in str(form.query_one("#form-extra").render())
        await pilot.press("enter")
        assert pilot.app.table.declared()["brann"].delay == 1


async def test_an_answered_form_is_kept_until_the_next_opens_then_removed(tmp_path):
    """A form is closed without being removed (removing a screen lays the app out again,
    twice, after the answer); the next form removes it, so forms never pile up."""
    async with app_on(demo(tmp_path)).run_test(size=(120, 40)) as pilot:
        answered = []
        for _ in range(3):
            await pilot.press("g")
            form = pilot.app.screen
            assert isinstance(form, Form)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, CombatScreen) and form.is_running
            answered.append(form)
        declared = [e for e in pilot.app.table.fight.log if e.TYPE == "declare"]
        assert len(declared) == 3  # every answer reached the table
        await pilot.pause(0.1)
        assert [f.is_running for f in answered] == [False, False, True]
        assert [s for _, s in pilot.app.__dict__["_kept_forms"]] == answered[-1:]
