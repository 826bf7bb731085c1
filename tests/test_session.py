"""Sessions: durable appends, atomic saves, recovery, resume, undo and redo, migration."""

from __future__ import annotations

import errno
import shutil
import tomllib
from pathlib import Path

import pytest

from referee.engine import IllegalEvent
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session import store
from referee.session.files import LoadError, load_save
from referee.session.store import SaveError, Session
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "demo.toml"
SCENARIO = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"


def copy(source: Path, tmp_path: Path, name: str = "fight.toml") -> Path:
    target = tmp_path / name
    shutil.copyfile(source, target)
    return target


def a_round(session: Session) -> None:
    session.append(di.Declare(round=1, actor="brann", action="G", weapon="long sword",
                              target=("gob1",)))
    session.append(di.Declare(round=1, actor="zed", action="D", spell="sleep",
                              target=("shaman",)))
    session.append(di.Declare(round=1, actor="shaman", action="D", spell="darkness",
                              target=("zed",)))
    session.append(di.Initiative(round=1, rolls={"party": 2, "goblins": 5}))


def clock() -> float:
    return 1_800_000_000.0


def test_every_event_is_appended_never_rewritten(tmp_path):
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        before = path.read_bytes()
        session.append(di.Declare(round=1, actor="brann", action="G", target=("gob1",)))
        after = path.read_bytes()
        assert after.startswith(before) and len(after) > len(before)
        session.append(ev.Note(round=1, text="the ford is icy"))
        assert path.read_bytes().startswith(after)


def test_resume_gives_exactly_the_state(tmp_path):
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        a_round(session)
        session.append(ev.Resolve(round=1, beat=1))
        session.append(ev.Damage(round=1, target="shaman", amount=3, beat=1))
        session.append(ev.Condition(round=1, target="gob1", name="asleep", duration=3))
        plan = session.fight.plan().labels()
        status = {k: vars(v) for k, v in session.fight.status.items()}
    again = load_save(path).fight
    assert again.plan().labels() == plan
    assert {k: vars(v) for k, v in again.status.items()} == status
    assert (again.round, again.phase, again.resolved) == (1, "resolution", {1: {"zed:D"}})
    assert again.rs.lost_spells.keys() == {(1, "shaman")}


def test_undo_and_redo_are_in_the_log_and_survive_a_reload(tmp_path):
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        a_round(session)
        pushed = session.append(ev.Damage(round=1, target="gob1", amount=20))
        assert [e.TYPE for e in pushed] == ["damage", "death"]
        assert session.fight.status["gob1"].dead
        session.undo()  # takes back the damage and the death it caused
        assert not session.fight.status["gob1"].dead and session.fight.status["gob1"].hp == 5
        session.redo()
        assert session.fight.status["gob1"].dead
        session.undo()
        session.append(ev.Note(round=1, text="a new event ends the redo"))
        with pytest.raises(IllegalEvent, match="nothing to redo"):
            session.redo()
    again = load_save(path).fight
    assert [e.TYPE for e in again.log][-5:] == ["death", "undo", "redo", "undo", "note"]
    assert not again.status["gob1"].dead


def test_nothing_to_undo_is_refused_and_nothing_written(tmp_path):
    path = copy(DEMO, tmp_path)
    before = path.read_bytes()
    with Session.open(path) as session, pytest.raises(IllegalEvent, match="nothing to undo"):
        session.undo()
    assert path.read_bytes() == before


def test_a_bad_event_changes_nothing(tmp_path):
    path = copy(DEMO, tmp_path)
    before = path.read_bytes()
    with Session.open(path) as session:
        with pytest.raises(Exception, match="unknown"):
            session.append(di.Declare(round=1, actor="nobody", action="G"))
        assert session.fight.log == []
    assert path.read_bytes() == before


