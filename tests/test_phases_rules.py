"""phases: pure rules, properties (hypothesis), and the app's flows (Pilot)."""

from __future__ import annotations

import contextlib
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.rulesets.phases import events as ph
from referee.session.files import load_save, parse_save
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "phases.toml"
SCEN = ROOT / "tests" / "scenarios" / "phases"


def fight_of(path: Path) -> Fight:
    return load_save(path).fight


def test_the_demo_is_a_siege_ready_for_round_1() -> None:
    fight = fight_of(DEMO)
    rs = fight.ruleset
    assert fight.round == 0 and not fight.log
    kinds = {s.id: s.kind for s in rs.state(fight).squads.values()}
    assert kinds == {"ironfang": "stack", "redcaps": "stack", "dead": "horde", "wall": "stack"}
    assert rs.facts(fight, "aldra")["held"] == ["move", "action"]  # PH-4
    assert rs.facts(fight, "pell")["elevation_defense"] > rs.facts(fight, "pell")["defense"]


def test_a_stun_shows_on_the_tracker_until_it_takes_the_next_move_and_action() -> None:
    """PH-10: stunned in phase 4, a phase-3 unit will lose what it gains in phase 3: its
    row says so (not "@3"), its status and state read stunned, and the log says it; once
    phase 3 has passed, they are lost and the stun is spent."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    fight.enter(ph.Condition(round=1, target="orc1", name="stun", on=True, phase=4))
    cells = rs.cells(fight, "orc1")
    assert (cells["move"].text, cells["action"].text) == ("stun", "stun")
    assert "stunned" in cells["status"].text and rs.state_word(fight, "orc1") == "stunned"
    assert "@3" in (rs.cells(fight, "orc2")["move"].text,)  # a unit not stunned
    from referee.rulesets.phases.views import tell

    assert tell(rs, fight, fight.log[-1]) == "Ironfang 1 is stunned from phase 4 (PH-10)"
    fight.enter(ph.ev.Resolve(round=1, actions=("grusk:move", "grusk:action")))
    orcs = tuple(f"orc{n}:{k}" for n in range(2, 7) for k in ("move", "action"))
    fight.enter(ph.ev.Resolve(round=1, actions=orcs + ("wolf:move", "wolf:action")))
    cells = rs.cells(fight, "orc1")
    assert (cells["move"].text, cells["action"].text) == ("lost", "lost")
    assert rs.state_word(fight, "orc1") == ""


def test_a_use_before_the_phase_and_a_second_action_are_refused() -> None:
    fight = fight_of(SCEN / "ph-01-phases-count-down.toml")
    with pytest.raises(RefereeError, match="phase is 1"):
        fight.push(ph.Use(round=1, phase=3, actor="snik", what="move"))
    fight.push(ph.Use(round=1, phase=3, actor="grub", what="action"))
    with pytest.raises(RefereeError, match="already used its Action"):
        fight.push(ph.Use(round=1, phase=2, actor="grub", what="action"))
    with pytest.raises(RefereeError, match="took its Action"):  # PH-5
        fight.push(ph.Use(round=1, phase=2, actor="grub", what="move"))
    fight.push(ph.Use(round=1, phase=1, actor="snik", what="move"))
    with pytest.raises(RefereeError, match="has passed"):
        fight.push(ph.Use(round=1, phase=3, actor="hale", what="move"))


def test_a_delayed_action_is_used_in_round_2_before_the_units_phase() -> None:
    fight = fight_of(SCEN / "ph-01-phases-count-down.toml")
    fight.push(ph.Use(round=1, phase=1, actor="snik", what="move"))
    fight.push(ph.Delay(round=1, actor="snik", keep=("action",)))
    with pytest.raises(RefereeError, match="delayed its Action"):
        fight.push(ph.Use(round=1, phase=0, actor="snik", what="action"))
    fight.push(ph.Use(round=2, phase=3, actor="snik", what="action"))  # PH-3
    assert fight.ruleset.facts(fight, "snik")["used"] == ["action"]


def test_orders_change_only_at_the_start_of_a_round() -> None:
    fight = fight_of(SCEN / "ph-rule-20-squad-on-delay.toml")
    with pytest.raises(RefereeError, match="holds its Moves"):  # PH-20
        fight.push(ph.Use(round=2, phase=3, actor="grub", what="move"))
    fight.push(ph.Use(round=2, phase=3, actor="hale", what="move"))
    with pytest.raises(RefereeError, match="under way"):
        fight.push(ph.Order(round=2, squad="band", tactic="hold", target="any"))
    fight.push(ph.Order(round=3, squad="band", tactic="hold", target="any"))
    fight.push(ph.Use(round=3, phase=3, actor="grub", what="move"))


def test_bull_rush_dismount_and_subdue_log_every_die() -> None:
    fight = fight_of(DEMO)
    rs = fight.ruleset
    events = rs.run_command(fight, "bull-rush", "grusk", {"target": "aldra", "room": True},
                            random.Random(2))
    assert [e.TYPE for e in events][-1] == "manoeuvre"
    assert any(e.TYPE == "roll" for e in events)
    for event in events:
        fight.push(event)
    assert rs.facts(fight, "grusk")["used"] == ["action"]
    events = rs.run_command(fight, "subdue", "orc1", {"target": "guard1", "damage": 4,
                                                       "dice": "2", "phase": 3}, random.Random(1))
    for event in events:
        fight.push(event)
    assert fight.status["guard1"].marks["fatigue"] == 2  # 1-3: half Fatigue
    events = rs.run_command(fight, "dismount", "guard2", {"target": "wolfrider",
                                                           "helpers": 1, "dice": "6 6 6",
                                                           "phase": 3},
                            random.Random(1))
    # guard2 holds a delayed Action (PH-4): the dismount spends it
    for event in events:
        fight.push(event)
    assert rs.facts(fight, "wolfrider")["mounted"] is False


# -- properties ------------------------------------------------------------------------

UNITS = ["grub", "snik", "hale", "bess"]
step = st.tuples(st.sampled_from(["use", "delay", "stun", "round", "calm"]),
                 st.sampled_from(UNITS), st.sampled_from(["move", "action"]),
                 st.integers(0, 3))


def random_fight(steps: list[tuple[str, str, str, int]]) -> Fight:
    fight = fight_of(SCEN / "ph-02-defenders-start-delayed.toml")
    for kind, who, what, phase in steps:
        round_ = max(fight.round, 1)
        event: ph.ev.Event
        if kind == "use":
            event = ph.Use(round=round_, phase=phase, actor=who, what=what)
        elif kind == "delay":
            event = ph.Delay(round=round_, actor=who, keep=(what,))
        elif kind == "stun":
            event = ph.Condition(round=round_, target=who, name="stun", phase=phase)
        elif kind == "calm":
            event = ph.Condition(round=round_, target=who, name="calm", on=phase % 2 == 0,
                                 phase=phase)
        else:
            event = ph.ev.NewRound(round=round_ + 1)
        with contextlib.suppress(RefereeError):
            fight.enter(event)
    return fight


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=25))
def test_properties_hold_for_any_log(steps: list[tuple[str, str, str, int]]) -> None:
    fight = random_fight(steps)
    rs = fight.ruleset
    for round_ in range(1, max(fight.round, 1) + 1):
        plan = rs.plan(fight, round_)
        gained: dict[str, list[str]] = {}
        for beat in plan.beats:
            for action in beat.actions:
                gained.setdefault(action.actor, []).append(action.action)
            for holder in beat.extra["holding"]:  # never two of one kind
                assert len(holder["delayed"]) == len(set(holder["delayed"]))
        for kinds in gained.values():  # each kind at most once a round
            assert len(kinds) == len(set(kinds))
    again = Fight(fight.encounter, fight.ruleset)  # replay equals the fold
    for event in fight.log:
        again.push(event)
    assert again.rs == fight.rs
    assert rs.plan(again, again.plan_round()).to_json() == rs.plan(
        fight, fight.plan_round()).to_json()


# The plan is kept between events (each unit's share worked out once per run, unchanged
# phases reused): after any log, it must equal a plan worked out from scratch.

UNCROAKED = '["Uncroaked"]'  # stun immune (PH-17)
BATTLE = "\n".join([
    'format = "referee-save"', "version = 1", 'ruleset = "phases"', 'title = "A skirmish"',
    "seed = 5",
    'sides = [{ id = "warband", name = "Warband" }, '
    '{ id = "town", name = "Town", defending = true }]',
    "combatants = [",
    *(f'  {{ id = "u{n}", name = "Unit {n}", side = "{"warband" if n < 6 else "town"}", '
      f'hp = 4, combat = {n % 4}, defense = 3, traits = {UNCROAKED if n == 9 else "[]"} }},'
      for n in range(12)),
    "]",
    "events = []",
    '[[squads]]\nid = "band"\nkind = "stack"\nleader = "u0"\nmembers = ["u0", "u1", "u2"]',
    '[[squads]]\nid = "wall"\nkind = "stack"\nleader = "u6"\nmembers = ["u6", "u7", "u8"]',
])
MEMBERS = [f"u{n}" for n in range(12)]
deed = st.tuples(st.sampled_from(["use", "delay", "stun", "calm", "immobilized", "hurt",
                                  "round", "undo", "order", "regroup", "resolve"]),
                 st.sampled_from(MEMBERS), st.sampled_from(["move", "action"]),
                 st.integers(0, 3), st.booleans())


def deed_event(fight: Fight, kind: str, who: str, what: str, phase: int) -> ph.ev.Event:
    round_ = max(fight.round, 1)
    if kind == "use":
        return ph.Use(round=round_, phase=phase, actor=who, what=what,
                      engaged=phase % 2 == 0)
    if kind == "delay":
        return ph.Delay(round=round_, actor=who, keep=(what,))
    if kind in ("stun", "calm", "immobilized"):
        return ph.Condition(round=round_, target=who, name=kind, on=what == "move",
                            phase=phase if phase < 3 else None)
    if kind == "hurt":
        return ph.ev.Damage(round=round_, target=who, amount=phase + 1)
    if kind == "undo":
        return ph.ev.Undo(round=round_)
    if kind == "order":
        return ph.Order(round=round_ + phase % 2, squad="band" if phase < 2 else "wall",
                        tactic="delay" if what == "move" else "hold", target="any")
    if kind == "regroup":
        return ph.Regroup(round=round_, actor=who, join="wall" if what == "move" else None,
                          leave=what == "action")
    if kind == "resolve":  # the phase it is at (n): the core's state moves, not phases'
        plan = fight.plan()
        now = plan.current(fight.resolved.get(plan.round, set())) or 1
        return ph.ev.Resolve(round=round_, actions=tuple(plan.keys(now)))
    return ph.ev.NewRound(round=round_ + 1)


def fresh_plans(fight: Fight) -> list[dict[str, object]]:
    """The plans of every round so far, from a fresh fold with a fresh ruleset (no cache
    of the fight's can be in it)."""
    again = parse_save(BATTLE, Path("again.toml")).fight
    for event in fight.log:
        again.push(event)
    return [again.plan(r).to_json() for r in range(1, max(again.round, 1) + 1)]


@settings(max_examples=100, deadline=None)
@given(st.lists(deed, max_size=30))
def test_the_kept_plan_equals_a_plan_from_scratch(
        deeds: list[tuple[str, str, str, int, bool]]) -> None:
    fight = parse_save(BATTLE, Path("kept.toml")).fight
    rs = fight.ruleset
    fight.plan()
    for kind, who, what, phase, look in deeds:
        with contextlib.suppress(RefereeError):
            fight.enter(deed_event(fight, kind, who, what, phase))
        if look:  # some events go by unplanned: the kept runs must catch up on all
            kept = [fight.plan(r).to_json() for r in range(1, max(fight.round, 1) + 1)]
            assert kept == fresh_plans(fight)
    kept = [fight.plan(r).to_json() for r in range(1, max(fight.round, 1) + 1)]
    assert kept == fresh_plans(fight)
    assert fight.plan().to_json() == kept[-1]  # marking skipped changed no kept beat
    again = parse_save(BATTLE, Path("again.toml")).fight
    for event in fight.log:
        again.push(event)
    assert [rs.facts(fight, cid) for cid in MEMBERS] == [
        again.ruleset.facts(again, cid) for cid in MEMBERS]
    # the squads the tracker folds by, kept while they stay the same
    assert dict(rs.row_groups(fight)) == dict(again.ruleset.row_groups(again))
    # the tracker's cells, read where the round stands now (kept across undo too)
    assert [rs.cells(fight, cid) for cid in MEMBERS] == [
        again.ruleset.cells(again, cid) for cid in MEMBERS]
    assert [rs.state_word(fight, cid) for cid in MEMBERS] == [
        again.ruleset.state_word(again, cid) for cid in MEMBERS]


# -- the app -------------------------------------------------------------------------------


async def _app(tmp_path: Path, size: tuple[int, int] = (120, 40)):  # type: ignore[no-untyped-def]
    from referee.app import RefereeApp

    path = tmp_path / "phases.toml"
    shutil.copyfile(DEMO, path)
    return path, RefereeApp(path, tmp_path, random.Random(3))


async def test_pilot_a_round_with_squads_a_delay_a_stun_and_a_bull_rush(tmp_path: Path) -> None:
    from referee.app.forms import FormScreen

    path, app = await _app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v")  # Grusk's Move, phase 4
        assert isinstance(pilot.app.screen, FormScreen)
        await pilot.press("enter")
        await pilot.press("d")  # delays its Action into round 2
        screen = pilot.app.screen
        assert isinstance(screen, FormScreen)
        screen.query_one("#f-move").index = 0  # no: keep only the Action
        await pilot.press("enter")
        await pilot.press("n")  # on to phase 3
        await pilot.press("down")
        await pilot.press("s")  # stun Ironfang 1 from this phase
        await pilot.press("enter")
        await pilot.press("down")
        await pilot.press("B")  # Ironfang 2 bull rushes
        await pilot.press("enter")
        await pilot.press("r")  # round 2
        await pilot.pause()
    fight = load_save(path).fight
    types = [e.TYPE for e in fight.log]
    assert "delay" in types and "condition" in types and "manoeuvre" in types
    assert fight.round == 2
    assert fight.ruleset.facts(fight, "grusk")["held"] == ["action"]
    # stunned in its own phase: the Move and Action it had just gained are lost (PH-10)
    stunned = next(e.target for e in fight.log if e.TYPE == "condition")
    assert set(fight.ruleset.runs(fight, 1)[stunned].lost) == {"move", "action"}


async def test_the_tracker_folds_and_unfolds_by_squad(tmp_path: Path) -> None:
    import random
    import shutil

    from referee.app import RefereeApp
    from referee.app.widgets import Tracker

    path = tmp_path / "siege.toml"
    shutil.copyfile(ROOT / "saves" / "phases.toml", path)
    async with RefereeApp(path, tmp_path, random.Random(1)).run_test(size=(120, 40)) as pilot:
        tracker = pilot.app.screen.query_one(Tracker)
        fight = pilot.app.table.fight
        squads = {fight.ruleset.row_group(fight, cid) for cid in fight.roster} - {None}
        loose = [cid for cid in fight.roster if fight.ruleset.row_group(fight, cid) is None]
        assert len(tracker.keys) == len(fight.roster) + len(squads)
        tracker.focus()
        await pilot.press("Z")
        assert len(tracker.keys) == len(squads) + len(loose)
        tracker.cursor = 0
        await pilot.press("space")
        first = tracker.keys[0]
        assert first.startswith("group:") and len(tracker.keys) > len(squads) + len(loose)
        assert pilot.app.screen.selected() is None  # a heading is nobody
        await pilot.press("Z")  # not all folded: folds them all
        assert len(tracker.keys) == len(squads) + len(loose)
        await pilot.press("Z")  # all folded: unfolds them all
        assert len(tracker.keys) == len(fight.roster) + len(squads)


def test_a_bull_rush_takes_real_dice() -> None:
    fight = fight_of(DEMO)
    events = fight.ruleset.run_command(fight, "bull-rush", "grusk",
                                       {"target": "aldra", "room": True, "dice": "6 6; 1 1"},
                                       random.Random(2))
    rolls = [e for e in events if e.TYPE == "roll"]
    assert [list(r.dice) for r in rolls][:2] == [[6, 6], [1, 1]] and all(r.real for r in rolls[:2])
    assert events[-1].success


def test_a_delay_with_nothing_left_to_keep_is_refused_in_plain_words() -> None:
    """PH-3: a unit that has used its Move and its Action has nothing to delay; the key
    says so rather than naming the event's field."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    assert rs.can_run(fight, "delay", "grusk") == ""
    fight.enter(ph.Use(round=1, phase=4, actor="grusk", what="move"))
    fight.enter(ph.Use(round=1, phase=4, actor="grusk", what="action"))
    assert rs.can_run(fight, "delay", "grusk") == (
        "Grusk the Warchief has no Move or Action left to keep this round (PH-3)")
