"""Catalogues and bestiaries: every bundled file read as its ruleset reads the gear, a
referee's own merged over it, and monsters added to a save from the command line."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.model import read_combatant
from referee.rulesets import available
from referee.session import catalogues
from referee.session.files import LoadError, load_ruleset, load_save
from tests.conftest import ROOT

BUNDLED = sorted(catalogues.bundled().items())

OWN = """format = "referee-catalogue"
version = 1
ruleset = "demon-idol"
kind = "monsters"

[[entries]]
name = "Cave goblin"  # a test's own
hit_dice = "1-1"
hp = "1d8-1"
ac = 6
move = 6
weapons = [{ name = "short sword", damage = "1d6", speed_factor = 3 }]
notes = "hates the light"

[[entries]]
name = "rock ogre"
hit_dice = 4
hp = "4d8+4"
attacks = 1
weapons = [{ name = "club", damage = "1d10", speed_factor = 4 }]
"""


@pytest.fixture()
def own(tmp_path: Path) -> Path:
    path = tmp_path / "mine.monsters.toml"
    path.write_text(OWN)
    return path


@pytest.fixture()
def save(tmp_path: Path) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return path


def test_the_catalogues_are_bundled_beside_the_rulesets() -> None:
    kinds = {(rid, kind) for (rid, kind), _ in BUNDLED}
    # RULESET.KIND.toml in the folder, each of a ruleset the directory holds (simple:
    # every simple file's)
    folder = ROOT / "rulesets" / "catalogues"
    assert {r for r, _ in kinds} == {p.name.split(".")[0] for p in folder.glob("*.toml")}
    assert {r for r, _ in kinds} <= set(available())
    assert {k for r, k in kinds if r == "demon-idol"} == {"weapons", "spells", "devices",
                                                          "monsters"}
    assert all(path.parent.name == "catalogues" for _, path in BUNDLED)


@pytest.mark.parametrize(("key", "path"), BUNDLED, ids=lambda v: str(v))
def test_every_entry_of_a_bundled_catalogue_is_gear_its_ruleset_reads(
        key: tuple[str, str], path: Path) -> None:
    found = catalogues.load_catalogue(path)
    ruleset = catalogues.catalogue_ruleset(found.ruleset, path.parent)
    assert (found.ruleset, found.kind) == key and found.entries
    for name, entry in found.entries.items():
        if found.kind == "monsters":
            c = catalogues.monster(ruleset, entry, "m1", "them", rng=random.Random(1))
            assert c.hp >= 1 and c.name == entry["name"], name
            continue
        data = {"id": "c1", "side": "us", "hp": 5, found.kind: [entry]}
        data.update({k: "c1" for k in ruleset.schema.schemas.combatant.required})
        c = read_combatant(data, ("c",), ruleset.schema.schemas)
        gear = {"weapons": [w.name for w in c.weapons], "spells": [s.name for s in c.spells],
                "devices": [d["name"] for d in c.stat("devices", ())]}[found.kind]
        assert gear == [entry["name"]], name


def test_an_unknown_key_is_refused_with_its_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(OWN.replace("ac = 6", "armor_class = 6"))
    with pytest.raises(LoadError) as caught:
        catalogues.load_catalogue(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:10:") and "entries[0].armor_class" in text


@pytest.mark.parametrize(("change", "why"), [
    ('hp = "1d8-1"', 'hp = "200d10"'),
    ('hit_dice = "1-1"', 'hit_dice = "lots"'),
    ('kind = "monsters"', 'kind = "treasure"'),
    ('name = "rock ogre"', 'name = "cave goblin"'),
])
def test_a_bad_entry_is_refused(tmp_path: Path, change: str, why: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(OWN.replace(change, why))
    with pytest.raises(LoadError):
        catalogues.load_catalogue(path)
    assert main(["check", str(path)]) == 1


def test_check_names_a_catalogue(own: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(own)]) == 0
    assert capsys.readouterr().out == f"{own}: ok (demon-idol monsters, 2 entries)\n"


def test_a_referees_own_file_merges_over_the_bundled_one(own: Path) -> None:
    entries = catalogues.merged("demon-idol", "monsters", [own])
    assert entries["cave goblin"]["hp"] == "1d8-1" and "rock ogre" in entries
    with pytest.raises(Exception, match="not count-up monsters"):
        catalogues.merged("count-up", "monsters", [own])


def test_a_monster_rolls_its_hit_points_in_range() -> None:
    ruleset = load_ruleset("demon-idol")
    entry = {"name": "ogre", "hp": "4d8+4"}
    rolls = {catalogues.monster(ruleset, entry, "o", "s", rng=random.Random(n)).hp
             for n in range(200)}
    assert min(rolls) >= 8 and max(rolls) <= 36 and len(rolls) > 10
    assert catalogues.monster(ruleset, entry, "o", "s").hp == 36  # a check: the most


def test_add_puts_numbered_monsters_on_a_side_from_the_command_line(
        save: Path, own: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["add", str(save), "cave goblin", "--count", "6", "--side", "caves",
            "--seed", "3", "--file", str(own)]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("added Cave goblin 1 (cave-goblin1) to caves, hp ")
    fight = load_save(save).fight
    made = [fight.roster[f"cave-goblin{n}"] for n in range(1, 7)]
    assert all(c.side == "caves" and 1 <= c.hp <= 7 and c.stat("group") == "cave-goblin"
               and c.stat("ac") == 6 and c.weapons[0].stat("speed_factor") == 3
               and "hp 1d8-1: " in c.notes for c in made)
    assert fight.encounter.side("caves") is not None
    again = save.with_name("again.toml")
    shutil.copyfile(ROOT / "saves" / "demo.toml", again)
    assert main([*args[:1], str(again), *args[2:]]) == 0
    assert [c.hp for c in made] == [load_save(again).fight.roster[c.id].hp for c in made]


def test_add_numbers_on_and_takes_real_dice(save: Path, own: Path) -> None:
    for hp in ("5", "3 9"):
        count = str(len(hp.split()))
        assert main(["add", str(save), "Rock ogre", "--count", count, "--side", "caves",
                     "--hp", hp, "--file", str(own)]) == 0
    roster = load_save(save).fight.roster
    assert [roster[f"rock-ogre{n}"].hp for n in (1, 2, 3)] == [5, 3, 9]
    assert "from real dice" in roster["rock-ogre2"].notes


@pytest.mark.parametrize(("extra", "said"), [
    (["nothing-like-it"], "no monster 'nothing-like-it'"),
    (["cave", "--count", "2"], "close: cave goblin"),
    (["cave goblin", "--count", "0"], "a count from 1 to 200"),
    (["cave goblin", "--count", "2", "--hp", "4"], "1 hit points typed for 2"),
    (["cave goblin", "--hp", "x"], "--hp takes whole numbers"),
])
def test_add_refuses_with_a_reason_and_writes_nothing(
        save: Path, own: Path, extra: list[str], said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    before = save.read_bytes()
    assert main(["add", str(save), *extra, "--side", "caves", "--file", str(own)]) == 1
    assert said in capsys.readouterr().err
    assert save.read_bytes() == before


def test_catalogue_lists_and_shows(own: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogue", "demon-idol", "--kind", "monsters", "--file", str(own)]) == 0
    listed = capsys.readouterr().out
    assert "cave goblin" in listed and 'hit_dice="1-1"' in listed
    assert main(["catalogue", "demon-idol", "rock ogre", "--file", str(own)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[0] == "demon-idol monster: rock ogre" and "  hp = \"4d8+4\"" in shown
    assert main(["catalogue", "demon-idol", "dragon", "--file", str(own)]) == 1
    assert main(["catalogue"]) == 0
    assert "sanctum" in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", ["agility-order", "sanctum", "demon-idol", "count-up"])
def test_a_monster_without_a_name_is_refused_in_every_command(
        ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "rulesets" / "catalogues" / f"{ruleset}.monsters.toml").read_text()
    second = text.index("[[entries]]", text.index("[[entries]]") + 1)
    name = text.index("\nname", second) + 1
    own = tmp_path / f"{ruleset}.monsters.toml"
    own.write_text(text[:name] + text[text.index("\n", name) + 1:])
    save = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / ("demo.toml" if ruleset == "demon-idol"
                                      else f"{ruleset}.toml"), save)
    line = text[:second].count("\n") + 1
    for argv in (["check", str(own)], ["catalogue", ruleset, "--file", str(own)],
                 ["add", str(save), "goblin", "--side", "gobs", "--file", str(own)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"referee: {own}:{line}: entries[1].name: missing required "
                              "field"), (argv, err)
