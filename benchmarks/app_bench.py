"""App speed: launching, opening a long save, and a key press to the updated screen.

Prints, each against a measurement taken in the same run (the figures taken in turn):
- app.demo-launch: launch to the demo's usable combat screen, as a whole process run
  headless (no terminal), exiting on the first refresh after the combat screen is mounted
  with its tracker and log filled, against app.empty-launch, an empty Textual app exiting
  on the first refresh after it is ready (target: within 1.3x); the runs taken in turn;
- app.long-launch: opening a 10,000-event save the same way, against the empty app
  (goal: within 1.5x); app.long-memory, that process's peak resident memory (goal: within
  80 MB);
- app.press: a key press to the updated screen, with 200 combatants and 10,000 log
  events: from rest, a real key event posted to the app's message queue, until the first
  frame drawn with the change in the plan and the log is handed to the driver (each frame
  also turned into terminal bytes, as a terminal run does); median (goal: within 3x the
  one-label app) and app.press.p95 (goal: under 16 ms); app.press.rest(.p95) until the
  last frame the press causes (the screen at rest); app.press.n, .ctrl+z, .ctrl+y the
  same by key; against app.floor-press(.p95, .rest, .rest.p95): the same measurements on
  a one-label Textual app (what any app pays).
"""

from __future__ import annotations

import asyncio
import functools
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import ENV, TREE, Figure, Measure, Values, main, measured, workdir  # noqa: E402
from session_bench import long_save  # noqa: E402
from textual import events  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import Binding  # noqa: E402
from textual.widgets import Static  # noqa: E402

from referee.app import RefereeApp  # noqa: E402
from referee.app.combat import CombatScreen  # noqa: E402
from referee.app.widgets import LogView, PlanView  # noqa: E402
from referee.engine import Combatant, Encounter, Fight, Weapon  # noqa: E402
from referee.engine import events as ev  # noqa: E402
from referee.rulesets.demon_idol import events as di  # noqa: E402
from referee.session.files import load_save  # noqa: E402
from referee.session.writer import save_text  # noqa: E402

ROOT = TREE
EVENTS = 10_000
LAUNCHES = 11
PRESSES = 120
SIZE = (120, 40)  # a roomy terminal: more rows of the tracker and plan to draw

# Run as `python LAUNCH ROOT empty` or `python LAUNCH ROOT SAVE`: each exits from the
# first callback after its screen is ready and has been refreshed.
LAUNCH = '''
import sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "empty":
    from textual.app import App

    class Launch(App):
        def on_ready(self):
            self.call_after_refresh(self.exit, "ready")

    result = Launch().run(headless=True)
else:
    import inspect
    from pathlib import Path

    from referee.app import RefereeApp
    from referee.app.combat import CombatScreen
    from referee.app.widgets import LogView, Tracker

    class Launch(RefereeApp):
        # Textual reads a relative CSS_PATH next to the subclass's own file: point it home.
        CSS_PATH = str(Path(inspect.getfile(RefereeApp)).parent / RefereeApp.CSS_PATH)

        def on_ready(self):
            self.call_after_refresh(self.usable)

        def usable(self):
            """The combat screen mounted, tracker and log filled, keys going to the
            tracker, and a refresh since: then exit, else look again after the next."""
            screen, fight = self.screen, self.table.fight
            if (isinstance(screen, CombatScreen) and screen.is_mounted
                    and screen.query_one(Tracker).row_count == len(fight.roster)
                    and screen.query_one(LogView).line_count == len(fight.log)
                    and screen.focused is screen.query_one(Tracker)):
                self.call_after_refresh(self.exit, "ready")
            else:
                self.call_after_refresh(self.usable)

    path = Path(sys.argv[2])
    result = Launch(path, path.parent).run(headless=True)
if result != "ready":
    raise SystemExit(f"exited without a usable screen: {result!r}")
'''


LAUNCHED = ("empty", "demo", "long")


