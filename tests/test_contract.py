"""The port's contract, run for every ruleset the directory holds (never a hard-coded list):
the bundled ones, and the toy that lives only in the tests (see conftest.py).

Each case is one ruleset. Where a ruleset keeps its files:
- its ruleset file: `rulesets/<id>.toml` (the toy: `tests/rulesets/<id>.toml`);
- its demo save: the bundled demo for it (the toy: `tests/rulesets/<id>-demo.toml`);
- its scenarios: `tests/scenarios/<id>/NAME.toml` with `NAME.expect.toml`;
- its broken files: `tests/broken/<id>/NAME.toml` with `NAME.expect` (optional);
- its rules of record: `tests/specs/<id>.md` (a copy of the spec, so a fresh clone tests).
"""

from __future__ import annotations

import copy
import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine.fight import Fight
from referee.rulesets import available, module_of, rules_of
from referee.session.fastload import loads
from referee.session.files import LoadError, load_ruleset, load_save
from referee.session.writer import save_text
from tests.conftest import ROOT

RULESETS = available()
TESTS = ROOT / "tests"


def ruleset_file(logic: str) -> Path:
    for path in (ROOT / "rulesets" / f"{logic}.toml", TESTS / "rulesets" / f"{logic}.toml"):
        if path.is_file():
            return path
    raise AssertionError(f"{logic} has no ruleset file")


def demo_of(logic: str) -> Path:
    own = TESTS / "rulesets" / f"{logic}-demo.toml"
    if own.is_file():
        return own
    from referee.session.demos import demo_for

    return demo_for(logic)


def scenarios(logic: str) -> list[Path]:
    return sorted(p for p in (TESTS / "scenarios" / logic).glob("*.toml")
                  if not p.name.endswith(".expect.toml"))


