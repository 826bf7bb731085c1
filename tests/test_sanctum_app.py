"""sanctum in the app: F fights the turn into the log attack by attack; O the odds; P
lists a turn's pairs."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.app import RefereeApp
from referee.app.forms import FormScreen
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
    notes = [e.text for e in fight.log if e.TYPE == "note"]
    assert notes and notes[0].startswith("odds (SA-11), turn 1: 1000 runs from seed 11")
    assert len({e.follows for e in fight.log if e.TYPE == "note"}) == 2  # one act
    assert any("█" in n and "wins" in n for n in notes)  # a bar per side
    assert any("left" in n for n in notes)  # a group's expected survivors
    assert any("referee fight SAVE --seed" in n for n in notes)  # a run to replay


def unlisted(tmp_path: Path) -> Path:
    """The demo without its `combats` event: turn 1 lists no pairs."""
    path = demo(tmp_path)
    text = path.read_text()
    path.write_text(text[: text.index("[[events]]")])
    return path


def combats(path: Path) -> list[Any]:
    return [e for e in load_save(path).fight.log if e.TYPE == "combats"]


async def test_p_lists_the_turns_pairs_and_enter_takes_every_hostile_pair(
        tmp_path: Path) -> None:
    path = unlisted(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-pairs").value == \
            "red-1 blue-1; red-1 wild-1; blue-1 wild-1"  # in creation order
        await pilot.press("enter")
        await pilot.pause()
        listed = combats(path)
        assert [(e.round, e.pairs) for e in listed] == [
            (1, (("red-1", "blue-1"), ("red-1", "wild-1"), ("blue-1", "wild-1")))]
        await pilot.press("P")  # listed already: refused before any form
        assert not isinstance(pilot.app.screen, FormScreen)
        await pilot.press("F")  # and they are the turn's combats
        await pilot.pause()
    assert any(e.TYPE == "combat-end" for e in load_save(path).fight.log)


async def test_p_refuses_pairs_the_event_would_refuse(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = unlisted(tmp_path)
    shown: list[str] = []
    monkeypatch.setattr(RefereeApp, "notify",
                        lambda self, message, **kw: shown.append(str(message)))
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        for text, said in (("red-1 blue-1; blue-1 blue-1", "not hostile"),
                           ("red-1 ghost-9", "unknown group 'ghost-9'"),
                           ("red-1 blue-1 wild-1", "a pair is two groups")):
            await pilot.press("P")
            pilot.app.screen.query_one("#f-pairs").value = text
            await pilot.press("enter")
            await pilot.pause()
            assert any(said in message for message in shown), (text, shown)
            assert not combats(path)
        await pilot.press("P")
        pilot.app.screen.query_one("#f-pairs").value = "blue-1 red-1; wild-1 red-1"
        await pilot.press("enter")
        await pilot.pause()
    assert [e.pairs for e in combats(path)] == [(("blue-1", "red-1"), ("wild-1", "red-1"))]


async def test_p_lists_the_next_turn_once_this_ones_combats_are_fought(
        tmp_path: Path) -> None:
    path = demo(tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("P")  # turn 1 lists its combats, not fought yet
        assert not isinstance(pilot.app.screen, FormScreen)
        await pilot.press("F")
        await pilot.pause()
        await pilot.press("P")
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        assert form.query_one("#f-pairs").value == ""  # only wild-1 has minions standing
        form.query_one("#f-pairs").value = "wild-1 blue-1"
        await pilot.press("enter")
        await pilot.pause()
    assert [(e.round, e.pairs) for e in combats(path)][1:] == [(2, (("wild-1", "blue-1"),))]
