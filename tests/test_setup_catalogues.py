"""Set-up at table speed: gear typed by name completes from the catalogue, monsters come
from the bestiary by count (Pilot, driving the real screens by keys)."""

from __future__ import annotations

from pathlib import Path

from referee.app.forms import FormScreen
from referee.session.files import load_save
from referee.session.roster import completed
from tests.test_app_flows import SIZE, app_on, demo, fill


def test_completion_takes_the_last_part_and_any_case() -> None:
    entries = ("long sword, speed_factor=5", "long bow, missile", "dagger, speed_factor=2")
    assert completed("Lon", entries) == "Long sword, speed_factor=5"
    assert completed("dagger, speed_factor=2; long b", entries) == \
        "dagger, speed_factor=2; long bow, missile"
    assert completed("long sword, sp", entries) is None  # its numbers are being typed
    assert completed("", entries) is None and completed("axe", entries) is None
    assert completed("6 dag", entries) == "6 dagger, speed_factor=2"
    assert completed("6 ", entries) is None


async def test_a_long_sword_typed_by_name_gets_its_numbers(tmp_path: Path) -> None:
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e", "a")
        assert isinstance(pilot.app.screen, FormScreen)
        fill(pilot, id="hero", hp="12")
        pilot.app.screen.query_one("#f-weapons").focus()
        await pilot.pause()
        await pilot.press(*"long s")
        await pilot.pause()
        await pilot.press("right")  # takes the suggestion whole
        await pilot.pause()
        assert pilot.app.screen.query_one("#f-weapons").value.startswith(
            "long sword, damage=1d8")
        await pilot.press("enter")
        hero = pilot.app.session.encounter.combatant("hero")
        assert hero is not None and hero.hp == 12
        sword = hero.weapons[0]
        assert (sword.name, sword.damage, sword.stat("speed_factor")) == \
            ("long sword", "1d8", 5)
        assert abs(sword.stat("length") - 3.5) <= 0.5
        assert sword.stat("damage_large") == "1d12"


async def test_six_goblins_come_from_the_bestiary(tmp_path: Path) -> None:
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e", "b")
        assert isinstance(pilot.app.screen, FormScreen)
        await pilot.press(*"6 goblins")
        await pilot.press("enter")
        await pilot.pause()
        roster = pilot.app.session.encounter
        made = [roster.combatant(f"goblin{n}") for n in range(1, 7)]
        assert all(c is not None and c.side == "goblins" and 1 <= c.hp <= 7
                   and c.stat("group") == "goblin" and "hp 1d8-1" in c.notes
                   for c in made)
        assert [c.name for c in made if c] == [f"Goblin {n}" for n in range(1, 7)]
        await pilot.press("b")
        await pilot.press(*"2 ogres", "down", "down")
        await pilot.press(*"20 25", "enter")
        await pilot.pause()
        await pilot.press("escape")
    roster = load_save(path).encounter
    assert [roster.combatant(f"ogre{n}").hp for n in (1, 2)] == [20, 25]


async def test_a_bestiary_name_not_there_keeps_the_form_open(tmp_path: Path) -> None:
    path = demo(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e", "b")
        await pilot.press(*"3 dragonz", "enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, FormScreen)
        assert "no 'dragonz' in the bestiary" in pilot.app.screen.fault()
    assert load_save(path).encounter.combatant("dragonz1") is None


def test_a_gear_name_typed_whole_takes_the_catalogues_numbers() -> None:
    from referee.session.files import load_ruleset
    from referee.session.roster import parse_gear

    ruleset = load_ruleset("demon-idol")
    sword, mine = parse_gear("Long sword; rusty blade, damage=1d4", ruleset, "weapons")
    assert (sword["speed_factor"], sword["length"], sword["damage"]) == (5, 3.5, "1d8")
    assert mine == {"name": "rusty blade", "damage": "1d4"}
    bow, = parse_gear("long sword, speed_factor=4", ruleset, "weapons")
    assert bow == {"name": "long sword", "speed_factor": 4}  # typed numbers are the referee's


async def test_a_referees_own_bestiary_reaches_set_up(tmp_path: Path) -> None:
    import random

    from referee.app import RefereeApp
    from tests.test_app_flows import FakeClock
    from tests.test_catalogues import OWN

    own = tmp_path / "mine.toml"
    own.write_text(OWN)
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3), clock=FakeClock(), catalogues=[own])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e", "b")
        await pilot.press(*"2 cave goblins", "enter")
        await pilot.pause()
        roster = pilot.app.session.encounter
        assert [c.stat("ac") for c in roster.combatants if c.id.startswith("cave-goblin")] \
            == [6, 6]


def test_play_reads_a_referees_own_catalogue_first(tmp_path: Path,
                                                   monkeypatch: object) -> None:
    from referee.cli import main
    from referee.cli import play as cli

    opened: list[tuple[Path, ...]] = []
    monkeypatch.setattr(cli, "open_app",  # type: ignore[attr-defined]
                        lambda path, setup, own=(), read=None: opened.append(tuple(own)) or 0)
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    from tests.test_catalogues import OWN

    good.write_text(OWN)
    bad.write_text(OWN.replace("ac = 6", "ac = 60"))
    save = demo(tmp_path)
    assert main(["play", str(save), "--catalogue", str(good)]) == 0
    assert opened == [(good,)]
    assert main(["play", str(save), "--catalogue", str(bad)]) == 1 and len(opened) == 1
