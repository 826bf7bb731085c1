"""demon-idol files that must be refused with file, line and field (issues 20 and 26), and
routines that name their own weapons (issue 19) read, written and offered.

- Every number a demon-idol file holds has a range the rules make sense in: `rate =
  100000000` is refused, never planned as a hundred million shots.
- An initiative event that carries the program's dice and the rolls they decide: a save in
  which they disagree is refused, naming both values.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.engine.dice import roll
from referee.engine.errors import IllegalDeclaration
from referee.engine.fight import Fight
from referee.engine.options import Declaring, Rolling
from referee.engine.port import Ruleset
from referee.session.files import load_save
from tests.conftest import ROOT

SAVE = """format = "referee-save"
version = 1
ruleset = "demon-idol"
title = "Files"
sides = [
    { id = "party", name = "The party" },
    { id = "goblins", name = "Goblins" },
]

[[combatants]]
id = "brann"
name = "Brann"
side = "party"
hp = 14
attacks = 1
move = 12
weapons = [
    { name = "sword of speed", speed_factor = 5, length = 3.5, speed = true, damage = "1d8+1" },
    { name = "dagger", speed_factor = 2, length = 1.0, damage = "1d4" },
    { name = "short bow", missile = true, rate = 2, speed_factor = 7 },
]
spells = [ { name = "sleep", casting_time = 1 } ]

