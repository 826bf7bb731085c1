"""Snapshots of every screen at 80×24 and 120×40 (pytest-textual-snapshot).

Each test copies its save into `tmp_path`, runs from there and opens the save by a relative
path, so no temporary path reaches the screen. Dice are fixed numbers, the declaration
clock's time source stands still, input cursors do not blink, and file times and the time
zone are set: every run on every machine draws the same.

    .venv/bin/python -m pytest tests/test_snapshots.py --snapshot-update   # after a change
"""

from __future__ import annotations

import os
import random
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from referee.app import RefereeApp
from referee.app.forms import FormScreen as Form
from referee.app.widgets import Tracker
from referee.engine.options import Declaring
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT
from tests.test_contract import DEMOS, Demo, copy_of

DEMO = ROOT / "saves" / "demo.toml"
COUNT_ORDER = ROOT / "tests" / "scenarios" / "count-up" / "cu-01-count-order.toml"

# Round 1 of the demo: spells and missiles (D) beside melee strikes (G).
DEMO_ROUND = {"brann": "G", "zed": "D", "mira": "D", "odo": "G", "gob1": "G", "gob2": "G",
              "gob3": "D", "ogre": "G", "shaman": "D"}
DICE = {"party": 4, "goblins": 2}

Step = Callable[[Table], object]


@pytest.fixture(params=[(80, 24), (120, 40)], ids=["80x24", "120x40"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


@pytest.fixture(autouse=True)
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Run inside tmp_path, in UTC: relative paths and clock times show the same anywhere."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield tmp_path
    monkeypatch.undo()
    time.tzset()


def save(source: Path, name: str, *steps: Step) -> Path:
    """A copy of `source` at the relative path `name`, with table operations applied."""
    path = Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, path)
    return played(path, *steps)


def played(path: Path, *steps: Step) -> Path:
    """`path` with table operations applied."""
    if steps:
        session = Session.open(path)
        try:
            table = Table(session, random.Random(0))
            for step in steps:
                step(table)
        finally:
            session.close()
    return path


def app_on(path: Path, saves: Path = Path("saves")) -> RefereeApp:
    """The app with fixed dice and a stopped declaration clock: forms show `clock 0:00`."""
    return RefereeApp(path, saves, rng=random.Random(0), clock=lambda: 1000.0)


def declare_round(table: Table) -> None:
    for actor, action in DEMO_ROUND.items():
        table.declare(actor, action, **table.prefill(actor, action))


def enter_dice(table: Table) -> None:
    table.enter_initiative(DICE)


def declaring(actor: str) -> Callable[[Pilot], None]:
    """Put the tracker's cursor on `actor`, who declares next."""

    def run_before(pilot: Pilot) -> None:
        pilot.app.screen.query_one(Tracker).select(actor)

    return run_before


def steady_cursor(pilot: Pilot) -> None:
    """Stop the focused input's cursor blinking; the next key press shows it for good."""
    field = pilot.app.focused
    assert isinstance(field, Input)
    field.cursor_blink = False


# -- the combat screen -------------------------------------------------------------------


def test_declare_strike_form(snap_compare, size):
    """Brann declares G (strike): weapon and target prefilled, the clock at 0:00."""
    app = app_on(save(DEMO, "demo.toml"))
    assert snap_compare(app, terminal_size=size, run_before=declaring("brann"), press=["g"])


def test_declare_spell_form(snap_compare, size):
    """Zed declares D (discharge): the spell field shown with sleep prefilled."""
    app = app_on(save(DEMO, "demo.toml"))
    assert snap_compare(app, terminal_size=size, run_before=declaring("zed"), press=["d"])


def test_round_planned(snap_compare, size):
    """A whole round declared, then initiative typed through the I form: the plan."""
    app = app_on(save(DEMO, "demo.toml", declare_round))
    press = ["I", *str(DICE["party"]), "down", *str(DICE["goblins"]), "enter"]
    assert snap_compare(app, terminal_size=size, press=press)


def test_mid_resolution(snap_compare, size):
    """Beat 1 hits for a fixed 5 (typed in the h form), then n moves on to beat 2."""
    app = app_on(save(DEMO, "demo.toml", declare_round, enter_dice))
    assert snap_compare(app, terminal_size=size, press=["h", "5", "enter", "n"])


def test_hit_form(snap_compare, size):
    """The hit/damage form for the first beat's actor, 5 typed as the damage."""
    app = app_on(save(DEMO, "demo.toml", declare_round, enter_dice))

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("h")
        assert isinstance(pilot.app.screen, Form)
        steady_cursor(pilot)
        await pilot.press("5")

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_count_up_plan(snap_compare, size):
    """A count-up fight declared and based: the plan counts up (@n beats)."""
    app = app_on(save(COUNT_ORDER, "count-order.toml"))
    assert snap_compare(app, terminal_size=size)


# -- the other screens ---------------------------------------------------------------------


def test_help(snap_compare, size):
    app = app_on(save(DEMO, "demo.toml"))
    assert snap_compare(app, terminal_size=size, press=["question_mark"])


def test_replay_stepped_back(snap_compare, size):
    """Two beats resolved with damage, stepped back three events: after the ogre's hit."""
    steps = (declare_round, enter_dice, lambda t: t.damage("brann", 5, source="ogre"),
             lambda t: t.resolve_next(), lambda t: t.damage("gob1", 4, source="mira"),
             lambda t: t.resolve_next())
    app = app_on(save(DEMO, "demo.toml", *steps))
    assert snap_compare(app, terminal_size=size, press=["R", "left", "left", "left"])


def test_open_saves(snap_compare, size):
    """Two saves in the saves folder, newest first, with fixed modification times."""
    demo = save(DEMO, "saves/demo.toml", declare_round)
    count_up = save(COUNT_ORDER, "saves/count-order.toml")
    os.utime(demo, (1_700_000_000, 1_700_000_000))  # 2023-11-14 22:13 UTC
    os.utime(count_up, (1_700_086_400, 1_700_086_400))  # a day later
    assert snap_compare(app_on(demo), terminal_size=size, press=["ctrl+o"])


def test_setup(snap_compare, size):
    app = app_on(save(DEMO, "demo.toml"))
    assert snap_compare(app, terminal_size=size, press=["ctrl+e"])


def demo_copy(demo: Demo, *steps: Step) -> Path:
    """A copy of a ruleset file's demo here (its ruleset file beside it when it names one
    by path), with table operations applied."""
    return played(copy_of(demo.path, Path(".")), *steps)


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.file.id)
def test_each_ruleset_demo(snap_compare, size, demo):
    """Every ruleset's demo opens on the same combat screen, rendered from its port.
    demon-idol's is the bundled demo as it opens: declaring round 1, roster order, the
    cursor on Brann (its snapshot was test_combat_fresh_demo's too, byte for byte)."""
    assert snap_compare(app_on(demo_copy(demo)), terminal_size=size)


