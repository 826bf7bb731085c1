"""phases: pure rules, properties (hypothesis), and the app's flows (Pilot)."""

from __future__ import annotations

import contextlib
import functools
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.model import Encounter
from referee.engine.options import Grouping
from referee.engine.port import Ruleset
from referee.rulesets import ruleset_class
from referee.rulesets.phases import events as ph
from referee.rulesets.phases.standing import runs, statuses
from referee.session.files import builtin_rulesets, load_save, parse_save, parse_toml
from tests.acts import act
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "phases.toml"
SCEN = ROOT / "tests" / "scenarios" / "phases"


def fight_of(path: Path) -> Fight:
    return load_save(path).fight


def grouping(fight: Fight) -> Grouping[object]:
    found = fight.ruleset.role(Grouping)
    assert found is not None
    return found


def events_of(fight: Fight, name: str, actor: str, values: dict[str, object],
              rng: random.Random) -> list[ev.Event]:
    """The events of the act `name` done by `actor` (nothing entered)."""
    run = act(fight, name).run
    assert run is not None
    return run(fight, actor, values, rng)


def test_the_demo_is_a_siege_ready_for_round_1() -> None:
    fight = fight_of(DEMO)
    rs = fight.ruleset
    assert fight.round == 0 and not fight.log
    kinds = {s.id: s.kind for s in rs.fold.state(fight).squads.values()}
    assert kinds == {"ironfang": "stack", "redcaps": "stack", "dead": "horde", "wall": "stack"}
    assert rs.tracker.facts(fight, "aldra")["held"] == ["move", "action"]  # PH-4
    assert rs.tracker.facts(fight, "pell")["elevation_defense"] > rs.tracker.facts(
        fight, "pell")["defense"]


def test_a_stun_shows_on_the_tracker_until_it_takes_the_next_move_and_action() -> None:
    """PH-10: stunned in phase 4, a phase-3 unit will lose what it gains in phase 3: its
    row says so (not "@3"), its status and state read stunned, and the log says it; once
    phase 3 has passed, they are lost and the stun is spent."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    fight.enter(ph.Condition(round=1, target="orc1", name="stun", on=True, phase=4))
    cells = rs.tracker.cells(fight, "orc1")
    assert (cells["move"].text, cells["action"].text) == ("stun", "stun")
    assert "stunned" in cells["status"].text
    assert rs.tracker.state_word(fight, "orc1") == "stunned"
    assert "@3" in (rs.tracker.cells(fight, "orc2")["move"].text,)  # a unit not stunned
    assert rs.tracker.tell(fight, fight.log[-1]) == "Ironfang 1 is stunned from phase 4 (PH-10)"
    fight.enter(ph.ev.Resolve(round=1, actions=("grusk:move", "grusk:action")))
    orcs = tuple(f"orc{n}:{k}" for n in range(2, 7) for k in ("move", "action"))
    fight.enter(ph.ev.Resolve(round=1, actions=orcs + ("wolf:move", "wolf:action")))
    cells = rs.tracker.cells(fight, "orc1")
    assert (cells["move"].text, cells["action"].text) == ("lost", "lost")
    assert rs.tracker.state_word(fight, "orc1") == ""


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
    assert fight.ruleset.tracker.facts(fight, "snik")["used"] == ["action"]


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
    events = events_of(fight, "bull-rush", "grusk", {"target": "aldra", "room": True},
                       random.Random(2))
    assert [e.TYPE for e in events][-1] == "manoeuvre"
    assert any(e.TYPE == "roll" for e in events)
    for event in events:
        fight.push(event)
    assert rs.tracker.facts(fight, "grusk")["used"] == ["action"]
    events = events_of(fight, "subdue", "orc1", {"target": "guard1", "damage": 4,
                                                 "dice": "2", "phase": 3}, random.Random(1))
    for event in events:
        fight.push(event)
    assert fight.status["guard1"].marks["fatigue"] == 2  # 1-3: half Fatigue
    events = events_of(fight, "dismount", "guard2", {"target": "wolfrider",
                                                     "helpers": 1, "dice": "6 6 6",
                                                     "phase": 3},
                       random.Random(1))
    # guard2 holds a delayed Action (PH-4): the dismount spends it
    for event in events:
        fight.push(event)
    assert rs.tracker.facts(fight, "wolfrider")["mounted"] is False


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
        plan = rs.planner.plan(fight, round_)
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
    assert rs.planner.plan(again, again.plan_round()).to_json() == rs.planner.plan(
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


@functools.cache
def battle() -> tuple[Encounter, type[Ruleset[Any]], str]:
    """BATTLE's encounter, read once (frozen: shared by the fresh fights alone, never
    the fight under test), its ruleset's class and its ruleset's file."""
    return (parse_save(BATTLE, Path("again.toml")).encounter, ruleset_class("phases"),
            builtin_rulesets()["phases"].read_text(encoding="utf-8"))


def fresh() -> Fight:
    """A fight of BATTLE (it has no events) with a ruleset made anew from its file: no
    cache of another fight's can be in it."""
    encounter, cls, text = battle()
    return Fight(encounter, cls(parse_toml(text, "phases.toml")))


