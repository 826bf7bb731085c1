"""agility-order: properties of any battle and any dice (spec: agility-order.md).

- Whatever a random battle's events, no unit that fell (dead, felled by a chain, down,
  fled, vanished) before its turn appears in any plan's actions, none is asked to roll a
  tie, a turn taken keeps its beat whatever follows, and every why agrees with its beat's
  action (AO-1 … AO-3).
- For random dice, the outcome the fold records is the one the rules give (AO-7 …
  AO-9, AO-13), and a save that says otherwise is refused.
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from referee.engine import events as ev
from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.model import Encounter
from referee.engine.plan import Plan
from referee.engine.port import Ruleset
from referee.engine.record import replace
from referee.engine.specs import Act
from referee.rulesets.agility_order import events as ao
from referee.rulesets.agility_order import stats, units
from referee.session.files import builtin_rulesets, load_save, parse_toml
from tests.acts import act as act_of
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "agility-order.toml"


@functools.cache
def demo_parts() -> tuple[Encounter, type[Ruleset], str]:
    """The demo read once (it has no events): its encounter (frozen: shared by the
    fights made of it), its ruleset's class and its ruleset's file."""
    found = load_save(DEMO)
    assert found.ruleset.id == "agility-order" and not found.fight.log
    return (found.encounter, type(found.ruleset),
            builtin_rulesets()["agility-order"].read_text(encoding="utf-8"))


def demo() -> Fight:
    """The demo as it opens, with a ruleset made anew from its file (no cache of another
    example's fight in it): what loading the whole save again gives."""
    encounter, cls, ruleset = demo_parts()
    return Fight(encounter, cls(parse_toml(ruleset, "agility-order.toml")))


def enter_all(fight: Fight, events: list[ev.Event]) -> None:
    for event in events:
        fight.enter(event)


def act(rs: Ruleset, fight: Fight, name: str) -> Act:
    assert fight.ruleset is rs
    return act_of(fight, name)


def run(fight: Fight, name: str, actor: str | None, values: dict[str, Any],
        rng: random.Random) -> list[ev.Event]:
    """The events of the act `name` done by `actor` (nothing entered)."""
    found = act(fight.ruleset, fight, name).run
    assert found is not None
    return found(fight, actor, values, rng)


# -- random battles -----------------------------------------------------------------------

DEEDS = ("attack", "move", "bonus", "act", "disengage", "free", "stand", "delay", "delay",
         "delay", "ties", "next", "next", "round", "prone", "fall", "slowing", "summon",
         "hit", "miss")
FALLS = ("death", "fled", "down")


def deed(fight: Fight, rng: random.Random, serial: int) -> None:
    """One thing a referee might enter, picked at random (refused ones change nothing)."""
    rs = fight.ruleset
    what = rng.choice(DEEDS)
    what = rng.choice(FALLS) if what == "fall" else what
    actor = rng.choice(list(fight.roster))
    round_ = max(fight.round, 1)
    if what == "next":
        now = rs.planner.turn(fight)
        if now:
            fight.enter(ev.Resolve(round=round_, actions=(f"{now}:turn",)))
    elif what == "round":
        fight.enter(ev.NewRound(round=round_ + 1))
    elif what in ("hit", "miss"):  # as h and m record them: in the beat under way
        recorded(fight, what, actor, rng)
    elif what in ("prone", "fled"):
        fight.enter(ev.Condition(round=round_, target=actor, name=what))
    elif what == "death":
        fight.enter(ev.Death(round=round_, target=actor))
    elif what == "down":
        fight.enter(ev.Damage(round=round_, target=actor, amount=40))
    elif what == "slowing":
        fight.enter(ao.Wound(round=round_, target=actor, effect="slowing"))
    elif what == "summon":
        owner = rng.choice(["mira", "hask"])
        side = fight.roster[owner].side
        wisp = fight.ruleset.schema.reader.read(
            {"type": "join", "round": round_, "combatant": {
                "id": f"wisp{serial}", "name": f"Wisp {serial}", "side": side, "hp": 3,
                "agility": rng.randint(-1, 4), "summoner": owner}}, ())
        fight.enter(wisp)
    else:
        command(fight, what, actor, rng)


def recorded(fight: Fight, what: str, actor: str, rng: random.Random) -> None:
    """A hit (at the unit whose turn it is, or by it; enough to fell, or not) or a miss
    by it, recorded in the beat under way as the table's h and m do."""
    round_ = max(fight.round, 1)
    plan = fight.plan()
    beat = plan.current(fight.resolved.get(round_, set()))
    if beat is None:
        return
    now = plan.beats[beat - 1].actions[0].actor
    if what == "miss":
        fight.enter(ev.Note(round=round_, text="misses", source=now, beat=beat))
        return
    target, source = (now, actor) if rng.random() < 0.6 else (actor, now)
    fight.enter(ev.Damage(round=round_, target=target, source=source, beat=beat,
                          amount=rng.choice((2, 40))))


def command(fight: Fight, what: str, actor: str, rng: random.Random) -> None:
    rs = fight.ruleset
    doing = act(rs, fight, what)
    form = doing.form(fight, None if what == "ties" else actor)
    values: dict[str, Any] = {f.name: f.default for f in form.fields} if form else {}
    if what == "delay" and form is not None:
        values["after"] = rng.choice([v for _, v in form.fields[0].options])
    if what in ("attack", "free"):
        values["aim"] = rng.choice(("", "slowing", "fatal", "centre"))
        values["d20"] = rng.choice((1, 20, rng.randint(1, 20)))
        values["flank"] = rng.random() < 0.3
        values["sneak"] = rng.random() < 0.2
    if what == "move":
        values["mode"] = rng.choice(["", "sneaking", "climbing"])
    if what == "bonus":
        values["use"] = rng.choice(["hit", "dodge", "move 2", "disengage"])
    assert doing.run is not None
    enter_all(fight, doing.run(fight, None if what == "ties" else actor, values, rng))


def battle(seed: int, steps: int, check: Any) -> Fight:
    fight = demo()
    rng = random.Random(seed)
    for serial in range(steps):
        with contextlib.suppress(RefereeError):  # refused: the fight is as it was
            deed(fight, rng, serial)
        check(fight)
    return fight


def names(fight: Fight) -> dict[str, str]:
    return {c.name: cid for cid, c in fight.roster.items()}


def tied_with(why: str) -> list[str]:
    """The names a "tied with A, B and 2 more: ..." why names."""
    found = re.match(r"tied with (.+?): ", why)
    if not found:
        return []
    return re.sub(r" and \d+ more$", "", found.group(1)).split(", ")


def agrees(fight: Fight, plan: Plan) -> None:
    """Each beat is one turn, and its why says what is true of that unit."""
    rs = fight.ruleset
    state = rs.fold.state(fight)
    actors = [beat.actions[0].actor for beat in plan.beats]
    agility = {beat.actions[0].actor: beat.extra["agility"] for beat in plan.beats}
    delays = {actor: after for actor, after, _ in state.delays}
    tails = {actor: tail for actor, _, tail in state.delays}
    by_name = names(fight)
    for beat in plan.beats:
        assert len(beat.actions) == 1 and beat.actions[0].action == "turn"
        cid = beat.actions[0].actor
        unit = fight.roster[cid]
        first = beat.why[0]
        if stats.initiator(unit):
            assert first == f"initiator: last regardless of Agility (Agility {agility[cid]:+d})"
            assert "AO-2" in beat.rules
        else:
            assert first == f"Agility {agility[cid]:+d}" and "AO-2" not in beat.rules
        for why in beat.why[1:]:
            for other in tied_with(why):
                assert by_name[other] in actors, (why, actors)
                assert agility[by_name[other]] == agility[cid], why
            if why.startswith("tie broken by") and rs.tie_mode == "d20":
                assert f"{unit.name} {'/'.join(map(str, state.ties[cid]))}" in why
        delayed = [w for w in beat.why if w.startswith("delayed")]
        assert ("AO-3" in beat.rules) == bool(delayed) == (cid in delays)
        if delayed and cid in delays:
            after = delays[cid]
            if after is None:
                assert delayed[-1] == "delayed to the end of the round"
            elif "out of the fight" in delayed[-1]:  # in its place: before those after it
                assert after not in actors
                later = [actors.index(t) for t in tails[cid] if t in actors]
                assert all(actors.index(cid) < n for n in later), (cid, actors)
            elif "who then delayed too" in delayed[-1]:  # overtaken: goes first
                assert after in delays and actors.index(after) > actors.index(cid)
            else:
                assert after in actors and actors.index(after) < actors.index(cid)


def taken(fight: Fight) -> set[str]:
    """The units whose turn of the round now is resolved."""
    done = fight.resolved.get(max(fight.round, 1), set())
    return {cid for cid in fight.roster if f"{cid}:turn" in done}


def begun(fight: Fight) -> set[str]:
    """The units whose turn of the round now is under way: a hit or a miss recorded in
    its beat."""
    state = fight.ruleset.fold.state(fight)
    return set(state.begun) if state.round == max(fight.round, 1) else set()


def no_fallen_unit_acts(fight: Fight) -> None:
    """Who fell or fled before its turn is skipped, in no beat; a turn taken before the
    unit fell stays in its beat, resolved (a resolved beat stays resolved: issue 30 A3),
    and so does a turn under way (a hit or a miss recorded in its beat); none of them is
    asked to roll a tie."""
    rs = fight.ruleset
    plan = fight.plan()
    actors = [a.actor for beat in plan.beats for a in beat.actions]
    took = taken(fight) | begun(fight)
    for cid in actors:
        assert units.no_turn(fight, cid) is None or cid in took, (cid,
                                                                 units.no_turn(fight, cid))
    assert len(actors) == len(set(actors))
    skipped = {item["actor"] for item in plan.skipped}
    assert skipped == {cid for cid in fight.roster if units.no_turn(fight, cid)} - took
    assert set(rs.planner.ties_due(fight)) <= set(actors) - {
        cid for cid in took if cid in taken(fight) or units.no_turn(fight, cid)}
    agrees(fight, plan)


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 100_000), hs.integers(1, 80))
def test_random_battles_keep_their_turns_beats_and_whys(seed: int, steps: int) -> None:
    """Three properties checked after every step of the same random battles (they were
    three tests playing 40 battles each apart, from the same kind of seed and length):
    no fallen unit in any plan and every why agreeing; a turn taken keeping its beat; a
    beat with a hit or a miss recorded staying its unit's."""
    checks = (no_fallen_unit_acts, a_turn_taken_keeps_its_beat(),
              a_beat_with_a_hit_or_a_miss_recorded_stays_its_units())

    def check(fight: Fight) -> None:
        for one in checks:
            one(fight)

    battle(seed, steps, check)


