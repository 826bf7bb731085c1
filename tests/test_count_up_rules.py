"""count-up rules over the state: CU-1, CU-2, CU-6 ... CU-10."""

from __future__ import annotations

import random

from referee.engine import Combatant, Encounter, Fight, Side, Weapon
from referee.engine import events as ev
from referee.rulesets.count_up import events as cu
from referee.session.files import load_ruleset

RULESET = load_ruleset("count-up")


def encounter() -> Encounter:
    sides = (Side("party", "Party", players=True), Side("monsters", "Monsters"))
    sword = (Weapon("sword", damage="1d8",
                    stats={"speed": 5, "critical": 3, "damage_type": "blunt"}),)
    wolf = {"group": "wolves", "insight": 1, "hd": 2}
    return Encounter("count-up", "test", 1, sides, (
        Combatant("brann", "Brann", "party", hp=12, max_hp=12, weapons=sword,
                  stats={"stress": 6, "strength": 12}),
        Combatant("w1", "Wolf 1", "monsters", hp=8, max_hp=8, stats=wolf),
        Combatant("w2", "Wolf 2", "monsters", hp=8, max_hp=8, stats=wolf),
    ))


def fight() -> Fight:
    f = Fight(encounter(), RULESET)
    f.push(cu.Initiative(round=1, base={"brann": 3, "wolves": 6}))
    return f


def test_shared_roll_for_a_group():
    f = fight()
    assert RULESET.base(f) == {"brann": 3, "w1": 6, "w2": 6}


def test_rolled_initiative_is_d12_minus_agility_once_per_group():
    f = Fight(encounter(), RULESET)
    event = RULESET.roll_initiative(f, random.Random(2))[0]
    assert set(event.base) == {"brann", "wolves"}
    assert all(1 <= v <= 12 for v in event.base.values())


def test_stress_first_then_wound_points():
    f = fight()
    f.push(ev.Damage(round=1, target="brann", amount=8))
    status = f.status["brann"]
    assert (status.marks["stress"], status.marks["wounds"]) == (0, 10)


def test_critical_bypasses_stress():
    f = fight()
    amount = RULESET.critical_damage(4, 3)
    f.push(ev.Damage(round=1, target="brann", amount=amount, critical=True))
    assert (f.status["brann"].marks["stress"], f.status["brann"].marks["wounds"]) == (6, 0)
    assert RULESET.condition(f.roster["brann"], f.status["brann"]) == "incapacitated"


def test_dying_loses_a_wound_point_each_round_and_dies_at_minus_strength():
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=15, critical=True))  # -7, strength 10
    assert RULESET.condition(f.roster["w1"], f.status["w1"]) == "dying"
    out = RULESET.end_of_round(f)
    assert [(type(e), e.target) for e in out] == [(ev.Damage, "w1")]
    f.push(ev.Damage(round=1, target="w1", amount=2, critical=True))  # -9
    out = RULESET.end_of_round(f)
    assert [type(e) for e in out] == [ev.Damage, ev.Death]


def test_stabilised_creatures_stop_losing_wound_points():
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=10, critical=True))
    f.push(ev.Heal(round=1, target="w1", amount=0, stabilize=True))
    assert RULESET.end_of_round(f) == []
    assert RULESET.stabilize_tn(10) == 20


def test_death_at_minus_strength_after_damage():
    f = fight()
    hit = ev.Damage(round=1, target="w2", amount=18, critical=True)
    f.push(hit)
    assert [type(e) for e in RULESET.after(f, hit)] == [ev.Death]


def test_morale_formula():
    f = fight()
    check = RULESET.morale_check(f, "w1", roll=7)
    # 7 + Insight 1 + HD 2 + 1 ally = 11 against 11 + 1 opponent
    assert (check.total, check.tn, check.passed) == (11, 12, False)
    assert "CU-6" in check.explain()
    assert RULESET.morale_check(f, "w1", roll=7, intimidation=10).passed


def test_morale_roll_is_logged_with_its_dice():
    f = fight()
    out = RULESET.roll_morale(f, "w1", random.Random(1))
    roll, morale = out
    assert isinstance(roll, ev.Roll) and len(roll.dice) == 3 and sum(roll.dice) == roll.total
    assert morale.group == ("w1",) and morale.passed == (roll.total + 4 >= 12)


def test_critical_injury_roll_and_table():
    f = fight()
    events = RULESET.roll_injury(f, "w1", damage=100, damage_type="blunt", rng=random.Random(3))
    injury = events[-1]
    assert isinstance(injury, cu.Injury) and injury.table == "blunt"
    assert injury.injury == RULESET.injuries["blunt"][injury.roll - 1]
    none = RULESET.roll_injury(f, "w1", damage=0, damage_type="blunt", rng=random.Random(3))
    assert len(none) == 1  # d% above the damage dealt: no injury
    assert "referee decides" in RULESET.injury("fire", 4)


def test_end_of_combat_wipes_initiative():
    f = fight()
    f.push(ev.End(round=1))
    assert RULESET.base(f) == {} and f.ended


def test_surprised_do_not_act_in_round_one():
    f = fight()
    f.push(ev.Surprise(round=1, surprised=("monsters",)))
    f.push(cu.Declare(round=1, actor="w1", action="attack"))
    f.push(cu.Declare(round=1, actor="brann", action="attack", weapon="sword"))
    plan = f.plan()
    assert plan.labels() == [["brann:attack"]]
    assert plan.skipped[0]["actor"] == "w1" and "CU-1" in plan.skipped[0]["why"]


def test_morale_triggers_at_the_end_of_the_round():
    f = fight()
    assert RULESET.morale_triggers(f) == []
    f.push(ev.Damage(round=1, target="w1", amount=5, critical=True))
    assert RULESET.morale_triggers(f) == [
        ("w1", "took more than half its Wound Points in one hit")]
    f.push(ev.Death(round=1, target="w2"))
    assert RULESET.morale_triggers(f) == [
        ("w1", "took more than half its Wound Points in one hit")]
    f.push(ev.NewRound(round=2))
    assert RULESET.morale_triggers(f) == []
    assert RULESET.morale_triggers(f, intimidated=("w1",)) == [
        ("w1", "the target of Intimidation")]
