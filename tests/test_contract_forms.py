"""The port's contract in the app: every act a ruleset offers, driven through Pilot on its
demo (each ruleset file's demo, found as test_contract.py finds them).

An act is each declaration kind (its key letter), the initiative form typed from real
dice (`I`, while initiative is due), a combatant joining (`j`) and each of the ruleset's
acts (`Act.key`). Each case opens a copy of the demo, puts the cursor on a
combatant that can take the act, presses its key and sees a form or a report open; it
fills nothing and presses Enter: either an event is appended to the log, or the form
stays open with the fault shown (then Esc closes it). A command without a form runs at
once and appends its events; an act no one in the demo can take is refused with nothing
written. Never a crash.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.app import RefereeApp
from referee.app.combat import CombatScreen
from referee.app.forms import FormScreen
from referee.app.report import ReportScreen
from referee.app.widgets import Tracker
from referee.engine import options
from referee.engine.fight import Fight
from referee.session.files import load_save
from tests.test_contract import DEMOS, Demo, copy_of

SIZE = (120, 40)


@dataclass(frozen=True)
class Act:
    demo: Demo
    kind: str  # "declare", "initiative", "join" or "command"
    key: str  # the key pressed
    what: str = ""  # the declaration kind's key, or the command's id

    @property
    def name(self) -> str:
        return f"{self.demo.name}/{self.kind}{'-' + self.what if self.what else ''}"

    def can(self, fight: Fight, actor: str) -> bool:
        """Whether `actor` can take the act (the app refuses it otherwise, with why)."""
        ruleset = fight.ruleset
        if self.kind == "declare":
            declaring = ruleset.role(options.Declaring)
            return declaring is not None and not declaring.can_declare(fight, actor, self.what)
        if self.kind == "command":
            act = next(a for a in options.acts_of(ruleset, fight) if a.id == self.what)
            return not act.allowed(fight, actor)
        return True


def acts_of(demo: Demo) -> list[Act]:
    try:
        fight = load_save(demo.path).fight
    except Exception:  # its case in test_contract.py says why; it offers no acts here
        return []
    ruleset = fight.ruleset
    declaring = ruleset.role(options.Declaring)
    kinds = declaring.actions() if declaring else []
    acts = [Act(demo, "declare", kind.hotkey, kind.key) for kind in kinds
            if kind.hotkey]
    rolling = ruleset.role(options.Rolling)
    if rolling is not None and rolling.initiative_due(fight):
        acts.append(Act(demo, "initiative", "I"))
    acts.append(Act(demo, "join", "j"))
    acts += [Act(demo, "command", a.key, a.id) for a in options.acts_of(ruleset, fight) if a.key]
    return acts


ACTS = [act for demo in DEMOS for act in acts_of(demo)]


def test_every_demo_offers_acts() -> None:
    assert {act.demo.name for act in ACTS} == {demo.name for demo in DEMOS}
    assert {"declare", "initiative", "join", "command"} <= {act.kind for act in ACTS}


@pytest.mark.parametrize("act", ACTS, ids=lambda a: a.name)
async def test_its_key_opens_a_form_that_appends_or_says_what_is_wrong(
        act: Act, tmp_path: Path) -> None:
    path = copy_of(act.demo.path, tmp_path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        combat = pilot.app.screen
        assert isinstance(combat, CombatScreen)
        table = app.table
        declared = table.declared()
        able = [cid for cid in table.fight.roster
                if act.can(table.fight, cid) and cid not in declared]
        if able:
            combat.query_one(Tracker).select(able[0])
        before = len(table.fight.log)
        await pilot.press(act.key)
        await pilot.pause()
        screen = pilot.app.screen
        if not able:  # refused before anything opens (the reason is notified)
            assert screen is combat and len(table.fight.log) == before
            return
        if isinstance(screen, ReportScreen):  # a report writes nothing
            await screen.workers.wait_for_complete()
            await pilot.pause()
            assert screen.report is not None
            assert len(table.fight.log) == before
            await pilot.press("escape")
        elif isinstance(screen, FormScreen):
            form = screen
            await pilot.press("enter")
            await pilot.pause()
            if pilot.app.screen is form:
                assert form.fault(), "the form stayed open without saying why"
                assert len(table.fight.log) == before
                await pilot.press("escape")
            else:
                assert len(table.fight.log) > before, "the form closed and nothing was logged"
        else:  # a command without a form runs at once
            assert screen is combat and act.kind == "command", act.name
            assert len(table.fight.log) > before, "nothing was logged"
        await pilot.pause()
        assert pilot.app.screen is combat
