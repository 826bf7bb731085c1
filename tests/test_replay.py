"""Replay, state at event N, JSON, and the Markdown export, through the command line."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.cli import main
from referee.engine import Fight, RefereeError
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT


@pytest.fixture
def fought(tmp_path: Path) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    with Session.open(path) as s:
        s.append(di.Declare(round=1, actor="brann", action="G", weapon="long sword",
                            target=("gob1",)))
        s.append(di.Declare(round=1, actor="shaman", action="D", spell="darkness",
                            target=("zed",)))
        s.append(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
        s.append(ev.Resolve(round=1, beat=1))
        s.append(ev.Roll(round=1, expr="1d8", dice=(7,), total=7, purpose="damage",
                         actor="brann"))
        s.append(ev.Damage(round=1, target="gob1", amount=7, source="brann", beat=1))
        s.append(ev.Damage(round=1, target="shaman", amount=2, beat=1))
        s.append(ev.Condition(round=1, target="zed", name="blinded", duration=2))
        s.append(ev.Note(round=1, text="a slip"))
        s.undo()
        s.append(ev.NewRound(round=2))
        s.append(di.Declare(round=2, actor="brann", action="G", target=("ogre",)))
    return path


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_tells_the_whole_log(fought, capsys):
    code, out, err = run(["replay", str(fought)], capsys)
    assert code == 0 and err == ""
    assert "== Round 1 ==" in out and "== Round 2 ==" in out
    assert "initiative: The party 5, Goblins 2" in out
    assert "order of round 1:" in out and "DI-3" in out
    assert "rolls 1d8 for damage: [7] = 7" in out
    assert "Goblin 1 takes 7 damage from Brann the fighter (hp -2/5)" in out
    assert "loses the spell darkness" in out
    assert "Zed the magic-user is blinded for 2 rounds" in out
    assert "undo: takes back event 10" in out


def test_replay_twice_is_byte_identical_and_never_rolls(fought, capsys, monkeypatch):
    def no_dice(*args, **kwargs):
        raise AssertionError("replay rolled a die")

    monkeypatch.setattr(random.Random, "randint", no_dice)
    first = run(["replay", str(fought)], capsys)[1]
    second = run(["replay", str(fought)], capsys)[1]
    assert first == second and first
    assert run(["replay", str(fought), "--json"], capsys)[1] == run(
        ["replay", str(fought), "--json"], capsys)[1]


def test_state_after_event_n(fought, capsys):
    code, out, _ = run(["replay", str(fought), "--to", "6"], capsys)
    assert code == 0 and "after event 6" in out
    goblin = next(line for line in out.splitlines() if line.startswith("Goblin 1"))
    assert "-2/5" in goblin and "dying" in goblin
    code, out, _ = run(["replay", str(fought), "--to", "0"], capsys)
    assert "5/5" in next(line for line in out.splitlines() if line.startswith("Goblin 1"))


def test_state_json_and_bounds(fought, capsys):
    code, out, _ = run(["replay", str(fought), "--to", "9", "--json"], capsys)
    state = json.loads(out)
    zed = next(c for c in state["combatants"] if c["id"] == "zed")
    assert state["after"] == 9 and zed["conditions"] == {"blinded": 2}
    code, _, err = run(["replay", str(fought), "--to", "99"], capsys)
    assert code == 1 and "--to 99: the log has 13 events" in err


def test_replay_json_lists_every_event_with_its_plan(fought, capsys):
    data = json.loads(run(["replay", str(fought), "--json"], capsys)[1])
    assert [e["n"] for e in data["events"]] == list(range(1, 14))
    assert data["events"][0]["event"]["type"] == "declare"
    assert data["rounds"][0]["plan"]["beats"][0]["actions"][0]["actor"] == "brann"


@pytest.mark.parametrize("save", [None, "demo.toml", "count-up.toml", "phases.toml",
                                  "sanctum.toml", "agility-order.toml"])
def test_replay_json_is_written_as_it_is_made_the_same_text(fought, capsys, save):
    """`replay --json` writes its document piece by piece (never held whole): the text
    `json.dumps(replay_json(...), indent=2)` gives, to the byte, for a few saves, and
    with pieces of one item each as with pieces of many."""
    from referee.session import render
    from referee.session.replay import told

    path = fought if save is None else ROOT / "saves" / save
    loaded, story = told(path)
    whole = json.dumps(render.replay_json(story, loaded.fight.log), indent=2) + "\n"
    assert run(["replay", str(path), "--json"], capsys)[1] == whole
    assert "".join(render.replay_json_pieces(story, loaded.fight.log, size=1)) == whole


@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (st.lists(inner) | st.tuples(inner, inner) | st.dictionaries(st.text(), inner)
                   | st.dictionaries(st.integers(), inner)), max_leaves=20),
    st.sampled_from(["", "  ", "    "]))
def test_indented_json_is_the_standard_encoders(value, indent):
    from referee.session.render import indented

    assert indented(value, indent) == json.dumps(value, indent=2).replace("\n", "\n" + indent)


def test_markdown_export_leaves_out_what_was_undone(fought, capsys, tmp_path):
    code, out, _ = run(["export", str(fought), "--markdown"], capsys)
    assert code == 0
    assert out.startswith("# Goblins at the ford")
    assert "## Round 1" in out and "**Order**" in out and "**What happened**" in out
    assert "a slip" not in out and "undo" not in out
    target = tmp_path / "recap.md"
    assert run(["export", str(fought), "--markdown", "-o", str(target)], capsys)[0] == 0
    assert target.read_text() == out


def test_torn_save_replays_with_a_warning(fought, capsys):
    text = fought.read_text()
    fought.write_text(text[: text.rindex('"round" = 2')])
    code, out, err = run(["replay", str(fought)], capsys)
    assert code == 0 and err.startswith("referee: warning:") and "cut short" in err


def test_replay_headings_after_an_undo_across_rounds(tmp_path, capsys):
    """Every line stays, undo lines too, but the headings say where the fight went: back
    into round 2, then round 3 again; each round's order is shown once, the one kept."""
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)

    def a_round(table: Table, target: str) -> None:
        table.declare("brann", "G", weapon="long sword", target=target)
        table.enter_initiative({"party": 5, "goblins": 2})
        table.resolve_next()

    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        a_round(table, "gob1")
        table.next_round()
        a_round(table, "gob2")
        table.next_round()
        a_round(table, "gob3")
        while table.round == 3:
            table.undo()
        table.damage("gob2", 1, source="brann")
        table.next_round()
        a_round(table, "ogre")
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 0
    assert [line for line in out.splitlines() if line.startswith("==")] == [
        "== Round 1 ==", "== Round 2 ==", "== Round 3 ==", "== Back to round 2 ==",
        "== Round 3 again =="]
    assert "undo: takes back" in out and "at Goblin 3" in out  # the full log, undone too
    assert [out.count(f"order of round {n}:") for n in (1, 2, 3)] == [1, 1, 1]
    kept = out.split("== Round 3 again ==")[1]
    assert kept.index("at The ogre") < kept.index("order of round 3:")


