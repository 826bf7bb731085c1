"""sanctum's properties over random turns of random groups.

- Whatever a battle's events (pairs fought by `n`, steps logged one at a time, a whole
  turn by `F`, a second turn), no fallen minion appears in the actions of a combat still
  to come, and every why agrees with its beat's actions: the pair's two groups, the one
  with precedence first, each minion of theirs still standing in save order (SA-7), a
  group with none left said to end the combat at once (SA-3), a repeat said to be skipped
  (SA-2). A combat begun (or a repeat logged as skipped) is what happened: a combat over
  is done (its actions resolved, none read as skipped: issue 24 C.13), one under way or a
  repeat is passed over (issue 19).
- For random seeds, the outcome the fold records is the one the rules give: every attack's
  hit or miss, damage, armor soaked, result and hit points worked out here from SA-4 and
  SA-9 alone, every draw the seed's, and the fold's hit points and deaths theirs; an
  outcome changed by hand is refused at its field (issue 26).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Combatant, Encounter, Fight, Side
from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.plan import Plan, action_key
from referee.engine.record import replace
from referee.rulesets.sanctum import events as se
from referee.rulesets.sanctum import stats
from referee.rulesets.sanctum.ruleset import Sanctum
from referee.rulesets.sanctum.turns import fought
from referee.session.files import load_ruleset

RULESET = load_ruleset("sanctum")
assert isinstance(RULESET, Sanctum)
EFFECTS = ["Pixie Dust", "does not attack", "does not deal", "must attack"]
INF = 1 << 40  # SA-4: "infinite" misses


# strategies drawn from again and again, made once (a new one is checked at its first
# draw): the same draws in the same order
STANDINGS = st.permutations(["initiative", "neutral", "other"])
AN_EFFECT = st.sampled_from(EFFECTS)
DEEDS = st.lists(st.tuples(st.sampled_from(["n", "n", "steps", "F"]), st.integers(1, 12)),
                 max_size=12)


def attack_table(draw: Any, missile: bool) -> dict[str, Any] | None:
    attacks = draw(st.integers(0, 2))
    if not attacks:
        return None
    table: dict[str, Any] = {"attacks": attacks, "damage": draw(st.integers(0, 3))}
    if missile and draw(st.booleans()):
        table["magical"] = True
    return table


@st.composite
def encounters(draw: Any) -> Encounter:
    count = draw(st.integers(2, 3))
    standings = draw(STANDINGS)[:count]
    if draw(st.booleans()):
        standings = ["neutral" if s == "initiative" else s for s in standings]
    sides = tuple(Side(f"s{n}", f"S{n}", stats={"initiative": standings[n]})
                  for n in range(count))
    groups = [{"id": f"g{n}", "side": f"s{n % count}", "created": draw(st.integers(0, 9))}
              for n in range(draw(st.integers(count, 4)))]
    minions = []
    for group in groups:
        for k in range(draw(st.integers(1, 4))):
            values: dict[str, Any] = {"group": group["id"], "level": draw(st.integers(0, 3)),
                                      "armor": draw(st.integers(0, 2))}
            for kind in ("hand", "missile"):
                table = attack_table(draw, kind == "missile")
                if table:
                    values[kind] = table
            if draw(st.integers(0, 4)) == 0:
                values["effects"] = (draw(AN_EFFECT),)
            hp = draw(st.integers(1, 8))
            minions.append(Combatant(f"{group['id']}m{k}", f"{group['id']}m{k}",
                                     str(group["side"]), hp, hp, stats=values))
    return Encounter("sanctum", "random", draw(st.integers(0, 2**32)), sides,
                     tuple(minions), stats={"groups": tuple(groups)})


def hostile(encounter: Encounter) -> list[tuple[str, str]]:
    groups = stats.groups(encounter)
    return [(str(a["id"]), str(b["id"])) for a in groups for b in groups
            if a["side"] != b["side"]]


@st.composite
def battles(draw: Any) -> tuple[Encounter, list[list[tuple[str, str]]], list[Any]]:
    encounter = draw(encounters())
    pairs = hostile(encounter)
    turns = [draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=5))
             for _ in range(draw(st.integers(1, 2)))]
    deeds = draw(DEEDS)
    return encounter, turns, deeds


def fallen(fight: Fight) -> set[str]:
    return {cid for cid, s in fight.status.items() if s.dead or s.hp <= 0}


def check_plan(fight: Fight) -> Plan:
    """The plan's invariants; the plan is returned, for the next deed to read."""
    plan = fight.plan()
    out = fallen(fight)
    started = RULESET.fold.state(fight).started.get(fight.round, 0)
    for number, beat in enumerate(plan.beats, start=1):
        a, b = beat.extra["groups"]
        first = beat.extra["first"]
        second = b if first == a else a
        assert first in (a, b)
        if number <= started:  # fought, being fought or skipped: what happened
            assert beat.extra.get("fought") or beat.extra.get("skipped")
            if beat.extra.get("skipped") or "being fought" in beat.note:
                assert all(x.flag("skipped") for x in beat.actions)  # n passes them over
            else:  # over: done, as n would have marked it, never read as skipped (C.13)
                assert fight.resolved[fight.round].issuperset(beat.action_keys())
                assert not any(x.flag("skipped") for x in beat.actions)
            continue
        standing = {g: [cid for cid, c in fight.roster.items()
                        if stats.group(c) == g and cid not in out] for g in (first, second)}
        assert not any(x.actor in out for x in beat.actions), (number, beat.actions)
        assert [x.actor for x in beat.actions] == standing[first] + standing[second]
        if beat.extra.get("skipped"):  # SA-2: a repeat
            assert all(x.flag("skipped") for x in beat.actions)
            assert beat.why == [f"{a} and {b} have fought: skipped"]
            continue
        assert not any(x.flag("skipped") for x in beat.actions)
        assert beat.why[0] == f"pair {number} of the listed order" and first in beat.why[1]
        for group in (first, second):
            said = f"{group} has no minions left: the combat ends at once" in beat.why
            assert said == (not standing[group]), (group, beat.why)
    for entry in plan.skipped:
        assert entry["actor"] in out and entry["rule"] == "SA-3"
    return plan


