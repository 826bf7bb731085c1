"""What the rules leave open about a party carried over is asked as it is written (issue 30
B20): count-up's Stress (CU-7), a question of its Carrying role, shown in the app's `W`
form beside the file name and taken by `referee party` as `--carry-stress`, both from the
one Field; its default (no: back to full) stands when it is not asked, and is said."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.engine.errors import FormatError
from referee.session.files import load_save
from referee.session.party import party_file
from referee.session.store import Session
from tests.conftest import ROOT


def hurt(tmp_path: Path) -> Path:
    """The count-up demo with Hilde at 10 Stress, hit for 12: her Stress gone, 2 Wound
    Points lost (12 of 14 left)."""
    path = tmp_path / "fight.toml"
    text = (ROOT / "saves" / "count-up.toml").read_text()
    path.write_text(text.replace('id = "hilde"', 'id = "hilde"\nstress = 10', 1))
    session = Session.open(path, lock=True)
    try:
        session.append(ev.Damage(round=1, target="hilde", amount=12))
    finally:
        session.close()
    marks = load_save(path).fight.status["hilde"].marks
    assert (marks["stress"], marks["wounds"]) == (0, 12)
    return path


def hilde(party: Path) -> dict[str, object]:
    data = tomllib.loads(party.read_text())
    assert data["ruleset"] == "count-up"
    found: dict[str, object] = next(c for c in data["combatants"] if c["id"] == "hilde")
    return found


def test_the_command_line_carries_stress_when_told(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = hurt(tmp_path)
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out), "--carry-stress", "yes"]) == 0
    err = capsys.readouterr().err
    assert "Hilde" in err and "Stress" not in err  # nothing of it stayed behind
    assert (hilde(out)["stress"], hilde(out)["wounds"]) == (0, 12)
    assert main(["check", str(out)]) == 0
    # options and SAVE in any order, `--name=value` too
    again = tmp_path / "again.toml"
    assert main(["party", "-o", str(again), "--carry-stress=yes", str(path)]) == 0
    assert hilde(again)["stress"] == 0
    before = tmp_path / "before.toml"
    assert main(["party", "--carry-stress", "yes", "-o", str(before), str(path)]) == 0
    assert hilde(before)["stress"] == 0


def test_unasked_stress_is_back_to_full_and_said(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = hurt(tmp_path)
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert ("not carried over: Stress: back to full (carry Stress: no, the default; CU-7 "
            "leaves its recovery open)") in err
    assert err.count("Stress") == 2  # said once, not twice
    assert (hilde(out)["stress"], hilde(out)["wounds"]) == (10, 12)
    told_no = tmp_path / "no.toml"
    assert main(["party", str(path), "-o", str(told_no), "--carry-stress", "no"]) == 0
    assert hilde(told_no)["stress"] == 10


def test_the_option_is_the_rulesets_own_with_its_default_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = hurt(tmp_path)
    assert main(["party", str(path), "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert "--carry-stress no|yes" in shown
    assert "(CU-7)" in shown and "no (the default)" in shown
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out), "--carry-stress", "maybe"]) == 2
    assert "one of no, yes, not 'maybe'" in capsys.readouterr().err and not out.exists()


def test_a_ruleset_with_nothing_open_asks_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    assert main(["party", str(path), "--help"]) == 0
    assert "--carry" not in capsys.readouterr().out
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out), "--carry-stress", "yes"]) == 2
    assert "unrecognized arguments: --carry-stress yes" in capsys.readouterr().err
    assert not out.exists()
    with pytest.raises(FormatError, match="asks no question 'carry_stress'"):
        party_file(load_save(path).fight, {"carry_stress": True})


async def ended_and_asked(pilot: Any) -> None:
    from referee.app.forms import FormScreen

    await pilot.press("E", "right", "enter")
    await pilot.pause()
    assert pilot.app.table.fight.ended
    await pilot.press("W")
    assert isinstance(pilot.app.screen, FormScreen)


async def test_the_w_form_asks_and_yes_carries_stress(tmp_path: Path) -> None:
    from textual.widgets import Label

    from referee.app.widgets.choice import Choice
    from tests.test_app_flows import SIZE, app_on

    path = hurt(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await ended_and_asked(pilot)
        screen = pilot.app.screen
        label = screen.query_one("#row-carry_stress").query_one(Label)
        assert str(label.render()) == "carry Stress (default no)"
        choice = screen.query_one("#f-carry_stress", Choice)
        assert choice.value is False  # the default, as the form opens
        await pilot.press("down", "down", "right")  # the file, replace, then the question
        assert choice.value is True
        await pilot.press("enter")
        await pilot.pause()
    assert (hilde(tmp_path / "party.toml")["stress"],
            hilde(tmp_path / "party.toml")["wounds"]) == (0, 12)


async def test_the_w_form_left_as_it_opens_says_stress_stayed_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.test_app_flows import SIZE, app_on

    path = hurt(tmp_path)
    app = app_on(path)
    said: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await ended_and_asked(pilot)
        screen = app.screen_stack[-2]
        monkeypatch.setattr(screen, "notify", lambda text, **_: said.append(text))
        await pilot.press("enter")
        await pilot.pause()
    assert hilde(tmp_path / "party.toml")["stress"] == 10
    assert len(said) == 1 and "not carried over: Stress: back to full" in said[0]


async def test_the_w_form_of_a_ruleset_with_nothing_open_has_no_question(
        tmp_path: Path) -> None:
    from referee.app.forms import FormScreen
    from tests.test_app_flows import SIZE, app_on

    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        await ended_and_asked(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, FormScreen)
        assert [f.name for f in screen.spec.fields] == ["path", "force"]