def fail_writes(monkeypatch):
    def full(handle, data):
        handle.write(data[: len(data) // 2])
        handle.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(store, "write_bytes", full)


def test_a_full_disk_during_an_append_keeps_the_file_and_the_fight(tmp_path, monkeypatch):
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        session.append(ev.Note(round=1, text="first"))
        before = path.read_bytes()
        fail_writes(monkeypatch)
        with pytest.raises(SaveError, match="No space left on device.*holds everything"):
            session.append(ev.Note(round=1, text="second"))
        assert [e.TYPE for e in session.fight.log] == ["note"]
    assert path.read_bytes() == before
    assert load_save(path).warning == ""


def test_a_full_disk_during_a_full_save_leaves_the_old_file(tmp_path, monkeypatch):
    path = copy(DEMO, tmp_path)
    session = Session.open(path)
    a_round(session)
    before = path.read_bytes()
    fail_writes(monkeypatch)
    with pytest.raises(SaveError, match="old file is intact"):
        session.save_as(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["fight.toml"]  # no temporary left


def test_save_as_and_compaction(tmp_path):
    path = copy(DEMO, tmp_path)
    session = Session.open(path)
    a_round(session)
    session.append(ev.Note(round=1, text="oops"))
    session.undo()
    full = session.save_as(tmp_path / "full.toml")
    assert [e.TYPE for e in load_save(full).fight.log][-2:] == ["note", "undo"]
    small = session.save_as(tmp_path / "small.toml", compact=True)
    fight = load_save(small).fight
    assert "undo" not in [e.TYPE for e in fight.log] and len(fight.log) == 4
    session.append(ev.Note(round=1, text="goes on in the new file"))
    assert load_save(small).fight.log[-1].text == "goes on in the new file"
    session.close()


def test_a_torn_tail_is_dropped_with_a_warning_and_repaired_on_the_next_save(tmp_path):
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        a_round(session)
    whole = path.read_bytes()
    path.write_bytes(whole[: whole.rindex(b"\"round\" = 1")])  # died before the last line
    torn = path.read_bytes()
    session = Session.open(path, clock=clock)
    assert "events[3]" in session.warning and "cut short" in session.warning
    assert len(session.fight.log) == 3
    assert path.read_bytes() == torn  # untouched until the referee saves
    session.append(di.Initiative(round=1, rolls={"party": 2, "goblins": 5}))
    session.close()
    backups = list(tmp_path.glob("fight.toml.damaged-*"))
    assert [b.name for b in backups] == ["fight.toml.damaged-20270115T080000"]
    assert backups[0].read_bytes() == torn
    repaired = load_save(path)
    assert repaired.warning == "" and len(repaired.fight.log) == 4


def test_a_cut_inside_a_value_is_torn_too(tmp_path):
    path = copy(SCENARIO, tmp_path)
    text = path.read_text()
    path.write_text(text[: text.rindex('spell = "sleep"') + 10])
    save = load_save(path)
    assert save.torn_at == 2 and "cut short" in save.warning


def test_an_older_version_loads_through_migration_and_is_kept(tmp_path):
    path = tmp_path / "old.toml"
    path.write_text((ROOT / "tests" / "data" / "version-0.toml").read_text())
    session = Session.open(path)
    assert session.fight.roster["brann"].hp == 14
    assert [e.TYPE for e in session.fight.log] == ["initiative", "declare"]
    session.append(ev.Note(round=1, text="now version 1"))
    session.close()
    assert (tmp_path / "old.toml.version-0").is_file()
    data = tomllib.loads(path.read_text())
    assert data["version"] == 1 and len(data["events"]) == 3


def test_create_a_new_save(tmp_path):
    encounter = load_save(DEMO).encounter
    with Session.create(tmp_path / "new.toml", encounter) as session:
        session.append(ev.Note(round=1, text="hello"))
    assert load_save(tmp_path / "new.toml").encounter == encounter


def test_a_new_roster_with_clashing_ids_is_refused(tmp_path):
    from referee.engine import DuplicateId, UnknownSide
    from referee.engine.record import replace

    path = copy(DEMO, tmp_path)
    session = Session.open(path)
    encounter = session.encounter
    twin = replace(encounter.combatants[0], name="Brann's twin")
    with pytest.raises(DuplicateId, match="duplicate id 'brann'"):
        session.replace_encounter(replace(encounter, combatants=encounter.combatants + (twin,)))
    lost = replace(encounter.combatants[0], id="stray", side="nowhere")
    with pytest.raises(UnknownSide, match="unknown side 'nowhere'"):
        session.replace_encounter(replace(encounter, combatants=encounter.combatants + (lost,)))
    assert load_save(path).encounter == encounter  # nothing written


def test_a_last_event_missing_a_field_past_its_round_line_is_an_error_not_a_cut(tmp_path):
    # its round line (indented, as a hand may write it) was written: the block was not cut
    # short, so nothing is dropped and the fault is named
    path = copy(DEMO, tmp_path)
    with Session.open(path) as session:
        a_round(session)
    path.write_text(path.read_text() + '\n[[events]]\n  "type" = "note"\n  round = 1\n')
    with pytest.raises(LoadError, match="text"):
        load_save(path)