def test_a_replay_marks_no_past_round_with_the_current_beat(capsys):
    """Issue 24 C.14: the orders a replay tells are history: no ▶ in them."""
    path = ROOT / "tests" / "scenarios" / "demon-idol" / "di-01-won-initiative.toml"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "order of round 1:" in out and "▶" not in out



def folded_events(monkeypatch: pytest.MonkeyPatch, fight: type[Fight]) -> list[ev.Event]:
    """Each event pushed onto a fight from now on, in order, whether one `push` at a time
    or a loaded log's `extend` (an undo or redo there goes through `push`: once)."""
    pushed: list[ev.Event] = []
    inside: list[bool] = []
    push, extend = fight.push, fight.extend

    def counted(self: Fight, event: ev.Event, checked: bool = False) -> None:
        if not inside:
            pushed.append(event)
        push(self, event, checked)

    def counted_all(self: Fight, events: Iterable[ev.Event]) -> None:
        def each() -> Iterator[ev.Event]:
            for event in events:
                pushed.append(event)
                yield event

        inside.append(True)
        try:
            extend(self, each())
        finally:
            inside.pop()

    monkeypatch.setattr(fight, "push", counted)
    monkeypatch.setattr(fight, "extend", counted_all)
    return pushed


def test_replay_folds_each_event_of_the_log_once(fought, capsys, monkeypatch):
    """`referee replay` tells the log as the load folds it: one fold, as many pushes as
    a load alone makes, not a load's and then a chronicle's; the text is the same as the
    chronicle of the loaded save."""
    from referee.session import render
    from referee.session.files import load_save
    from referee.session.replay import chronicle

    expected = render.replay_text(chronicle(load_save(fought)))
    pushed = folded_events(monkeypatch, Fight)
    log = [e.TYPE for e in load_save(fought).fight.log]
    assert [e.TYPE for e in pushed] == log
    pushed.clear()
    assert main(["replay", str(fought)]) == 0
    assert [e.TYPE for e in pushed] == log
    assert capsys.readouterr().out == expected


