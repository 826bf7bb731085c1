"""A key press to the updated screen in the app, on the big battles of the rulesets that
are not "declare, then order": agility-order with 200 units (`n` ends the acting unit's
turn, `ctrl+z` takes it back) and phases with 1,000 units in 60 squads (`n` resolves the
phase it is at, `ctrl+z` takes it back; and `v` then Enter: a unit takes its Move in the
phase, the Enter timed from the form's answer to the screen showing the Move; and, to
compare, a declaration's form answered in demon-idol's small demo).

Measured as benchmarks/app_bench.py measures demon-idol: from a real key event posted
to the app's queue until the first frame drawn with the change in the log is handed to
the driver, each frame turned into terminal bytes. Targets (those demon-idol meets):
median under 16 ms, 95th percentile under 33 ms.
Plain script: `python benchmarks/ruleset_app_bench.py`.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import agility_order_bench  # noqa: E402
import phases_bench  # noqa: E402
from app_bench import SIZE, Frames, figures, press  # noqa: E402
from textual.pilot import Pilot  # noqa: E402

from referee.app import RefereeApp  # noqa: E402
from referee.app.forms import FormScreen  # noqa: E402
from referee.app.widgets import LogView, Tracker  # noqa: E402

TURNS = 40
MOVES = 40

Sample = tuple[float, float]


def closed(app: RefereeApp) -> bool:
    """The form is gone: the frame shows the combat screen, not the form over it."""
    return not isinstance(app.screen, FormScreen)


def saved(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


async def there_and_back(path: Path, steps: Callable[[RefereeApp], int],
                         passes: int = 1) -> list[Sample]:
    """`n` forward `steps(app)` times, then `ctrl+z` as many times back, `passes` times:
    each press adds a line to the log."""
    app = RefereeApp(path, path.parent, random.Random(1))
    times = []
    async with app.run_test(size=SIZE):
        frames = Frames(app)
        if app.table.initiative_blocks():
            await press(app, frames, "i", lambda: not app.table.initiative_blocks())
        log = app.screen.query_one(LogView)
        count = steps(app)
        for key in (["n"] * count + ["ctrl+z"] * count) * passes:
            lines = log.line_count
            times.append(await press(app, frames, key,
                                     lambda lines=lines: log.line_count == lines + 1))
    return times


async def agility_order(folder: Path) -> list[Sample]:
    """`n` down the lineup (each ends the acting unit's turn), then `ctrl+z` back."""
    path = saved(folder, "raid.toml", agility_order_bench.battle_text())
    return await there_and_back(path, lambda app: TURNS)


async def answered(app: RefereeApp, pilot: Pilot, frames: Frames, key: str) -> Sample:
    """`key` opens the selected combatant's form; its Enter, taking the defaults, timed
    until the first frame that shows the combat screen again with the new log line."""
    log = app.screen.query_one(LogView)
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(app.screen, FormScreen), app.screen
    lines = log.line_count
    return await press(app, frames, "enter",
                       lambda: closed(app) and log.line_count == lines + 1)


async def phases(folder: Path) -> list[Sample]:
    """Every unit that gains its Move in the first phase takes it: select it, `v`, then
    the timed Enter on the form."""
    path = saved(folder, "siege.toml", phases_bench.battle_text())
    app = RefereeApp(path, folder, random.Random(1))
    times = []
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        fight = app.table.fight
        top = fight.rs.now.order[0]
        movers = [cid for cid, c in fight.roster.items() if int(c.stats["combat"]) == top]
        tracker = app.screen.query_one(Tracker)
        for cid in movers[:MOVES]:
            tracker.select(cid)
            times.append(await answered(app, pilot, frames, "v"))
    return times


async def demon_idol_form(folder: Path) -> list[Sample]:
    """For comparison: the bundled demon-idol demo (9 combatants), each declaring G with
    its form's defaults, the Enter timed. A form closing costs this in any ruleset."""
    path = saved(folder, "demo.toml", (ROOT / "saves" / "demo.toml").read_text())
    app = RefereeApp(path, folder, random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        return [await answered(app, pilot, frames, "g") for _ in app.table.fight.roster]


async def phases_steps(folder: Path) -> list[Sample]:
    """`n` on through the phases (each resolves the phase it is at), then `ctrl+z` back;
    twice, so half the presses are made with the log pane full (each new line scrolls
    it)."""
    path = saved(folder, "siege-steps.toml", phases_bench.battle_text())
    return await there_and_back(path, lambda app: len(app.table.plan().beats) - 1,
                                passes=2)


def report(name: str, times: list[Sample]) -> None:
    print(f"{name}: {len(times)} presses, {SIZE[0]}x{SIZE[1]}: {figures(times, 0)} "
          "(targets: median < 16 ms, p95 < 33 ms)")
    print(f"  until the screen is at rest again: {figures(times, 1)}")


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        report(f"agility-order, {agility_order_bench.UNITS} units",
               asyncio.run(agility_order(folder)))
        battle = f"phases, {phases_bench.UNITS} units in {phases_bench.SQUADS} squads"
        report(f"{battle}, n and ctrl+z", asyncio.run(phases_steps(folder)))
        report(f"{battle}, a Move's form answered (Enter: the form closes, the whole "
               "screen is drawn again)", asyncio.run(phases(folder)))
        report("for comparison, demon-idol's demo, a declaration's form answered",
               asyncio.run(demon_idol_form(folder)))


if __name__ == "__main__":
    main()

