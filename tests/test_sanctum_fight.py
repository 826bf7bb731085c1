"""sanctum scenarios: each `tests/scenarios/sanctum/NAME.toml` fought on a copy through
`referee fight --json`, against the `[[combats]]` of `NAME.expect.toml` (groups, first,
rounds, ended, survivors, and the attacks as "rN attacker>victim hit|miss dmg/soaked
result"); the save is appended durably, so the copy then replays to the same state."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.session.files import load_save

HERE = Path(__file__).parent / "scenarios" / "sanctum"
SCENARIOS = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml"))


def expectation(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def attack_line(a: dict[str, Any]) -> str:
    head = f"r{a['round']} {a['attacker']}>{a['victim']}"
    if not a["hit"]:
        return f"{head} miss"
    return f"{head} hit {a['damage']}/{a['soaked']} {a['result']}"


def fight_json(path: Path, capsys: pytest.CaptureFixture[str],
               *extra: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["fight", str(path), "--json", *extra]) == 0, capsys.readouterr().err
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def check_combat(got: dict[str, Any], want: dict[str, Any], name: str) -> None:
    assert got["groups"] == want["groups"], name
    if want.get("skipped"):
        assert got.get("skipped") is True, name
        return
    for key in ("first", "rounds", "ended"):
        if key in want:
            assert got[key] == want[key], (name, key)
    if "survivors" in want:
        assert got["survivors"] == want["survivors"], name
    if "attacks" in want:
        assert [attack_line(a) for a in got["attacks"]] == want["attacks"], name
    for cited in want.get("rules", []):
        assert cited in got["rules"] + [r for a in got.get("attacks", []) for r in a["rules"]]


def test_there_are_scenarios() -> None:
    assert any("combats" in expectation(p) for p in SCENARIOS)


@pytest.mark.parametrize("path", [p for p in SCENARIOS if "combats" in expectation(p)],
                         ids=lambda p: p.stem)
def test_scenario_fights_as_expected(path: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    want = expectation(path)
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    extra = ["--seed", str(want["seed"])] if "seed" in want else []
    result = fight_json(copy, capsys, *extra)
    assert result["ruleset"] == "sanctum"
    assert len(result["combats"]) == len(want["combats"]), path.name
    for got, expected in zip(result["combats"], want["combats"], strict=True):
        check_combat(got, expected, path.name)
    # durably appended: the file holds every step, and fighting again adds nothing
    again = fight_json(copy, capsys)
    assert again == result
    fight = load_save(copy).fight
    steps = [e for e in fight.events if e.TYPE in ("victim", "forfeit", "attack")]
    victims = [f"r{e.combat_round} {e.actor}>{e.victim} {e.how}" for e in steps
               if e.TYPE == "victim"]
    if "victims" in want:
        assert victims == want["victims"], path.name
    if "first_victims" in want:
        assert victims[: len(want["first_victims"])] == want["first_victims"], path.name
    if "forfeits" in want:
        assert [f"r{e.combat_round} {e.actor}" for e in steps if e.TYPE == "forfeit"] == \
            want["forfeits"], path.name
    if "kinds" in want:
        assert [a["kind"] for c in result["combats"] for a in c.get("attacks", [])] == \
            want["kinds"], path.name
    if "promoted" in want:
        assert sorted(fight.ruleset.fight_facts(fight)["promoted"]) == want["promoted"]
    if "odds" in want:
        check_odds_runs(path, tmp_path, want["odds"], capsys)


def check_odds_runs(path: Path, tmp_path: Path, odds: dict[str, Any],
                    capsys: pytest.CaptureFixture[str]) -> None:
    """SA-11: every run's seed is kept, and `fight --seed X -o RUN.toml` replays it."""
    before = path.read_text()
    capsys.readouterr()
    args = ["odds", str(path), "--runs", str(odds["runs"]), "--seed", str(odds["seed"]),
            "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert path.read_text() == before  # odds never changes the save
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == report  # the same S, the same answer
    assert len(report["seeds"]) == odds["runs"]
    for k in (0, len(report["seeds"]) // 2, len(report["seeds"]) - 1):
        run = tmp_path / f"run{k}.toml"
        assert main(["fight", str(path), "--seed", str(report["seeds"][k]), "-o", str(run),
                     "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        left = {side: 0 for side in report["sides"]}
        fight = load_save(run).fight
        for group in report["survivors"]:
            for cid, c in fight.roster.items():
                if c.stat("group") == group and not fight.status[cid].dead:
                    left[c.side] += 1
        alive = [side for side, n in left.items() if n]
        outcome = alive[0] if len(alive) == 1 else "draw"
        assert report["outcomes"][k] == outcome, (k, result)