def fresh_plans(fight: Fight) -> list[dict[str, object]]:
    """The plans of every round so far, from a fresh fold with a fresh ruleset (no cache
    of the fight's can be in it)."""
    again = fresh()
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
    again = fresh()
    for event in fight.log:
        again.push(event)
    assert [rs.tracker.facts(fight, cid) for cid in MEMBERS] == [
        again.ruleset.tracker.facts(again, cid) for cid in MEMBERS]
    # the squads the tracker folds by, kept while they stay the same
    assert dict(grouping(fight).row_groups(fight)) == dict(grouping(again).row_groups(again))
    # the tracker's cells, read where the round stands now (kept across undo too)
    assert [rs.tracker.cells(fight, cid) for cid in MEMBERS] == [
        again.ruleset.tracker.cells(again, cid) for cid in MEMBERS]
    assert [rs.tracker.state_word(fight, cid) for cid in MEMBERS] == [
        again.ruleset.tracker.state_word(again, cid) for cid in MEMBERS]


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
    assert fight.ruleset.tracker.facts(fight, "grusk")["held"] == ["action"]
    # stunned in its own phase: the Move and Action it had just gained are lost (PH-10)
    stunned = next(e.target for e in fight.log if e.TYPE == "condition")
    assert set(runs(fight, 1, False)[stunned].lost) == {"move", "action"}


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
        squads = {grouping(fight).row_group(fight, cid) for cid in fight.roster} - {None}
        loose = [cid for cid in fight.roster if grouping(fight).row_group(fight, cid) is None]
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
    events = events_of(fight, "bull-rush", "grusk",
                       {"target": "aldra", "room": True, "dice": "6 6; 1 1"},
                       random.Random(2))
    rolls = [e for e in events if e.TYPE == "roll"]
    assert [list(r.dice) for r in rolls][:2] == [[6, 6], [1, 1]] and all(r.real for r in rolls[:2])
    assert events[-1].success


def test_a_delay_with_nothing_left_to_keep_is_refused_in_plain_words() -> None:
    """PH-3: a unit that has used its Move and its Action has nothing to delay; the key
    says so rather than naming the event's field."""
    fight = fight_of(DEMO)
    assert act(fight, "delay").allowed(fight, "grusk") == ""
    fight.enter(ph.Use(round=1, phase=4, actor="grusk", what="move"))
    fight.enter(ph.Use(round=1, phase=4, actor="grusk", what="action"))
    assert act(fight, "delay").allowed(fight, "grusk") == (
        "Grusk the Warchief has no Move or Action left to keep this round (PH-3)")


# -- issue 24: what the table expects ------------------------------------------------------


