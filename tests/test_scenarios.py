"""Every scenario file gives exactly its expected plan through `referee plan FILE --json`."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from referee.cli import main

HERE = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(
    p for folder in ("demon-idol", "count-up") for p in (HERE / folder).glob("*.toml")
    if not p.name.endswith(".expect.toml")
)


def expected(path: Path) -> dict:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def label(action: dict) -> str:
    text = f"{action['actor']}:{action['action']}"
    return f"{text}#{action['routine']}" if "routine" in action else text


def plan_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["plan", str(path), "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_every_scenario_has_an_expectation() -> None:
    assert len(SCENARIOS) >= 9
    for path in SCENARIOS:
        assert path.with_suffix("").with_suffix(".expect.toml").is_file(), path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_plan(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    want = expected(path)
    plan = plan_json(path, capsys)
    beats = [sorted(label(a) for a in beat["actions"]) for beat in plan["beats"]]
    assert beats == [sorted(b) for b in want["beats"]]
    cited = {rule for beat in plan["beats"] for rule in beat["rules"]}
    assert set(want.get("cites", [])) <= cited
    if "counts" in want:
        assert [beat["count"] for beat in plan["beats"]] == want["counts"]
    for beat in plan["beats"]:
        assert beat["why"] and beat["rules"]
