"""sanctum's roster between turns: groups and minions edited like any roster (the
session's RosterEditor, through the port's generic hooks), and the report hooks (the odds
as a `Report`, one run written out as a save)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.engine import RefereeError, options
from referee.engine.port import Ruleset
from referee.engine.specs import Chart, Report, ReportRun, Series
from referee.session.files import load_save
from referee.session.roster import RosterEditor
from referee.session.runs import run_path
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT


@pytest.fixture
def session(tmp_path: Path) -> Any:
    target = tmp_path / "sanctum.toml"
    shutil.copyfile(ROOT / "saves" / "sanctum.toml", target)
    with Session.open(target) as opened:
        yield opened


def minion(editor: RosterEditor, cid: str, **changes: Any) -> dict[str, Any]:
    """The values the minion's set-up form holds, with `changes`."""
    return {f.name: f.default for f in editor.combatant_form(
        editor.encounter.combatant(cid)).fields} | changes


def groups(path: Path) -> dict[str, tuple[str, int]]:
    return {g["id"]: (g["side"], g["created"]) for g in load_save(path).encounter.stats["groups"]}


def test_a_minions_group_level_and_effects_are_edited_and_written(session: Any) -> None:
    editor = RosterEditor(session)
    form = editor.combatant_form(editor.encounter.combatant("sprite"))
    fields = {f.name: f for f in form.fields}
    assert fields["group"].kind == "choice"  # among the groups there are
    assert [v for _, v in fields["group"].options] == ["red-1", "blue-1", "wild-1"]
    assert fields["effects"].default == "Pixie Dust"
    editor.edit("sprite", minion(editor, "sprite", level=3,
                                 effects="Pixie Dust, does not attack"))
    sprite = load_save(session.path).encounter.combatant("sprite")
    assert sprite.stats["level"] == 3
    assert sprite.stats["effects"] == ("Pixie Dust", "does not attack")
    assert sprite.stats["missile"]["attacks"] == 1  # its attacks kept (not in the form)


@pytest.mark.parametrize(("cid", "changes", "said"), [
    ("sprite", {"group": "red-1"}, "a minion must be in a group of its own side"),
    ("sprite", {"level": -1}, "at least 0"),
    ("sprite", {"armor": -2}, "at least 0"),
    ("wolf", {"group": "blue-1", "side": "blue"}, "group 'wild-1' has no minions"),
])
def test_bad_minion_edits_are_refused_with_one_message_and_nothing_written(
        session: Any, cid: str, changes: dict[str, Any], said: str) -> None:
    editor = RosterEditor(session)
    before = session.path.read_text()
    if cid == "wolf":  # wild-1's last but one: move the bear first
        editor.edit("bear", minion(editor, "bear", group="blue-1", side="blue"))
        before = session.path.read_text()
    with pytest.raises(RefereeError, match=said):
        editor.edit(cid, minion(editor, cid, **changes))
    assert session.path.read_text() == before


def test_a_group_is_added_with_its_members_edited_and_removed_with_them(
        session: Any) -> None:
    editor = RosterEditor(session)
    form = editor.item_form("groups", None)
    assert [f.name for f in form.fields] == ["id", "side", "created", "members"]
    assert form.fields[1].kind == "choice"  # a side there is
    editor.save_item("groups", None, {"id": "blue-2", "side": "blue", "created": 4,
                                      "members": "sprite, slinger"})
    assert groups(session.path)["blue-2"] == ("blue", 4)
    assert editor.members("groups", "blue-2") == ["sprite", "slinger"]
    editor.save_item("groups", "blue-2", {"id": "blue-9", "side": "blue", "created": 0})
    assert editor.members("groups", "blue-9") == ["sprite", "slinger"]  # followed it
    assert groups(session.path)["blue-9"] == ("blue", 0)
    assert editor.remove_item("groups", "blue-9") == ["sprite", "slinger"]
    saved = load_save(session.path)
    assert "blue-9" not in groups(session.path)
    assert saved.encounter.combatant("sprite") is None