[[combatants]]
id = "gob1"
name = "Gob1"
side = "goblins"
hp = 5
weapons = [ { name = "short sword", speed_factor = 3, length = 1.5 } ]
"""

DECLARE = """
[[events]]
type = "declare"
round = 1
actor = "brann"
action = "G"
target = "gob1"
"""


def check(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "save.toml"
    path.write_text(text)
    code = main(["check", str(path)])
    return code, capsys.readouterr().err.strip().replace(str(path), "{file}")


def line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# -- ranges (issue 20, point 5) ------------------------------------------------------------


@pytest.mark.parametrize(("old", "new", "field", "message"), [
    ("rate = 2", "rate = 100000000", "combatants[0].weapons[2].rate",
     "100000000 is out of range (1 to 20)"),
    ("rate = 2", "rate = 15", None, None),
    ("rate = 2", "rate = 21", "combatants[0].weapons[2].rate",
     "21 is out of range (1 to 20"),
    ("speed_factor = 5,", "speed_factor = 700,", "combatants[0].weapons[0].speed_factor",
     "700 is out of range (0 to 30)"),
    ("length = 3.5,", "length = 500.5,", "combatants[0].weapons[0].length",
     "500.5 is out of range (0 to 50)"),
    ("attacks = 1", "attacks = 5000", "combatants[0].attacks", "5000 is out of range (1 to 20)"),
    ("move = 12", "move = 100000", "combatants[0].move", "100000 is out of range (0 to 99)"),
    ("casting_time = 1", "casting_time = 100000", "combatants[0].spells[0].casting_time",
     "100000 is out of range (0 to 100)"),
    ("hp = 14\nattacks = 1", "hp = 14\nattacks = 1\nreaction = -99", "combatants[0].reaction",
     "must be at least -10, found -99"),
    ("hp = 14\nattacks = 1", "hp = 14\nattacks = 1\nreaction = 99", "combatants[0].reaction",
     "99 is out of range (-10 to 10)"),
])
def test_a_number_out_of_its_range_is_refused_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str,
        field: str | None, message: str | None) -> None:
    text = SAVE.replace(old, new, 1)
    code, err = check(tmp_path, text, capsys)
    if field is None:
        assert code == 0, err
        return
    assert code == 1
    assert err.startswith(f"referee: {{file}}:{line_of(text, new.splitlines()[-1])}: {field}: ")
    assert message in err


@pytest.mark.parametrize(("field", "value", "message"), [
    ("delay", "100000", "100000 is out of range (0 to 100)"),
    ("closing", "5000", "5000 is out of range (0 to 100)"),
    ("distance", "5000", "5000 is out of range (0 to 1000)"),
])
def test_a_declaration_number_out_of_its_range_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: str,
        message: str) -> None:
    text = SAVE + DECLARE.replace('action = "G"', 'action = "E"\ncharge = true') \
        + f"{field} = {value}\n"
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert re.match(rf"referee: {{file}}:\d+: events\[0\]\.{field}: ", err), err
    assert message in err


def test_surprise_segments_beyond_a_round_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAVE + ('\n[[events]]\ntype = "surprise"\nround = 1\nsurprised = ["goblins"]\n'
                   "segments = 5000\n")
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert err == (f"referee: {{file}}:{line_of(text, 'segments = 5000')}: events[0].segments: "
                   "5000 is out of range (0 to 10) (event 1 of the log)")


def test_a_joining_combatant_is_read_to_the_same_ranges(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAVE + ('\n[[events]]\ntype = "join"\nround = 1\ncombatant = { id = "orc", name = '
                   '"Orc", side = "goblins", hp = 9, weapons = [ { name = "bow", missile = '
                   'true, speed_factor = 99 } ] }\n')
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert "events[0].combatant.weapons[0].speed_factor: 99 is out of range (0 to 30)" in err


@pytest.mark.parametrize(("key", "value", "message"), [
    ("initiative_die", "1000000", "1000000 is out of range (2 to 100)"),
    ("death_at", "-100000000", "-100000000 is out of range (-1000 to 0)"),
    ("bleed", "100000", "100000 is out of range (0 to 100)"),
])
def test_a_ruleset_number_out_of_its_range_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], key: str, value: str,
        message: str) -> None:
    text = re.sub(rf"^{key} = \S+", f"{key} = {value}",
                  (ROOT / "rulesets" / "demon-idol.toml").read_text(), flags=re.MULTILINE)
    path = tmp_path / "house.toml"
    path.write_text(text)
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"referee: {path}:{line_of(text, f'{key} = {value}')}: {key}: {message}"


def test_a_plan_never_walks_a_huge_rate(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "save.toml"
    path.write_text(SAVE.replace("rate = 2", "rate = 100000000"))
    assert main(["plan", str(path), "--json"]) == 1
    assert "is out of range" in capsys.readouterr().err


# -- dice and the outcome they decide (issue 26, point 8) -------------------------------------


def initiative(rolls: dict[str, int], seeds: dict[str, int]) -> str:
    """An initiative event with these rolls and, for each side in `seeds`, the die the
    program rolled with that seed, as the program logs it."""
    out = '\n[[events]]\ntype = "initiative"\nround = 1\n'
    out += "rolls = { " + ", ".join(f"{s} = {v}" for s, v in rolls.items()) + " }\n"
    for side, seed in seeds.items():
        record = roll("d6", random.Random(seed)).to_dict()
        term = record["terms"][0]
        out += (f'[events.dice.{side}]\nexpression = "{record["expression"]}"\n'
                f'total = {record["total"]}\n'
                f'terms = [ {{ term = "{term["term"]}", sign = 1, rolls = {term["rolls"]}, '
                f'kept = {term["kept"]}, subtotal = {term["subtotal"]} }} ]\n')
    return out


def rolled(seed: int) -> int:
    return roll("d6", random.Random(seed)).total


def test_initiative_rolls_that_match_their_dice_load(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAVE + initiative({"party": rolled(1), "goblins": rolled(2)},
                             {"party": 1, "goblins": 2})
    code, err = check(tmp_path, text, capsys)
    assert code == 0, err


def test_an_initiative_roll_its_own_die_contradicts_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shown = rolled(1)
    wrong = 6 if shown != 6 else 1
    text = SAVE + initiative({"party": wrong, "goblins": rolled(2)},
                             {"party": 1, "goblins": 2})
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert err == (f"referee: {{file}}:{line_of(text, 'rolls = ')}: events[0].rolls.party: "
                   f"{wrong}, but its die (dice.party) shows {shown} (event 1 of the log)")


def test_a_die_record_its_dice_do_not_explain_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAVE + initiative({"party": rolled(1), "goblins": rolled(2)},
                             {"party": 1, "goblins": 2})
    text = text.replace(f"total = {rolled(1)}", f"total = {rolled(1) % 6 + 1}", 1)
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert "events[0].dice.party: bad roll record" in err


def test_the_program_s_own_initiative_roll_passes_its_check() -> None:
    save = load_save(ROOT / "saves" / "demo.toml")
    fight = save.fight.copy()
    rolling = save.ruleset.role(Rolling)
    assert rolling is not None
    for event in rolling.roll_initiative(fight, random.Random(7)):
        fight.push(event)


# -- several weapons in one round (issue 19) --------------------------------------------------


ROUTINES = DECLARE + ('routines = [ { weapon = "sword of speed" }, '
                      '{ weapon = "dagger", initiative = "slow" } ]\n')


@pytest.mark.parametrize(("declared", "field", "message"), [
    (ROUTINES.replace('"dagger"', '"axe"'), "events[1].routines[1].weapon",
     "brann has no weapon 'axe' (weapons: sword of speed, dagger, short bow)"),
    (ROUTINES.replace('"slow"', '"fast"'), "events[1].routines[1].initiative",
     "expected one of haste, speed, slow, found 'fast'"),
    (ROUTINES.replace('initiative = "slow"', 'aim = 2'), "events[1].routines[1].aim",
     "not a routine key (keys: weapon, initiative, timing)"),
    (ROUTINES.replace('action = "G"', 'action = "D"'), "events[1].routines",
     "D (discharge) takes no routines: only a strike does"),
    (ROUTINES + 'weapon = "dagger"\n', "events[1].weapon",
     "routines name their own weapons: give no weapon beside them"),
    (DECLARE + "routines = [ 3 ]\n", "events[1].routines[0]", "expected a table, found"),
    (DECLARE + 'routines = "dagger"\n', "events[1].routines", "expected a list of tables"),
    (DECLARE + "routines = [" + '{ weapon = "dagger" }, ' * 21 + "]\n", "events[1].routines",
     "21 routines is out of range (1 to 20)"),
])
def test_a_bad_routine_is_refused_with_its_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], declared: str, field: str,
        message: str) -> None:
    text = SAVE + initiative({"party": 2, "goblins": 5}, {}) + declared
    code, err = check(tmp_path, text, capsys)
    assert code == 1
    assert re.match(rf"referee: {{file}}:\d+: {re.escape(field)}: ", err), err
    assert message in err


def test_routines_survive_the_writer_and_both_readers(tmp_path: Path) -> None:
    import tomllib

    from referee.session.fastload import loads
    from referee.session.writer import save_text

    path = tmp_path / "save.toml"
    path.write_text(SAVE + initiative({"party": 2, "goblins": 5}, {}) + ROUTINES)
    save = load_save(path)
    text = save_text(save.encounter, save.fight.log)
    assert loads(text, tomllib.loads) == tomllib.loads(text)
    assert '"routines" = [{ "weapon" = "sword of speed" }, { "weapon" = "dagger", ' \
           '"initiative" = "slow" }]' in text
    path.write_text(text)
    assert load_save(path).fight.log == save.fight.log


GOBLIN = """
[[events]]
type = "declare"
round = 1
actor = "gob1"
action = "G"
target = "brann"
"""


def declaring(ruleset: Ruleset[Any]) -> Declaring[Any]:
    """demon-idol's declarations role (its letters, forms and declarations)."""
    found = ruleset.role(Declaring)
    assert found is not None
    return found