def a_turn_taken_keeps_its_beat() -> Callable[[Fight], None]:
    """Once resolved, a turn keeps its beat's number and its tick to the end of its round,
    whoever falls, flees, delays, joins or rolls a tie after it (issue 30 A3)."""
    kept: dict[tuple[int, str], int] = {}

    def check(fight: Fight) -> None:
        plan = fight.plan()
        beats = {beat.actions[0].actor: number
                 for number, beat in enumerate(plan.beats, start=1)}
        for cid in taken(fight):
            assert cid in beats, (cid, "left the plan")
            was = kept.setdefault((plan.round, cid), beats[cid])
            assert beats[cid] == was, (cid, was, beats[cid])
        assert sorted(beats[cid] for cid in taken(fight)) == list(
            range(1, len(taken(fight)) + 1))  # the turns taken come first

    return check


def a_beat_with_a_hit_or_a_miss_recorded_stays_its_units() -> Callable[[Fight], None]:
    """A hit or a miss recorded in a beat names it by number: that beat stays the turn it
    was recorded in (its unit, its number) to the end of the round, whoever falls in it
    (the unit whose turn it is too), so the log never gives it to another unit; a delay
    moves the unit's turn later, on purpose (issue 30 A3)."""
    seen = {"log": 0}
    before: list[Plan] = []
    pinned: dict[tuple[int, int], str] = {}

    def check(fight: Fight) -> None:
        for event in fight.log[seen["log"]:]:
            if isinstance(event, ev.NewRound):
                pinned.clear()
            if isinstance(event, ao.Delay):
                pinned.update({k: "" for k, v in pinned.items() if v == event.actor})
            if isinstance(event, ev.Damage | ev.Note) and event.beat is not None \
                    and before:
                was = before[-1].beats[event.beat - 1].actions[0].actor
                pinned.setdefault((event.round, event.beat), was)
        seen["log"] = len(fight.log)
        plan = fight.plan()
        for (round_, number), cid in pinned.items():
            if cid and round_ == plan.round:
                assert plan.beats[number - 1].actions[0].actor == cid, (number, cid)
                assert cid not in {item["actor"] for item in plan.skipped}
        before.append(plan)

    return check


