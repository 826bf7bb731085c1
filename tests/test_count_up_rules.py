"""count-up rules over the state: CU-1, CU-2, CU-6 ... CU-10, and what the forms and the
log say of them (issue 24: B.3, B.7, B.10, B.17, E.16)."""

from __future__ import annotations

import random
from typing import TypeVar

import pytest

from referee.engine import Combatant, Encounter, Fight, Side, Weapon
from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.options import Declaring, Healing, Rolling
from referee.engine.record import replace
from referee.rulesets.count_up import events as cu
from referee.rulesets.count_up.conditions import condition
from referee.rulesets.count_up.injuries import roll_injury
from referee.rulesets.count_up.morale import check as morale_check
from referee.rulesets.count_up.morale import roll_morale
from referee.rulesets.count_up.morale import triggers as morale_triggers
from referee.session.files import load_ruleset
from tests.acts import act

RULESET = load_ruleset("count-up")
SETTINGS = RULESET.settings
R = TypeVar("R")


def role(kind: type[R]) -> R:
    """The ruleset's role of this kind (count-up fills each one these tests ask for)."""
    found = RULESET.role(kind)
    assert found is not None
    return found


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
    assert RULESET.fold.base(f) == {"brann": 3, "w1": 6, "w2": 6}


def test_rolled_initiative_is_d12_minus_agility_once_per_group():
    f = Fight(encounter(), RULESET)
    event = role(Rolling).roll_initiative(f, random.Random(2))[0]
    assert set(event.base) == {"brann", "wolves"}
    assert all(1 <= v <= 12 for v in event.base.values())


def test_stress_first_then_wound_points():
    f = fight()
    f.push(ev.Damage(round=1, target="brann", amount=8))
    status = f.status["brann"]
    assert (status.marks["stress"], status.marks["wounds"]) == (0, 10)


def test_critical_bypasses_stress():
    f = fight()
    amount = RULESET.damage.critical_damage(4, 3)
    f.push(ev.Damage(round=1, target="brann", amount=amount, critical=True))
    assert (f.status["brann"].marks["stress"], f.status["brann"].marks["wounds"]) == (6, 0)
    assert condition(f.roster["brann"], f.status["brann"]) == "incapacitated"


def test_dying_loses_a_wound_point_each_round_and_dies_at_minus_strength():
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=15, critical=True))  # -7, strength 10
    assert condition(f.roster["w1"], f.status["w1"]) == "dying"
    out = RULESET.fold.end_of_round(f)
    assert [(type(e), e.target) for e in out] == [(ev.Damage, "w1")]
    f.push(ev.Damage(round=1, target="w1", amount=2, critical=True))  # -9
    out = RULESET.fold.end_of_round(f)
    assert [type(e) for e in out] == [ev.Damage, ev.Death]


def test_stabilised_creatures_stop_losing_wound_points():
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=10, critical=True))
    f.push(ev.Heal(round=1, target="w1", amount=0, stabilize=True))
    assert RULESET.fold.end_of_round(f) == []
    assert SETTINGS.stabilize_tn(10) == 20


def test_death_at_minus_strength_after_damage():
    f = fight()
    hit = ev.Damage(round=1, target="w2", amount=18, critical=True)
    f.push(hit)
    assert [type(e) for e in RULESET.fold.after(f, hit)] == [ev.Death]


def test_morale_formula():
    f = fight()
    check = morale_check(SETTINGS, f, "w1", roll=7)
    # 7 + Insight 1 + HD 2 + 1 ally = 11 against 11 + 1 opponent
    assert (check.total, check.tn, check.passed) == (11, 12, False)
    assert "CU-6" in check.explain()
    assert morale_check(SETTINGS, f, "w1", roll=7, intimidation=10).passed


def test_morale_roll_is_logged_with_its_dice():
    f = fight()
    out = roll_morale(SETTINGS, f, "w1", random.Random(1))
    roll, morale = out
    assert isinstance(roll, ev.Roll) and len(roll.dice) == 3 and sum(roll.dice) == roll.total
    assert morale.group == ("w1",) and morale.passed == (roll.total + 4 >= 12)