@functools.cache
def launch_files() -> Path:
    """The launch script and the saves it opens, written once a process (the bytecode
    caches are warm: `make` compiles the package, and the compare's base is compiled)."""
    folder = workdir()
    script = folder / "launch.py"
    script.write_text(LAUNCH)
    shutil.copyfile(ROOT / "saves" / "demo.toml", folder / "demo.toml")
    shutil.copyfile(long_save(), folder / "long.toml")
    return script


def launch(target: str) -> None:
    """`empty`, or referee on the demo or the long save, as a whole process."""
    folder = workdir()
    path = "empty" if target == "empty" else str(folder / f"{target}.toml")
    done = subprocess.run([sys.executable, str(folder / "launch.py"), str(ROOT), path],
                          env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"launch {target} failed:\n{done.stdout}{done.stderr}")


def long_memory(n: int) -> Values:
    """The peak resident memory (MB) of n whole processes opening the 10,000-event save."""
    folder = launch_files().parent
    return {"": [measured([sys.executable, str(folder / "launch.py"), str(ROOT),
                           str(folder / "long.toml")]).peak for _ in range(n)]}


def launches(n: int) -> Values:
    """Wall time (ms) of each whole process, n runs of each taken in turn."""
    launch_files()
    times: Values = {name: [] for name in LAUNCHED}
    for _ in range(n):
        for name in LAUNCHED:
            start = time.perf_counter()
            launch(name)
            times[name].append((time.perf_counter() - start) * 1000)
    return times


# -- a crowd: 200 combatants on two sides, 10,000 events --------------------------------


def crowd_fight(combatants: int = 200, events: int = EVENTS, seed: int = 11) -> Fight:
    """Full rounds (declarations, initiative, rolls, damage, heals, beats) up to 10,000
    events; the last round declared and its initiative rolled, no beat resolved yet."""
    demo = load_save(ROOT / "saves" / "demo.toml")
    rng = random.Random(seed)
    sides = demo.encounter.sides
    roster = tuple(
        Combatant(f"c{n}", f"Combatant {n}", sides[n % 2].id, 40, 40,
                  stats={"reaction": rng.choice([-1, 0, 0, 1]),
                         "attacks": rng.choice([1, 1, 2])},
                  weapons=(Weapon("sword", damage="1d8",
                                  stats={"speed_factor": rng.randint(1, 9), "length": 3.5}),
                           Weapon("bow", damage="1d6",
                                  stats={"missile": True, "rate": 2, "speed_factor": 7})))
        for n in range(combatants))
    encounter = Encounter("demon-idol", "A crowd at the ford", seed, sides, roster)
    fight = Fight(encounter, demo.ruleset)
    ids = list(fight.roster)
    foes = {side.id: [c for c in ids if fight.roster[c].side != side.id] for side in sides}

    def declare_all(round_: int) -> None:
        for cid in ids:
            fight.enter(di.Declare(round=round_, actor=cid, action=rng.choice("ABCEFG"),
                                   target=(rng.choice(foes[fight.roster[cid].side]),)))
        fight.enter(di.Initiative(round=round_, rolls={s.id: rng.randint(1, 6) for s in sides}))

    round_ = 1
    last_round = combatants + 1  # the last round's declarations and initiative
    while True:
        declare_all(round_)
        for beat in range(1, 8):
            target = rng.choice(ids)
            die = rng.randint(1, 8)  # a roll's total is what its dice make
            fight.enter(ev.Roll(round=round_, expr="1d8", dice=(die,), total=die,
                                purpose="damage"))
            fight.enter(ev.Damage(round=round_, target=target, amount=rng.randint(0, 2)))
            fight.enter(ev.Heal(round=round_, target=target, amount=2))
            fight.enter(ev.Resolve(round=round_, beat=beat))
        round_ += 1
        fight.enter(ev.NewRound(round=round_))
        if len(fight.log) + 2 * last_round + 30 > events:
            break
    while len(fight.log) < events - last_round:
        fight.enter(ev.Note(round=round_, text=f"note {len(fight.log)}"))
    declare_all(round_)
    assert len(fight.log) == events, len(fight.log)
    return fight


# -- a key press to the updated screen --------------------------------------------------


