"""sanctum's pipeline as a pure simulator: unit tests and hypothesis properties."""

from __future__ import annotations

import random
from collections import defaultdict
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rulesets.sanctum import sim, simulator
from referee.rulesets.sanctum.odds import Setup, one_run, seeds
from tests.acts import act


def roster_of(groups: list[list[dict[str, Any]]], module: ModuleType = sim) -> sim.Roster:
    r: sim.Roster = module.Roster()
    for g, minions in enumerate(groups):
        r.add_group(f"g{g}", f"s{g}", g, g)
        for n, m in enumerate(minions):
            r.add(f"m{g}-{n}", f"g{g}", m["level"], m["armor"], m["hand"], m["missile"],
                  m["quasi"], m["noatk"], m["nodeal"], None)
    return r


minion = st.fixed_dictionaries({
    "level": st.integers(0, 4), "hp": st.integers(1, 8), "armor": st.integers(0, 2),
    "hand": st.tuples(st.integers(0, 2), st.integers(0, 4)),
    "missile": st.tuples(st.integers(0, 2), st.integers(0, 3), st.booleans()),
    "quasi": st.booleans(), "noatk": st.sampled_from([False] * 5 + [True]),
    "nodeal": st.sampled_from([False] * 5 + [True])})
sides = st.lists(st.lists(minion, min_size=1, max_size=5), min_size=2, max_size=2)


def fight(groups: list[list[dict[str, Any]]], seed: int
          ) -> tuple[sim.Roster, list[int], list[Any], list[dict[str, Any]]]:
    roster = roster_of(groups)
    hp = [m["hp"] for g in groups for m in g]
    log: list[dict[str, Any]] = []
    results, _ = sim.run_turn(roster, hp, [("g0", "g1"), ("g1", "g0")], random.Random(seed),
                              log)
    return roster, hp, results, log


@settings(max_examples=150, deadline=None)
@given(sides, st.integers(0, 2**32 - 1))
def test_the_pipeline_keeps_its_invariants_and_logging_draws_nothing_more(
        groups: list[list[dict[str, Any]]], seed: int) -> None:
    """Two properties of the same logged run, over the same drawn sides and seeds (they
    were two tests drawing and fighting them apart; the second held over 100 of its own,
    now over these 150)."""
    roster, hp, results, log = fight(groups, seed)
    pipeline_keeps_its_invariants(groups, roster, results, log)
    logging_draws_nothing_more_and_a_run_is_its_seed(groups, seed, hp, results)


def pipeline_keeps_its_invariants(groups: list[list[dict[str, Any]]], roster: Any,
                                  results: Any, log: list[dict[str, Any]]) -> None:
    start = {roster.ids[i]: m["hp"] for i, m in enumerate(x for g in groups for x in g)}
    # SA-3: never more than 10 rounds; SA-2: the repeat is skipped
    assert results[0][2] <= 10 and results[1] is None
    assert max((s["combat_round"] for s in log if "combat_round" in s), default=0) <= 10
    last = dict(start)
    dead: set[str] = set()
    soaked: dict[tuple[int, str], int] = defaultdict(int)
    dealt: dict[tuple[int, str], int] = defaultdict(int)
    armor = dict(zip(roster.ids, roster.armor, strict=True))
    for step in log:
        if step["type"] != "attack":
            continue
        assert step["attacker"] not in dead  # a killed minion never attacks again
        assert step["victim"] not in dead
        if not step["hit"]:
            continue
        victim = step["victim"]
        assert step["hp"] <= last[victim]  # hit points only fall
        last[victim] = step["hp"]
        key = (step["combat_round"], victim)
        soaked[key] += step["soaked"]
        dealt[key] += step["damage"]
        # SA-5 and SA-9: armor is whole again each round and soaks first
        assert soaked[key] == min(armor[victim], dealt[key])
        assert step["result"] == ("bounced" if step["damage"] == step["soaked"] else
                                  "killed" if step["hp"] <= 0 else "damaged")
        if step["result"] == "killed":
            dead.add(victim)


def logging_draws_nothing_more_and_a_run_is_its_seed(
        groups: list[list[dict[str, Any]]], seed: int, hp: list[int], results: Any) -> None:
    """`fight --seed X` (a logged fight) equals run X of `odds` (no log at all): the
    fight sim.py's, the run the simulator's that `odds` takes (compiled, where built)."""
    quiet = roster_of(groups)
    hp2 = [m["hp"] for g in groups for m in g]
    again, _ = sim.run_turn(quiet, hp2, [("g0", "g1"), ("g1", "g0")], random.Random(seed))
    assert again == results and hp2 == hp
    setup = Setup(roster_of(groups, simulator.sim), [m["hp"] for g in groups for m in g],
                  [("g0", "g1"), ("g1", "g0")], ["s0", "s1"])
    _, left, combats = one_run(setup, seed)
    assert combats[0][1] == results[0][2]
    assert left == (len(results[0][4]), len(results[0][5]))


def test_run_seeds_depend_on_the_seed_alone() -> None:
    assert seeds(5, 10) == seeds(5, 10)[:10] == seeds(5, 20)[:10]
    assert seeds(5, 10) != seeds(6, 10)


def test_precedence_standing_then_age() -> None:
    r = sim.Roster()
    r.add_group("a", "x", 2, 1)  # the other player's, oldest
    r.add_group("b", "y", 1, 9)  # neutral
    r.add_group("c", "z", 1, 3)  # neutral, older
    r.add_group("d", "w", 0, 99)  # the initiative player's
    assert sim.precedence(r, "a", "b")[0] == "b"
    assert sim.precedence(r, "b", "c")[0] == "c"
    assert sim.precedence(r, "a", "d")[0] == "d"


