"""A key press to the updated screen in the app, on the big battles of the rulesets that
are not "declare, then order": agility-order with 200 units (ruleset.agility-press: `n`
ends the acting unit's turn, `ctrl+z` takes it back) and phases with 1,000 units in 60
squads (ruleset.phases-steps: `n` resolves the phase it is at, `ctrl+z` takes it back;
ruleset.phases-move: `v` then Enter, a unit takes its Move in the phase, the Enter timed
from the form's answer to the screen showing the Move); and, to compare,
ruleset.demon-idol-form: a declaration's form answered in demon-idol's small demo.

Measured as benchmarks/app_bench.py measures demon-idol: from a real key event posted
to the app's queue until the first frame drawn with the change in the log is handed to
the driver, each frame turned into terminal bytes; median and p95 (.p95), and until the
screen is at rest again (.rest, .rest.p95). Targets (those demon-idol meets): median
under 16 ms, p95 under 33 ms; a form answered, until the screen is at rest: under 16 ms.
Plain script: `python benchmarks/ruleset_app_bench.py`.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agility_order_bench  # noqa: E402
import phases_bench  # noqa: E402
from app_bench import SIZE, Frames, press, pressed, split  # noqa: E402
from figures import TREE, Measure, Values, main, workdir  # noqa: E402
from textual.pilot import Pilot  # noqa: E402

from referee.app import RefereeApp  # noqa: E402
from referee.app.forms import FormScreen  # noqa: E402
from referee.app.widgets import LogView, Tracker  # noqa: E402

ROOT = TREE
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


async def agility_order(folder: Path, turns: int = TURNS) -> list[Sample]:
    """`n` down the lineup (each ends the acting unit's turn), then `ctrl+z` back."""
    path = saved(folder, "raid.toml", agility_order_bench.battle_text())
    return await there_and_back(path, lambda app: turns)


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


async def phases(folder: Path, moves: int = MOVES) -> list[Sample]:
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
        for cid in movers[:moves]:
            tracker.select(cid)
            times.append(await answered(app, pilot, frames, "v"))
    return times


async def demon_idol_form(folder: Path, forms: int = 9) -> list[Sample]:
    """For comparison: the bundled demon-idol demo (9 combatants), each declaring G with
    its form's defaults, the Enter timed. A form closing costs this in any ruleset."""
    path = saved(folder, "demo.toml", (ROOT / "saves" / "demo.toml").read_text())
    app = RefereeApp(path, folder, random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        frames = Frames(app)
        return [await answered(app, pilot, frames, "g")
                for _ in list(app.table.fight.roster)[:forms]]


async def phases_steps(folder: Path, passes: int = 2) -> list[Sample]:
    """`n` on through the phases (each resolves the phase it is at), then `ctrl+z` back;
    twice, so half the presses are made with the log pane full (each new line scrolls
    it)."""
    path = saved(folder, "siege-steps.toml", phases_bench.battle_text())
    return await there_and_back(path, lambda app: len(app.table.plan().beats) - 1,
                                passes=passes)


def sessions(run: Callable[[Path, int], Coroutine[Any, Any, list[Sample]]]
             ) -> Callable[[int], Values]:
    """A sample: one app session of `run` (its files written afresh: each press adds to
    them), its presses' times as series "" and "rest"."""
    def sample(n: int) -> Values:
        return split({"": asyncio.run(run(workdir(), n))})
    return sample


PRESS_GOALS = ("< 16 ms", "< 33 ms")
FORM_GOALS = ("", "", "<= 16 ms")
BATTLE = f"phases, {phases_bench.UNITS} units in {phases_bench.SQUADS} squads"
MEASURES: list[Measure] = [
    Measure("ruleset.agility-press", sessions(lambda folder, n: agility_order(folder, n // 2)),
            pressed("ruleset.agility-press",
                    f"agility-order, {agility_order_bench.UNITS} units, n and ctrl+z",
                    goals=PRESS_GOALS),
            script=(1, 2 * TURNS), compare=(1, 16), warm=False),
    Measure("ruleset.phases-steps", sessions(phases_steps),
            pressed("ruleset.phases-steps", f"{BATTLE}, n and ctrl+z", goals=PRESS_GOALS),
            script=(1, 2), compare=(1, 1), every=2, warm=False),
    Measure("ruleset.phases-move", sessions(phases),
            pressed("ruleset.phases-move", f"{BATTLE}, a Move's form answered (Enter: the "
                    "form closes, the whole screen is drawn again)", goals=FORM_GOALS),
            script=(1, MOVES), compare=(1, 8), warm=False),
    Measure("ruleset.demon-idol-form", sessions(demon_idol_form),
            pressed("ruleset.demon-idol-form",
                    "for comparison, demon-idol's demo, a declaration's form answered",
                    goals=FORM_GOALS),
            script=(1, 9), compare=(1, 6), warm=False),
]


if __name__ == "__main__":
    main(MEASURES, f"key presses in the app, {SIZE[0]}x{SIZE[1]}")
