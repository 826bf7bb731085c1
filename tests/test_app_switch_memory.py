"""The app keeps an open save's objects out of the collector's way (frozen); a save opened
after another lets the first one go: its fight is freed, not frozen for as long as the
app runs."""

from __future__ import annotations

import gc
import random
import shutil
import weakref
from pathlib import Path

from referee.app.app import RefereeApp
from tests.conftest import ROOT


async def test_a_save_opened_after_another_frees_the_first(tmp_path: Path) -> None:
    first, second = tmp_path / "ford.toml", tmp_path / "road.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", first)
    shutil.copyfile(ROOT / "saves" / "count-up.toml", second)
    app = RefereeApp(first, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert gc.get_freeze_count() > 0  # the open save is kept out of the way
        old = weakref.ref(app.session.fight)
        app.switch_to(second)
        await pilot.pause()
        await pilot.press("down")
        assert app.session.path == second
        assert old() is None  # freed as the other opened, with nothing collected since
        assert gc.get_freeze_count() > 0  # and the new one kept out of the way in turn