def test_a_unit_that_acted_then_fell_keeps_its_turn_and_leaves_its_tie() -> None:
    fight = demo()
    fight.enter(ev.Resolve(round=1, actions=("sable:turn",)))
    fight.enter(ev.Resolve(round=1, actions=("brann:turn",)))
    fight.enter(ev.Death(round=1, target="brann"))
    no_fallen_unit_acts(fight)
    assert fight.ruleset.planner.ties_due(fight) == []  # Vask's tie: Brann went first
    plan = fight.plan()
    assert [b.actions[0].actor for b in plan.beats][:3] == ["sable", "brann", "vask"]
    assert plan.current(fight.resolved[1]) == 3
    assert "brann" not in {item["actor"] for item in plan.skipped}


# -- random dice: the outcome is the rule's ---------------------------------------------

TARGETS = ("hask", "gorm", "vask", "odo")


# an attack's strategies made once, not at each draw (a new one is checked at its first):
# the same draws in the same order
D20 = hs.one_of(hs.sampled_from([1, 20]), hs.integers(1, 20))
AIMS = hs.sampled_from(["", "centre"])
CONDITIONS = hs.sampled_from(["", "tied", "prone", "paralysed"])


@hs.composite
def attacks(draw: Any) -> dict[str, Any]:
    d20 = draw(D20)
    chain: list[int] = []
    if d20 in (1, 20):
        chain.append(draw(hs.integers(1, 4)))
        if chain[0] == 4:
            chain.append(draw(hs.integers(1, 6)))
    return {"target": draw(hs.sampled_from(TARGETS)), "d20": d20,
            "chain": " ".join(map(str, chain)), "damage": str(draw(hs.integers(1, 6))),
            "flank": draw(hs.booleans()), "sneak": draw(hs.booleans()),
            "zone": draw(hs.booleans()), "aim": draw(AIMS), "condition": draw(CONDITIONS),
            "bought": draw(hs.booleans()), "disrupted": draw(hs.booleans())}