def fight_with_routines(tmp_path: Path) -> tuple[Fight, Ruleset[Any]]:
    path = tmp_path / "save.toml"
    path.write_text(SAVE + initiative({"party": 2, "goblins": 5}, {}) + ROUTINES + GOBLIN)
    save = load_save(path)
    return save.fight, save.ruleset


def test_the_log_and_the_tracker_tell_each_routine_s_weapon(tmp_path: Path) -> None:
    fight, ruleset = fight_with_routines(tmp_path)
    decl = fight.log[-2]  # brann's
    assert isinstance(decl, ev.Declare)
    assert ruleset.tracker.tell(fight, decl) == (
        "Brann declares G (sword of speed, then dagger (slow)) at Gob1")
    assert declaring(ruleset).declared_text(fight, "brann", decl) == (
        "G sword of speed + dagger → Gob1")


def test_the_damage_offered_is_the_acting_routine_s_weapon(tmp_path: Path) -> None:
    fight, ruleset = fight_with_routines(tmp_path)
    assert fight.plan().labels() == [["brann:G#1"], ["gob1:G"], ["brann:G#2"]]
    assert ruleset.damage.damage_default(fight, "brann") == "1d8+1"
    for number in (1, 2):
        fight.push(ev.Resolve(round=1, actions=tuple(fight.plan().keys(number)), beat=number))
    assert ruleset.damage.damage_default(fight, "brann") == "1d4"