def test_a_stunned_holder_holds_as_its_phase_began_and_not_after() -> None:
    """Issue 30 A4, PH-10, FORMAT (`holding`: as that phase begins): a stun in phase 4
    takes the delayed Move and Action Captain Aldra holds; phase 4 began with her holding
    them, so it lists her (its why says what was lost), and the later phases do not."""
    fight = fight_of(DEMO)
    before = fight.plan().beats[0]
    assert "aldra" in [h["actor"] for h in before.extra["holding"]]
    fight.enter(ph.Condition(round=1, target="aldra", name="stun", on=True, phase=4))
    beat, later = fight.plan().beats[:2]
    holding = [h["actor"] for h in beat.extra["holding"]]
    assert "aldra" in holding and beat.note == f"{len(holding)} holding"
    assert "Captain Aldra is stunned: loses the delayed Move and Action it held" in beat.why
    assert [h["actor"] for h in later.extra["holding"]] == [
        a for a in holding if a != "aldra"]
    assert not any("holding delayed:" in why and "Captain Aldra" in why for why in later.why)


def test_a_holder_stunned_before_its_phase_will_gain_there() -> None:
    """PH-10: the stun took what Wall guard 1 held instead of its next Move and Action,
    so it gains both on its phase: the tracker says @3, not lost."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    fight.enter(ph.Condition(round=1, target="guard1", name="stun", on=True, phase=4))
    cells = rs.tracker.cells(fight, "guard1")
    assert (cells["move"].text, cells["action"].text) == ("@3", "@3")
    beat = fight.plan().beats[1]  # phase 3
    assert {("guard1", "move"), ("guard1", "action")} <= {
        (a.actor, a.action) for a in beat.actions}


def test_an_immobilized_holder_keeps_only_its_delayed_action() -> None:
    """PH-10: immobilized in phase 4 loses delayed Moves: phase 4 lists it holding what
    it held as it began, the next phase its Action only."""
    fight = fight_of(DEMO)
    fight.enter(ph.Condition(round=1, target="aldra", name="immobilized", on=True, phase=4))
    beat, later = fight.plan().beats[:2]
    assert {"actor": "aldra", "delayed": ["move", "action"]} in beat.extra["holding"]
    assert "Captain Aldra is immobilized: loses the delayed Move it held" in beat.why
    assert {"actor": "aldra", "delayed": ["action"]} in later.extra["holding"]


def test_the_log_names_units_as_the_screen_does() -> None:
    """C.14: a phase resolved, a bull rush, a dismount, a subdue and a wake are told with
    the units' names; the events keep their ids (the save's contract)."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    fight.enter(ph.ev.Resolve(round=1, actions=("grusk:move", "grusk:action")))
    assert rs.tracker.tell(fight, fight.log[-1]) == (
        "phase 4 resolved: the Move and Action of Grusk the Warchief")
    told = []
    for command, actor, values in (
            ("bull-rush", "grusk", {"target": "aldra", "dice": "6 6; 1 1"}),
            ("dismount", "guard2", {"target": "wolfrider", "dice": "6 6", "phase": 3}),
            ("subdue", "orc1", {"target": "guard1", "damage": 4, "dice": "2", "phase": 3})):
        for event in events_of(fight, command, actor, values, random.Random(1)):
            told.append(rs.tracker.tell(fight, event) or ph.ev.Roll.__name__ + ":" + str(
                getattr(event, "purpose", "")))
            fight.enter(event)
    text = " | ".join(told)
    for cid in ("grusk", "aldra", "guard2", "wolfrider", "orc1", "guard1"):
        assert f" {cid} " not in f" {text} ".replace(",", " ").replace(":", " "), (cid, text)
    assert "bull rush against Captain Aldra (PH-13)" in text
    assert "Grusk the Warchief's bull rush against Captain Aldra succeeds" in text
    assert "Wolf rider dismounted" in text and "subdue of Wall guard 1 (PH-14)" in text
    manoeuvre = next(e for e in fight.log if isinstance(e, ph.Manoeuvre))
    assert (manoeuvre.actor, manoeuvre.target) == ("grusk", ("aldra",))  # ids kept


