"""phases scenarios, beyond what the contract suite checks of them (tests/test_contract.py:
the plan's `beats`, `phases`, `holding`, `cites`; `entered`, `added` and `[state]`): the
keys only phases gives a meaning to, read from `tests/scenarios/phases/NAME.expect.toml`:

- `why` (texts some beat's why says) and `why_not` (texts no why says);
- `absent`: units in no beat's actions, holding or why (PH-21).

The fight is the contract's (`Case.fight`: as written, or entered as the referee enters
it), so both read a scenario the same way.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT
from tests.test_contract import Case, Scenario

HERE = ROOT / "tests" / "scenarios" / "phases"
CASES = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml"))


def expected(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def test_the_scenarios_say_more_than_their_plans() -> None:
    said = [p for p in CASES if set(expected(p)) - {"beats", "phases", "holding", "cites"}]
    assert len(said) >= 20


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_scenario(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    want = expected(path)
    fight = Case(Scenario(path, "phases"), want, tmp_path, capsys).fight
    plan = fight.plan()
    whys = [why for beat in plan.beats for why in beat.why]
    for text in want.get("why", []):
        assert any(text in why for why in whys), (text, whys)
    for text in want.get("why_not", []):
        assert not any(text in why for why in whys), (text, whys)
    for cid in want.get("absent", []):
        name = fight.roster[cid].name
        for beat in plan.beats:
            assert all(a.actor != cid for a in beat.actions), (cid, beat.tag)
            assert all(h["actor"] != cid for h in beat.extra["holding"]), (cid, beat.tag)
            assert not any(name in why for why in beat.why if "left the fight" not in why)