def fight_pairs(fight: Fight, plan: Plan | None = None) -> None:
    """`n`: the current beat resolved, which fights its pair (and any skipped before)
    (`plan`: the fight's plan as it stands, if known)."""
    plan = plan or fight.plan()
    now = plan.current(fight.resolved.get(fight.round, set()))
    if now is None:
        return
    beat = plan.beats[now - 1]
    keys = tuple(action_key(beat, x) for x in beat.actions if not x.flag("skipped"))
    fight.enter(ev.Resolve(round=fight.round, actions=keys, beat=now))


def do(fight: Fight, deed: tuple[str, int], next_turn: list[tuple[str, str]] | None,
       plan: Plan | None = None) -> bool:
    """One deed; True when it listed the next turn's pairs (`plan`: the fight's plan as
    it stands, if known)."""
    kind, many = deed
    if fought(RULESET.fold.state(fight), fight.round):
        if next_turn is None:
            return False
        fight.enter(se.Combats(round=fight.round + 1, pairs=tuple(next_turn)))
        return True
    if kind == "n":
        fight_pairs(fight, plan)
        return False
    steps, _ = RULESET.fold.pending(fight)
    for step in steps if kind == "F" else steps[:many]:
        fight.enter(step)
        check_plan(fight)
    return False


@settings(max_examples=60, deadline=None)
@given(battles())
def test_no_fallen_minion_fights_again_and_every_why_agrees(battle: Any) -> None:
    encounter, turns, deeds = battle
    fight = Fight(encounter, RULESET)
    fight.enter(se.Combats(round=1, pairs=tuple(turns[0])))
    plan = check_plan(fight)
    later = turns[1:]
    for deed in deeds:  # (nothing happens between a deed's check and the next deed)
        if do(fight, deed, later[0] if later else None, plan):
            later = later[1:]
        plan = check_plan(fight)


# -- random seeds: the outcomes are SA-9's (issue 26) -------------------------------------------


def damage_of(c: Combatant, kind: str, combat_round: int) -> int:
    """SA-4, SA-9: one attack's damage, -1 for a missile in round 1, never below 0, none
    under "does not deal"."""
    if stats.no_deal(c):
        return 0
    base = stats.attack(c, kind)[1]
    return max(0, base - (RULESET.penalty if kind == "missile" and combat_round == 1 else 0))