def test_a_wake_and_a_refused_regroup_name_the_units() -> None:
    fight = fight_of(DEMO)
    fight.enter(ph.Condition(round=1, target="orc2", name="calm", on=True, phase=4))
    events = events_of(fight, "wake", "orc1", {"target": "orc2", "phase": 3},
                       random.Random(1))
    assert events[0].note == "wakes Ironfang 2 (PH-10)"
    with pytest.raises(RefereeError, match="Ironfang 1 is already in squad ironfang"):
        fight.enter(ph.Regroup(round=1, actor="orc1", join="ironfang", phase=3))
    with pytest.raises(RefereeError, match="Ironfang 3 is not a Command Unit"):
        fight.enter(ph.Regroup(round=1, actor="orc1", leader="orc3", phase=3))


def test_a_hit_marked_fatigue_is_entered_as_fatigue(tmp_path: Path) -> None:
    """PH-14: the hit form's Fatigue answer reaches the ruleset: the hit is phases' own
    damage with fatigue, Fatigue not Hits, in one undoable act; normal damage then turns
    the Fatigue into lost Hits, and the log says so."""
    from referee.session.store import Session
    from referee.session.table import Table

    path = tmp_path / "siege.toml"
    shutil.copyfile(DEMO, path)
    with Session.open(path) as session:
        table = Table(session, random.Random(2))
        table.told()
        made = table.damage("aldra", 3, source="grusk", values={"fatigue": True})
        assert [type(e) for e in made] == [ph.Damage] and made[0].fatigue
        status = table.fight.status["aldra"]
        assert (status.hp, status.marks["fatigue"]) == (12, 3)
        assert table.told()[-1].text == (
            "Captain Aldra takes 3 Fatigue from Grusk the Warchief (PH-14)")
        table.undo()
        assert (status.hp, table.fight.status["aldra"].marks["fatigue"]) == (12, 0)
        table.redo()
        table.damage("aldra", 4, source="grusk", values={"fatigue": False})
        status = table.fight.status["aldra"]
        assert (status.hp, status.marks["fatigue"]) == (5, 0)
        assert table.told()[-1].text.startswith(
            "Captain Aldra takes 4 damage from Grusk the Warchief (hp 5/12): its 3 Fatigue "
            "turns to lost Hits (PH-14)")
    saved = load_save(path).fight  # written as phases' damage, read back the same
    assert [getattr(e, "fatigue", None) for e in saved.log if e.TYPE == "damage"] == [
        True, False]
    assert saved.status["aldra"].hp == 5


def test_a_fatigue_hit_after_a_subdue_is_held_to_its_d6(tmp_path: Path) -> None:
    """The Fatigue answer goes through phases' outcome checks: after a subdue whose d6
    was a 6 (full normal damage), a hit marked Fatigue is refused, naming the die."""
    from referee.engine.dice import from_values
    from referee.engine.port import roll_event
    from referee.session.store import Session
    from referee.session.table import Table

    path = tmp_path / "siege.toml"
    shutil.copyfile(DEMO, path)
    with Session.open(path) as session:
        table = Table(session, random.Random(2))
        d6 = roll_event(1, from_values("1d6", [6]), "subdue of Wall guard 1 (PH-14)", "orc1")
        table.append([d6, ph.Manoeuvre(round=1, kind="subdue", actor="orc1",
                                       target=("guard1",), success=True, phase=3, damage=4)])
        with pytest.raises(RefereeError, match="the d6 6 says false"):
            table.damage("guard1", 4, source="orc1", values={"fatigue": True})
        table.damage("guard1", 4, source="orc1", values={"fatigue": False})
        assert table.fight.status["guard1"].hp == 3


def test_a_subdue_breaks_the_calm_as_any_attack_does() -> None:
    """PH-10: any attack breaks the Calm; a subdue (Fatigue, PH-14) is an attack."""
    fight = fight_of(DEMO)
    fight.enter(ph.Condition(round=1, target="guard1", name="calm", on=True))
    added = fight.enter(ph.Damage(round=1, target="guard1", amount=1, source="orc1",
                                  fatigue=True))
    assert [(e.TYPE, getattr(e, "on", None)) for e in added][1:] == [("condition", False)]
    assert "calm" not in statuses(fight, "guard1")