def test_critical_injury_roll_and_table():
    f = fight()
    events = roll_injury(SETTINGS, f, "w1", damage=100, damage_type="blunt", rng=random.Random(3))
    injury = events[-1]
    assert isinstance(injury, cu.Injury) and injury.table == "blunt"
    assert injury.injury == SETTINGS.injuries["blunt"][injury.roll - 1]
    none = roll_injury(SETTINGS, f, "w1", damage=0, damage_type="blunt", rng=random.Random(3))
    roll, verdict = none  # d% above the damage dealt: no injury, and the log says so
    assert isinstance(verdict, cu.Injury) and not verdict.injury and verdict.roll is None
    assert (verdict.chance, verdict.damage) == (roll.total, 0)
    assert "referee decides" in SETTINGS.injury("fire", 4)


def test_end_of_combat_wipes_initiative():
    f = fight()
    f.push(ev.End(round=1))
    assert RULESET.fold.base(f) == {} and f.ended


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
    assert morale_triggers(f) == []
    f.push(ev.Damage(round=1, target="w1", amount=5, critical=True))
    assert morale_triggers(f) == [
        ("w1", "took more than half its Wound Points in one hit")]
    f.push(ev.Death(round=1, target="w2"))
    assert morale_triggers(f) == [
        ("w1", "took more than half its Wound Points in one hit")]
    f.push(ev.NewRound(round=2))
    assert morale_triggers(f) == []
    assert morale_triggers(f, intimidated=("w1",)) == [
        ("w1", "the target of Intimidation")]


# -- issue 24: the forms know the rules, and a fight can end --------------------------------


def declared(f: Fight) -> Fight:
    """Round 1 declared: Brann attacks Wolf 1 with the sword (×3), the wolves Brann."""
    f.push(cu.Declare(round=1, actor="brann", action="attack", weapon="sword", target=("w1",)))
    f.push(cu.Declare(round=1, actor="w1", action="attack", target=("brann",)))
    f.push(cu.Declare(round=1, actor="w2", action="attack", target=("brann",)))
    return f


def enter(f: Fight, *events: ev.Event) -> list[ev.Event]:
    """As the table enters an act: the first event, then the rest following it."""
    pushed = f.enter(events[0])
    for later in events[1:]:
        pushed += f.enter(later, follows=True)
    return pushed


def told(f: Fight, *events: ev.Event) -> list[str]:
    """The log lines of an act, each told against the state just before it."""
    from referee.session.replay import describe

    lines = []
    for number, event in enumerate(events):
        lines.append(describe(f, event))
        f.enter(event, follows=number > 0)
    return lines


def test_a_critical_hit_deals_its_weapons_multiple_and_the_log_says_so():
    """B.3 (CU-7): the hit is entered multiplied by the sword's ×3, naming both."""
    f = declared(fight())
    roll = ev.Roll(round=1, expr="1d8", dice=(5,), total=5, purpose="damage to Wolf 1")
    hit = ev.Damage(round=1, target="w1", amount=5, source="brann", critical=True)
    (dealt,) = RULESET.damage.damage_events(f, hit, {"critical": True})
    assert isinstance(dealt, cu.Damage)
    assert (dealt.amount, dealt.multiplier, dealt.weapon) == (15, 3, "sword")
    line = told(f, roll, dealt)[1]
    assert "takes 15 critical damage (5 × 3, sword) from Brann" in line and "W-7/8" in line
    plain = ev.Damage(round=1, target="w2", amount=5, source="brann")
    assert RULESET.damage.damage_events(f, plain, {}) == [plain]


def test_a_critical_hit_is_held_to_its_dice_and_its_weapon():
    """B.3: the fold and the checks agree with what the hit form enters (outcomes.py)."""
    f = declared(fight())
    roll = ev.Roll(round=1, expr="1d8", dice=(5,), total=5, purpose="damage to Wolf 1")
    good = cu.Damage(round=1, target="w1", amount=15, source="brann", critical=True,
                     weapon="sword", multiplier=3)
    for wrong, field_name in ((replace(good, amount=10), "amount"),
                              (replace(good, multiplier=2, amount=10), "multiplier"),
                              (replace(good, critical=False), "multiplier"),
                              (replace(good, weapon="axe"), "weapon")):
        trial = f.copy()
        with pytest.raises(RefereeError) as caught:
            enter(trial, roll, wrong)
        assert caught.value.path[-1] == field_name, caught.value.reason
    enter(f, roll, good)
    assert f.status["w1"].marks["wounds"] == -7  # straight to Wound Points


