"""ctrl+o's list of saves (issue 30 B21): a party roster or a catalogue in the folder is
said for what it is, with its ruleset, never "not a referee save"; Enter on one says what
it is for and opens nothing."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from referee.app import RefereeApp
from referee.app.files import OpenScreen
from referee.session.party import party_file
from referee.session.store import Session
from tests.conftest import ROOT


def cells(screen: OpenScreen) -> dict[str, list[str]]:
    table = screen.query_one("DataTable")
    return {Path(str(key.value)).name: [str(cell) for cell in table.get_row(key)]
            for key in table.rows}


async def test_party_rosters_are_listed_as_party_rosters_with_their_ruleset(tmp_path: Path):
    save = tmp_path / "ford.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", save)
    count_up = tmp_path / "wolves.toml"
    shutil.copyfile(ROOT / "saves" / "count-up.toml", count_up)
    session = Session.open(count_up)
    (tmp_path / "party.toml").write_text(party_file(session.fight)[0], encoding="utf-8")
    session.close()
    shutil.copyfile(ROOT / "tests" / "data" / "roster.toml", tmp_path / "pack.toml")
    (tmp_path / "junk.toml").write_text('answer = 42\n', encoding="utf-8")
    app = RefereeApp(save, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.press("ctrl+o")
        screen = app.screen
        assert isinstance(screen, OpenScreen)
        await pilot.pause(0.3)
        rows = cells(screen)
        title, ruleset, _, _, _, note = rows["party.toml"]
        assert ruleset == "count-up" and note == "party roster", rows
        assert title.startswith("The party after")
        # it names no ruleset; the note says what it is, the ruleset column which (80 columns)
        assert rows["pack.toml"][1] == "?" and rows["pack.toml"][-1] == "party roster"
        assert rows["junk.toml"][-1] == "not a referee save"  # what it is
        assert rows["ford.toml"][-1] == ""
        told: list[str] = []
        app.notify = lambda message, **kw: told.append(str(message))  # type: ignore[method-assign]
        table = screen.query_one("DataTable")
        keys = [row.value for row in table.rows]
        table.move_cursor(row=keys.index(str(tmp_path / "party.toml")))
        await pilot.press("enter")
        assert app.screen is screen and app.session.path == save  # nothing opened
        assert "party.toml is a party roster" in told[-1] and "--party" in told[-1]