@pytest.mark.parametrize(("values", "said"), [
    ({"id": "blue-2", "side": "blue", "created": 4}, "group 'blue-2' has no minions"),
    ({"id": "red-2", "side": "red", "created": 4, "members": "brute"},
     "a minion must be in a group of its own side"),
    ({"id": "red-2", "side": "red", "created": 4, "members": "ghost"}, "no combatant ghost"),
    ({"id": "red-1", "side": "red", "created": 4, "members": "knight"}, "duplicate group"),
    ({"id": "red-2", "side": "red", "members": "knight"}, "created: missing required field"),
])
def test_bad_groups_are_refused_with_one_message_and_nothing_written(
        session: Any, values: dict[str, Any], said: str) -> None:
    editor = RosterEditor(session)
    before = session.path.read_text()
    with pytest.raises(RefereeError, match=said):
        editor.save_item("groups", None, values)
    assert session.path.read_text() == before


def test_a_minion_naming_a_new_group_makes_it_the_youngest_on_its_side(
        session: Any) -> None:
    editor = RosterEditor(session)
    editor.add({"id": "orc", "side": "red", "hp": 4, "group": "red-7"})
    assert groups(session.path)["red-7"] == ("red", 4)


def test_after_a_fight_a_group_whose_minion_the_log_names_is_not_removed(
        session: Any) -> None:
    table = Table(session, random.Random(1))
    table.command("fight")
    editor = RosterEditor(session)
    before = session.path.read_text()
    with pytest.raises(RefereeError):
        editor.remove_item("groups", "red-1")
    assert session.path.read_text() == before
    editor.save_item("groups", "red-1", {"id": "red-1", "side": "red", "created": 5})
    assert groups(session.path)["red-1"] == ("red", 5)  # the log still fits


# -- the report hooks ---------------------------------------------------------------------


def test_the_port_defaults_have_no_acts_and_no_optional_roles() -> None:
    """A ruleset class with no ROLES has none of the optional roles; the core's
    fallbacks stand in for them (no acts, no extra heal or join fields)."""
    ruleset: Ruleset[Any] = Ruleset({})
    for kind in (options.Acting, options.Declaring, options.Entries, options.Grouping,
                 options.Healing, options.Joining, options.Rolling, options.Runs):
        assert ruleset.role(kind) is None, kind.__name__
    assert options.acts_of(ruleset, None) == []  # type: ignore[arg-type]
    assert options.heal_fields(ruleset, None, None) == ()  # type: ignore[arg-type]
    assert options.join_fields(ruleset, None) == ()  # type: ignore[arg-type]


def test_a_report_finds_its_runs_by_number() -> None:
    chart = Chart("t", ("a",), (Series("win", (50.0,)),))
    report = Report("r", charts=(chart,), runs=(ReportRun(1, 7, "red"), ReportRun(2, 9, "x")))
    assert report.run(2) == ReportRun(2, 9, "x")
    assert report.run(0) is None and report.run(3) is None


def test_the_odds_as_a_report_bars_per_side_and_a_histogram_per_group(session: Any) -> None:
    told: list[tuple[int, int]] = []
    fight = session.fight
    acting = fight.ruleset.role(options.Acting)
    assert acting is not None
    acts = {act.id: act for act in acting.acts(fight)}
    odds = acts["odds"].report
    assert odds is not None
    report = odds(fight, {}, lambda done, total: told.append((done, total)))
    assert told[-1] == (1000, 1000)
    bars, *histograms = report.charts
    assert bars.labels == ("red", "blue", "wild")
    assert [s.name for s in bars.series] == ["win", "draw", "lose"]
    for k in range(3):  # each side's bar adds up to every run
        assert sum(s.values[k] for s in bars.series) == pytest.approx(100.0)
    assert [h.kind for h in histograms] == ["histogram"] * 3
    assert histograms[0].labels == ("0", "1", "2", "3")  # red-1 has 3 minions
    assert sum(histograms[0].series[0].values) == pytest.approx(100.0)
    assert any("rounds" in line for line in report.lines)
    assert len(report.runs) == 1000 and report.runs[0].number == 1
    assert acts["fight"].report is None and acts["fight"].run is not None
    assert acts["odds"].run is None and acts["odds"].reports
    assert session.path.read_text() == (ROOT / "saves" / "sanctum.toml").read_text()


def test_run_files_sit_beside_the_save_and_never_over_another(tmp_path: Path) -> None:
    save = tmp_path / "turn.toml"
    first = run_path(save, 4)
    assert first == tmp_path / "turn-run-4.toml" and first.exists()
    assert run_path(save, 4) == tmp_path / "turn-run-4-2.toml"


