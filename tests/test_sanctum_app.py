"""sanctum in the app: F fights the turn into the log attack by attack; O the odds."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.session.files import load_save
from tests.conftest import ROOT


def demo(tmp_path: Path) -> Path:
    target = tmp_path / "sanctum.toml"
    shutil.copyfile(ROOT / "saves" / "sanctum.toml", target)
    return target


async def test_f_fights_the_turn_and_the_log_fills(tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("F")
        await pilot.pause()
    fight = load_save(path).fight
    attacks = [e for e in fight.log if e.TYPE == "attack"]
    assert attacks and any(e.TYPE == "combat-end" for e in fight.log)
    # the same steps as `referee fight` from the save's seed
    fresh = load_save(ROOT / "saves" / "sanctum.toml").fight
    steps, seed = fresh.ruleset.pending(fresh)
    assert seed == 11
    def plain(event):  # the app enters a fight as one act: its steps follow the first
        return {k: v for k, v in event.to_dict().items() if k != "follows"}

    assert [plain(e) for e in steps] == [plain(e) for e in fight.log[1:]]
    assert all(e.follows for e in fight.log[2:])
    plan = fight.plan()
    assert all(a.flag("skipped") for b in plan.beats for a in b.actions)


async def test_n_fights_one_pair_and_o_gives_the_odds(tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("O")
        await pilot.pause()
    fight = load_save(path).fight
    ends = [e for e in fight.log if e.TYPE == "combat-end"]
    assert len(ends) == 1 and ends[0].groups == ("red-1", "blue-1")
    assert any(e.TYPE == "note" and "odds" in getattr(e, "text", "") for e in fight.log)
