"""`simple` rulesets (side-d6, d20-dex, a file of your own) have a generic bestiary
(rulesets/catalogues/simple.monsters.toml): the common monsters with hp dice and the roster
keys a file names; a name not found says which bestiary is in use (issue 30, B12)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.engine.errors import FormatError
from referee.session import catalogues
from referee.session.files import load_ruleset, load_save
from referee.session.roster import RosterEditor
from referee.session.store import Session
from tests.conftest import ROOT


def copy(tmp_path: Path, ruleset: str) -> Path:
    path = tmp_path / f"{ruleset}.toml"
    shutil.copyfile(ROOT / "saves" / f"{ruleset}.toml", path)
    return path


@pytest.mark.parametrize("ruleset", ["side-d6", "d20-dex"])
def test_every_generic_monster_reads_as_each_simple_rulesets_combatant(ruleset: str) -> None:
    rs = load_ruleset(ruleset)
    bestiary = catalogues.entries_for(rs, "monsters")
    assert {"goblin", "orc", "skeleton", "wolf", "ogre"} <= set(bestiary)
    for name, entry in bestiary.items():
        made = catalogues.monster(rs, entry, "m1", "foes", rng=random.Random(1))
        named = set(rs.schema.schemas.combatant.by_name)
        assert set(made.stats) == named & set(entry["keys"]), name


def test_six_goblins_in_d20_dex_carry_its_dex_and_ac(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "d20-dex")
    assert main(["add", str(path), "goblin", "--count", "6", "--side", "goblins"]) == 0
    fight = load_save(path).fight
    goblins = [fight.roster[f"goblin{n}"] for n in range(1, 7)]
    assert all(2 <= g.hp <= 12 and g.stat("dex") == 2 and g.stat("ac") == 15 for g in goblins)
    assert main(["check", str(path)]) == 0


def test_set_up_adds_six_goblins_to_side_d6_with_no_keys_it_does_not_name(
        tmp_path: Path) -> None:
    path = copy(tmp_path, "side-d6")
    session = Session.open(path, lock=True)
    try:
        made = RosterEditor(session).add_from_bestiary({"what": "6 goblins", "side": "foes",
                                                        "hp": ""})
    finally:
        session.close()
    assert [c.name for c in made] == [f"Goblin {n}" for n in range(1, 7)]
    assert all(c.stats == {} and "hp 2d6" in c.notes for c in made)
    assert load_save(path).encounter.combatant("goblin6") is not None


def test_a_name_not_found_says_which_bestiary_is_in_use(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "side-d6")
    assert main(["add", str(path), "dragon", "--side", "foes"]) == 1
    assert capsys.readouterr().err == (
        "referee: no monster 'dragon': Side d6's bestiary is simple.monsters.toml (the "
        "generic one for simple rulesets)\n")
    session = Session.open(path, lock=True)
    try:
        with pytest.raises(FormatError, match="no 'dragons' in the bestiary: d20|Side d6's "
                                              "bestiary is simple.monsters.toml"):
            RosterEditor(session).add_from_bestiary({"what": "2 dragons", "side": "foes"})
    finally:
        session.close()
    demon = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", demon)
    assert main(["add", str(demon), "dragonz", "--side", "foes"]) == 1
    assert "Demon" in capsys.readouterr().err.split("bestiary is")[0]


def test_catalogue_lists_a_simple_rulesets_bestiary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalogue", "d20-dex", "--kind", "monsters"]) == 0
    assert "goblin" in capsys.readouterr().out
    assert main(["check", str(ROOT / "rulesets" / "catalogues" / "simple.monsters.toml")]) == 0
    assert "(simple monsters, 19 entries)" in capsys.readouterr().out


def test_a_generic_keys_table_is_read_strictly(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    own = tmp_path / "mine.toml"
    own.write_text('format = "referee-catalogue"\nruleset = "simple"\nkind = "monsters"\n\n'
                   '[[entries]]\nname = "imp"\nhp = "1d6"\nkeys = 3\n')
    assert main(["check", str(own)]) == 1
    assert capsys.readouterr().err.startswith(f"referee: {own}:8: entries[0].keys: expected "
                                              "a table of roster keys")
