"""State scenarios: a log as the referee entered it, fed through `Fight.enter`.

`tests/scenarios/state/NAME.toml` is a save; `NAME.expect.toml` says what the rules
must have added (`added`, as "type:who") and the state that results (`[state]`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.engine import Fight
from referee.engine.record import replace
from referee.session.files import load_save
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "state"
CASES = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml"))


def entered(path: Path, tmp_path: Path) -> tuple[Fight, list[str]]:
    data = tomllib.loads(path.read_text())
    bare = tmp_path / path.name
    bare.write_text("\n".join(line for line in path.read_text().split("[[events]]")[0]
                              .splitlines()))
    fight = load_save(bare).fight
    added = []
    for index, raw in enumerate(data.get("events", [])):
        event = fight.ruleset.reader.read(raw, ("events", index))
        for done in fight.enter(event):
            if replace(done, follows=False) != replace(event, follows=False):
                who = getattr(done, "target", None) or getattr(done, "actor", None) or ""
                added.append(f"{done.TYPE}:{who}")
    return fight, added


def test_there_are_state_scenarios():
    assert len(CASES) >= 8


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_state_scenario(path: Path, tmp_path: Path):
    want = tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())
    fight, added = entered(path, tmp_path)
    assert added == want.get("added", [])
    state = want.get("state", {})
    for key in ("round", "phase", "ended"):
        if key in state:
            assert getattr(fight, key) == state[key], key
    for cid, fields in state.get("combatants", {}).items():
        facts = fight.ruleset.facts(fight, cid)
        for key, value in fields.items():
            assert facts[key] == value, f"{cid}.{key}"
    facts = fight.ruleset.fight_facts(fight)
    if "base" in state:
        assert facts["base"] == state["base"]
    if "morale_due" in want:
        assert facts["morale_due"] == want["morale_due"]
    acts_in = getattr(fight.ruleset, "acts_in", None)
    for who in want.get("acts", []):
        actor, beat = who.split("@")
        assert acts_in(fight, actor, int(beat)), who
    for who in want.get("idle", []):
        actor, beat = who.split("@")
        assert not acts_in(fight, actor, int(beat)), who
    for label in want.get("lost", []):
        lost = [a.label() for b in fight.plan().beats for a in b.actions if a.flag("lost")]
        assert label in lost
