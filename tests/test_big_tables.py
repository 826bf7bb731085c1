"""The tracker and the plan on big battles: a row is worked out only when it is drawn, and
what is drawn is exactly what the view model says; the panes turn a page as the fight
moves past their edge, so the next rows are in view."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.widgets import PlanView, Tracker
from referee.app.widgets.tones import styled
from referee.session import view
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from agility_order_bench import battle_text as raid  # noqa: E402
from phases_bench import battle_text as siege  # noqa: E402


def drawn_rows(tracker: Tracker) -> range:
    top = tracker.scroll_offset.y
    return range(top, min(top + tracker.size.height - 1, tracker.row_count))


def assert_drawn_rows_are_the_view(app: RefereeApp, tracker: Tracker) -> int:
    """Every combatant row on screen holds what the view model works out afresh."""
    fight, table = app.table.fight, app.table
    plan = table.plan()
    acting = view.build(fight, plan, "", rows=False).acting
    decls = view.declarations(fight)
    headings = dict(view.grouped(fight, view.order(fight, plan), tracker.folded))
    checked = 0
    for row in drawn_rows(tracker):
        key = tracker.keys[row]
        if key.startswith(view.GROUP):
            group = key[len(view.GROUP):]
            groups = view.row_groups(fight)
            members = sum(cid in groups and groups[cid][0] == group for cid in acting)
            fresh = view.group_row(key, headings[key], group in tracker.folded, members,
                                   tracker.columns)
            assert tracker.rows[row] == tuple(styled(cell) for cell in fresh.cells), key
            continue
        fresh = view.tracker_row(fight, key, key in acting, decls.get(key), tracker.columns)
        assert tracker.rows[row] == tuple(styled(cell) for cell in fresh.cells), key
        checked += 1
    return checked


def saved(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


async def test_a_200_unit_lineup_draws_fresh_rows_and_turns_the_page(tmp_path: Path) -> None:
    path = saved(tmp_path, "raid.toml", raid(units=200))
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        tracker = app.screen.query_one(Tracker)
        plan_view = app.screen.query_one(PlanView)
        if app.table.initiative_blocks():
            await pilot.press("i")
        height = tracker.size.height - 1
        for _ in range(height + 3):  # past the tracker's bottom edge
            await pilot.press("n")
        await pilot.pause(0.1)  # a frame drawn
        # most of the roster was never drawn, so never worked out
        assert sum(row is None for row in tracker.rows) > 100
        assert assert_drawn_rows_are_the_view(app, tracker) >= height - 1
        # the acting unit was brought in near the top, the next ones below it: the page
        # turned once, at the edge, not a row a press
        acting = tracker.keys.index(app.table.acting()[0])
        top = tracker.scroll_offset.y
        assert top == height - 1 and acting - top == 4
        shown = plan_view.cursor - plan_view.scroll_offset.y
        assert plan_view.scroll_offset.y > 0 and 0 <= shown < plan_view.size.height - 1
        await pilot.press("end")  # rows never drawn are worked out as they come into view
        await pilot.pause(0.1)  # a frame drawn
        assert assert_drawn_rows_are_the_view(app, tracker) >= height - 1
        await pilot.press("home")
        await pilot.pause(0.1)  # a frame drawn
        assert assert_drawn_rows_are_the_view(app, tracker) >= height - 1


async def test_undo_turns_the_page_back(tmp_path: Path) -> None:
    path = saved(tmp_path, "raid.toml", raid(units=200))
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        tracker = app.screen.query_one(Tracker)
        if app.table.initiative_blocks():
            await pilot.press("i")
        height = tracker.size.height - 1
        while tracker.scroll_offset.y == 0:  # on to the first page turn
            await pilot.press("n")
        top = tracker.scroll_offset.y
        assert tracker.keys.index(app.table.acting()[0]) == top + 1
        for _ in range(2):  # the acting unit goes back above the top edge
            await pilot.press("ctrl+z")
        await pilot.pause(0.1)  # a frame drawn
        acting = tracker.keys.index(app.table.acting()[0])
        assert acting == top - 1
        # brought in near the bottom, one row after it: the ones before it are in view
        assert acting - tracker.scroll_offset.y == height - 2
        assert assert_drawn_rows_are_the_view(app, tracker) >= height - 1


async def test_a_change_off_screen_shows_when_its_row_comes_into_view(tmp_path: Path) -> None:
    path = saved(tmp_path, "siege.toml", siege(units=400, squads=24, seed=3))
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        tracker = app.screen.query_one(Tracker)
        fight = app.table.fight
        top = fight.rs.now.order[0]
        far = [cid for cid in tracker.keys[200:] if cid in fight.roster
               and int(fight.roster[cid].stats["combat"]) == top][0]
        before = view.tracker_row(fight, far, False, None, tracker.columns)
        tracker.select(far)
        await pilot.pause(0.1)  # a frame drawn
        tracker.cursor = 0  # back to the top: the unit's row is off screen again
        await pilot.pause(0.1)  # a frame drawn
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        screen.attempt(app.table.command, "move", far, {"phase": top})
        await pilot.pause(0.1)  # a frame drawn
        assert tracker.rows[tracker.keys.index(far)] is None  # not worked out: not drawn
        tracker.select(far)
        await pilot.pause(0.1)  # a frame drawn
        row = tracker.keys.index(far)
        after = tracker.rows[row]
        assert after is not None and after != tuple(styled(c) for c in before.cells)
        assert assert_drawn_rows_are_the_view(app, tracker) > 0


async def test_a_groups_heading_runs_across_the_columns_and_widens_none(tmp_path: Path) -> None:
    path = saved(tmp_path, "siege.toml", (ROOT / "saves" / "phases.toml").read_text())
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        tracker = app.screen.query_one(Tracker)
        heading = next(n for n, key in enumerate(tracker.keys) if key.startswith(view.GROUP))
        label = tracker.rows[heading][1][0]  # type: ignore[index]
        name = tracker.labels.index("combatant")
        assert len(label) > tracker.widths[name] + 10
        shown = {tracker.labels[c] for c in tracker.visible_columns()}
        assert {"C/D", "move", "action", "state"} <= shown  # room the heading did not take
        line = "".join(s.text for s in tracker.render_line(heading + 1 - tracker.scroll_offset.y))
        assert label[:30] in line


async def test_a_regroup_moves_the_unit_under_its_new_squads_heading(tmp_path: Path) -> None:
    """The rows' order and the headings are kept while nothing regroups; a Regroup (or a
    resolved phase, which changes who acts) shows at once."""
    path = saved(tmp_path, "siege.toml", siege(units=400, squads=24, seed=3))
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        tracker = app.screen.query_one(Tracker)
        await pilot.press("n")  # a phase resolved: who acts changes, the squads do not
        await pilot.pause(0.1)  # a frame drawn
        assert assert_drawn_rows_are_the_view(app, tracker) > 0
        unit = tracker.keys[1]
        fight = app.table.fight
        side = fight.roster[unit].side
        squad = next(sid for sid, s in fight.rs.squads.items()  # a horde with room
                     if s.kind == "horde" and len(s.members) < 24 and sid != "s0"
                     and fight.roster[s.members[0]].side == side)
        other = view.GROUP + squad
        screen = app.screen
        assert isinstance(screen, CombatScreen)
        before = view.row_groups(app.table.fight)
        screen.attempt(app.table.command, "regroup", unit, {"join": squad})
        await pilot.pause(0.1)  # a frame drawn
        assert view.row_groups(app.table.fight) is not before
        keys = tracker.keys
        assert keys.index(unit) > keys.index(other)  # a heading is where its first member
        assert all(not key.startswith(view.GROUP) for key in
                   keys[keys.index(other) + 1: keys.index(unit)])
        tracker.select(unit)
        await pilot.pause(0.1)  # a frame drawn
        assert assert_drawn_rows_are_the_view(app, tracker) > 0


async def test_a_row_at_the_top_edge_keeps_its_groups_heading_in_view(tmp_path: Path) -> None:
    """Following the fight to a squad's first unit at the top edge of the tracker shows
    the squad's heading above it (a new round's first actor, at 80x24)."""
    path = saved(tmp_path, "siege.toml", (ROOT / "saves" / "phases.toml").read_text())
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        tracker = app.screen.query_one(Tracker)
        first = tracker.keys[1]
        assert tracker.keys[0].startswith(view.GROUP)
        tracker.cursor = 4
        tracker.scroll_to(y=1, animate=False)
        await pilot.pause(0.1)
        assert tracker.scroll_offset.y == 1  # the heading is above the view
        tracker.select(first)
        await pilot.pause(0.1)
        assert tracker.cursor == 1 and tracker.scroll_offset.y == 0
