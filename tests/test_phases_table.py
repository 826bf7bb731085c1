"""phases at the table (issue 24), as the app shows it at 80x24: Hits in the tracker,
a stunned unit no longer holding in the phases after its stun, the log naming units, the hit
form's Fatigue, a note on the Action, and the end of the fight (Pilot)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, Tracker
from referee.rulesets.phases import events as ph
from referee.session.files import load_save
from tests.conftest import ROOT

SMALL = (80, 24)


def siege(tmp_path: Path) -> Path:
    path = tmp_path / "siege.toml"
    shutil.copyfile(ROOT / "saves" / "phases.toml", path)
    return path


def app_on(path: Path) -> RefereeApp:
    return RefereeApp(path, path.parent, random.Random(3))


def shown(tracker: Tracker, cid: str) -> str:
    """A combatant's tracker row as the screen draws it."""
    return tracker.row_strip(tracker.row_cells(tracker.keys.index(cid)), None).text


def form(pilot) -> FormScreen:  # type: ignore[no-untyped-def]
    screen = pilot.app.screen
    assert isinstance(screen, FormScreen)
    return screen


async def test_the_tracker_shows_hits_at_80x24(tmp_path: Path) -> None:
    """C.12: Hits are what the referee plays by: shown at 80x24 (Grusk is Elite: 14 + 5)
    with the Move and Action, and a Fatigue mark beside them."""
    app = app_on(siege(tmp_path))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        tracker = app.screen.query_one(Tracker)
        labels = [tracker.labels[c] for c in tracker.visible_columns()]
        assert {"hits", "move", "action", "state"} <= set(labels), labels
        assert "19/19" in shown(tracker, "grusk")
        await pilot.press("h")
        screen = form(pilot)
        screen.query_one("#f-amount").value = "3"
        screen.query_one("#f-target").value = "aldra"
        screen.query_one("#f-fatigue").index = 1  # yes: Fatigue (PH-14)
        await pilot.press("enter")
        await pilot.pause()
        assert "12/12 F3" in shown(tracker, "aldra")
        plan = app.screen.query_one(PlanView)
        assert [plan.labels[c] for c in plan.visible_columns()] == [
            "", "beat", "actions", "rules", "why"]


async def test_a_stunned_holder_leaves_the_holding_of_later_phases(tmp_path: Path) -> None:
    """C.13 and issue 30 A4: Captain Aldra holds a delayed Move and Action (a defender,
    PH-4); stunned in phase 4 she loses them (PH-10). Phase 4 began with her holding them
    (FORMAT: `holding`), so it still counts her and Enter on it says what she lost; her
    row says they are lost, and the next phase counts her no more."""
    path = siege(tmp_path)
    app = app_on(path)
    told: list[str] = []
    async with app.run_test(size=SMALL) as pilot:
        app.notify = lambda message, **kw: told.append(str(message))  # type: ignore[method-assign]
        plan = app.screen.query_one(PlanView)
        tracker = app.screen.query_one(Tracker)
        assert "(8 holding)" in plan.row_cells(0)[2][0]
        assert "(8 holding)" in plan.row_cells(1)[2][0]
        tracker.select("aldra")
        await pilot.press("s")
        assert form(pilot).spec.title.startswith("Captain Aldra")
        await pilot.press("enter")
        await pilot.pause()
        assert "(8 holding)" in plan.row_cells(0)[2][0]
        assert "(7 holding)" in plan.row_cells(1)[2][0]
        assert "lost" in shown(tracker, "aldra")
        await pilot.press("tab", "enter")
        text = " ".join(told[-1].split())
        assert "Captain Aldra is stunned: loses the delayed Move and Action it held" in text
    beats = load_save(path).fight.plan().beats
    assert "aldra" in [h["actor"] for h in beats[0].extra["holding"]]
    assert "aldra" not in [h["actor"] for h in beats[1].extra["holding"]]


