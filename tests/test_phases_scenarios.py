"""phases scenarios, beyond the plan that tests/test_contract.py checks (`beats`, `phases`,
`holding`, `cites`): the rest of what `tests/scenarios/phases/NAME.expect.toml` may say.

- `entered = true`: the events are entered as the referee enters them (`Fight.enter`),
  and `added` lists the consequences the rules added ("type:who"); without it the save
  is loaded as it was written;
- `why` (texts some beat's why says) and `why_not` (texts no why says);
- `absent`: units in no beat's actions, holding or why (PH-21);
- `[state]`: `round`; `squads` (the squads there are) and `no_squad` (units in none);
  `[state.combatants.ID]`: the unit's facts (`Ruleset.facts`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.engine import Fight
from referee.engine.record import replace
from referee.session.files import load_save
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "phases"
CASES = sorted(p for p in HERE.glob("*.toml") if not p.name.endswith(".expect.toml"))


def expected(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.with_suffix("").with_suffix(".expect.toml").read_text())


def entered(path: Path, tmp_path: Path) -> tuple[Fight, list[str]]:
    """The save's roster, then its events entered one by one as the referee enters them."""
    data = tomllib.loads(path.read_text())
    bare = tmp_path / path.name
    bare.write_text(path.read_text().split("[[events]]")[0])
    fight = load_save(bare).fight
    added = []
    for index, raw in enumerate(data.get("events", [])):
        event = fight.ruleset.reader.read(raw, ("events", index))
        for done in fight.enter(event):
            if replace(done, follows=False) != replace(event, follows=False):
                who = getattr(done, "target", None) or getattr(done, "actor", None) or ""
                added.append(f"{done.TYPE}:{who}")
    return fight, added


def test_the_scenarios_say_more_than_their_plans() -> None:
    said = [p for p in CASES if set(expected(p)) - {"beats", "phases", "holding", "cites"}]
    assert len(said) >= 20


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_scenario(path: Path, tmp_path: Path) -> None:
    want = expected(path)
    if want.get("entered"):
        fight, added = entered(path, tmp_path)
        assert added == want.get("added", [])
    else:
        fight = load_save(path).fight
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
    check_state(fight, want.get("state", {}))


def check_state(fight: Fight, state: dict[str, Any]) -> None:
    rs = fight.ruleset
    if "round" in state:
        assert fight.round == state["round"]
    squads = rs.fight_facts(fight)["squads"]
    if "squads" in state:
        assert sorted(squads) == sorted(state["squads"])
    for cid in state.get("no_squad", []):
        assert rs.facts(fight, cid)["squad"] is None, cid
        assert all(cid not in s["members"] for s in squads.values()), cid
    for cid, fields in state.get("combatants", {}).items():
        facts = rs.facts(fight, cid)
        for key, value in fields.items():
            assert facts[key] == value, f"{cid}.{key}: {facts[key]!r}"
