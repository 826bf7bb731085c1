"""count-up at the table (issue 24: B.3, B.7, B.10, B.17, E.16), as a referee plays it in
the app: the hit form's critical multiplies by the weapon's multiplier and says so; a
stabilised wolf reads stabilised; the morale reminder does not come back once rolled, and
the roll's line adds it up; J opens on the last critical hit and logs who struck and the
verdict; the attack form takes a note; E ends the fight, wiping initiative."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import LogView, PlanView, StatusLine, Tracker
from referee.engine import events as ev
from referee.rulesets.count_up import events as cu
from tests.conftest import ROOT

SMALL, LARGE = (80, 24), (120, 40)
# base initiative for the demo: Hilde (longsword, speed 5) acts first at 6
BASES = {"hilde": 1, "tomas": 5, "wren": 6, "grey-wolves": 8, "alpha": 9}
TARGETS = {"hilde": "wolf1", "tomas": "wolf1", "wren": "wolf2", "wolf1": "hilde",
           "wolf2": "hilde", "alpha": "hilde"}


def demo(tmp_path: Path) -> Path:
    target = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "count-up.toml", target)
    return target


def app_on(path: Path) -> RefereeApp:
    return RefereeApp(path, path.parent, random.Random(3))


def round_one(pilot: Any) -> None:
    """Everyone attacks; the real dice give BASES."""
    table = pilot.app.table
    for actor, target in TARGETS.items():
        table.declare(actor, "attack", target=target)
    table.enter_initiative(BASES)
    pilot.app.screen.refresh_view()


def form(pilot: Any) -> FormScreen:
    screen = pilot.app.screen
    assert isinstance(screen, FormScreen)
    return screen


def spec(pilot: Any, name: str) -> Any:
    return next(f for f in form(pilot).spec.fields if f.name == name)


def log_lines(pilot: Any) -> list[str]:
    return pilot.app.screen.query_one(LogView).lines


def notices(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(RefereeApp, "notify", lambda self, message, **kw: shown.append(
        (str(kw.get("title")), message)))
    return shown


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_a_critical_hit_is_multiplied_by_the_weapons_multiplier(tmp_path, size):
    """B.3 (CU-7): the form names ×2 and the damage it multiplies; 4 from real dice is 8
    dealt, straight to Wound Points, and the line says 4 × 2."""
    async with app_on(demo(tmp_path)).run_test(size=size) as pilot:
        round_one(pilot)
        await pilot.press("h")
        critical = spec(pilot, "critical")
        assert critical.title == "critical: ×2 longsword"
        assert dict(critical.options)["yes: 1d8 × 2 to Wound Points"] is True
        form(pilot).query_one("#f-amount").value = "4"
        form(pilot).query_one("#f-critical").value = True
        await pilot.press("enter")
        table = pilot.app.table
        hit = table.fight.log[-1]
        assert isinstance(hit, cu.Damage) and hit.target == "wolf1"
        assert (hit.amount, hit.multiplier, hit.weapon) == (8, 2, "longsword")
        assert table.fight.status["wolf1"].marks["wounds"] == 1
        assert "takes 8 critical damage (4 × 2, longsword) from Hilde" in log_lines(pilot)[-1]


async def test_a_stabilised_wolf_reads_stabilised(tmp_path):
    """B.7 (CU-8): the tracker shows the Heal check's TN while dying, then 'stabilised'."""
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        round_one(pilot)
        table = pilot.app.table
        table.damage("wolf2", 11, source="hilde")  # no Stress: W-2, dying
        tracker = pilot.app.screen.query_one(Tracker)
        pilot.app.screen.refresh_view()
        await pilot.pause()
        assert "S0 W-2/9 TN21" in [text for text, _ in tracker.shown["wolf2"][1]]
        tracker.select("wolf2")
        await pilot.press("plus", "0", "down", "down", "right", "enter")
        await pilot.pause()
        drawn = [text for text, _ in tracker.shown["wolf2"][1]]
        assert "stabilised" in drawn and "dying" not in drawn
        assert log_lines(pilot)[-1].endswith(
            "Grey wolf 2 heals 0, stabilised (Heal check TN 10 + largest wound 11 = 21, CU-8)")


async def test_the_morale_reminder_does_not_come_back_once_rolled(tmp_path, monkeypatch):
    """B.7 (CU-6): rolled before r, no reminder at r; the line gives the sum."""
    shown = notices(monkeypatch)
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        round_one(pilot)
        table = pilot.app.table
        table.damage("alpha", 9, source="hilde")  # more than half its 16: a big hit
        while table.current_beat() is not None:
            await pilot.press("n")
        pilot.app.screen.query_one(Tracker).select("alpha")
        await pilot.press("M")
        roll, morale = table.fight.log[-2:]
        assert isinstance(roll, ev.Roll) and isinstance(morale, ev.Morale)
        verdict = "holds" if morale.passed else "breaks (will flee)"
        assert log_lines(pilot)[-1].endswith(
            f"The dire wolf's morale {verdict}: 3d6 {roll.total} + Insight 0 + HD 4 + "
            f"2 allies = {roll.total + 6} vs TN 11 + 3 opponents = 14 (CU-6)")
        await pilot.press("r")
        assert table.fight.round == 2
        assert not [text for title, text in shown if "Morale" in title and "dire" in text]