def test_replay_plans_each_round_at_most_once(fought, capsys, monkeypatch):
    """A round's order is worked out once as the log is told (at its first resolved beat,
    or its end), however many events it holds; the fold itself plans only to upgrade a
    resolve written by number, once, not again when an undo folds it anew."""
    from referee.engine.fight import Fight
    from referee.session.files import load_save

    log = load_save(fought).fight.log
    rounds = {max(e.round, 1) for e in log}
    told: list[int | None] = []  # the rounds planned to tell them
    upgrades: list[int | None] = []  # ... and to upgrade a resolve
    plan, upgraded = Fight.plan, Fight._upgraded
    upgrading: list[int | None] = []

    def counted(self: Fight, round_: int | None = None) -> object:
        (upgrades if upgrading else told).append(round_)
        return plan(self, round_)

    def counted_upgrade(self: Fight, index: int, e: ev.Resolve) -> object:
        upgrading.append(e.round)
        try:
            return upgraded(self, index, e)
        finally:
            upgrading.pop()

    monkeypatch.setattr(Fight, "plan", counted)
    monkeypatch.setattr(Fight, "_upgraded", counted_upgrade)
    assert main(["replay", str(fought)]) == 0
    assert upgrades == [1]  # the resolve of beat 1, once, though an undo folds it again
    assert told and len(told) == len(set(told)) and set(told) <= rounds


def test_replay_text_in_pieces_is_the_text(fought):
    """`referee replay` writes the text a few lines at a time: the pieces, whatever
    their size, make the text."""
    from referee.session import render
    from referee.session.files import load_save
    from referee.session.replay import chronicle

    story = chronicle(load_save(fought))
    text = render.replay_text(story)
    for size in (1, 2, 7, 10_000):
        pieces = list(render.replay_pieces(story, size))
        assert "".join(pieces) == text
        assert all(piece.endswith("\n") for piece in pieces)


def fight_state(fight: Fight) -> tuple[object, ...]:
    """What a fold leaves: the core's state, the ruleset's, and the log's bookkeeping
    (the plan revisions by where they change, not by their global numbers)."""
    numbered: dict[int, int] = {}
    return (dict(fight.state.__dict__), fight.log, fight.events, fight.positions,
            fight.batches, fight.undone,
            [numbered.setdefault(r, len(numbered)) for r in fight.revisions],
            [count for count, _ in fight.kept_rs])


def test_a_log_extended_at_once_folds_as_pushed_one_event_at_a_time(fought):
    """`Fight.extend` (a load's fold) is `push` of each event: the same state, undo and
    redo included; an illegal event raises what push raises, the events before it kept."""
    from referee.session.files import load_save

    loaded = load_save(fought).fight
    log = list(loaded.log)
    pushed = Fight(loaded.encounter, loaded.ruleset)
    for event in log:
        pushed.push(event)
    extended = Fight(loaded.encounter, loaded.ruleset)
    extended.extend(log)
    assert fight_state(extended) == fight_state(pushed) == fight_state(loaded)
    bad = [*log[:3], ev.Damage(round=2, target="nobody", amount=1), *log[3:]]
    pushed, extended = (Fight(loaded.encounter, loaded.ruleset) for _ in range(2))
    for event in bad[:3]:
        pushed.push(event)
    with pytest.raises(RefereeError) as by_push:
        pushed.push(bad[3])
    with pytest.raises(RefereeError) as by_extend:
        extended.extend(bad)
    assert type(by_extend.value) is type(by_push.value)
    assert str(by_extend.value) == str(by_push.value)
    assert fight_state(extended) == fight_state(pushed)
