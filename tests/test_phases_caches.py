"""phases keeps what it works out (its units, their rounds, its plans, the tracker's
groups) in the fight's own state, never on the ruleset: fights that share one ruleset
instance (a copy, a checkpoint's refold, a report's worker thread) each see their own
(issue 21)."""

from __future__ import annotations

import copy as copy_module
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.model import Combatant
from referee.engine.options import Grouping
from referee.engine.port import KINDS
from referee.rulesets.phases import events as ph
from referee.rulesets.phases.ruleset import Phases
from referee.rulesets.phases.standing import at_round
from referee.session.files import parse_save

SIDES = ('sides = [{ id = "warband", name = "Warband" }, '
         '{ id = "town", name = "Town", defending = true }]')
TRAITS = {3: '["Heavy"]', 5: '["Uncroaked"]', 6: '["Leadership"]', 8: '["Elite"]'}


def battle(units: int, title: str, shift: int = 0) -> str:
    lines = [f'  {{ id = "u{n}", name = "{title} {n}", side = '
             f'"{"warband" if n < units // 2 else "town"}", hp = 4, '
             f'combat = {(n + shift) % 4}, defense = 3, traits = {TRAITS.get(n, "[]")} }},'
             for n in range(units)]
    half = units // 2
    return "\n".join([
        'format = "referee-save"', "version = 1", 'ruleset = "phases"', f'title = "{title}"',
        "seed = 5", SIDES, "combatants = [", *lines, "]", "events = []",
        '[[squads]]\nid = "band"\nkind = "stack"\nleader = "u0"\nmembers = ["u0", "u1", "u2"]',
        f'[[squads]]\nid = "wall"\nkind = "stack"\nleader = "u{half}"\n'
        f'members = ["u{half}", "u{half + 1}", "u{half + 2}"]',
    ])


MELEE = battle(10, "Unit")
SKIRMISH = battle(8, "Raider", shift=1)  # another roster: other names, other phases


def fight_of(text: str) -> Fight:
    return parse_save(text, Path("battle.toml")).fight


def joiner(cid: str, **stats: Any) -> Combatant:
    return Combatant(id=cid, name=cid.title(), side="warband", hp=4, max_hp=4,
                     stats={"combat": 1, "defense": 2, "traits": (), **stats})


def row_groups(fight: Fight) -> Any:
    grouping = fight.ruleset.role(Grouping)
    assert grouping is not None
    return grouping.row_groups(fight)


def seen(fight: Fight) -> tuple[Any, ...]:
    """All a fight shows that phases works out and keeps: every round's plan, the
    tracker's groups and cells, each unit's facts."""
    rs = fight.ruleset
    return ([fight.plan(r).to_json() for r in range(1, max(fight.round, 1) + 1)],
            dict(row_groups(fight)),
            {cid: rs.tracker.cells(fight, cid) for cid in fight.roster},
            {cid: rs.tracker.facts(fight, cid) for cid in fight.roster})


def fresh(text: str, fight: Fight) -> tuple[Any, ...]:
    """What `fight` should show: its log folded afresh, with a ruleset of its own."""
    again = fight_of(text)
    for event in fight.log:
        again.push(event)
    return seen(again)


# Each fight's events: the same roster taking other turns (A, B), and another roster (C).
# A and B each add a unit, so their rosters are as long: one that carries (PH-18) in A.
Step = Callable[[Fight], ev.Event]
STEPS: dict[str, list[Step]] = {
    "A": [
        lambda f: ph.Use(round=1, phase=3, actor="u3", what="move"),
        lambda f: ev.Join(round=1, combatant=joiner("cart", carried_by=("u3",))),
        lambda f: ph.Regroup(round=1, actor="u7", leave=True),
        lambda f: ph.Condition(round=1, target="u7", name="stun", on=True, phase=3),
        lambda f: ev.NewRound(round=2),
        lambda f: ev.Undo(round=2),
    ],
    "B": [
        lambda f: ph.Use(round=1, phase=3, actor="u7", what="action"),
        lambda f: ev.Join(round=1, combatant=joiner("scout")),
        lambda f: ph.Condition(round=1, target="u0", name="calm", on=True),
        lambda f: ev.Death(round=1, target="u5"),
        lambda f: ev.NewRound(round=2),
        lambda f: ph.Use(round=2, phase=3, actor="u3", what="action"),
    ],
    "C": [
        lambda f: ph.Condition(round=1, target="u1", name="immobilized", on=True),
        lambda f: ph.Use(round=1, phase=3, actor="u2", what="move"),
        lambda f: ev.NewRound(round=2),
        lambda f: ph.Regroup(round=2, actor="u5", leave=True),
        lambda f: ev.Undo(round=2),
        lambda f: ph.Use(round=2, phase=3, actor="u6", what="action"),
    ],
}
TEXTS = {"A": MELEE, "B": MELEE, "C": SKIRMISH}


def shared_fights() -> dict[str, Fight]:
    """A, B and C on one ruleset instance: A and B on the same encounter (the same
    combatant objects), C on another."""
    first = fight_of(MELEE)
    rs = first.ruleset
    other = fight_of(SKIRMISH).encounter
    return {"A": first, "B": Fight(first.encounter, rs), "C": Fight(other, rs)}