def rule_needed(fight: Fight, target: str, condition: str, sneak: bool) -> int:
    """AO-7, AO-13, worked out here from the rules' words, apart from the ruleset."""
    agility = stats.agility(fight.roster[target])
    if sneak or condition in ("tied", "paralysed"):
        return 5
    return 5 + agility if condition == "prone" else 10 + agility


def rule_level(d20: int, chain: list[int], wanted: int) -> int:
    """AO-8, AO-9: 1, +1 for a 4 on the d4, +1 more for a 6 on the d6 (then it ends)."""
    if d20 != wanted:
        return 0
    return 1 + sum(1 for size, value in zip((4, 6), chain, strict=False) if value == size)


def set_up(a: dict[str, Any]) -> Fight:
    fight = demo()
    if a["condition"]:
        fight.enter(ev.Condition(round=1, target=a["target"], name=a["condition"]))
    if a["disrupted"]:
        fight.enter(ao.Wound(round=1, target="sable", effect="disrupting"))
    if a["bought"]:
        enter_all(fight, run(fight, "bonus", "sable", {"use": "hit"}, random.Random(0)))
    return fight


@settings(max_examples=150, deadline=None)
@given(attacks(), hs.sampled_from(["hit", "needed", "bonus", "level", "chain"]))
def test_the_fold_records_the_outcome_its_dice_give_and_refuses_one_they_contradict(
        a: dict[str, Any], change: str) -> None:
    """The attack's events, the attack itself first changed to contradict its dice (in
    `change`): that one is refused, the log as it was; then the attack as made is folded,
    and records the outcome the rules give its dice. (Two tests over the same drawn
    attacks: the refusal was held over 100 attacks of its own, now over these 150.)"""
    fight = set_up(a)
    before = len(fight.log)
    values = {k: v for k, v in a.items() if k not in ("condition", "bought", "disrupted")}
    events = run(fight, "attack", "sable", values, random.Random(1))
    made = next(e for e in events if isinstance(e, ao.Attack))
    at = events.index(made)
    enter_all(fight, events[:at])
    wrong = contradiction(made, change)
    if wrong is not None:
        try:
            fight.push(wrong)
        except RefereeError:
            assert len(fight.log) == before + at
        else:
            raise AssertionError(f"accepted {wrong}")
    enter_all(fight, events[at:])
    attack = next(e for e in fight.log[before:] if isinstance(e, ao.Attack))
    chain = [int(v) for v in a["chain"].split()]
    needed = rule_needed(fight, a["target"], a["condition"], a["sneak"])
    bonus = (2 - (3 if a["disrupted"] else 0) + a["flank"] + (a["aim"] == "centre")
             + a["bought"])
    hit = a["d20"] == 20 or (a["d20"] != 1 and a["d20"] + bonus >= needed)
    crit, fumble = rule_level(a["d20"], chain, 20), rule_level(a["d20"], chain, 1)
    assert (attack.needed, attack.bonus, attack.hit) == (needed, bonus, hit)
    assert (attack.crit, attack.fumble, list(attack.chain)) == (crit, fumble, chain)
    assert units.dead(fight, a["target"]) == (crit == 3)  # AO-8: felled at once
    assert units.dead(fight, "sable") == (fumble == 3 and a["zone"])  # AO-9


