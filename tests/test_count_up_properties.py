"""count-up's properties over random battles and random dice.

- Whatever a battle's events, no fallen combatant appears in a plan's actions still to be
  taken, unless it was slain while that very beat was under way (CU-4: equal counts act
  at once, double knock-outs happen); and every why agrees with its beat's actions: one
  line per action naming its actor, the count it gives adding up to the beat's count, and
  "simultaneously" exactly when the beat holds more than one action (issue 19).
- For random dice, the outcome the fold records is the one the rule gives, and an outcome
  that contradicts its dice is refused at its field (issue 26): base initiative (CU-2),
  morale (CU-6), critical injuries (CU-9), rolled damage and every roll's total.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from random import Random
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.dice import from_values
from referee.engine.errors import RefereeError
from referee.engine.options import Declaring, Rolling
from referee.engine.plan import Plan, action_key
from referee.engine.record import replace
from referee.rulesets.count_up import events as cu
from referee.rulesets.count_up.conditions import condition
from referee.rulesets.count_up.injuries import roll_injury
from referee.rulesets.count_up.morale import roll_morale
from referee.rulesets.count_up.ruleset import CountUp
from tests.strategies import CU, count_up_rounds, fight_of

ACTIONS = ("attack", "cast", "consumable", "throw", "full-defense", "defensive-attack")


R = TypeVar("R")


def ruleset(fight: Fight) -> CountUp:
    rs = fight.ruleset
    assert isinstance(rs, CountUp)
    return rs


def role(fight: Fight, kind: type[R]) -> R:
    """The fight's ruleset's role of this kind (count-up fills each one asked for here)."""
    found = ruleset(fight).role(kind)
    assert found is not None
    return found


def dead(fight: Fight, cid: str) -> bool:
    return condition(fight.roster[cid], fight.status[cid]) == "dead"


def enter(fight: Fight, *events: ev.Event) -> None:
    """As the table enters an act: the first event, then the rest following it."""
    fight.enter(events[0])
    for later in events[1:]:
        fight.enter(later, follows=True)


# -- random battles (issue 19) -----------------------------------------------------------------

deeds = st.lists(st.tuples(
    st.sampled_from(["resolve", "resolve", "resolve", "damage", "damage", "heal", "death",
                     "round", "join"]),
    st.integers(0, 7), st.integers(0, 25), st.booleans()), max_size=30)


@st.composite
def battles(draw: Any) -> tuple[Any, list[Any], list[Any]]:
    """A drawn round (`count_up_rounds`: an encounter, its initiative of a base each,
    everyone's declaration), the actions the battle's declarations choose among, and its
    deeds."""
    round_ = draw(count_up_rounds())
    choices = [(draw(st.sampled_from(ACTIONS)), draw(st.booleans())) for _ in range(12)]
    return round_, choices, draw(deeds)


def declare_all(fight: Fight, choices: list[Any]) -> None:
    """Everyone still standing who has not declared this round does (a random action)."""
    round_ = max(fight.round, 1)
    declared = {d.actor for _, d in fight.declared(round_)}
    for n, (cid, c) in enumerate(fight.roster.items()):
        action, with_weapon = choices[n % len(choices)]
        if cid in declared or role(fight, Declaring).can_declare(fight, cid, action):
            continue
        fields: dict[str, Any] = {"round": round_, "actor": cid, "action": action}
        if action == "cast":
            if not c.spells:
                continue
            fields["spell"] = c.spells[0].name
        if action in ("attack", "defensive-attack") and with_weapon:
            fields["weapon"] = c.weapons[0].name
        fight.enter(CU.schema.event("declare", **fields))


def current_count(fight: Fight, plan: Plan | None = None) -> int | None:
    """The count of the beat under way (the referee's ▶), or None (`plan`: the plan of
    the fight's round as it stands, if known)."""
    if plan is None:
        plan = fight.plan(max(fight.round, 1))
    now = plan.current(fight.resolved.get(max(fight.round, 1), set()))
    return None if now is None else int(plan.beats[now - 1].extra["count"])


def do(fight: Fight, deed: tuple[str, int, int, bool], choices: list[Any],
       plan: Plan | None = None) -> None:
    """The deed done (`plan`: the plan of the fight's round as it stands, if known)."""
    kind, pick, amount, flag = deed
    ids = list(fight.roster)
    target = ids[pick % len(ids)]
    round_ = max(fight.round, 1)
    if kind == "resolve":
        if plan is None:
            plan = fight.plan(round_)
        now = plan.current(fight.resolved.get(round_, set()))
        if now is not None:
            beat = plan.beats[now - 1]
            keys = tuple(action_key(beat, a) for a in beat.actions if not a.flag("skipped"))
            fight.enter(ev.Resolve(round=round_, actions=keys, beat=now))
    elif kind == "damage":
        fight.enter(ev.Damage(round=round_, target=target, amount=amount, critical=flag))
    elif kind == "heal":
        fight.enter(ev.Heal(round=round_, target=target, amount=amount % 6, stabilize=flag))
    elif kind == "death" and not dead(fight, target):
        fight.enter(ev.Death(round=round_, target=target))
    elif kind == "round":
        fight.enter(ev.NewRound(round=round_ + 1))
        declare_all(fight, choices)
    elif kind == "join":  # a latecomer (CU-5), at the count reached, declaring at once
        join(fight, amount, flag)
        declare_all(fight, choices)


def join(fight: Fight, amount: int, early: bool) -> None:
    from referee.engine import Combatant, Weapon

    cid = f"late{len(fight.roster)}"
    claws = (Weapon("claws", stats={"speed": amount % 4}),)
    side = fight.encounter.sides[amount % len(fight.encounter.sides)].id
    newcomer = Combatant(cid, cid.title(), side, hp=10, max_hp=10, weapons=claws)
    count = current_count(fight)
    at = (count if count is not None else 0) + (0 if early else amount % 7)
    fight.enter(cu.Join(round=max(fight.round, 1), combatant=newcomer,
                        base=amount % 13 - 2, at_count=at))


COUNT = re.compile(r"^count (-?\d+) = (.*)$")
EXTRA = re.compile(r"^latecomer's extra turn: (-?\d+) - (\d+) = (-?\d+)$")
LATE = re.compile(r"^(joined at count -?\d+|latecomer's own turn): (.*)$")


def added_up(why: str) -> int:
    """The count a "base B, ACTION +M + ITEM speed S" (or "modifier +M as declared")
    explanation adds up to."""
    found = re.match(r"^base (-?\d+), (.*)$", why)
    assert found, why
    total, rest = int(found.group(1)), found.group(2)
    declared = re.match(r"^modifier ([+-]\d+) as declared$", rest)
    if declared:
        return total + int(declared.group(1))
    modifier = re.match(r"^\S+ ([+-]\d+)", rest)
    assert modifier, why
    speed = re.search(r" speed (-?\d+)$", rest)
    return total + int(modifier.group(1)) + (int(speed.group(1)) if speed else 0)


def why_agrees(plan: Plan) -> None:
    for beat in plan.beats:
        count = int(beat.extra["count"])
        lines = list(beat.why)
        if len(beat.actions) > 1:
            assert lines.pop() == "equal counts act simultaneously", beat.why
        assert "equal counts act simultaneously" not in lines, beat.why
        assert [line.split(": ", 1)[0] for line in lines] == [a.actor for a in beat.actions]
        for line in lines:
            said = line.split(": ", 1)[1]
            plain, extra = COUNT.match(said), EXTRA.match(said)
            if plain:
                assert int(plain.group(1)) == count == added_up(plain.group(2)), line
            elif extra:
                assert int(extra.group(3)) == count, line
                assert int(extra.group(1)) - int(extra.group(2)) == count, line
            else:  # a latecomer's first round, or its own turn after its extra one
                late = LATE.match(said)
                assert late, line
                assert added_up(late.group(2)) == count, line


def fallen_take_no_turn(fight: Fight, plan: Plan, fell: dict[str, tuple[int, int | None]]
                        ) -> None:
    done = fight.resolved.get(plan.round, set())
    for beat in plan.beats:
        for action in beat.actions:
            if not dead(fight, action.actor) or action_key(beat, action) in done:
                continue
            # slain while this very beat was under way: it still acts here, nowhere else
            assert fell.get(action.actor) == (plan.round, beat.extra["count"]), (
                action.actor, beat.extra, fell.get(action.actor))
    for entry in plan.skipped:
        if entry.get("rule") == "CU-8":
            assert dead(fight, entry["actor"]), entry


def planned(fight: Fight) -> Counter[tuple[int, int | None, int | None]]:
    return Counter((a.declared, a.routine, a.turn) for b in fight.plan().beats
                   for a in b.actions)


def shape(fight: Fight) -> list[tuple[object, ...]]:
    return [(sorted(a.label() for a in b.actions), b.rules, b.why, b.extra, b.tag)
            for b in fight.plan().beats]


@settings(max_examples=200, deadline=None)
@given(battles(), st.randoms(use_true_random=False))
def test_no_fallen_combatant_acts_and_every_why_agrees(battle: Any, rnd: Random) -> None:
    """The drawn round: every action planned exactly once, and the plan the same planned
    twice and with the declarations in another order (they were test_properties', over
    200 rounds drawn apart; the battles over 150). Then a battle over the round's
    encounter and initiative, everyone declaring afresh: after each deed, no fallen
    combatant acts and every why agrees."""
    (encounter, initiative, declarations), choices, plan_of_deeds = battle
    fight = fight_of(encounter, initiative, declarations)
    assert planned(fight) == Counter((index, None, None) for index, _ in fight.declared(1))
    planned_once = shape(fight)
    assert planned_once == shape(fight_of(encounter, initiative, declarations))
    shuffled = list(declarations)
    rnd.shuffle(shuffled)
    assert planned_once == shape(fight_of(encounter, initiative, shuffled))
    fight = Fight(encounter, CU)
    fight.enter(cu.Initiative(round=1, base=dict(initiative.base)))
    declare_all(fight, choices)
    fell: dict[str, tuple[int, int | None]] = {}
    plan = fight.plan(max(fight.round, 1))  # the round's plan as the fight stands: each
    # deed's is the next one's before it (nothing happens between them)
    for deed in plan_of_deeds:
        count = current_count(fight, plan)
        standing = {c for c in fight.roster if not dead(fight, c)}
        round_ = max(fight.round, 1)
        do(fight, deed, choices, plan)
        for cid in standing:
            if dead(fight, cid):  # fell during this deed, while that beat was under way
                fell[cid] = (round_, count)
        plan = fight.plan(max(fight.round, 1))
        fallen_take_no_turn(fight, plan, fell)
        why_agrees(plan)


# -- random dice (issue 26) --------------------------------------------------------------------


def small_fight(insight: int, hd: int, agility: int, monsters: int) -> Fight:
    from referee.engine import Combatant, Encounter, Side, Weapon

    sides = (Side("party", "Party", players=True), Side("monsters", "Monsters"))
    mace = (Weapon("mace", damage="1d6", stats={"speed": 4, "damage_type": "blunt"}),)
    people = [Combatant("brann", "Brann", "party", hp=12, max_hp=12, weapons=mace,
                        stats={"agility": agility})]
    people += [Combatant(f"w{n}", f"Wolf {n}", "monsters", hp=8, max_hp=8,
                         stats={"insight": insight, "hd": hd}) for n in range(monsters)]
    return Fight(Encounter("count-up", "dice", 1, sides, tuple(people)), CU)


def refused(fight: Fight, events: list[ev.Event], field: str) -> str:
    """Entering `events` as one act is refused at `field` of the last one (the fight as
    it was)."""
    before = len(fight.log)
    with pytest.raises(RefereeError) as caught:
        enter(fight, *events)
    del fight.log[before:]
    fight.refold()
    assert caught.value.path[-1] == field or caught.value.path[:1] == (field,), (
        caught.value.path, caught.value.reason)
    return caught.value.reason


@settings(max_examples=150, deadline=None)
@given(st.integers(-3, 3), st.integers(0, 4), st.integers(-2, 2), st.integers(1, 3),
       st.integers(0, 2**32))
def test_morale_is_its_dice_against_its_tn(insight: int, hd: int, agility: int,
                                          monsters: int, seed: int) -> None:
    fight = small_fight(insight, hd, agility, monsters)
    fight.enter(cu.Initiative(round=1, base={"brann": 3, **{f"w{n}": 5
                                                           for n in range(monsters)}}))
    roll, morale = roll_morale(ruleset(fight).settings, fight, "w0",
                              random.Random(seed))
    assert isinstance(roll, ev.Roll) and isinstance(morale, ev.Morale)
    dice = sum(roll.dice)
    total = dice + insight + hd + (monsters - 1)  # CU-6: 3d6 + Insight + HD + allies
    tn = 11 + 1  # against 11 + the opponents
    assert (morale.roll, morale.target, morale.passed) == (total, tn, total >= tn)
    refused(fight, [roll, replace(morale, passed=not morale.passed)], "passed")
    refused(fight, [roll, replace(morale, roll=total + 1)], "roll")
    refused(fight, [replace(roll, total=roll.total + 1), morale], "total")
    enter(fight, roll, morale)
    kept = fight.events[-1]  # in effect, as entered
    assert isinstance(kept, ev.Morale) and kept.passed == (total >= tn)
    # the fold keeps the verdict: count-up's marks, a break ending its checks (CU-6)
    assert fight.status["w0"].marks["broke"] == (total < tn)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 120), st.integers(0, 2**32))