def test_fights_sharing_a_ruleset_each_plan_their_own_interleaved() -> None:
    fights = shared_fights()
    assert all(f.ruleset is fights["A"].ruleset for f in fights.values())
    for fight in fights.values():
        fight.plan()
    for number in range(len(STEPS["A"])):
        for name, fight in fights.items():
            fight.enter(STEPS[name][number](fight))
            for other, each in fights.items():  # each one's plan right after the others'
                assert seen(each) == fresh(TEXTS[other], each), (name, number, other)
    assert "u3" in fights["A"].rs.bound and "u3" not in fights["B"].rs.bound  # PH-18
    assert len(fights["A"].roster) == len(fights["B"].roster)


def test_an_undone_join_and_another_in_its_place_are_grouped_afresh() -> None:
    """Within one fight an undo may bring back the same squads with another unit joined:
    the tracker's groups and what binds a unit (PH-18) follow the unit that did."""
    fight = fight_of(MELEE)
    fight.enter(ev.Join(round=1, combatant=joiner("cart", carried_by=("u3",))))
    assert seen(fight) == fresh(MELEE, fight)
    fight.enter(ev.Undo(round=1))
    fight.enter(ev.Join(round=1, combatant=joiner("scout")))
    assert "scout" in row_groups(fight) and "u3" not in fight.rs.bound
    assert seen(fight) == fresh(MELEE, fight)


def test_an_undone_resolve_and_another_as_large_show_where_the_round_is() -> None:
    """A Resolve leaves phases' state as it was: after an undo, another Resolve of as
    many actions is read afresh (the tracker showed the undone one's phase)."""
    fight = fight_of(MELEE)
    fight.plan()
    fight.enter(ev.Resolve(round=1, actions=("u3:move", "u3:action")))
    assert seen(fight) == fresh(MELEE, fight)
    fight.enter(ev.Undo(round=1))
    fight.enter(ev.Resolve(round=1, actions=("u7:move", "u7:action")))
    assert seen(fight) == fresh(MELEE, fight)


def test_the_ruleset_keeps_nothing_of_a_fight() -> None:
    """Planning, the tracker, the log's lines, an undo, a copy, a round ahead: the
    ruleset instance's attributes are the same, each the same object, before and after;
    and so are its roles'."""
    fight = fight_of(MELEE)
    rs = fight.ruleset
    assert isinstance(rs, Phases)
    for kind in KINDS:  # every role made first: each is made the first time it is asked for
        rs.role(kind)
    for name in ("schema", "fold", "planner", "tracker", "damage"):
        getattr(rs, name)
    before = dict(vars(rs))
    roles = {name: dict(vars(role)) for name, role in vars(rs).items()
             if name in ("schema", "fold", "planner", "tracker", "damage")}
    roles.update((type(role).__name__, dict(vars(role))) for role in vars(rs)["_roles"])
    fight.plan()
    for step in STEPS["A"]:
        fight.enter(step(fight))
        seen(fight)
        rs.tracker.status_parts(fight)
        rs.tracker.tell(fight, fight.log[-1])
    at_round(fight, fight.round + 2, rs.direction == "up")
    fight.copy().plan()
    assert vars(rs).keys() == before.keys()
    assert all(vars(rs)[key] is value for key, value in before.items())
    now = {name: dict(vars(role)) for name, role in vars(rs).items()
           if name in ("schema", "fold", "planner", "tracker", "damage")}
    now.update((type(role).__name__, dict(vars(role))) for role in vars(rs)["_roles"])
    assert {name: held.keys() for name, held in now.items()} == {
        name: held.keys() for name, held in roles.items()}
    assert all(now[name][key] is value for name, held in roles.items()
               for key, value in held.items())


def test_a_copy_has_caches_of_its_own_and_a_fight_keeps_one_through_undo() -> None:
    fight = fight_of(MELEE)
    caches = fight.rs.caches
    fight.enter(ph.Use(round=1, phase=3, actor="u3", what="move"))
    fight.plan()
    fight.enter(ev.Undo(round=1))
    assert fight.rs.caches is caches and caches.units and caches.plans
    copy = fight.copy()
    assert copy.rs.caches is not caches
    assert seen(copy) == seen(fight)
    deep = copy_module.deepcopy(fight.rs)  # the fight is not copied with what it kept
    assert deep == fight.rs and not deep.caches.units and not deep.caches.plans


def test_fights_sharing_a_ruleset_in_threads_each_plan_their_own() -> None:
    """A report's worker plans its copy of a fight while the table goes on with the
    fight: the same ruleset instance in several threads, their steps taken in turn."""
    fights = shared_fights()
    want: dict[str, list[tuple[Any, ...]]] = {}
    for name in fights:  # what each should show after each step, worked out beforehand
        alone = fight_of(TEXTS[name])
        want[name] = []
        for step in STEPS[name]:
            alone.enter(step(alone))
            want[name].append(seen(alone))
    turns = threading.Barrier(len(fights), timeout=60)
    failures: list[BaseException] = []

    def play(name: str) -> None:
        fight = fights[name]
        try:
            for number, step in enumerate(STEPS[name]):
                turns.wait()
                fight.enter(step(fight))
                for _ in range(3):
                    assert seen(fight) == want[name][number], (name, number)
        except BaseException as error:  # told to the test's thread
            failures.append(error)
            turns.abort()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the threads switch often, mid-plan
    try:
        threads = [threading.Thread(target=play, args=(name,)) for name in fights]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        sys.setswitchinterval(interval)
    assert not failures, failures