class Frames:
    """When the app hands each frame to its driver. Headless runs skip turning a frame
    into terminal bytes and writing them; this does the turning (what a terminal run
    pays, bar the write) and notes the time; and, while a press is being timed, the time
    of the first frame drawn with its change in it."""

    def __init__(self, app: App) -> None:
        self.times: list[float] = []
        self.watch: Callable[[], bool] | None = None  # the change a press waits for
        self.seen: float | None = None  # when the first frame showing it was handed over
        display = app._display

        def recorded(screen: Any, update: Any) -> None:
            display(screen, update)
            if update is not None:
                if hasattr(update, "render_segments"):
                    update.render_segments(app.console)
                now = time.perf_counter()
                self.times.append(now)
                # A frame is rendered and handed over in one synchronous call: if the
                # change holds now, it held when the frame was drawn, so it is shown.
                if self.watch is not None and self.seen is None and self.watch():
                    self.seen = now

        app._display = recorded

    async def settle(self, quiet: float = 0.1) -> None:
        """Until no frame has come for `quiet` seconds: the screen is at rest."""
        while True:
            count = len(self.times)
            await asyncio.sleep(quiet)
            if len(self.times) == count:
                return


async def press(app: App, frames: Frames, key: str,
                changed: Callable[[], bool]) -> tuple[float, float]:
    """Milliseconds from posting `key` to the app's queue (as the terminal driver does)
    until the first frame drawn with `changed()` holding has been handed to the driver
    (what the user sees: a screen with the press's effect on it); and until the last
    frame the press caused (the screen at rest again)."""
    await frames.settle()
    character = {"ctrl+z": "\x1a", "ctrl+y": "\x19", "enter": "\r"}.get(key, key)
    frames.watch, frames.seen = changed, None
    start = time.perf_counter()
    app.post_message(events.Key(key, character))
    while frames.seen is None:
        await asyncio.sleep(0)
        assert time.perf_counter() - start < 10, f"no frame showed the change of {key!r}"
    frames.watch = None
    first = (frames.seen - start) * 1000
    await frames.settle()
    assert frames.times and frames.times[-1] > start, "no frame after the key"
    return first, (frames.times[-1] - start) * 1000