def expectation(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def saves(logic: str) -> list[Path]:
    return [demo_of(logic)] + scenarios(logic)


def spec_ids(logic: str) -> list[str]:
    text = (TESTS / "specs" / f"{logic}.md").read_text(encoding="utf-8")
    return list(dict.fromkeys(re.findall(r"^([A-Z]+-\d+)\.", text, re.MULTILINE)))


@pytest.fixture(params=RULESETS)
def logic(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_directory_holds_the_shipped_rulesets_and_the_toy() -> None:
    assert {"demon-idol", "count-up", "toy"} <= set(RULESETS)


# -- files -----------------------------------------------------------------------------


def test_its_ruleset_file_loads_and_an_unknown_key_is_refused(logic: str,
                                                              tmp_path: Path) -> None:
    path = ruleset_file(logic)
    ruleset = load_ruleset(str(path))
    assert ruleset.id == logic and ruleset.switches()
    broken = tmp_path / "house.toml"
    broken.write_text("no_such_rule = 3\n" + path.read_text())
    with pytest.raises(LoadError) as found:
        load_ruleset(str(broken))
    assert found.value.field == "no_such_rule" and found.value.line is not None


def test_a_roster_key_it_does_not_know_names_the_ruleset(logic: str, tmp_path: Path) -> None:
    demo = demo_of(logic)
    text = demo.read_text()
    at = text.index("[[combatants]]") + len("[[combatants]]\n")
    broken = tmp_path / demo.name
    broken.write_text(text[:at] + "no_such_key = 1\n" + text[at:])
    _copy_ruleset(demo, tmp_path)
    with pytest.raises(LoadError) as found:
        load_save(broken)
    assert found.value.reason.startswith(f"not a {logic} key")
    assert found.value.field.endswith("no_such_key") and found.value.line is not None


def _copy_ruleset(save: Path, folder: Path) -> None:
    """A save that names its ruleset file by path keeps finding it from a copy."""
    match = re.search(r'^ruleset = "(.+\.toml)"', save.read_text(), re.MULTILINE)
    if match:
        target = folder / match.group(1)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((save.parent / match.group(1)).read_text())


def test_stats_and_events_round_trip_through_the_writer_and_the_fast_reader(
        logic: str, tmp_path: Path) -> None:
    for path in saves(logic):
        save = load_save(path)
        text = save_text(save.encounter, save.fight.log)
        assert loads(text, tomllib.loads) == tomllib.loads(text), path.name
        copy_path = tmp_path / path.name
        copy_path.write_text(text)
        _copy_ruleset(path, tmp_path)
        again = load_save(copy_path)
        assert again.encounter == save.encounter, path.name
        assert again.fight.log == save.fight.log, path.name


# -- the fold ----------------------------------------------------------------------------


def state_of(fight: Fight) -> Any:
    ruleset = fight.ruleset
    return (fight.round, fight.phase, fight.ended, ruleset.fight_facts(fight),
            {cid: ruleset.facts(fight, cid) for cid in fight.roster}, fight.rs,
            {r: sorted(keys) for r, keys in fight.resolved.items()})


def test_apply_never_changes_its_input(logic: str) -> None:
    for path in saves(logic):
        save = load_save(path)
        fight = Fight(save.encounter, save.ruleset)
        fight.later = set(save.fight.later)
        for event in save.fight.log:
            before = copy.deepcopy(fight.rs)
            kept = fight.rs
            fight.push(event)
            assert kept == before, (path.name, event)


def test_a_checkpoint_and_the_rest_of_the_log_equal_the_full_fold(logic: str) -> None:
    for path in saves(logic):
        fight = load_save(path).fight
        for cut in range(len(fight.log) + 1):
            part = fight.at(cut)
            for event in fight.log[cut:]:
                part.push(event)
            assert state_of(part) == state_of(fight), (path.name, cut)


# -- plans, broken files and rules -------------------------------------------------------


def plan_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["plan", str(path), "--json"]) == 0, capsys.readouterr().err
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def label(action: dict[str, Any]) -> str:
    text = f"{action['actor']}:{action['action']}"
    return f"{text}#{action['routine']}" if "routine" in action else text


def held(beat: dict[str, Any]) -> list[str]:
    return sorted(f"{h['actor']}:{kind}" for h in beat.get("holding", [])
                  for kind in h["delayed"])


def test_every_scenario_plans_as_expected(logic: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    for path in scenarios(logic):
        want = expectation(path)
        if "beats" not in want:
            continue  # a ruleset that resolves itself checks its own results
        plan = plan_json(path, capsys)
        got = [sorted(label(a) for a in beat["actions"]) for beat in plan["beats"]]
        assert got == [sorted(b) for b in want["beats"]], path.name
        cited = {rule for beat in plan["beats"] for rule in beat["rules"]}
        assert set(want.get("cites", [])) <= cited, path.name
        for key, extra in (("counts", "count"), ("phases", "phase")):
            if key in want:
                assert [beat.get(extra) for beat in plan["beats"]] == want[key], path.name
        if "holding" in want:
            assert [held(beat) for beat in plan["beats"]] == [sorted(h) for h in
                                                               want["holding"]], path.name


def test_every_broken_file_gives_its_message(logic: str, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for path in sorted((TESTS / "broken" / logic).glob("*.toml")):
        typed = path.relative_to(ROOT).as_posix()
        want = path.with_suffix(".expect").read_text().strip().replace("{file}", typed)
        assert main(["check", typed]) == 1, path.name
        assert capsys.readouterr().err.strip() == want


def test_every_rule_has_an_index_entry_and_a_scenario(logic: str) -> None:
    ids = spec_ids(logic)
    assert ids, f"tests/specs/{logic}.md lists no rule ids"
    assert set(rules_of(logic)) == set(ids)
    assert all(rules_of(logic).values())
    covered: set[str] = set()
    prefix = ids[0].split("-")[0].lower()
    for folder in (TESTS / "scenarios" / logic, TESTS / "scenarios" / "state"):
        for path in folder.glob("*.toml"):
            name = re.match(rf"{prefix}-rule-0*(\d+)-", path.name)
            if name:
                covered.add(f"{prefix.upper()}-{int(name.group(1))}")
            if path.name.endswith(".expect.toml"):
                covered.update(tomllib.loads(path.read_text()).get("cites", []))
    assert set(ids) <= covered, sorted(set(ids) - covered)


# -- forms and commands --------------------------------------------------------------------


def defaults(spec: Any) -> dict[str, Any]:
    return {f.name: f.default for f in spec.fields}


def test_every_form_filled_with_its_defaults_gives_events_its_checks_accept(
        logic: str) -> None:
    save = load_save(demo_of(logic))
    fight, ruleset = save.fight, save.ruleset
    for actor in fight.roster:
        for kind in ruleset.actions():
            if ruleset.can_declare(fight, actor, kind.key):
                continue  # refused before any form opens, with the reason
            prefill = ruleset.prefill(fight, actor, kind.key)
            spec = ruleset.declare_form(fight, actor, kind.key, prefill)
            values = {k: v for k, v in defaults(spec).items() if v not in (None, False, "")}
            fight.copy().push(ruleset.declaration(fight, actor, kind.key, values))
    actor = next(iter(fight.roster))
    for command in ruleset.commands(fight):
        if ruleset.can_run(fight, command.id, actor):
            continue
        spec = ruleset.command_form(fight, command.id, actor)
        values = defaults(spec) if spec is not None else {}
        if spec is not None and any(f.required and f.default is None for f in spec.fields):
            continue  # a form that asks what only the referee knows (a roll at the table)
        trial = fight.copy()
        for event in ruleset.run_command(trial, command.id, actor, values, random.Random(1)):
            trial.push(event)


def test_its_package_imports_nothing_but_the_engine(logic: str) -> None:
    from tests.test_import_hygiene import impure, modules_after

    module = module_of(logic)
    assert impure(modules_after(f"import {module}; {module}.RULESET")) == set()


# -- the app -----------------------------------------------------------------------------------


async def test_its_demo_opens_in_the_app(logic: str, tmp_path: Path) -> None:
    from referee.app import RefereeApp
    from referee.app.combat import CombatScreen

    demo = demo_of(logic)
    path = tmp_path / demo.name
    path.write_text(demo.read_text())
    _copy_ruleset(demo, tmp_path)
    save = load_save(path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, CombatScreen)
        tracker = screen.query_one("#tracker")
        rows = [key for key in tracker.keys if not key.startswith("group:")]  # not headings
        assert sorted(rows) == sorted(save.fight.roster)  # in the plan's order
        for column in save.ruleset.columns():
            assert column.label in tracker.labels
        for command in save.ruleset.commands(save.fight):
            assert any(b.action == f"command('{command.id}')" for b in type(screen).BINDINGS)