def test_a_round_one_missile_never_goes_below_zero() -> None:
    groups = [[{"level": 1, "hp": 5, "armor": 0, "hand": (0, 0), "missile": (1, 0, False),
                "quasi": False, "noatk": False, "nodeal": False}],
              [{"level": 1, "hp": 5, "armor": 0, "hand": (0, 0), "missile": (0, 0, False),
                "quasi": False, "noatk": False, "nodeal": False}]]
    _, _, _, log = fight(groups, 1)
    hits = [s for s in log if s["type"] == "attack"]
    assert hits[0]["damage"] == 0 and hits[0]["result"] == "bounced"


# The odds' runs (the quiet sink) against `fight`'s (the logging sink), on random rosters of
# three groups with every effect: tests/test_sanctum_pipeline.py.


# -- issue 24: the screen says what is true (C.13), and a fight can end (E.16) ---------------


def demo_fight(pairs: tuple[tuple[str, str], ...]) -> Any:
    """The demo's roster with `pairs` as turn 1's combats, nothing fought."""
    from referee.engine import Fight
    from referee.rulesets.sanctum import events as se
    from referee.session.files import load_save
    from tests.conftest import ROOT

    save = load_save(ROOT / "saves" / "sanctum.toml")
    fought = Fight(save.encounter, save.fight.ruleset)
    fought.enter(se.Combats(round=1, pairs=pairs))
    return fought


def fight_turn(fought: Any) -> None:
    steps, _ = fought.ruleset.fold.pending(fought)
    for step in steps:
        fought.enter(step)


DEMO_PAIRS = (("red-1", "blue-1"), ("blue-1", "wild-1"), ("blue-1", "red-1"),
              ("red-1", "wild-1"))


def test_a_fought_combat_is_done_not_skipped() -> None:
    """C.13: after F, a fought pair's beat is ticked off (its actions resolved), never
    read as skipped; only the repeat pair (SA-2) is skipped."""
    from referee.session import view

    fought = demo_fight(DEMO_PAIRS)
    fight_turn(fought)
    plan = fought.plan()
    rows = view.plan_rows(plan, fought.resolved.get(1, set()))
    beats = [r for r in rows if r.key.isdigit()]
    assert [r.mark for r in beats] == ["✓", "✓", "", "✓"]
    assert [("[skipped]" in r.actions) for r in beats] == [False, False, True, False]
    assert "fought: no minions, 5 rounds" in beats[0].actions
    assert plan.current(fought.resolved[1]) is None


def test_the_status_names_the_turn_once() -> None:
    """C.13: the status line said "round 2 · turn 2"; the turn is named once, by the
    status line (the tracker's `round_text`), and the ruleset's parts say what is left to do."""
    from referee.session import view

    fought = demo_fight(DEMO_PAIRS)
    assert fought.ruleset.tracker.status_parts(fought) == ["0/4 pairs fought · F fights the turn, "
                                                   "O the odds"]
    fight_turn(fought)
    parts = view.status_text(fought, "the crossing").split(" · ")
    assert len([p for p in parts if p.endswith(" 1")]) == 1  # round 1 (a hook: turn 1)
    assert parts[-2:] == ["4/4 pairs fought", "no hostile groups standing: E ends the fight"]
    assert fought.ruleset.tracker.round_text(fought) == "turn 1"


def test_the_pairs_form_offers_only_groups_still_standing() -> None:
    """C.13: blue-1 wiped out in turn 1 is not offered for turn 2."""
    fought = demo_fight((("red-1", "blue-1"),))
    fight_turn(fought)
    assert all(fought.status[cid].dead for cid in ("brute", "sprite", "slinger"))
    form = act(fought, "pairs").form(fought, None)
    assert form is not None
    (pairs,) = form.fields
    assert pairs.default == "red-1 wild-1"
    assert fought.ruleset.tracker.status_parts(fought) == ["1/1 pairs fought · P lists turn 2's"]


def test_an_ended_fight_offers_no_combat() -> None:
    """E.16: the source says nothing of ending a whole fight: the end shows cleanly. The
    pairs not fought are never fought (skipped, none current); F, P and O say so."""
    from referee.engine import events as ev
    from referee.engine.errors import RefereeError
    from referee.rulesets.sanctum import events as se

    fought = demo_fight(DEMO_PAIRS)
    fought.enter(ev.Resolve(round=1, actions=("knight:combat#1",)))  # n: pair 1 fought
    fought.enter(ev.End(round=1, note="a truce"))
    plan = fought.plan()
    assert plan.current(fought.resolved[1]) is None
    assert "never fought" in plan.beats[1].note and all(
        a.flag("skipped") for a in plan.beats[1].actions)
    assert plan.notes == ["the fight is over: its combats not fought never will be"]
    for name in ("fight", "pairs", "odds"):
        assert act(fought, name).allowed(fought, None).startswith("the fight is over")
    with pytest.raises(RefereeError, match="the fight is over"):
        fought.ruleset.fold.pending(fought)  # `referee fight` too
    later = se.Combats(round=2, pairs=(("red-1", "wild-1"),))
    with pytest.raises(RefereeError, match="the fight is over"):
        fought.enter(later)  # nor written by hand
    assert fought.ruleset.tracker.status_parts(fought) == ["1/4 pairs fought"]
