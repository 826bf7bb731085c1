"""Table-ready 3 (issue 30), what the screen finishes of two rule points: demon-idol's D
form clears the other things to discharge as the referee picks one (B16), and the hit
form offers a weapon's damage vs large at a large target, again as its target changes
(A10); and `F`'s refusal says who has nothing prepared without a double negative. Each
through the app's own keys, as a referee uses them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.widgets import Tracker
from referee.rulesets.demon_idol import events as di
from referee.rulesets.demon_idol.acts import can_fire
from referee.session.files import load_save
from tests.conftest import ROOT
from tests.test_demon_idol_rules import ARCHER_MAGE, GIANT_KILLER, declare
from tests.test_table_ready_3 import StillClock, form, redraw

SMALL, LARGE = (80, 24), (120, 40)


def app_with(tmp_path: Path, text: str) -> RefereeApp:
    path = tmp_path / "fight.toml"
    path.write_text(text, encoding="utf-8")
    return RefereeApp(path, tmp_path, random.Random(3), clock=StillClock())


def value(pilot, name: str):
    return form(pilot).query_one(f"#f-{name}").value


async def to_field(pilot, name: str) -> None:
    """The focus on field `name`, moved there with ↓ as the referee moves it."""
    for _ in range(len(form(pilot).spec.fields)):
        if form(pilot).focused is form(pilot).query_one(f"#f-{name}"):
            return
        await pilot.press("down")
    raise AssertionError(f"no field {name}")


async def select(pilot, cid: str) -> None:
    pilot.app.screen.query_one(Tracker).select(cid)
    await pilot.pause()


# B16: a D discharges one thing: what the referee picks blanks the others at once


async def test_picking_a_spell_in_the_d_form_blanks_the_weapon_and_back(tmp_path):
    async with app_with(tmp_path, ARCHER_MAGE).run_test(size=SMALL) as pilot:
        await select(pilot, "ael")
        await pilot.press("d")
        assert (value(pilot, "weapon"), value(pilot, "spell")) == ("long bow", None)
        await to_field(pilot, "spell")
        await pilot.press("right")  # sleep
        await pilot.pause()
        assert (value(pilot, "weapon"), value(pilot, "spell")) == (None, "sleep")
        await to_field(pilot, "weapon")
        await pilot.press("d")  # the dagger, thrown: the spell the referee picked goes
        await pilot.pause()
        assert (value(pilot, "weapon"), value(pilot, "spell")) == ("dagger", None)
        await to_field(pilot, "spell")
        await pilot.press("m")  # magic missile
        await pilot.pause()
        assert (value(pilot, "weapon"), value(pilot, "spell")) == (None, "magic missile")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, CombatScreen), form(pilot).fault()
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare)
        assert (decl.action, decl.spell, decl.weapon, decl.device, decl.turn) == (
            "D", "magic missile", None, None, False)


async def test_a_device_typed_in_the_d_form_blanks_the_weapon(tmp_path):
    async with app_with(tmp_path, ARCHER_MAGE).run_test(size=SMALL) as pilot:
        await select(pilot, "ael")
        await pilot.press("d")
        await to_field(pilot, "device")
        await pilot.press(*"wand")
        await pilot.pause()
        assert (value(pilot, "weapon"), value(pilot, "device")) == (None, "wand")
        await to_field(pilot, "weapon")
        await pilot.press("l", "l")  # the long bow again: the device typed goes
        await pilot.pause()
        assert (value(pilot, "weapon"), value(pilot, "device")) == ("long bow", "")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, CombatScreen), form(pilot).fault()
        decl = pilot.app.table.fight.log[-1]
        assert isinstance(decl, di.Declare)
        assert (decl.weapon, decl.device, decl.spell) == ("long bow", None, None)


async def test_another_letters_form_changes_nothing_it_was_not_told(tmp_path):
    async with app_with(tmp_path, ARCHER_MAGE).run_test(size=SMALL) as pilot:
        await select(pilot, "ael")
        await pilot.press("g")
        weapon = value(pilot, "weapon")
        await to_field(pilot, "target")
        await pilot.press("right")
        await pilot.pause()
        assert value(pilot, "weapon") == weapon


# A10: the hit form offers the weapon's damage vs large at a large target, and follows
# its target


async def hit_on_the_ogre(pilot) -> None:
    table = pilot.app.table
    table.declare("brann", "G", weapon="long sword", target="ogre")
    table.declare("ogre", "G", target="brann")
    table.declare("gob1", "G", target="brann")
    table.enter_initiative({"party": 5, "monsters": 2})
    redraw(pilot)
    await pilot.pause()
    await pilot.press("h")


async def test_the_hit_form_offers_the_large_figure_and_follows_its_target(tmp_path):
    async with app_with(tmp_path, GIANT_KILLER).run_test(size=SMALL) as pilot:
        await hit_on_the_ogre(pilot)
        assert (value(pilot, "by"), value(pilot, "target")) == ("brann", "ogre")
        assert value(pilot, "amount") == "1d12"  # the long sword vs large
        await to_field(pilot, "target")
        await pilot.press("right")  # Goblin 1, small
        await pilot.pause()
        assert value(pilot, "target") == "gob1"
        assert value(pilot, "amount") == "1d8"
        await pilot.press("left")  # back at the ogre
        await pilot.pause()
        assert value(pilot, "amount") == "1d12"
        await pilot.press("right")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, CombatScreen), form(pilot).fault()
        rolls = [e for e in pilot.app.table.fight.log if getattr(e, "expr", None)]
        assert rolls[-1].expr == "1d8"


async def test_damage_typed_in_the_hit_form_stays_when_the_target_changes(tmp_path):
    async with app_with(tmp_path, GIANT_KILLER).run_test(size=SMALL) as pilot:
        await hit_on_the_ogre(pilot)
        await pilot.press("ctrl+u", *"7")  # real dice, typed
        await pilot.pause()
        assert value(pilot, "amount") == "7"
        await to_field(pilot, "target")
        await pilot.press("right")
        await pilot.pause()
        assert (value(pilot, "target"), value(pilot, "amount")) == ("gob1", "7")


# F's refusal: who has nothing prepared, never "nobody has no ..."


async def test_f_on_one_with_nothing_prepared_says_so_by_name(tmp_path, monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr(RefereeApp, "notify",
                        lambda self, message, **kw: shown.append(message))
    text = (ROOT / "saves" / "demo.toml").read_text(encoding="utf-8")
    async with app_with(tmp_path, text).run_test(size=SMALL) as pilot:
        await select(pilot, "brann")
        await pilot.press("F")
        await pilot.pause()
        assert "Brann the fighter has no prepared action this round (DI-14)" in shown, shown


@pytest.mark.parametrize(("prepared", "message"), [
    (False, "nobody has a prepared action this round (DI-14)"),
    (True, "select who fires: prepared this round: Mira the ranger (DI-14)"),
])
def test_f_with_nobody_selected_says_who_has_a_prepared_action(tmp_path, prepared, message):
    path = tmp_path / "fight.toml"
    path.write_text((ROOT / "saves" / "demo.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    fight = load_save(path).fight
    if prepared:
        declare(fight, "mira", "D", weapon="short bow", target="gob1", prepared=True)
    assert can_fire(fight, None) == message
