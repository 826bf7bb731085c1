"""The app keeps an open save's objects out of the collector's way (frozen). A save opened
after another lets the first go: once its screen is gone its fight is collected (not
frozen for as long as the app runs), and the app holds no more after many saves opened
than after two. A load asks the session layer, not the collector, whether the heap is
frozen (the collector's own count walks every frozen object). Counted, never timed."""

from __future__ import annotations

import gc
import random
import shutil
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.app.app import RefereeApp
from referee.app.collector import COLLECTOR
from referee.session import heap
from referee.session.files import load_save
from tests.conftest import ROOT


def saves(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "ford.toml", tmp_path / "road.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", first)
    shutil.copyfile(ROOT / "saves" / "count-up.toml", second)
    return first, second


async def opened(pilot: Any, path: Path) -> None:
    """`path` opened in the app (as ctrl+o's list opens it), and the app left until it has
    let the last save go (its screen gone, its fight collected, the new one frozen)."""
    let_go = COLLECTOR.lets_go
    pilot.app.switch_to(path)
    for _ in range(200):  # ten seconds at most: it takes one or two pauses
        await pilot.pause(0.05)
        if COLLECTOR.lets_go > let_go:
            break
    assert pilot.app.session.path == path


async def opening_in_turn(folder: Path) -> dict[str, Any]:
    """Twelve saves opened in one app, each the other of the two (run in a process of its
    own: `in_a_fresh_process`): what was seen at the start and after each open."""
    first, second = saves(folder)
    fights: list[weakref.ref[object]] = []
    seen: dict[str, Any] = {"turns": []}
    async with RefereeApp(first, folder, random.Random(1)).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seen["start"] = [heap.frozen, gc.get_freeze_count()]
        for turn in range(12):
            fights.append(weakref.ref(pilot.app.session.fight))
            await opened(pilot, second if turn % 2 == 0 else first)
            count = gc.get_freeze_count()
            after: dict[str, Any] = {
                "alive": [fight() is not None for fight in fights],
                "frozen": heap.frozen, "count": count, "held": count}
            if turn == 0:
                await pilot.press("down")  # and the app goes on
                after["path"] = str(pilot.app.session.path)
                after["held"] = gc.get_freeze_count()
            seen["turns"].append(after)
    return seen


IN_A_FRESH_PROCESS = """
import asyncio, json, sys
from pathlib import Path
import tests.conftest  # the pilot's waits, as in a test process
from tests.test_app_collector import opening_in_turn
print(json.dumps(asyncio.run(opening_in_turn(Path(sys.argv[1])))))
"""


def test_saves_opened_in_turn_free_the_last_and_hold_no_more_than_two(
        tmp_path: Path) -> None:
    """Twelve saves opened, each the other of the two: the open save is frozen (out of the
    collector's way); every fight but the open one is freed (collected, not frozen for as
    long as the app runs), the new one frozen in its place, and the app goes on; what the
    app keeps frozen (all it holds) hardly grows from open to open. (The first open was a
    test of its own, on its own launch.)

    Played in a process of its own, as the app runs: each open collects the whole heap
    once, and a test process's heap (every module and test the worker has held) made
    that walk most of the test's time (some 0.5 CPU-s an open, not a few hundredths);
    the checks are the same, made here on what that process saw."""
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", IN_A_FRESH_PROCESS, str(tmp_path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    frozen, count = seen["start"]
    assert frozen and count > 0  # the open save out of the way
    held: list[int] = []
    for turn, after in enumerate(seen["turns"]):
        assert after["alive"] == [False] * (turn + 1), turn
        assert after["frozen"] and after["count"] > 0, turn  # the new one, frozen
        if turn == 0:
            assert after["path"] == str(tmp_path / "road.toml")  # the app goes on
        held.append(after["held"])
    assert len(held) == 12
    # from the fourth open on: some 120 objects an open, the entries of Textual's style
    # cache (bounded: 1,024) for the new screen's widgets; a fight and its screen left
    # frozen were some 2,400 an open (and a new screen class each open, ~220 more)
    assert held[-1] - held[3] < 250 * (len(held) - 4), held


def test_a_load_beside_a_frozen_app_does_not_count_what_is_frozen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save loaded while the app keeps its heap frozen (the command line run beside it,
    a test's own load) neither counts the frozen objects nor thaws them; with nothing
    frozen, the load's objects go to the oldest generation as before."""
    first, _ = saves(tmp_path)
    asked: list[int] = []
    counted: Callable[[], int] = gc.get_freeze_count

    def count() -> int:
        asked.append(1)
        return counted()

    monkeypatch.setattr(gc, "get_freeze_count", count)
    COLLECTOR.settled()
    load_save(first)
    assert asked == [] and heap.frozen and counted() > 0  # left frozen, not asked
    heap.thaw()
    load_save(first)
    assert asked == [] and counted() == 0