def test_a_run_written_by_the_table_is_what_fight_seed_o_writes(
        session: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from referee.cli import main

    table = Table(session, random.Random(1))
    path = table.write_run(ReportRun(12, 4242, "red"))
    assert path == tmp_path / "sanctum-run-12.toml"
    cli = tmp_path / "cli.toml"
    assert main(["fight", str(session.path), "--seed", "4242", "-o", str(cli)]) == 0
    capsys.readouterr()
    assert path.read_text() == cli.read_text()


# -- sides: the initiative standing (SA-1), and any ruleset's side keys -------------------


def side_values(editor: RosterEditor, side_id: str | None, **changes: Any) -> dict[str, Any]:
    side = editor.encounter.side(side_id) if side_id else None
    return {f.name: f.default for f in editor.side_form(side).fields} | changes


def test_a_sides_form_asks_its_rulesets_keys_and_the_standing_is_written(session: Any) -> None:
    editor = RosterEditor(session)
    form = editor.side_form(editor.encounter.side("blue"))
    names = [f.name for f in form.fields]
    assert names == ["name", "players", "initiative"]
    standing = next(f for f in form.fields if f.name == "initiative")
    assert standing.default == "other" and standing.kind == "choice"
    editor.edit_side("red", side_values(editor, "red", initiative="other"))
    editor.edit_side("blue", side_values(editor, "blue", initiative="initiative",
                                         name="Blue host"))
    saved = load_save(session.path).encounter
    assert saved.side("blue").stats["initiative"] == "initiative"  # type: ignore[union-attr]
    assert saved.side("blue").name == "Blue host"  # type: ignore[union-attr]
    assert saved.side("red").stats["initiative"] == "other"  # type: ignore[union-attr]


def test_two_sides_with_initiative_are_refused_and_nothing_is_written(session: Any) -> None:
    editor = RosterEditor(session)
    before = session.path.read_text()
    with pytest.raises(RefereeError, match="only one player has initiative"):
        editor.edit_side("blue", side_values(editor, "blue", initiative="initiative"))
    assert session.path.read_text() == before


def test_a_new_side_takes_its_standing_from_the_form(session: Any) -> None:
    editor = RosterEditor(session)
    editor.add_side("grey", "Grey", side_values(editor, None, id="grey", name="Grey",
                                                initiative="neutral"))
    grey = load_save(session.path).encounter.side("grey")
    assert grey is not None and grey.stats["initiative"] == "neutral"


async def test_e_on_a_side_in_set_up_edits_its_standing(tmp_path: Path) -> None:
    from referee.app import RefereeApp
    from referee.app.forms import FormScreen

    path = tmp_path / "sanctum.toml"
    shutil.copyfile(ROOT / "saves" / "sanctum.toml", path)
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+e")
        app.screen.query_one("#sides").focus()
        await pilot.press("down")  # blue
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, FormScreen)
        form.query_one("#f-initiative").index = 1  # neutral
        await pilot.press("enter")
        await pilot.pause()
    side = load_save(path).encounter.side("blue")
    assert side is not None and side.stats["initiative"] == "neutral"


def test_a_minions_attacks_are_one_line_each_in_its_form(session: Any) -> None:
    editor = RosterEditor(session)
    archer = editor.encounter.combatant("archer")
    fields = {f.name: f for f in editor.combatant_form(archer).fields}
    assert fields["missile"].default == "attacks=2, damage=2" and fields["hand"].default == ""
    editor.edit("archer", minion(editor, "archer", hand="attacks=1, damage=1",
                                 missile="attacks=3, damage=2, magical"))
    saved = load_save(session.path).encounter.combatant("archer")
    assert saved is not None
    assert saved.stats["hand"] == {"attacks": 1, "damage": 1}
    assert saved.stats["missile"] == {"attacks": 3, "damage": 2, "magical": True}
    editor.edit("archer", minion(editor, "archer", hand=""))  # blank: no hand attack
    saved = load_save(session.path).encounter.combatant("archer")
    assert saved is not None and "hand" not in saved.stats


@pytest.mark.parametrize(("line", "message"), [
    ("attacks=2, reach=3", "'reach' is not a hand key"),
    ("attacks=two", "takes a number"),
    ("attacks=-1", "at least 0"),
])
def test_a_bad_attack_line_is_refused_with_its_reason(session: Any, line: str,
                                                      message: str) -> None:
    editor = RosterEditor(session)
    before = session.path.read_text()
    with pytest.raises(RefereeError, match=message):
        editor.edit("archer", minion(editor, "archer", hand=line))
    assert session.path.read_text() == before
