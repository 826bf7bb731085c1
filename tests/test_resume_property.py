"""Properties of sessions: resume = the state, replay = the state, save -> load = identity."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import RefereeError
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save
from referee.session.store import Session
from referee.session.writer import save_text
from tests.conftest import ROOT

IDS = ["brann", "zed", "mira", "odo", "gob1", "gob2", "gob3", "ogre", "shaman"]

operations = st.lists(st.one_of(
    st.tuples(st.just("declare"), st.sampled_from(IDS), st.sampled_from("ABCDEFG"),
              st.sampled_from(IDS)),
    st.tuples(st.just("initiative"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.just("damage"), st.sampled_from(IDS), st.integers(0, 25)),
    st.tuples(st.just("heal"), st.sampled_from(IDS), st.integers(0, 5)),
    st.tuples(st.just("condition"), st.sampled_from(IDS), st.integers(1, 3)),
    st.tuples(st.just("resolve"), st.integers(1, 6)),
    st.tuples(st.just("undo"),),
    st.tuples(st.just("redo"),),
    st.tuples(st.just("round"),),
), max_size=30)


def event_for(op: tuple, round_: int) -> ev.Event:
    kind = op[0]
    r = max(round_, 1)
    if kind == "declare":
        return di.Declare(round=r, actor=op[1], action=op[2], target=(op[3],))
    if kind == "initiative":
        return di.Initiative(round=r, rolls={"party": op[1], "goblins": op[2]})
    if kind == "damage":
        return ev.Damage(round=r, target=op[1], amount=op[2])
    if kind == "heal":
        return ev.Heal(round=r, target=op[1], amount=op[2])
    if kind == "condition":
        return ev.Condition(round=r, target=op[1], name="stunned", duration=op[2])
    if kind == "resolve":
        return ev.Resolve(round=r, beat=op[1])
    if kind == "undo":
        return ev.Undo(round=r)
    if kind == "redo":
        return ev.Redo(round=r)
    return ev.NewRound(round=r + 1)


def snapshot(fight) -> tuple:
    try:
        plan = fight.plan().labels()
    except RefereeError as error:
        plan = str(error)
    return (fight.round, fight.phase, fight.ended, plan,
            {k: vars(v) for k, v in fight.status.items()},
            sorted(fight.rs.lost_spells), dict(fight.resolved))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations)
def test_resume_replay_and_rewrite_give_the_same_fight(tmp_path: Path, ops):
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    with Session.open(path) as session:
        for op in ops:
            with contextlib.suppress(RefereeError):  # a refused event changes nothing
                session.append(event_for(op, session.fight.round))
        live = snapshot(session.fight)
        log = list(session.fight.log)
    resumed = load_save(path)
    assert resumed.fight.log == log
    assert snapshot(resumed.fight) == live
    assert snapshot(resumed.fight.at(len(log))) == live
    again = tmp_path / "again.toml"
    again.write_text(save_text(resumed.encounter, resumed.fight.log))
    assert load_save(again).fight.log == log