def test_an_injury_is_the_row_its_d20_names_when_the_d_percent_allows(
        damage: int, seed: int) -> None:
    fight = small_fight(0, 0, 0, 1)
    fight.enter(cu.Initiative(round=1, base={"brann": 3, "w0": 5}))
    events = roll_injury(ruleset(fight).settings, fight, "w0", damage, "blunt",
                         random.Random(seed))
    chance = events[0]
    assert isinstance(chance, ev.Roll) and chance.expr == "1d100"
    if chance.total > damage:  # CU-9: over the damage dealt, no injury: the verdict says so
        verdict = events[1]
        assert len(events) == 2 and isinstance(verdict, cu.Injury) and not verdict.injury
        refused(fight, [chance, replace(verdict, injury=CU.settings.injuries["blunt"][0])],
                "chance")
        other = chance.total + 1 if chance.total < 100 else chance.total - 1
        refused(fight, [chance, replace(verdict, chance=other)],
                "chance" if other > damage else "injury")
        enter(fight, *events)
        assert "w0" not in ruleset(fight).fold.state(fight).injuries
        return
    _, d20, injury = events
    assert isinstance(d20, ev.Roll) and isinstance(injury, cu.Injury)
    table = CU.settings.injuries["blunt"]
    assert injury.injury == table[d20.total - 1] and injury.roll == d20.total
    other = table[d20.total % len(table)]
    refused(fight, [chance, d20, replace(injury, injury=other)], "injury")
    refused(fight, [chance, d20, replace(injury, roll=d20.total % 20 + 1)], "roll")
    refused(fight, [chance, d20, replace(injury, chance=damage + 1)], "chance")
    enter(fight, *events)
    assert ruleset(fight).fold.state(fight).injuries["w0"] == (table[d20.total - 1],)