def test_a_200_unit_phases_battle_with_its_squads_folded(snap_compare, size):
    """A large battle stays readable: every squad one row, folded with Z."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from phases_bench import battle_text

    path = Path("battle.toml")
    path.write_text(battle_text(units=200, squads=12, seed=3))
    assert snap_compare(app_on(path), terminal_size=size, press=["Z"])


# -- sanctum: a turn fought, and its odds as a chart ------------------------------------------

SANCTUM = ROOT / "saves" / "sanctum.toml"


def test_sanctum_turn_fought(snap_compare, size):
    """F fights the turn from the save's seed: every pair fought, the log attack by attack."""
    assert snap_compare(app_on(save(SANCTUM, "sanctum.toml")), terminal_size=size, press=["F"])


async def odds_charted(pilot: Pilot) -> None:
    """O, and its worker waited for: the chart screen with the report drawn."""
    await pilot.press("O")
    await pilot.app.screen.workers.wait_for_complete()
    await pilot.pause()


def test_sanctum_odds_chart(snap_compare, size):
    """O: 1000 runs from the save's seed as bars per side, a survivors histogram per group
    and the runs to open in replay."""
    app = app_on(save(SANCTUM, "sanctum.toml"))
    assert snap_compare(app, terminal_size=size, run_before=odds_charted)


def mid_round(table: Table) -> None:
    """Any ruleset's demo in the middle of its first round: everyone declared (the last
    action the ruleset lists that each may take — demon-idol's G, count-up's defensive
    attack — prefilled), initiative rolled where it is due, one beat resolved (unless the
    dice made one beat of the round: side-d6's tie)."""
    declaring = table.fight.ruleset.role(Declaring)
    kinds = [kind for kind in declaring.actions() if kind.hotkey][::-1] if declaring else []
    for actor in list(table.undeclared()) if kinds else []:
        for kind in kinds:
            try:
                table.declare(actor, kind.key, **table.prefill(actor, kind.key))
                break
            except Exception:  # noqa: BLE001 - not this action for this combatant: the next
                continue
    if table.initiative_due():
        table.roll_initiative()
    if table.current_beat() is not None and len(table.plan().beats) > 1:  # one still to go
        table.resolve_next()


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.file.id)
def test_each_ruleset_mid_round_at_80x24_keeps_the_keys_that_move_the_fight(snap_compare, demo):
    """In the middle of a round on a small screen the footer still shows the keys that
    move the fight on (n, r where it works, ctrl+z) and ?: drawn (the snapshot) and read
    from its key line (one launch for both)."""
    from referee.app.widgets.keys import KeyLine

    logic = demo.file.id
    read: list[tuple[str, bool]] = []

    async def keys_read(pilot: Pilot) -> None:
        await pilot.pause()
        screen = pilot.app.screen
        read.append((screen.query_one(KeyLine).line().plain,
                     bool(screen.check_action("next_round", ()))))

    app = app_on(demo_copy(demo, mid_round))
    assert snap_compare(app, terminal_size=(80, 24), run_before=keys_read)
    [(line, next_round)] = read
    for key in (" n ", " ^z ", " ? "):
        assert key in line, (logic, line)
    if next_round:
        assert " r " in line, (logic, line)
