"""A tracker row is worked out again only when what it reads changed (`view.row_basis`,
with the ruleset's part, `Tracker.row_basis`): a phases Move works out the row of the unit
that moved, not every row on screen; and a row whose basis stayed the same reads the same
as one worked out afresh, for every demo and scenario, and for random phases battles.
Counted, never timed."""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, Tracker
from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.session import view
from referee.session.files import load_save, parse_save
from tests.conftest import ROOT
from tests.test_big_tables import assert_drawn_rows_are_the_view
from tests.test_phases_properties import BATTLE, deed, deed_event

sys.path.insert(0, str(ROOT / "benchmarks"))

from phases_bench import battle_text as siege  # noqa: E402


def worked_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The combatants whose tracker rows are worked out, in turn."""
    rows: list[str] = []
    cells = Tracker.cells

    def counted(self: Tracker, key: str) -> Any:
        rows.append(key)
        return cells(self, key)

    monkeypatch.setattr(Tracker, "cells", counted)
    return rows


async def test_a_phases_move_works_out_the_movers_row_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "siege.toml"
    path.write_text(siege(units=300, squads=20))
    rows = worked_out(monkeypatch)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        fight = app.table.fight
        tracker = app.screen.query_one(Tracker)
        log = app.screen.query_one(LogView)
        top = fight.rs.now.order[0]
        on_screen = tracker.keys[:tracker.size.height - 1]
        movers = [cid for cid in on_screen if cid in fight.roster
                  and int(fight.roster[cid].stats["combat"]) == top]
        assert len(movers) >= 4, movers
        for cid in movers:
            tracker.select(cid)
            await pilot.press("v")
            await pilot.pause()
            assert isinstance(app.screen, FormScreen)
            lines = log.line_count
            rows.clear()
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, FormScreen) and log.line_count == lines + 1
            assert getattr(fight.log[-1], "actor", None) == cid, fight.log[-1]
            assert rows == [cid], (cid, rows)
            assert_drawn_rows_are_the_view(app, tracker)


def kept_rows_read_the_same(fight: Fight, before: dict[str, Any]) -> int:
    """Every row whose basis is the same as at the last look reads as it did then; the
    rows as they read now are kept in `before`. How many rows were kept."""
    cols = view.columns(fight)
    decls = view.declarations(fight)
    kept = 0
    for cid in fight.roster:
        decl = decls.get(cid)
        basis = view.row_basis(fight, cid, False, decl)
        cells = view.tracker_row(fight, cid, False, decl, cols).cells
        old = before.get(cid)
        if old is not None and old[0] == basis:
            assert old[1] == cells, (cid, fight.log[-1])
            kept += 1
        before[cid] = (basis, cells)
    return kept


SAVES = sorted(ROOT.glob("saves/*.toml")) + sorted(
    p for p in ROOT.glob("tests/scenarios/*/*.toml") if not p.name.endswith(".expect.toml"))


@pytest.mark.parametrize("folder", sorted({p.parent for p in SAVES}), ids=lambda p: p.name)
def test_a_row_whose_basis_stays_reads_the_same(folder: Path) -> None:
    """Every demo and scenario, event by event."""
    for path in (p for p in SAVES if p.parent == folder):
        with contextlib.suppress(RefereeError):
            full = load_save(path).fight
            fight = Fight(full.encounter, full.ruleset)
            fight.later = set(full.later)
            before: dict[str, Any] = {}
            for event in full.log:
                fight.push(event)
                kept_rows_read_the_same(fight, before)


@settings(max_examples=60, deadline=None)
@given(st.lists(deed, max_size=30))
def test_a_phases_row_whose_basis_stays_reads_the_same(
        deeds: list[tuple[str, str, str, int]]) -> None:
    """Random battles: carried, dragged and mounted units, squads, statuses, undo."""
    fight = parse_save(BATTLE, Path("melee.toml")).fight
    before: dict[str, Any] = {}
    for kind, who, what, phase in deeds:
        with contextlib.suppress(RefereeError):
            fight.enter(deed_event(fight, kind, who, what, phase))
            kept_rows_read_the_same(fight, before)
