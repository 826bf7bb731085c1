"""count-up scenarios that say what the plan skips: `skipped` in `NAME.expect.toml` lists,
as "actor:action", the plan's skipped actions and every action of a beat marked skipped
(the beats themselves are checked by the contract suite, tests/test_contract.py). A
combatant slain in its own beat still acts there (CU-4); one slain before takes no turn
after (CU-8)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main

HERE = Path(__file__).parent / "scenarios" / "count-up"


def expectation(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


CASES = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml")
               and "skipped" in expectation(p))


def skipped(plan: dict[str, Any]) -> list[str]:
    listed = [f"{s['actor']}:{s['action']}" for s in plan.get("skipped", [])]
    marked = [f"{a['actor']}:{a['action']}" for beat in plan["beats"] for a in beat["actions"]
              if "skipped" in a]
    return listed + marked


def test_there_are_cases() -> None:
    assert len(CASES) >= 3


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_the_plan_skips_what_the_rules_skip(path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", str(path), "--json"]) == 0, capsys.readouterr().err
    plan = json.loads(capsys.readouterr().out)
    assert skipped(plan) == expectation(path)["skipped"]