class Model:
    """SA-4 and SA-9 alone, over the steps of one turn: what each attack must be."""

    def __init__(self, fight: Fight) -> None:
        self.roster = fight.roster
        self.hp = {cid: s.hp for cid, s in fight.status.items()}
        self.killed: set[str] = set()
        self.misses: dict[str, int] = {}
        self.armor: dict[str, int] = {}

    def step(self, step: ev.Event) -> None:
        if isinstance(step, se.Combat) and not step.skipped:
            self.misses = dict.fromkeys(self.roster, INF)  # SA-4: the first attack hits
        elif isinstance(step, se.CombatRound):
            self.armor = {cid: stats.armor(c) for cid, c in self.roster.items()}  # SA-5
        elif isinstance(step, se.Attack):
            self.attack(step)

    def attack(self, step: se.Attack) -> None:
        attacker, victim = self.roster[step.attacker], self.roster[step.victim]
        hit = stats.level(victim) <= stats.level(attacker) + self.misses[step.attacker]
        assert step.hit == hit, step
        if not hit:
            self.misses[step.attacker] += 1
            assert step.hp == self.hp[step.victim], step
            return
        self.misses[step.attacker] = 0
        damage = damage_of(attacker, step.kind, step.combat_round)
        soaked = min(self.armor[step.victim], damage)
        self.armor[step.victim] -= soaked
        self.hp[step.victim] -= damage - soaked
        result = ("bounced" if damage == soaked else
                  "killed" if self.hp[step.victim] <= 0 else "damaged")
        if result == "killed":
            self.killed.add(step.victim)
        assert (step.damage, step.soaked, step.result, step.hp) == (
            damage, soaked, result, self.hp[step.victim]), step


def draws_are_the_seeds(steps: list[ev.Event], seed: int) -> None:
    """Every draw "k of n" is the seed's next: random.Random(seed).choice of n."""
    rng = random.Random(seed)
    for step in steps:
        draw = getattr(step, "draw", None)
        if draw:
            k, n = (int(x) for x in draw.split(" of "))
            assert k - 1 == rng.choice(range(n)), step


def refused_at(encounter: Encounter, events: list[ev.Event], field: str) -> None:
    """Entering `events` onto a fresh fight stops at the last, at `field`."""
    fight = Fight(encounter, RULESET)
    for event in events[:-1]:
        fight.enter(event)
    with pytest.raises(RefereeError) as caught:
        fight.enter(events[-1])
    assert caught.value.path == (field,), (caught.value.path, caught.value.reason)


def changed(step: ev.Event, pick: int) -> tuple[ev.Event, str] | None:
    """The step with one outcome changed by hand, and the field changed."""
    if isinstance(step, se.Attack):
        if not step.hit or pick % 3 == 0:
            return replace(step, hit=not step.hit), "hit"
        if pick % 3 == 1:
            return replace(step, damage=step.damage + 1), "damage"
        return replace(step, hp=(step.hp or 0) + 1), "hp"
    if isinstance(step, se.Victim) and step.draw:
        k, n = (int(x) for x in step.draw.split(" of "))
        return (replace(step, draw=f"{k % n + 1} of {n}"), "draw") if n > 1 else None
    if isinstance(step, se.CombatEnd):
        return replace(step, rounds=step.rounds + 1), "rounds"
    return None


@settings(max_examples=100, deadline=None)
@given(encounters(), st.data())
def test_every_outcome_is_the_rules_for_the_seeds_draws(encounter: Encounter,
                                                          data: Any) -> None:
    pairs = data.draw(st.lists(st.sampled_from(hostile(encounter)), min_size=1, max_size=4))
    seed = data.draw(st.integers(0, 2**32))
    fight = Fight(encounter, RULESET)
    listed = se.Combats(round=1, pairs=tuple(pairs))
    fight.enter(listed)
    model = Model(fight)
    steps, used = RULESET.fold.pending(fight, seed)
    assert used == seed
    for step in steps:
        model.step(step)
        fight.enter(step)
    draws_are_the_seeds(steps, seed)
    for cid, status in fight.status.items():  # the fold keeps what the attacks did
        assert status.hp == model.hp[cid] and status.dead == (cid in model.killed)
    picks = [n for n, step in enumerate(steps) if changed(step, n) is not None]
    if picks:
        n = data.draw(st.sampled_from(picks))
        found = changed(steps[n], n)
        assert found is not None
        step, field = found
        refused_at(encounter, [listed, *steps[:n], step], field)
