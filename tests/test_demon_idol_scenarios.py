"""demon-idol scenarios that pin more than their beats (issue 19): where `NAME.expect.toml`
gives them, each beat's `rules` (exactly, in order) and `why` (the whole line), the plan's
`notes` and `skipped` actions. (A routine shows in the beats themselves: `dagger:G#1`.)

The beats and cited rules of every scenario are checked by the
contract suite; this adds the rest.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "demon-idol"
EXTRA = ("rules", "why", "notes", "skipped")


def expected(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


SCENARIOS = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml")
                   and any(key in expected(p) for key in EXTRA))


def plan_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["plan", str(path), "--json"]) == 0, capsys.readouterr().err
    plan: dict[str, Any] = json.loads(capsys.readouterr().out)
    return plan


def test_the_scenarios_of_issue_19_pin_their_rules_and_why() -> None:
    assert len(SCENARIOS) >= 10


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_rules_why_notes_and_skipped(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    want = expected(path)
    plan = plan_json(path, capsys)
    beats = plan["beats"]
    if "rules" in want:
        assert [beat["rules"] for beat in beats] == want["rules"]
    if "why" in want:
        assert [beat["why"] for beat in beats] == want["why"]
    if "notes" in want:
        assert plan.get("notes", []) == want["notes"]
    if "skipped" in want:
        assert plan.get("skipped", []) == want["skipped"]
