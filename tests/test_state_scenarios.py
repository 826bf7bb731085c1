"""State scenarios: a log as the referee entered it, fed through `Fight.enter`.

`tests/scenarios/state/NAME.toml` is a save; `NAME.expect.toml` says what the rules
must have added (`added`, as "type:who") and the state that results (`[state]`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from referee.engine import Fight
from referee.engine.events import read_event
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
        event = read_event(raw, ("events", index))
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
        status = fight.status[cid]
        for key, value in fields.items():
            if key == "condition":
                assert fight.ruleset.condition(fight.roster[cid], status) == value
            elif key == "conditions":
                assert status.conditions == value
            else:
                assert getattr(status, key) == value, f"{cid}.{key}"
    if "base" in state:
        assert fight.base == state["base"]
    if "morale_due" in want:
        assert [cid for cid, _ in fight.ruleset.morale_triggers(fight)] == want["morale_due"]
    for who in want.get("acts", []):
        actor, beat = who.split("@")
        assert fight.acts_in(actor, int(beat)), who
    for who in want.get("idle", []):
        actor, beat = who.split("@")
        assert not fight.acts_in(actor, int(beat)), who
    for label in want.get("lost", []):
        lost = [a.label() for b in fight.plan().beats for a in b.actions
                if dict(a.extra).get("lost")]
        assert label in lost
