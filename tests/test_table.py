"""Table operations: what the app will call, tested without a screen."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from referee.engine import Combatant, Weapon
from referee.engine import events as ev
from referee.session.store import Session
from referee.session.table import DeclarationClock, Table, list_saves
from tests.conftest import ROOT


@pytest.fixture
def table(tmp_path: Path) -> Table:
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    return Table(Session.open(path), random.Random(4))


def test_declaring_walks_the_roster_and_prefills(table: Table):
    assert table.next_undeclared() == "brann"
    fields = table.prefill("brann", "G")
    assert fields == {"weapon": "long sword", "target": "gob1"}
    table.declare("brann", "G", **fields)
    assert table.next_undeclared("brann") == "zed"
    assert table.prefill("mira", "D")["weapon"] == "short bow"
    assert table.prefill("zed", "D")["spell"] == "sleep"
    assert table.prefill("zed", "A") == {}


def test_a_whole_round_from_declaration_to_bleeding(table: Table):
    for actor in list(table.fight.roster):
        action = "D" if actor in ("zed", "shaman") else "G"
        table.declare(actor, action, **table.prefill(actor, action))
    assert table.next_undeclared() is None
    table.enter_initiative({"party": 4, "goblins": 2})
    assert table.current_beat() == 1
    table.resolve_next()
    out = table.damage("gob1", "1d8+8", source="brann")
    assert [e.TYPE for e in out][:2] == ["roll", "damage"]
    assert table.fight.status["gob1"].hp < 0
    table.condition("zed", "deafened", rounds=2)
    while table.current_beat() is not None:
        table.resolve_next()
    bled = table.next_round()
    assert bled[0].TYPE in ("damage", "round") and table.fight.round == 2
    assert table.prefill("brann", "G")["target"] == "gob1" or table.fight.status["gob1"].dead


def test_real_dice_are_logged_as_real(table: Table):
    table.declare("brann", "G", **table.prefill("brann", "G"))
    table.enter_initiative({"party": 5, "goblins": 1})
    roll, damage = table.damage("gob2", "2d6", dice=[3, 4])[:2]
    assert roll.real and roll.dice == (3, 4) and damage.amount == 7


def test_rolled_initiative_keeps_every_die(table: Table):
    event = table.roll_initiative()[0]
    assert set(event.rolls) == {"party", "goblins"}
    assert event.dice["party"]["total"] == event.rolls["party"]


def test_a_latecomer_joins(table: Table):
    wolf = Combatant("wolf", "Wolf", "goblins", hp=9, max_hp=9, weapons=(Weapon("bite"),))
    table.join(wolf)
    assert "wolf" in table.fight.roster and "wolf" in table.undeclared()


def test_undo_and_redo_through_the_table(table: Table):
    table.declare("brann", "A")
    table.undo()
    assert "brann" in table.undeclared()
    table.redo()
    assert "brann" not in table.undeclared()


def test_declaration_clock_counts_full_six_seconds_and_pauses():
    now = [100.0]
    clock = DeclarationClock(lambda: now[0], every=6)
    clock.start()
    now[0] += 5.9
    assert clock.delay() == 0
    now[0] += 0.2
    assert clock.delay() == 1
    clock.toggle()  # a question to the referee: the clock stops
    now[0] += 60
    assert clock.delay() == 1 and not clock.running
    clock.toggle()
    now[0] += 6
    assert clock.delay() == 2


def test_saves_folder_lists_title_ruleset_round(tmp_path: Path):
    shutil.copyfile(ROOT / "saves" / "demo.toml", tmp_path / "a.toml")
    (tmp_path / "broken.toml").write_text("this is not toml")
    rows = {row["path"].name: row for row in list_saves(tmp_path)}
    assert rows["a.toml"]["title"] == "Goblins at the ford"
    assert rows["a.toml"]["ruleset"] == "demon-idol" and rows["a.toml"]["round"] == 0
    assert "TOML syntax error" in rows["broken.toml"]["problem"]


def test_a_miss_goes_in_the_log(table: Table):
    note = table.miss("brann", "gob1")[0]
    assert note.TYPE == "note" and note.text == "Brann the fighter misses Goblin 1"


def test_an_undo_finds_the_plan_it_had_and_a_new_branch_works_out_its_own(table: Table):
    for actor in list(table.fight.roster):
        action = "D" if actor in ("zed", "shaman") else "G"
        table.declare(actor, action, **table.prefill(actor, action))
    table.enter_initiative({"party": 4, "goblins": 2})
    plan = table.plan()
    assert table.plan() is plan  # the same state: not worked again
    table.resolve_next()  # the same plan revision, but what is done is never marked skipped
    assert table.plan().to_json() == table.fight.plan().to_json()
    table.undo()
    assert table.plan() is plan  # the same events in effect: the same plan, not worked again
    table.undo()  # the initiative: the plan it stood on before is gone
    assert table.fight.plan().to_json() != plan.to_json()
    table.enter_initiative({"party": 1, "goblins": 6})  # another branch, another plan
    fresh = table.fight.at(len(table.fight.log)).plan().to_json()
    assert table.plan().to_json() == fresh != plan.to_json()
    table.undo()
    table.redo()
    assert table.plan().to_json() == fresh


def test_an_undo_takes_back_the_ruleset_state_it_had(tmp_path: Path):
    """What a ruleset worked out for the events in effect (phases' units' rounds) is kept:
    an undo refolds the core's state but takes the ruleset's back as it was, and a new
    branch after it folds its own."""
    path = tmp_path / "phases.toml"
    shutil.copyfile(ROOT / "saves" / "phases.toml", path)
    table = Table(Session.open(path), random.Random(4))
    fight = table.fight
    first = fight.rs
    table.resolve_next()
    after = fight.rs
    actor = table.acting()[0]
    table.command("move", actor, {})
    assert fight.rs is not after
    table.undo()
    assert fight.rs is after  # the very state, with what it had worked out
    assert fight.plan().to_json() == fight.at(len(fight.log)).plan().to_json()
    table.undo()
    assert fight.rs is first
    table.command("move", "grusk", {})  # a new branch: its own state, not an old one kept
    fresh = fight.at(len(fight.log))
    assert fight.rs == fresh.rs and fight.rs is not after
    assert fight.plan().to_json() == fresh.plan().to_json()


def test_an_undone_check_off_brings_back_the_skip_of_one_who_fell(table: Table):
    """A fallen goblin's blow is marked skipped; checked off by name (a save's resolve
    may name it) it is done, not skipped, at the same plan revision. A table that first
    read the plan after the check-off (the app opened again) and then undoes it shows
    the mark again; one that read it before finds the plan it had."""
    for actor in list(table.fight.roster):
        table.declare(actor, "G", **table.prefill(actor, "G"))
    table.enter_initiative({"party": 4, "goblins": 2})
    table.damage("gob1", 9, source="brann")
    for _ in range(3):  # the ogre's first routine, the party, the goblins
        table.resolve_next()
    before = table.plan()
    assert [s["actor"] for s in before.skipped] == ["gob1"]
    revision = table.fight.plan_revision
    table.append([ev.Resolve(round=1, actions=("gob1:G",))])
    assert table.fight.plan_revision == revision
    assert table.plan().skipped == [] == table.fight.plan().skipped
    reopened = Table(table.session, random.Random(4))
    assert reopened.plan().skipped == []
    reopened.undo()
    assert [s["actor"] for s in reopened.plan().skipped] == ["gob1"]
    assert reopened.plan().to_json() == reopened.fight.plan().to_json()
    table.redo()
    assert table.plan().skipped == []
    table.undo()
    assert table.plan() is before


def test_checking_off_beats_and_taking_them_back_works_out_no_plan(table: Table,
                                                                  monkeypatch):
    """Counted, never timed: a check-off of actions the plan holds changes nothing else
    in it, and an undo or a redo finds the plan it had."""
    for actor in list(table.fight.roster):
        table.declare(actor, "G", **table.prefill(actor, "G"))
    table.enter_initiative({"party": 4, "goblins": 2})
    worked = []
    plan = table.fight.plan
    monkeypatch.setattr(table.fight, "plan", lambda *a: worked.append(a) or plan(*a))
    table.plan()
    for _ in range(3):
        table.resolve_next()
        assert table.plan().to_json() == plan().to_json()
    table.undo()
    table.plan()
    table.undo()
    table.plan()
    table.redo()
    assert table.plan().to_json() == plan().to_json()
    assert len(worked) == 1