def screen_text(app: App) -> str:
    """What the screen shows, as composed for the terminal (not timed)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


Samples = dict[str, list[tuple[float, float]]]


async def referee_presses(path: Path, presses: int = PRESSES) -> tuple[Samples, int]:
    """`n` down the long plan, then ctrl+z / ctrl+y back and forth over it: every press
    checks off a beat or takes the check back, and adds a line to the log."""
    app = RefereeApp(path, path.parent)
    times: Samples = {"n": [], "ctrl+z": [], "ctrl+y": []}
    async with app.run_test(size=SIZE):
        frames = Frames(app)
        screen = app.screen
        assert isinstance(screen, CombatScreen), screen
        fight, table = app.table.fight, app.table
        plan_view, log = screen.query_one(PlanView), screen.query_one(LogView)
        beats = len(table.plan().beats)

        def done() -> int:  # beats resolved so far this round
            return (table.current_beat() or beats + 1) - 1

        keys = ["n"] * beats
        while len(keys) < presses:
            keys += ["ctrl+z"] * beats + ["ctrl+y"] * beats
        for key in keys[:presses]:
            resolved = done()
            after = resolved - 1 if key == "ctrl+z" else resolved + 1
            lines = log.line_count
            row = max(after, resolved) - 1  # the beat checked off, or no longer

            def changed(after: int = after, lines: int = lines, row: int = row) -> bool:
                mark = "✓" if after > row else "▶"
                return (log.line_count == lines + 1 and plan_view.row_count > row
                        and plan_view.rows[row][0][0] == mark)

            times[key].append(await press(app, frames, key, changed))
            assert done() == after, (key, after)
            shown = screen_text(app)
            assert f"{len(fight.log):>5}. " in shown, shown  # the new log line is drawn
    return times, beats


class Floor(App):
    """One label and one key that rewrites it: what any Textual app pays for a key."""

    BINDINGS = [Binding("n", "bump", "Bump")]

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def compose(self) -> ComposeResult:
        yield Static("0", id="count")

    def action_bump(self) -> None:
        self.count += 1
        self.query_one("#count", Static).update(str(self.count))


async def floor_presses(presses: int = PRESSES) -> list[tuple[float, float]]:
    app = Floor()
    times = []
    async with app.run_test(size=SIZE):
        frames = Frames(app)
        for n in range(1, presses + 1):
            times.append(await press(app, frames, "n", lambda n=n: app.count == n))
            assert str(n) in screen_text(app)
    return times


@functools.cache
def crowd_text() -> str:
    fight = crowd_fight()
    return save_text(fight.encounter, fight.log)


def crowd_presses(n: int) -> Values:
    """A session of n presses on a fresh copy of the crowd's save (each press adds to it),
    by key and all together, until the first frame showing it and until at rest."""
    path = workdir() / "crowd.toml"
    path.write_text(crowd_text())
    times, _ = asyncio.run(referee_presses(path, n))
    return split({"": [t for values in times.values() for t in values], **times})


def split(samples: dict[str, list[tuple[float, float]]]) -> Values:
    """(first frame, at rest) pairs as two series: KEY and KEY.rest."""
    found: Values = {}
    for key, values in samples.items():
        found[key] = [first for first, _ in values]
        found[f"{key}.rest" if key else "rest"] = [rest for _, rest in values]
    return found


def pressed(name: str, text: str, key: str = "", floor: str | None = None,
            goals: tuple[str, ...] = ()) -> tuple[Figure, ...]:
    """A key press's four figures: median and p95 until the first frame showing it, and
    until the screen is at rest (series KEY and KEY.rest), each with its goal in turn."""
    rest = f"{key}.rest" if key else "rest"
    goal = (*goals, "", "", "", "")

    def under(suffix: str) -> str | None:
        return f"{floor}{suffix}" if floor else None

    return (Figure(name, text, key, goal=goal[0], floor=under("")),
            Figure(f"{name}.p95", text, key, "p95", goal=goal[1], floor=under(".p95")),
            Figure(f"{name}.rest", f"{text}, until at rest", rest, goal=goal[2],
                   floor=under(".rest")),
            Figure(f"{name}.rest.p95", f"{text}, until at rest", rest, "p95", goal=goal[3],
                   floor=under(".rest.p95")))


CROWD = "key press to the updated screen, 200 combatants and 10,000 events"
MEASURES: list[Measure] = [
    Measure("app.launch", launches, (
        Figure("app.empty-launch", "an empty Textual app, start to ready and exit", "empty"),
        Figure("app.demo-launch", "referee on the demo to its usable combat screen", "demo",
               goal="within 1.3x", floor="app.empty-launch"),
        Figure("app.long-launch", "referee opening a 10,000-event save", "long",
               goal="within 1.5x the empty app", floor="app.empty-launch"),
    ), setup=launch_files, script=(1, 11), compare=(1, 1), warm=False),
    Measure("app.memory", long_memory, (
        Figure("app.long-memory", "referee opening a 10,000-event save, peak resident memory",
               stat="max", goal="<= 80 MB", unit="MB"),
    ), setup=launch_files, script=(1, 3), compare=(1, 1), warm=False),
    Measure("app.floor-press", lambda n: split({"": asyncio.run(floor_presses(n))}),
            pressed("app.floor-press", "key press, one-label Textual app"),
            script=(1, PRESSES), compare=(1, 24), warm=False),
    Measure("app.press", crowd_presses, (
        *pressed("app.press", CROWD, floor="app.floor-press",
                 goals=("within 3x the one-label app", "<= 16 ms")),
        *(figure for key in ("n", "ctrl+z", "ctrl+y")
          for figure in pressed(f"app.press.{key}", f"{CROWD}: {key}", key)),
    ), setup=crowd_text, script=(1, PRESSES), compare=(1, 30), warm=False),
]


if __name__ == "__main__":
    main(MEASURES, f"app: {SIZE[0]}x{SIZE[1]}, headless, each frame turned into terminal "
                   "bytes")