async def test_the_morale_reminder_comes_at_r_when_no_roll_was_made(tmp_path, monkeypatch):
    """The reminder itself still comes (the test above is not vacuous)."""
    shown = notices(monkeypatch)
    async with app_on(demo(tmp_path)).run_test(size=LARGE) as pilot:
        round_one(pilot)
        pilot.app.table.damage("alpha", 9, source="hilde")
        await pilot.press("r")
        assert [text for title, text in shown if "Morale" in title and "dire" in text]


async def test_j_opens_on_the_last_critical_hit_and_logs_who_and_the_verdict(tmp_path):
    """B.10 (CU-9)."""
    async with app_on(demo(tmp_path)).run_test(size=SMALL) as pilot:
        round_one(pilot)
        pilot.app.table.damage("wolf1", 3, source="hilde", critical=True,
                               values={"critical": True})  # 6 dealt, longsword: slashing
        pilot.app.screen.query_one(Tracker).select("alpha")
        await pilot.press("J")
        defaults = {f.name: f.default for f in form(pilot).spec.fields}
        assert defaults == {"target": "wolf1", "damage": 6, "damage_type": "slashing",
                            "source": "hilde"}
        await pilot.press("enter")
        verdict = pilot.app.table.fight.log[-1]
        assert isinstance(verdict, cu.Injury) and verdict.source == "hilde"
        line = log_lines(pilot)[-1]
        assert "Grey wolf 1" in line and "from Hilde the sellsword's critical: d% " in line
        assert ("no combat injury" if not verdict.injury else "suffers a combat injury") in line


async def test_the_attack_form_takes_a_note(tmp_path):
    """B.17: the note is in the form, the declaration and its line."""
    async with app_on(demo(tmp_path)).run_test(size=SMALL) as pilot:
        pilot.app.screen.query_one(Tracker).select("hilde")
        await pilot.press("a")
        assert [f.name for f in form(pilot).spec.fields] == ["weapon", "target", "note"]
        form(pilot).query_one("#f-note").value = "aims high"
        await pilot.press("enter")
        declared = pilot.app.table.fight.log[-1]
        assert isinstance(declared, cu.Declare) and declared.note == "aims high"
        assert log_lines(pilot)[-1].endswith("— aims high")


@pytest.mark.parametrize("size", [SMALL, LARGE])
async def test_e_ends_the_fight_and_wipes_initiative(tmp_path, size):
    """E.16 (CU-10): logged with the end; no beat is left current; the status says so
    once; ctrl+z reopens the fight where it was."""
    async with app_on(demo(tmp_path)).run_test(size=size) as pilot:
        round_one(pilot)
        table = pilot.app.table
        await pilot.press("n")
        await pilot.press("E", "right", "enter")
        assert table.fight.ended
        assert log_lines(pilot)[-1].endswith(
            "the fight is over — combat ends, initiative is wiped (CU-10)")
        status = pilot.app.screen.query_one(StatusLine).text
        assert status.endswith("the fight is over") and "base initiative" not in status
        assert pilot.app.table.plan().notes == ["the fight is over: initiative wiped (CU-10)"]
        assert table.current_beat() is None and not pilot.app.screen.query_one(Tracker).last[2]
        rows = [row for row, _ in pilot.app.screen.query_one(PlanView).cells.values()]
        assert rows and not [row for row in rows if row.mark == "▶"]
        await pilot.press("ctrl+z")
        assert not table.fight.ended and table.current_beat() == 2


async def test_the_heal_form_shows_the_tn_it_is_checked_against(tmp_path):
    """Issue 24 B.7: the heal form asks for the Heal check, labelled with the TN (CU-8),
    and a check under it does not stabilise: the form stays open, as typed."""
    import random
    import shutil

    from referee.app import RefereeApp
    from referee.app.forms import FormScreen
    from referee.app.widgets import Tracker
    from tests.conftest import ROOT

    path = tmp_path / "cu.toml"
    shutil.copyfile(ROOT / "saves" / "count-up.toml", path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.table
        victim = next(iter(table.fight.roster))
        table.damage(victim, table.fight.status[victim].hp + 3, critical=True)
        app.screen.refresh_view()
        app.screen.query_one(Tracker).select(victim)
        await pilot.press("plus")
        form = app.screen
        assert isinstance(form, FormScreen)
        check = next(f for f in form.spec.fields if f.name == "check")
        assert "TN" in check.title
        form.query_one("#f-amount").value = "0"
        form.query_one("#f-stabilize").value = True
        form.query_one("#f-check").value = "3"
        await pilot.press("enter")
        assert app.screen is form and "does not stabilise" in form.fault()