def test_the_form_offers_routines_to_one_with_more_than_one_weapon(tmp_path: Path) -> None:
    fight, ruleset = fight_with_routines(tmp_path)
    role = declaring(ruleset)
    form = role.declare_form(fight, "brann", "G", role.prefill(fight, "brann", "G"))
    names = [f.name for f in form.fields]
    assert "routines" in names and names.index("weapon") < names.index("routines")
    goblin = role.declare_form(fight, "gob1", "G", role.prefill(fight, "gob1", "G"))
    assert "routines" not in [f.name for f in goblin.fields]
    missile = role.declare_form(fight, "brann", "D", role.prefill(fight, "brann", "D"))
    assert "routines" not in [f.name for f in missile.fields]


def test_a_form_s_routines_line_becomes_the_declaration(tmp_path: Path) -> None:
    fight, ruleset = fight_with_routines(tmp_path)
    role, copy = declaring(ruleset), fight.copy()
    event = role.declaration(copy, "brann", "G", {
        "weapon": "sword of speed", "target": "gob1", "replaces": True,
        "routines": " dagger, initiative=haste ; sword of speed "})
    assert event.routines == ({"weapon": "dagger", "initiative": "haste"},
                              {"weapon": "sword of speed"})
    assert event.weapon is None
    copy.push(event)
    blank = role.declaration(copy, "brann", "G", {
        "weapon": "dagger", "target": "gob1", "replaces": True, "routines": "  "})
    assert blank.routines == () and blank.weapon == "dagger"
    with pytest.raises(IllegalDeclaration) as refused:
        role.declaration(copy, "brann", "G", {
            "target": "gob1", "routines": "dagger, slow"})
    assert refused.value.path == ("routines",)


def test_next_round_s_form_starts_from_last_round_s_routines(tmp_path: Path) -> None:
    fight, ruleset = fight_with_routines(tmp_path)
    fight.push(ev.NewRound(round=2))
    filled = declaring(ruleset).prefill(fight, "brann", "G")
    assert filled["routines"] == "sword of speed; dagger, initiative=slow"


def test_an_older_save_without_routines_loads_and_plans_as_before() -> None:
    save = load_save(ROOT / "tests" / "scenarios" / "demon-idol" / "di-06-multiple-routines.toml")
    assert save.fight.plan().labels() == [["ogre:G#1"], ["brann:G"], ["ogre:G#2"]]
    assert all(not getattr(d, "routines", ()) for _, d in save.fight.declared(1))


# issue 30 A.10: the catalogue's bec de corbin, and sizes in the bestiary


def test_the_bec_de_corbin_is_six_feet_long_as_the_phb_table_gives_it():
    from referee.session.catalogues import merged

    assert merged("demon-idol", "weapons")["bec de corbin"]["length"] == 6


def test_the_bestiarys_monsters_carry_their_size_and_weapons_their_damage_vs_large():
    from referee.session.catalogues import merged

    monsters = merged("demon-idol", "monsters")
    assert all(m.get("size") in ("S", "M", "L") for m in monsters.values())
    assert {n for n, m in monsters.items() if m["size"] == "L"} >= {
        "ogre", "troll", "hill giant", "gnoll", "bugbear", "owlbear"}
    assert monsters["orc"]["weapons"][0]["damage_large"] == "1d12"  # long sword
