"""agility-order's scenarios, read for what the contract suite does not look at.

The contract suite (test_contract.py) checks each scenario's `beats` and `cites`, and the
keys every ruleset reads alike: `ties_due`, `victors`, `[state]`. Beside them a
`NAME.expect.toml` here may say what only agility-order gives a meaning to:

- `skipped = { id = "AO-n" }`: units listed as taking no turn, with the rule;
- `why = { id = "text" }`: words the why of that unit's beat holds.

Each save is loaded as `referee` loads it: every event checked and folded, nothing added.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.session.files import load_save
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "agility-order"
CASES = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml"))


def expectation(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def test_every_scenario_loads_and_has_an_expectation() -> None:
    assert len(CASES) >= 20
    for path in CASES:
        assert path.with_suffix("").with_suffix(".expect.toml").is_file(), path.name


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_scenario_beyond_the_plan(path: Path) -> None:
    want = expectation(path)
    fight = load_save(path).fight
    plan = fight.plan()
    skipped = {item["actor"]: item["rule"] for item in plan.skipped}
    for cid, rule in want.get("skipped", {}).items():
        assert skipped.get(cid) == rule, cid
    whys = {beat.actions[0].actor: " ".join(beat.why) for beat in plan.beats}
    for cid, text in want.get("why", {}).items():
        assert text in whys[cid], whys[cid]