def test_the_hit_forms_critical_names_the_multiplier_it_uses():
    """B.3: the form says ×3 and the damage it multiplies, for the one acting now."""
    f = declared(fight())
    f.push(ev.Resolve(round=1, actions=("w1:attack", "w2:attack")))  # the wolves at 6
    (field_spec,) = RULESET.damage.damage_fields(f)
    assert field_spec.title == "critical: ×3 sword"  # Brann's turn, at 3 + 5
    assert dict((v, k) for k, v in field_spec.options)[True] == \
        "yes: 1d8 × 3 to Wound Points"


def test_a_stabilised_combatant_reads_stabilised_and_no_longer_bleeds():
    """B.7 (CU-8)."""
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=10, critical=True))
    assert RULESET.tracker.state_word(f, "w1") == "dying"
    f.push(ev.Heal(round=1, target="w1", amount=0, stabilize=True))
    assert RULESET.tracker.state_word(f, "w1") == "stabilised" \
        and RULESET.fold.end_of_round(f) == []
    f.push(ev.Heal(round=1, target="w1", amount=5))  # up again: a later fall is Dying again
    f.push(ev.Damage(round=1, target="w1", amount=5, critical=True))
    assert RULESET.tracker.state_word(f, "w1") == "dying"


def test_the_heal_check_is_against_ten_plus_the_largest_wound():
    """B.7 (CU-8): the heal form's Heal check names its TN; the check decides."""
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=3, critical=True))
    f.push(ev.Damage(round=1, target="w1", amount=7, critical=True))  # W-2: dying
    stabilise, check = role(Healing).heal_fields(f, "w1")  # the form's tick is count-up's own
    assert (stabilise.name, stabilise.label, stabilise.kind) == ("stabilize", "stabilise", "bool")
    assert check.title == "Heal check (TN 17)" and "Wolf 1 17" in check.help
    assert RULESET.tracker.cells(f, "w1")["points"].text == "S0 W-2/8 TN17"
    heal = ev.Heal(round=1, target="w1", amount=0)
    (failed,) = role(Healing).heal_events(f, heal, {"check": 16})
    assert isinstance(failed, cu.Heal) and not failed.stabilize and failed.tn == 17
    with pytest.raises(RefereeError, match="under TN 17"):
        role(Healing).heal_events(f, replace(heal, stabilize=True), {"check": 16})
    with pytest.raises(RefereeError, match="under TN 17"):  # ticked on the form
        role(Healing).heal_events(f, heal, {"stabilize": True, "check": 16})
    (ticked,) = role(Healing).heal_events(f, heal, {"stabilize": True, "check": None})
    assert ticked.stabilize and getattr(ticked, "check", None) is None
    (held,) = role(Healing).heal_events(f, heal, {"check": 17})
    assert held.stabilize
    with pytest.raises(RefereeError) as caught:
        f.copy().enter(replace(held, tn=12))
    assert caught.value.path == ("tn",)
    line = told(f, held)[0]
    assert line == "Wolf 1 heals 0; Heal check 17 vs TN 17: stabilised (CU-8)"
    assert RULESET.tracker.state_word(f, "w1") == "stabilised"


def test_a_morale_check_made_is_not_asked_for_again():
    """B.7 (CU-6): once rolled, the reminder does not come back for the same hit or odds;
    a new big hit brings it back; one that broke is never asked again."""
    f = fight()
    f.push(ev.Damage(round=1, target="w1", amount=5, critical=True))
    assert [cid for cid, _ in morale_triggers(f)] == ["w1"]
    held = [replace(e, passed=True) if isinstance(e, ev.Morale) else e
            for e in roll_morale(SETTINGS, f, "w1", random.Random(1))]
    f.push(held[0])
    f.push(ev.Morale(round=1, group=("w1",), passed=True))  # the referee's verdict, no dice
    assert morale_triggers(f) == []
    f.push(ev.NewRound(round=2))
    f.push(ev.Death(round=2, target="w2"))  # now 1 to 1: not outnumbered
    f.push(ev.Damage(round=2, target="w1", amount=5, critical=True))  # a new big hit
    assert [cid for cid, _ in morale_triggers(f)] == ["w1"]
    f.push(ev.Morale(round=2, group=("w1",), passed=False, avoid="flee"))
    f.push(ev.NewRound(round=3))
    f.push(ev.Damage(round=3, target="w1", amount=1))
    assert morale_triggers(f) == []  # it broke: it flees, the referee's call


