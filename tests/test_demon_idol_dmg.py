"""demon-idol-dmg: the by-the-book switches (settings.BOOK) and their DMG rule ids.

The variant shares the demon-idol package, whose RULES stay the spec's ids; the DMG ids a
switch cites live in `DMG_RULES`, and each has a scenario of its own here.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine.fight import Fight
from referee.rulesets import make_ruleset
from referee.rulesets.demon_idol.rules import DMG_RULES, RULES
from referee.rulesets.demon_idol.settings import BOOK
from referee.session.files import load_save
from tests.conftest import ROOT

SCENARIOS = ROOT / "tests" / "scenarios"
# every demon-idol save of the scenarios (the state folder holds every ruleset's)
ALL = sorted(p for folder in ("demon-idol", "state") for p in (SCENARIOS / folder).glob("*.toml")
             if not p.name.endswith(".expect.toml")
             and re.search(r'^ruleset = "demon-idol', p.read_text(), re.MULTILINE))
VARIANT = sorted(p for p in ALL if re.search(r'^ruleset = "demon-idol-dmg"', p.read_text(),
                                              re.MULTILINE))


def config(name: str, **switches: bool) -> dict[str, Any]:
    data = tomllib.loads((ROOT / "rulesets" / f"{name}.toml").read_text())
    data.update(switches)
    return data


def plans(path: Path, ruleset_config: dict[str, Any]) -> list[dict[str, Any]]:
    """Every round's plan of the save at `path`, under a ruleset made from the config."""
    save = load_save(path)
    fight = Fight(save.encounter, make_ruleset(ruleset_config))
    fight.later = set(save.fight.later)
    for event in save.fight.log:
        fight.push(event)
    return [fight.plan(r).to_json() for r in range(1, max(fight.round, 1) + 1)]


def cited(path: Path, ruleset_config: dict[str, Any]) -> set[str]:
    return {rule for plan in plans(path, ruleset_config) for beat in plan["beats"]
            for rule in beat["rules"]}


def expect(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def test_the_variant_is_bundled_and_has_every_switch_on() -> None:
    ruleset = make_ruleset(config("demon-idol-dmg"))
    assert ruleset.id == "demon-idol" and ruleset.file_id == "demon-idol-dmg"
    assert all(ruleset.by_book(key) for key in BOOK)  # type: ignore[attr-defined]
    plain = make_ruleset(config("demon-idol"))
    assert not any(plain.by_book(key) for key in BOOK)  # type: ignore[attr-defined]
    assert VARIANT, "no scenario loads demon-idol-dmg"


def test_dmg_ids_are_their_own_index_not_the_specs() -> None:
    assert {rule for rule, _, _ in BOOK.values()} == set(DMG_RULES)
    assert not set(DMG_RULES) & set(RULES)
    assert all(re.fullmatch(r"DMG-\d+", rule) and DMG_RULES[rule] for rule in DMG_RULES)


def test_every_dmg_id_a_plan_cites_is_indexed_and_has_a_scenario() -> None:
    variant = config("demon-idol-dmg")
    seen: set[str] = set()
    for path in ALL:
        seen |= {r for r in cited(path, variant) if r.startswith("DMG-")}
    assert seen <= set(DMG_RULES), sorted(seen - set(DMG_RULES))
    covered = {rule for path in VARIANT for rule in expect(path).get("cites", [])}
    assert set(DMG_RULES) <= covered, sorted(set(DMG_RULES) - covered)
    assert set(DMG_RULES) <= seen


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_with_every_switch_off_the_variant_plans_as_demon_idol(path: Path) -> None:
    off = config("demon-idol-dmg", **dict.fromkeys(BOOK, False))
    assert plans(path, off) == plans(path, config("demon-idol"))


@pytest.mark.parametrize("key", sorted(BOOK))
def test_each_switch_alone_is_a_house_rule_citing_its_page(key: str) -> None:
    rule = BOOK[key][0]
    alone = config("demon-idol", **{key: True})
    own = [p for p in VARIANT if rule in expect(p).get("cites", [])]
    assert own
    for path in own:
        assert rule in cited(path, alone), path.name
        assert rule not in cited(path, config("demon-idol")), path.name


def test_the_switches_are_listed_by_check(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(ROOT / "rulesets" / "demon-idol-dmg.toml")]) == 0
    out = capsys.readouterr().out
    for key, (rule, on, _) in BOOK.items():
        assert f"{key} = true: {on}" in out and rule in out
    assert main(["check", str(ROOT / "rulesets" / "demon-idol.toml")]) == 0
    out = capsys.readouterr().out
    for key, (rule, _, off) in BOOK.items():
        assert f"{key} = false: {off}" in out and rule in off


def test_a_switch_takes_true_or_false_only(tmp_path: Path) -> None:
    from referee.session.files import LoadError, load_ruleset

    path = tmp_path / "house.toml"
    path.write_text((ROOT / "rulesets" / "demon-idol.toml").read_text().replace(
        "weapon_speed_blows = false", 'weapon_speed_blows = "yes"'))
    with pytest.raises(LoadError) as found:
        load_ruleset(str(path))
    assert found.value.field == "weapon_speed_blows"


def test_a_stopped_volley_is_noted_in_the_plan() -> None:
    path = SCENARIOS / "demon-idol" / "dmg-63-charge-stops-the-volley.toml"
    plan = plans(path, config("demon-idol-dmg"))[0]
    assert any("shot 2 stops" in note and "DMG-63" in note for note in plan["notes"])


def test_a_variant_save_plans_through_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = SCENARIOS / "demon-idol" / "dmg-66-weapon-speed-second-blow.toml"
    assert main(["plan", str(path), "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert any("DMG-66" in beat["rules"] for beat in plan["beats"])