async def test_the_log_names_the_units(tmp_path: Path) -> None:
    """C.14: `n` and a bull rush are told by the units' names, as the tracker names
    them; the save keeps the ids."""
    path = siege(tmp_path)
    app = app_on(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        log = app.screen.query_one(LogView)
        assert log.lines[-1].endswith("phase 4 resolved: the Move and Action of "
                                      "Grusk the Warchief")
        app.screen.query_one(Tracker).select("orc1")
        await pilot.press("B")
        await pilot.press("enter")
        await pilot.pause()
        lines = " ".join(log.lines[-3:])
        assert "Ironfang 1" in lines and "orc1" not in lines and "aldra" not in lines
    events = load_save(path).fight.log
    assert [e.actor for e in events if e.TYPE == "manoeuvre"] == ["orc1"]


async def test_the_hit_forms_fatigue_reaches_the_fight(tmp_path: Path) -> None:
    """PH-14: `h` with Fatigue set enters Fatigue, not Hits: logged, and undone in one."""
    path = siege(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("h")
        screen = form(pilot)
        screen.query_one("#f-amount").value = "3"
        screen.query_one("#f-target").value = "aldra"
        screen.query_one("#f-fatigue").index = 1  # yes
        await pilot.press("enter")
        await pilot.pause()
        status = app.table.fight.status["aldra"]
        assert (status.hp, status.marks["fatigue"]) == (12, 3)
        assert app.screen.query_one(LogView).lines[-1].endswith(
            "Captain Aldra takes 3 Fatigue from Grusk the Warchief (PH-14)")
        await pilot.press("ctrl+z")
        assert app.table.fight.status["aldra"].marks["fatigue"] == 0
        await pilot.press("ctrl+y")
    hits = [e for e in load_save(path).fight.events if e.TYPE == "damage"]
    assert [(type(e), e.fatigue) for e in hits] == [(ph.Damage, True)]


async def test_the_action_form_takes_a_note(tmp_path: Path) -> None:
    """B.17: `a`'s form has a note; it reaches the `use` event and the log line."""
    path = siege(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        form(pilot).query_one("#f-note").value = "hews at Captain Aldra"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.query_one(LogView).lines[-1].endswith(
            "Grusk the Warchief takes its Action in phase 4: hews at Captain Aldra")
    use = load_save(path).fight.log[-1]
    assert isinstance(use, ph.Use) and use.note == "hews at Captain Aldra"


async def test_the_action_form_opens_on_the_note(tmp_path: Path) -> None:
    """Issue 30 B25: the note is what is typed nearly every time, so `a` opens on it: typed
    at once it lands in the note, the phase stays the current one (4), and Enter takes it."""
    path = siege(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("a")
        screen = form(pilot)
        assert screen.focused is screen.query_one("#f-note")
        await pilot.press(*"hews", "enter")
        await pilot.pause()
        assert app.screen.query_one(LogView).lines[-1].endswith(
            "Grusk the Warchief takes its Action in phase 4: hews")
    use = load_save(path).fight.log[-1]
    assert isinstance(use, ph.Use) and (use.note, use.phase) == ("hews", 4)


async def test_e_ends_the_fight_and_the_screen_reads_it(tmp_path: Path) -> None:
    """E.16: E ends the fight; the log says how each side stands; nobody in the tracker
    is marked as acting, nothing reads ready or held, the plan has no current beat and
    says the fight is over; ctrl+z reopens it."""
    path = siege(tmp_path)
    app = app_on(path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("E", "space", "down", *"they fall back", "enter")
        await pilot.pause()
        assert app.table.fight.ended
        line = app.screen.query_one(LogView).lines[-1]
        assert "the fight is over: they fall back — Ironfang warband: 25 of 25 standing" in line
        tracker = app.screen.query_one(Tracker)
        rows = [shown(tracker, cid) for cid in ("grusk", "aldra", "orc1")]
        assert not any(word in row for row in rows for word in ("ready", "held", "@3", "▶"))
        plan = app.screen.query_one(PlanView)
        marks = [plan.row_cells(n)[0][0] for n in range(len(plan.rows))]
        assert "▶" not in marks
        assert any("the fight is over" in plan.row_cells(n)[4][0]
                   for n in range(len(plan.rows)))
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not app.table.fight.ended
        assert "ready" in shown(tracker, "grusk")