def test_the_morale_line_adds_up_as_cu6_does():
    """B.7: roll, Insight, HD and allies against 11 + opponents."""
    f = fight()
    roll, morale = roll_morale(SETTINGS, f, "w1", random.Random(1))
    line = told(f, roll, morale)[1]
    verdict = "holds" if morale.passed else "breaks (will flee)"
    assert line == (f"Wolf 1's morale {verdict}: 3d6 {roll.total} + Insight 1 + HD 2 + "
                    f"1 allies = {roll.total + 4} vs TN 11 + 1 opponents = 12 (CU-6)")


def test_the_injury_form_opens_on_the_last_critical_hit():
    """B.10 (CU-9): target, damage dealt, weapon's damage type and who struck."""
    f = declared(fight())
    before = {spec.name: spec.default for spec in act(f, "injury").form(f, "w2").fields}
    assert before["target"] == "w2" and before["damage"] is None
    enter(f, ev.Roll(round=1, expr="1d8", dice=(3,), total=3, purpose="damage to Wolf 1"),
          cu.Damage(round=1, target="w1", amount=9, source="brann", critical=True,
                    weapon="sword", multiplier=3))
    f.push(ev.Damage(round=1, target="w2", amount=1, critical=True, note="dying: ..."))
    form = act(f, "injury").form(f, "w2")
    defaults = {spec.name: spec.default for spec in form.fields}
    assert defaults == {"target": "w1", "damage": 9, "damage_type": "blunt", "source": "brann"}


def test_the_injury_line_names_who_struck_and_the_verdict():
    """B.10: at or under the damage, the row; over it, no injury — both logged."""
    f = declared(fight())
    events = act(f, "injury").run(f, None, {"target": "w1", "damage": 100,
                                                     "damage_type": "blunt",
                                                     "source": "brann"}, random.Random(3))
    line = told(f, *events)[-1]
    assert line.startswith("Wolf 1 suffers a combat injury from Brann's critical: d% ")
    assert ", at or under the damage dealt; blunt d20 " in line and "100" not in line
    events = act(f, "injury").run(f, None, {"target": "w2", "damage": 0,
                                                     "damage_type": "blunt",
                                                     "source": "brann"}, random.Random(3))
    line = told(f, *events)[-1]
    assert line.startswith("Wolf 2: no combat injury from Brann's critical: d% ")
    assert line.endswith(", over the damage dealt (CU-9)")
    assert "w2" not in RULESET.fold.state(f).injuries


def test_the_declaration_form_takes_a_note():
    """B.17: a note in count-up's declaration forms, in the event and its log line."""
    f = fight()
    declaring = role(Declaring)
    form = declaring.declare_form(f, "brann", "attack", declaring.prefill(f, "brann", "attack"))
    assert [spec.name for spec in form.fields] == ["weapon", "target", "note"]
    event = declaring.declaration(f, "brann", "attack", {"weapon": "sword", "target": "w1",
                                                         "note": "aims at the eyes"})
    assert isinstance(event, cu.Declare) and event.note == "aims at the eyes"
    assert told(f, event)[0] == \
        "Brann declares attack (sword) at Wolf 1 — aims at the eyes"


def test_the_end_wipes_initiative_and_leaves_no_turn_to_take():
    """E.16 (CU-10): logged with the end; the round's turns not taken never come."""
    f = declared(fight())
    f.push(ev.Resolve(round=1, actions=("w1:attack", "w2:attack")))
    assert f.plan().current(f.resolved[1]) == 2
    line = told(f, ev.End(round=1, note="the wolves fled"))[0]
    assert line == ("the fight is over: the wolves fled — combat ends, initiative is wiped "
                    "(CU-10)")
    plan = f.plan()
    assert plan.current(f.resolved[1]) is None and "initiative wiped (CU-10)" in plan.notes[0]
    assert RULESET.fold.base(f) == {} and not role(Rolling).initiative_due(f)
    # no base in force; the status line says it ended
    assert RULESET.tracker.status_parts(f) == []
    f.push(ev.Undo(round=1))  # the end taken back: the fight goes on where it was
    assert RULESET.fold.base(f) and f.plan().current(f.resolved[1]) == 2
