"""The log pane's lines are told as the save loads (one fold of the log, not two): the
same lines the chronicle tells, for every ruleset's demo, every scenario with events, a
save with undos and redos and a torn one; and opening a save in the app folds its log
once (counted, never timed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.app.told import Told
from referee.engine import Fight
from referee.session.replay import chronicle_lines
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT
from tests.test_contract import DEMOS, copy_of
from tests.test_replay import folded_events
from tests.test_table_ready import LARGE, app_on, demo

SAVES = [d.path for d in DEMOS] + sorted(
    p for p in (ROOT / "tests" / "scenarios").rglob("*.toml")
    if not p.name.endswith(".expect.toml") and "[[events]]" in p.read_text())


def told_and_chronicled(path: Path) -> tuple[list[str] | None, list[str]]:
    told = Told()
    session = Session.open(path, watch=told.watch)
    try:
        lines = told.lines(session.fight)
        return ([str(line) for line in lines] if lines is not None else None,
                [str(line) for line in chronicle_lines(Table(session))])
    finally:
        session.close()


@pytest.mark.parametrize("save", SAVES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_lines_told_as_it_loads_are_the_chronicles(save: Path, tmp_path: Path) -> None:
    told, chronicled = told_and_chronicled(copy_of(save, tmp_path))
    assert told is not None and told == chronicled


def test_undone_redone_and_torn_saves_are_told_alike(tmp_path: Path) -> None:
    path = demo(tmp_path)
    session = Session.open(path)
    table = Table(session)
    for cid in list(table.fight.roster)[:3]:
        table.declare(cid, "G", target=("gob1",) if cid != "gob1" else ("brann",))
    table.roll_initiative()
    table.undo()
    table.undo()
    table.redo()
    session.close()
    told, chronicled = told_and_chronicled(path)
    assert told is not None and told == chronicled
    with path.open("a") as file:  # a crash while the next event was written
        file.write('\n[[events]]\ntype = "note"\ntext = "cut sh')
    told, chronicled = told_and_chronicled(path)
    assert told is not None and told == chronicled


async def test_opening_a_save_folds_its_log_once(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    pushed = folded_events(monkeypatch, Fight)
    path = demo(tmp_path)
    session = Session.open(path)
    table = Table(session)
    for cid in table.fight.roster:
        table.declare(cid, "G", target=("gob1",) if cid != "gob1" else ("brann",))
    table.roll_initiative()
    events = len(table.fight.log)
    session.close()
    pushed.clear()
    async with app_on(path).run_test(size=LARGE) as pilot:
        await pilot.pause()
        assert len(pushed) == events
        assert pilot.app.screen.query_one("#log").line_count == events