def contradiction(e: ao.Attack, change: str) -> ao.Attack | None:
    """The attack with one of its outcomes (or what decides it) no longer its dice's."""
    if change == "hit":
        return replace(e, hit=not e.hit)
    if change == "needed":
        return replace(e, needed=e.needed + 3)
    if change == "bonus":
        return replace(e, bonus=e.bonus + 2)
    if change == "level":
        if e.crit:
            return replace(e, crit=1 + e.crit % 3)
        return replace(e, fumble=1 + e.fumble % 3) if e.fumble else None
    if e.chain:  # a die past the decisive d6, or a chain that stopped short of it
        return replace(e, chain=e.chain + (1,))
    return None


@settings(max_examples=60, deadline=None)
@given(hs.integers(1, 20), hs.integers(1, 20), hs.integers(1, 20))
def test_tie_rolls_order_the_lineup_and_must_be_their_dice(brann: int, vask: int,
                                                            die: int) -> None:
    fight = demo()
    rs = fight.ruleset
    if die != brann:
        wrong = ao.Initiative(round=1, ties={"brann": brann, "vask": vask},
                              dice={"brann": [die], "vask": [vask]})
        try:
            fight.push(wrong)
        except RefereeError:
            pass
        else:
            raise AssertionError("a tie roll that is not its die was accepted")
    fight.enter(ao.Initiative(round=1, ties={"brann": brann, "vask": vask},
                              dice={"brann": [brann], "vask": [vask]}))
    order = [b.actions[0].actor for b in fight.plan().beats]
    if brann != vask:
        first = "brann" if brann > vask else "vask"
        assert order.index(first) < order.index("vask" if first == "brann" else "brann")
    else:
        assert set(rs.planner.ties_due(fight)) == {"brann", "vask"}  # rolled equal: again
