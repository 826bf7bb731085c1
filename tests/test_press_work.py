"""The work a key press costs outside the widgets, counted (never timed): the table's
questions of the round (who acts, what is recorded) are worked out once per state of the
fight however often the press asks them; the footer asks each act once a drawing; the
first undo of a session refolds the events since the save was opened, not the whole log;
phases' acts work out where the round is once for one footer."""

from __future__ import annotations

import gc
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from referee.app.collector import COLLECTOR
from referee.app.combat import CombatScreen
from referee.engine.fight import Fight
from referee.engine.plan import Plan
from referee.rulesets.phases import standing
from referee.session.questions import Questions
from referee.session.store import Session
from referee.session.table import Table
from tests.test_app_frames import settled
from tests.test_table_ready import LARGE, app_on, declare_round, demo


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
             counts: Counter[str], label: str | None = None) -> None:
    """`owner.name` counted under `label` (its name) each time it is called."""
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[label or name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


async def test_a_beat_checked_off_asks_the_round_once(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch):
    """`n` in the demo: the round's events read for what is recorded once a press, the
    beat under way found at most three times (the act, the plan pane, the cursor), each
    act asked whether the footer offers it once a drawing."""
    counts: Counter[str] = Counter()
    asked: list[Counter[str]] = []
    counting(monkeypatch, Questions, "_recorded", counts, "events read")
    counting(monkeypatch, Plan, "current", counts, "beat found")
    offered, footer = Table.offered, CombatScreen.footer

    def drawing(self: CombatScreen) -> list[tuple[str, str]]:
        asked.append(Counter())
        return footer(self)

    def offer(self: Table, act: Any, actor: str | None) -> bool:
        asked[-1][act.id] += 1
        return offered(self, act, actor)

    monkeypatch.setattr(CombatScreen, "footer", drawing)
    monkeypatch.setattr(Table, "offered", offer)
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        await settled(pilot)
        log = pilot.app.table.fight.log
        for _ in range(3):
            counts.clear()
            asked.clear()
            events = len(log)
            await pilot.press("n")
            await settled(pilot)
            assert len(log) == events + 1
            assert counts["events read"] <= 1, counts
            assert counts["beat found"] <= 3, counts
            assert asked and all(max(each.values()) == 1 for each in asked), asked


def long_save(tmp_path: Path, notes: int) -> Path:
    """The demo with `notes` notes more in its log: a long save."""
    path = demo(tmp_path)
    table = Table(Session.open(path), random.Random(4))
    for number in range(notes):
        table.note(f"note {number}")
    table.session.close()
    return path


def test_the_first_undo_refolds_the_events_since_the_save_was_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = long_save(tmp_path, 450)
    table = Table(Session.open(path), random.Random(4))
    counts: Counter[str] = Counter()
    counting(monkeypatch, Fight, "_apply", counts, "folded")
    for number in range(3):
        table.note(f"after {number}")
    before = len(table.fight.events)
    counts.clear()
    table.undo()
    assert len(table.fight.events) == before - 1
    assert counts["folded"] <= 2, counts  # the two notes entered since it was opened
    fresh = Fight(table.fight.encounter, table.fight.ruleset)
    fresh.log = list(table.fight.log)
    fresh.refold()  # the same state as a whole fold
    assert fresh.status == table.fight.status and fresh.events == table.fight.events
    table.session.close()


def test_a_long_session_keeps_a_checkpoint_every_so_often(tmp_path: Path) -> None:
    """Events entered at the table keep the state every 200 events: an undo after many
    acts refolds fewer than 200 events."""
    table = Table(Session.open(demo(tmp_path)), random.Random(4))
    fight = table.fight
    for number in range(450):
        table.note(f"note {number}")
    count = len(fight.events)
    assert count - max(fight.checkpoints) < 200, sorted(fight.checkpoints)
    table.session.close()


def test_phases_acts_work_out_where_the_round_is_once_a_footer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_phases_table import siege

    table = Table(Session.open(siege(tmp_path)), random.Random(4))
    fight = table.fight
    counts: Counter[str] = Counter()
    counting(monkeypatch, standing, "now_pos", counts)
    actor = next(cid for cid in fight.roster if not standing.can_act(fight, cid))
    acts = table.acts()
    first = [table.offered(act, actor) for act in acts]
    assert counts["now_pos"] <= 1, counts  # the Move's phase and the Action's, shared
    assert [table.offered(act, actor) for act in acts] == first
    assert counts["now_pos"] <= 1, counts
    table.note("a note")  # a new state: worked out once again
    counts.clear()
    for act in acts:
        table.offered(act, actor)
    assert counts["now_pos"] <= 1, counts
    table.session.close()


class Drawing:
    """What Textual does for a key press, counted: layout passes (a whole one, or one
    for a scroll), frames, the screen lines repainted, and the lines Textual's styles
    worked out again for the combat screen's panes (the line widgets draw their own);
    and whether the garbage collector ran on its own in the middle of the press."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from textual._compositor import Compositor
        from textual._styles_cache import StylesCache
        from textual.screen import Screen

        self.counts: Counter[str] = Counter()
        self.lines: set[int] = set()
        counting(monkeypatch, Screen, "_refresh_layout", self.counts, "layout")
        counting(monkeypatch, Compositor, "reflow", self.counts, "reflow")
        counting(monkeypatch, Compositor, "reflow_visible", self.counts, "scroll layout")
        counting(monkeypatch, Compositor, "_arrange_root", self.counts, "arranged")
        partial = Compositor.render_partial_update
        styled = StylesCache.render_line

        def update(compositor: Compositor) -> Any:
            self.counts["frame"] += 1
            for region in compositor._dirty_regions:
                self.lines.update(region.line_range)
            return partial(compositor)

        def line(cache: StylesCache, styles: Any, y: int, size: Any, content: Any,
                 padding: Any, base: Any, background: Any, draw: Any, *rest: Any) -> Any:
            self.counts[f"styled {type(draw.__self__).__name__}"] += 1
            return styled(cache, styles, y, size, content, padding, base, background, draw,
                          *rest)

        monkeypatch.setattr(Compositor, "render_partial_update", update)
        monkeypatch.setattr(StylesCache, "render_line", line)
        self.resting = False
        at_rest = COLLECTOR.at_rest

        def collected() -> None:
            self.resting = True
            try:
                at_rest()
            finally:
                self.resting = False
            self.counts["collected at rest"] += 1

        def watched(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and not self.resting:
                self.counts["collected in a press"] += 1

        monkeypatch.setattr(COLLECTOR, "at_rest", collected)
        gc.callbacks.append(watched)
        self.watched = watched

    def clear(self) -> None:
        self.counts.clear()
        self.lines.clear()

    def close(self) -> None:
        gc.callbacks.remove(self.watched)


async def test_a_key_press_repaints_what_changed_with_no_layout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cursor moved and a beat checked off (the log scrolling by its new line): no
    layout pass of any kind (not even the compositor arranging the screen again, as a
    refresh of a widget not on screen made it: the log's scrollbar), one frame,
    only the rows that changed repainted (a cursor moved: its two rows and the footer),
    no line of the tracker, plan or log styled again by Textual, and the garbage
    collector never running in the middle of the press (it runs once the frame is
    drawn)."""
    from referee.app.widgets import LogView, Tracker

    drawing = Drawing(monkeypatch)
    try:
        async with app_on(long_save(tmp_path, 60)).run_test(size=LARGE) as pilot:
            await declare_round(pilot)
            await pilot.press("i")
            await settled(pilot)
            tracker = pilot.app.screen.query_one(Tracker)
            top = tracker.region.y + 1 - tracker.scroll_offset.y  # the first row's line
            for _ in range(2):
                drawing.clear()
                row = tracker.cursor
                await pilot.press("down")
                await settled(pilot)
                assert tracker.cursor == row + 1
                counts = drawing.counts
                assert counts["layout"] == counts["reflow"] == counts["scroll layout"] == 0, \
                    counts
                assert counts["arranged"] == 0, counts
                assert counts["frame"] == 1, counts
                footer = pilot.app.screen.size.height - 1
                assert drawing.lines <= {top + row, top + row + 1, footer}, drawing.lines
                assert not any(key.startswith("styled") for key in counts), counts
            log = pilot.app.table.fight.log
            log_view = pilot.app.screen.query_one(LogView)
            scrolled = log_view.scroll_offset.y
            for _ in range(3):
                drawing.clear()
                events = len(log)
                await pilot.press("n")
                await settled(pilot)
                assert len(log) == events + 1
                assert log_view.scroll_offset.y > scrolled  # the log scrolled by its line
                scrolled = log_view.scroll_offset.y
                counts = drawing.counts
                assert counts["layout"] == counts["reflow"] == counts["scroll layout"] == 0, \
                    counts
                assert counts["arranged"] == 0, counts
                assert counts["frame"] == 1, counts
                assert not any(key.startswith("styled") and key != "styled StatusLine"
                               for key in counts), counts
                assert counts["collected in a press"] == 0, counts
                assert counts["collected at rest"] == 1, counts
    finally:
        drawing.close()


async def test_a_tables_scrollbar_is_drawn_as_textual_draws_it_and_by_textual_once_a_kind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The scrollbar of a long table scrolled a row at a time, down and back (forty
    places): Textual drew the bar only where a kind of line in it had not been seen
    before, a few times; and every place reads as Textual draws it (drawn again by
    Textual, to compare)."""
    from textual.app import App, ComposeResult
    from textual.scrollbar import ScrollBar

    from referee.app.widgets.lines import LineTable

    counts: Counter[str] = Counter()
    counting(monkeypatch, ScrollBar, "render_lines", counts, "drawn by Textual")

    class Long(App[None]):
        def compose(self) -> ComposeResult:
            yield LineTable(("name", "hp"))

    def look(strips: list[Any]) -> list[list[tuple[Any, ...]]]:
        return [[(s.text, s.style.color, s.style.bgcolor, s.style.reverse, s.style.meta)
                 for s in strip] for strip in strips]

    async with Long().run_test(size=(40, 12)) as pilot:
        table = pilot.app.query_one(LineTable)
        table.set_rows([f"r{n}" for n in range(50)],
                       [((f"row {n}", ""), (str(n), "")) for n in range(50)])
        await pilot.pause()
        bar = table.vertical_scrollbar
        tops = list(range(0, 40))
        shown = {}
        for top in [*tops, *reversed(tops)]:
            table.scroll_to(y=top, animate=False)
            await pilot.pause()
            shown[top] = look(bar.render_lines(bar.size.region))
        # the first bar, and the first with a kind of end not seen before (a thumb's top,
        # its bottom): the other ends are those with their glyph changed
        assert 0 < counts["drawn by Textual"] <= 4, counts
        for top in tops:  # each place as Textual draws it
            table.scroll_to(y=top, animate=False)
            await pilot.pause()
            bar.kept.clear()
            bar.kinds.clear()
            assert shown[top] == look(bar.render_lines(bar.size.region)), top


class Terminal:
    """The screen as a terminal shows it: each frame the app hands to its driver written
    where the frame puts it (a whole screen, or the lines a press repainted)."""

    def __init__(self, app: Any) -> None:
        from rich.segment import ControlType

        width, height = app.size
        self.lines: list[list[Any]] = [[(" ", None)] * width for _ in range(height)]
        self.moves = ControlType.CURSOR_MOVE_TO
        display = app._display

        def shown(screen: Any, update: Any) -> None:
            display(screen, update)
            if update is not None:
                self.take(update, app.console)

        app._display = shown

    def take(self, update: Any, console: Any) -> None:
        from textual._compositor import ChopsUpdate, LayoutUpdate

        if isinstance(update, LayoutUpdate):
            self.lines = [cells(line) for line in update.strips]
            return
        assert isinstance(update, ChopsUpdate), update
        x = y = 0
        for segment in update.__rich_console__(console, console.options):
            if segment.control:
                for code in segment.control:
                    if code[0] == self.moves:
                        x, y = int(code[1]), int(code[2])
                continue
            for character in segment.text.replace("\n", ""):
                # (the panes show one cell a character)
                self.lines[y][x] = (character, segment.style)
                x += 1


def cells(strips: Any) -> list[Any]:
    """A screen line's cells: each character with its style."""
    return [(character, segment.style) for strip in strips for segment in strip
            for character in segment.text]


async def pressed_through(app: Any, pilot: Any, keys: list[str]) -> None:
    """`keys` pressed in turn: after each, the terminal, written only where the frames
    repainted, shows the whole screen drawn afresh (each cell's character and style:
    the cursor's row too)."""
    terminal = Terminal(app)
    app.screen.refresh()  # a whole frame: the terminal starts from it
    await settled(pilot)
    for key in keys:
        await pilot.press(key)
        await settled(pilot)
        whole = [cells([strip]) for strip in app.screen._compositor.render_strips()]
        assert terminal.lines == whole, key


async def test_what_a_press_repaints_leaves_the_screen_as_a_whole_drawing(
        tmp_path: Path) -> None:
    """The demo's round (several act in a beat: rows marked and unmarked away from the
    cursor), and a big battle (the tracker and the plan turn their pages), pressed
    through: `n` down the round, undo and redo back over it, the cursor moved."""
    import sys

    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from agility_order_bench import battle_text

    from referee.app import RefereeApp

    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        await declare_round(pilot)
        await pilot.press("i")
        await settled(pilot)
        await pressed_through(pilot.app, pilot,
                              ["n"] * 5 + ["ctrl+z"] * 3 + ["ctrl+y"] * 2 + ["up", "down"])
    path = tmp_path / "raid.toml"
    path.write_text(battle_text(units=120))
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(100, 30)) as pilot:
        if app.table.initiative_blocks():
            await pilot.press("i")
        await settled(pilot)
        await pressed_through(app, pilot,
                              ["n"] * 30 + ["ctrl+z"] * 12 + ["ctrl+y"] * 6 + ["down"] * 3)
