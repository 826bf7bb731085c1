"""What the referee sees of issue 19's demon-idol changes: the DMG-66 blows numbered
(routine k) and cited in the plan pane and in `referee export --markdown`, and a G whose
routines each name their weapon declared through the app's own form."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.widgets.plan import PlanView
from referee.cli import main
from referee.session.files import load_save
from referee.session.view import plan_rows
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "demon-idol"
THIRD = HERE / "dmg-66-weapon-speed-third-blow.toml"
BLOWS = [("dagger:G#1", "DI-4 DI-11"), ("dagger:G#2", "DMG-66"),
         ("dagger:G#3, troll:G", "DI-4 DI-11 DMG-66")]


def test_the_plan_rows_number_and_cite_every_dmg_66_blow() -> None:
    fight = load_save(THIRD).fight
    rows = [(r.actions, r.rules) for r in plan_rows(fight.plan(), set()) if r.label != "note"]
    assert rows == BLOWS


def test_the_markdown_recap_numbers_and_cites_every_dmg_66_blow(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(THIRD), "--markdown"]) == 0
    text = capsys.readouterr().out
    for number, (actions, rules) in enumerate(BLOWS, start=1):
        assert any(line.startswith(f"{number}. {actions} — ") and line.endswith(f"({rules})")
                   for line in text.splitlines()), (actions, text)


def app_on(source: Path, folder: Path) -> RefereeApp:
    path = folder / source.name
    shutil.copyfile(source, path)
    return RefereeApp(path, folder, random.Random(3))


async def test_the_plan_pane_numbers_and_cites_every_dmg_66_blow(tmp_path: Path) -> None:
    async with app_on(THIRD, tmp_path).run_test(size=(120, 40)) as pilot:
        pane = pilot.app.screen.query_one("#plan", PlanView)
        shown = [tuple(text for text, _ in pane.row_cells(n)) for n in range(pane.row_count)]
        assert [(row[2], row[3]) for row in shown if row[1] != "note"] == BLOWS


async def test_the_declaration_form_names_a_weapon_for_each_routine(tmp_path: Path) -> None:
    source = HERE / "di-rule-03-routine-own-initiative.toml"
    text = source.read_text()
    head = text[:text.index("[[events]]")]  # the roster, no declarations yet
    path = tmp_path / source.name
    path.write_text(head + '[[events]]\ntype = "initiative"\nround = 1\n'
                           "rolls = { party = 2, goblins = 5 }\n")
    async with RefereeApp(path, tmp_path, random.Random(3)).run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, CombatScreen)
        screen.query_one("#tracker").select("brann")
        await pilot.press("g")
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-routines").value = "sword of speed; dagger, initiative=slow"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, CombatScreen)
    decl = load_save(path).fight.log[-1]
    assert getattr(decl, "routines", ()) == ({"weapon": "sword of speed"},
                                            {"weapon": "dagger", "initiative": "slow"})
    assert getattr(decl, "weapon", "") is None