def test_the_action_form_takes_a_note_for_the_log() -> None:
    """B.17: the Action's note goes on its `use` event and into its log line."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    form = act(fight, "action").form(fight, "grusk")
    assert form is not None and "note" in [f.name for f in form.fields]
    event = events_of(fight, "action", "grusk", {"phase": 4, "note": " hews at Aldra "},
                      random.Random(1))[0]
    assert event.note == "hews at Aldra"
    assert rs.tracker.tell(fight, event) == (
        "Grusk the Warchief takes its Action in phase 4: hews at Aldra")
    assert events_of(fight, "action", "grusk", {"phase": 4}, random.Random(1))[0].note \
        is None


def test_the_end_of_the_fight_by_phases_rules() -> None:
    """E.16: the end is told with how each side stands and what lapses (PH-10, PH-3);
    the tracker shows nothing held or to come, the plan no current beat and no phase
    after the end holding anything; phases' own events that move the fight on are
    refused; an undo reopens it as it was."""
    fight = fight_of(DEMO)
    rs = fight.ruleset
    fight.enter(ph.Use(round=1, phase=4, actor="grusk", what="action"))
    fight.enter(ph.Damage(round=1, target="orc1", amount=20))
    end = ph.ev.End(round=1, note="the warband falls back")
    assert rs.tracker.tell(fight, end) == (
        "the fight is over: the warband falls back — Ironfang warband: 24 of 25 standing, "
        "1 croaked; Harrowgate: 8 of 8 standing; the delayed Moves and Actions of 8 units "
        "lapse (PH-3)")
    fight.enter(end)
    assert fight.ended and rs.tracker.status_parts(fight) == ["4 squads"]
    assert {rs.tracker.cells(fight, cid)["move"].text
            for cid in ("aldra", "orc2", "dead1")} == {"—"}
    assert rs.tracker.cells(fight, "grusk")["action"].text == "used"
    plan = fight.plan()
    assert plan.current(fight.resolved.get(1, set())) is None
    assert all(not beat.extra["holding"] for beat in plan.beats[1:])
    assert plan.notes[-1] == "the fight is over (round 1, phase 4)"
    assert "the fight ended in phase 4: nothing more is gained or held (PH-3)" in \
        plan.beats[1].why
    assert not any("gain" in why and "on base Combat" in why for why in plan.beats[1].why)
    assert act(fight, "move").allowed(fight, "orc2").startswith("the fight is over")
    with pytest.raises(RefereeError, match="the fight is over"):
        fight.enter(ph.Use(round=1, phase=3, actor="orc2", what="move"))
    fight.enter(ph.ev.Undo(round=1))
    assert not fight.ended and rs.fold.state(fight).over == 0
    assert fight.plan().current(fight.resolved.get(1, set())) == 1
    assert rs.tracker.cells(fight, "orc2")["move"].text == "@3"


def test_a_side_whose_last_uncroaked_decays_at_the_end_surrenders() -> None:
    """PH-10, PH-17: the closing round's decay croaks the only Uncroaked unit that kept a
    calm side from surrendering; the end's rules add the surrender in the same act."""
    fight = fight_of(SCEN / "ph-01-phases-count-down.toml")
    rs = fight.ruleset
    sides = {c.side for c in fight.roster.values()}
    side = next(iter(sorted(sides)))
    units = [cid for cid, c in fight.roster.items() if c.side == side]
    dead, rest = units[0], units[1:]
    fight.roster[dead].stats["traits"] = ["Uncroaked"]
    for cid in rest:
        fight.enter(ph.Condition(round=1, target=cid, name="calm", on=True))
    fight.enter(ph.Damage(round=1, target=dead, amount=fight.status[dead].hp - 1))
    assert not rs.fold.state(fight).surrendered
    added = fight.enter(ph.ev.End(round=1))
    assert [e.TYPE for e in added] == ["decay", "end", "surrender"]
    assert rs.fold.state(fight).surrendered == (side,)