@settings(max_examples=150, deadline=None)
@given(st.integers(-2, 3), st.integers(1, 3), st.integers(0, 2**32))
def test_base_initiative_is_the_die_less_agility(agility: int, monsters: int,
                                                 seed: int) -> None:
    fight = small_fight(0, 0, agility, monsters)
    (initiative,) = role(fight, Rolling).roll_initiative(fight, random.Random(seed))
    assert isinstance(initiative, cu.Initiative)
    rolled = from_values("d12", initiative.dice["brann"]["terms"][0]["rolls"]).total
    assert initiative.base["brann"] == rolled - agility  # CU-2
    wrong = {**initiative.base, "brann": initiative.base["brann"] + 1}
    refused(fight, [replace(initiative, base=wrong)], "base")
    fight.enter(initiative)
    assert ruleset(fight).fold.base(fight)["brann"] == rolled - agility


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["1d6", "2d6", "1d8+1", "4d6kh3", "2d4-3"]), st.integers(0, 2**32),
       st.integers(1, 5))
def test_rolled_damage_is_its_roll(expr: str, seed: int, change: int) -> None:
    from referee.engine.dice import roll as roll_dice

    fight = small_fight(0, 0, 0, 1)
    result = roll_dice(expr, random.Random(seed))
    roll = ev.Roll(round=1, expr=result.expression, dice=result.rolls, total=result.total,
                   purpose="damage to Wolf 0", actor="brann")
    hit = ev.Damage(round=1, target="w0", amount=max(result.total, 0), source="brann")
    refused(fight, [roll, replace(hit, amount=hit.amount + change)], "amount")
    refused(fight, [replace(roll, total=roll.total + change), hit], "total")
    enter(fight, roll, hit)
    assert fight.status["w0"].marks["wounds"] == 8 - max(result.total, 0)
