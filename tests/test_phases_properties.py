"""phases properties (hypothesis): whatever a random battle's events, no unit out of the
fight appears in any plan's actions or holding (PH-21) and every why agrees with its
beat's actions; for random dice, the outcome the fold records is the one the rule gives
(PH-13 to PH-15), and an outcome against its dice is refused."""

from __future__ import annotations

import contextlib
import functools
import random
import re
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RefereeError
from referee.engine.fight import Fight
from referee.engine.model import Encounter
from referee.engine.plan import Beat
from referee.engine.port import Ruleset
from referee.engine.record import replace
from referee.rulesets import ruleset_class
from referee.rulesets.phases import events as ph
from referee.session.files import builtin_rulesets, parse_save, parse_toml
from tests.acts import act

SIDES = ('sides = [{ id = "warband", name = "Warband" }, '
         '{ id = "town", name = "Town", defending = true }]')
TRAITS = {0: '["Leadership"]', 3: '["Heavy"]', 6: '["Leadership"]', 9: '["Uncroaked"]',
          10: '["Heavy"]'}
EXTRA = {4: ', carried_by = "u3"', 11: ', dragged_by = "u7"', 5: ', mount = "u10"'}


@functools.cache
def read(save: str) -> tuple[Encounter, type[Ruleset[Any]], str]:
    """A save of these tests (phases, no events), read once: its encounter (frozen:
    shared by the fights made of it), its ruleset's class and its ruleset's file."""
    found = parse_save(save, Path("fight.toml"))
    assert found.ruleset.id == "phases" and not found.fight.log
    return (found.encounter, ruleset_class("phases"),
            builtin_rulesets()["phases"].read_text(encoding="utf-8"))


def fresh(save: str) -> Fight:
    """The fight of `save` as it opens, with a ruleset made anew from its file (no cache
    of another example's fight in it): what reading the whole save again gives."""
    encounter, cls, ruleset = read(save)
    return Fight(encounter, cls(parse_toml(ruleset, "phases.toml")))


def unit(n: int) -> str:
    side = "warband" if n < 6 or n == 10 else "town"
    return (f'  {{ id = "u{n}", name = "Unit {n}", side = "{side}", hp = 4, '
            f'combat = {n % 4}, defense = 3, traits = {TRAITS.get(n, "[]")}'
            f'{EXTRA.get(n, "")} }},')


BATTLE = "\n".join([
    'format = "referee-save"', "version = 1", 'ruleset = "phases"', 'title = "A melee"',
    "seed = 5", SIDES, "combatants = [", *(unit(n) for n in range(12)), "]", "events = []",
    '[[squads]]\nid = "band"\nkind = "stack"\nleader = "u0"\nmembers = ["u0", "u1", "u2"]',
    '[[squads]]\nid = "wall"\nkind = "stack"\nleader = "u6"\nmembers = ["u6", "u7", "u8"]',
])
UNITS = [f"u{n}" for n in range(12)]
KINDS = ["use", "delay", "stun", "calm", "immobilized", "hurt", "kill", "flee", "round",
         "undo", "order", "regroup", "resolve", "surrender", "decay"]
deed = st.tuples(st.sampled_from(KINDS), st.sampled_from(UNITS),
                 st.sampled_from(["move", "action"]), st.integers(0, 3))


def deed_event(fight: Fight, kind: str, who: str, what: str, phase: int) -> ph.ev.Event:
    round_ = max(fight.round, 1)
    if kind == "use":
        return ph.Use(round=round_, phase=phase, actor=who, what=what, engaged=phase == 0)
    if kind == "delay":
        return ph.Delay(round=round_, actor=who, keep=(what,))
    if kind in ("stun", "calm", "immobilized"):
        return ph.Condition(round=round_, target=who, name=kind, on=what == "move",
                            phase=phase if phase < 3 else None)
    if kind == "hurt":
        return ph.Damage(round=round_, target=who, amount=phase + 1)
    if kind == "kill":
        return ph.ev.Death(round=round_, target=who)
    if kind == "flee":
        return ph.Condition(round=round_, target=who, name="fled", phase=None)
    if kind == "undo":
        return ph.ev.Undo(round=round_)
    if kind == "order":
        return ph.Order(round=round_ + phase % 2, squad="band" if phase < 2 else "wall",
                        tactic="delay" if what == "move" else "hold", target="any")
    if kind == "regroup":
        return ph.Regroup(round=round_, actor=who, join="wall" if phase == 1 else None,
                          leave=phase == 2, leader=who if phase == 3 else None)
    if kind == "resolve":
        plan = fight.plan()
        now = plan.current(fight.resolved.get(plan.round, set())) or 1
        return ph.ev.Resolve(round=round_, actions=tuple(plan.keys(now)))
    if kind == "surrender":
        return ph.Surrender(round=round_, side="town" if what == "move" else "warband")
    if kind == "decay":
        return ph.Decay(round=round_, target=who, hits=phase)
    return ph.ev.NewRound(round=round_ + 1)


def fallen(fight: Fight) -> set[str]:
    """Out of the fight, read from the fight itself (not the ruleset's own record):
    croaked, fled, or on a side that surrendered."""
    gave_up = set(fight.ruleset.tracker.fight_facts(fight)["surrendered"])
    return {cid for cid, c in fight.roster.items()
            if fight.status[cid].dead or fight.status[cid].hp <= 0
            or "fled" in fight.status[cid].conditions or c.side in gave_up}


def listed(text: str, by_name: dict[str, str], ids: set[str]) -> bool:
    """Whether a why's list of names ("A, B and 3 more") names exactly `ids`."""
    found = re.fullmatch(r"(.+) and (\d+) more", text)
    shown = (found.group(1) if found else text).split(", ")
    more = int(found.group(2)) if found else 0
    named = {by_name[n] for n in shown}
    return named <= ids and len(named) + more == len(ids)


def cid_of(text: str, name: dict[str, str]) -> str:
    """The unit a why's reason begins with ("Unit 10 is stunned": u10, not u1)."""
    who = [cid for cid, n in name.items() if text == n or text.startswith(n + " ")]
    assert who, text
    return max(who, key=lambda cid: len(name[cid]))


def agrees(fight: Fight, beat: Beat, out: set[str], first: bool = False) -> None:
    """The beat's why says who gains and holds exactly as its actions and holding do."""
    name = {cid: c.name for cid, c in fight.roster.items()}
    by_name = {v: k for k, v in name.items()}
    acting = {a.actor for a in beat.actions}
    holding = {h["actor"] for h in beat.extra["holding"]}
    assert not (acting | holding) & out, (beat.tag, (acting | holding) & out)
    said_gaining: set[str] = set()
    for why in beat.why:
        found = re.fullmatch(r"(.+) gains? on base Combat \d+", why)
        if found:
            assert listed(found.group(1), by_name, acting), (why, acting)
            said_gaining = acting
        found = re.fullmatch(r"holding delayed: (.+)", why)
        if found:
            assert listed(found.group(1), by_name, holding), (why, holding)
        found = re.fullmatch(r"(.+?): gains no (Move or Action|Move|Action)", why) or \
            re.fullmatch(r"(.+?) holds a delayed (Move and Action|Move|Action): gains no new one",
                         why)
        if found:
            cid = cid_of(found.group(1), name)
            kinds = {"Move": {"move"}, "Action": {"action"}}.get(found.group(2),
                                                               {"move", "action"})
            if "holds a delayed" in why:  # PH-3: it holds what it does not gain anew, as
                # the phase begins (a status from this phase takes it only after, PH-10)
                assert cid in holding, why
            assert not any(a.actor == cid and a.action in kinds for a in beat.actions), why
            assert cid not in out, why
        found = re.fullmatch(r"(.+?) is \w+: loses the delayed (Move and Action|Move|Action) "
                             "it held", why)
        if found and not first:  # PH-10: a status from this phase took what it held as
            # the phase began (FORMAT: `holding`), so this phase lists it holding them (in
            # the first phase the status may be the round's own, taken before it began)
            cid = cid_of(found.group(1), name)
            kinds = {"Move": {"move"}, "Action": {"action"}}.get(found.group(2),
                                                               {"move", "action"})
            held = [h["delayed"] for h in beat.extra["holding"] if h["actor"] == cid]
            assert any(kinds <= set(k) for k in held), (why, held)
        if "left the fight" in why:
            cid = by_name[why.split(" left the fight")[0]]
            assert cid not in acting and cid not in holding, why
        elif any(why.startswith(name[cid] + " ") for cid in out):
            raise AssertionError(f"a why speaks of a unit out of the fight: {why}")
    assert said_gaining == acting, (beat.tag, said_gaining, acting)


def check_plans(fight: Fight, out_by_round: dict[int, set[str]]) -> None:
    for round_ in range(1, max(fight.round, 1) + 1):
        out = out_by_round.get(round_, set())
        for pos, beat in enumerate(fight.plan(round_).beats):
            agrees(fight, beat, out, first=pos == 0)


@settings(max_examples=120, deadline=None)
@given(st.lists(deed, max_size=35), st.lists(st.booleans(), min_size=35, max_size=35))
def test_no_fallen_unit_in_any_plan_and_every_why_agrees(
        deeds: list[tuple[str, str, str, int]], looks: list[bool]) -> None:
    fight = fresh(BATTLE)
    for (kind, who, what, phase), look in zip(deeds, looks, strict=False):
        with contextlib.suppress(RefereeError):
            fight.enter(deed_event(fight, kind, who, what, phase))
        if look:
            check_plans(fight, out_rounds(fight))
    check_plans(fight, out_rounds(fight))


def out_rounds(fight: Fight) -> dict[int, set[str]]:
    """The units out of the fight by the end of each round (or now, for this one), from
    a fresh fold of the events in effect, stepping through them."""
    again = Fight(fight.encounter, fight.ruleset)
    out: dict[int, set[str]] = {}
    for event in fight.events:
        again.push(event)
        out.setdefault(max(again.round, 1), set()).update(fallen(again))
    for round_ in range(1, max(fight.round, 1) + 1):  # once out, out (no heal here)
        out.setdefault(round_, set()).update(out.get(round_ - 1, set()))
    return out


# -- the dice decide the outcome ----------------------------------------------------------

DUEL = "\n".join([
    'format = "referee-save"', "version = 1", 'ruleset = "phases"', 'title = "A duel"',
    "seed = 5", 'sides = [{ id = "warband", name = "Warband" }, { id = "town", name = "Town" }]',
    "combatants = [",
    '  { id = "grub", name = "Grub", side = "warband", hp = 9, combat = 3, defense = 3 },',
    '  { id = "ogre", name = "Ogre", side = "warband", hp = 9, combat = 3, defense = 3, '
    'traits = ["Heavy"], squares = 2 },',
    '  { id = "hale", name = "Hale", side = "town", hp = 9, combat = 3, defense = 3 },',
    '  { id = "bess", name = "Bess", side = "town", hp = 9, combat = 3, defense = 3, '
    'mount = "wolf" },',
    '  { id = "wolf", name = "Wolf", side = "town", hp = 9, combat = 3, defense = 5, '
    'traits = ["Heavy"], elevation = 1 },',
    "]", "events = []"])
die = st.integers(1, 6)


def duel() -> Fight:
    return fresh(DUEL)


def run(fight: Fight, command: str, actor: str, values: dict[str, Any]) -> list[Any]:
    done = act(fight, command).run
    assert done is not None
    events = done(fight, actor, values, random.Random(1))
    for event in events:
        fight.enter(event, follows=event is not events[0])
    return events


def forged(fight: Fight, events: list[Any], **changes: Any) -> None:
    """The same dice with another outcome: refused, and the fight unchanged."""
    trial = fight.copy()
    for event in events[:-1]:
        trial.push(event)
    try:
        trial.push(replace(events[-1], **changes))
    except RefereeError:
        return
    raise AssertionError(f"accepted against its dice: {changes}")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["grub", "ogre"]), st.lists(die, min_size=4, max_size=4),
       st.lists(die, min_size=2, max_size=2), st.lists(die, min_size=3, max_size=3),
       st.booleans(), st.booleans())
def test_a_bull_rush_is_won_by_the_dice_the_rule_reads(
        rusher: str, mine: list[int], hale: list[int], bess: list[int], room: bool,
        dodging: bool) -> None:
    fight = duel()
    mine = mine[:4 if rusher == "ogre" else 2]  # PH-13: Heavy +1d6, a second square +1d6
    rolled = (mine, bess) if dodging else (mine, hale, bess)  # a dodger rolls nothing
    typed = "; ".join(" ".join(map(str, d)) for d in rolled)
    before = fight.copy()
    events = run(fight, "bull-rush", rusher, {"target": "hale", "others": "bess",
                                              "dodging": dodging, "room": room,
                                              "dice": typed, "phase": 3})
    # PH-13: the rusher beats every roll, a dodger loses; PH-19: Bess rides the Heavy Wolf
    # and rolls its 3d6
    beats_hale = dodging or sum(mine) > sum(hale)
    wins = beats_hale and sum(mine) > sum(bess) and room
    manoeuvre = events[-1]
    assert manoeuvre.success is wins
    assert fight.ruleset.tracker.facts(fight, rusher)["used"] == ["action"]
    forged(before, events, success=not wins)


@settings(max_examples=150, deadline=None)
@given(st.lists(die, min_size=2, max_size=5), st.integers(0, 3))
def test_a_dismount_takes_dice_above_the_mounts_defense(dice: list[int], helpers: int) -> None:
    fight = duel()
    dice = (dice * 3)[:2 + helpers]
    before = fight.copy()
    events = run(fight, "dismount", "grub", {"target": "bess", "helpers": helpers,
                                             "dice": " ".join(map(str, dice)), "phase": 3})
    # Wolf: Defense 5, one level above Grub: +4 (PH-16); above it, not equal (PH-15)
    dismounted = sum(dice) > 9
    assert events[-1].success is dismounted
    assert fight.ruleset.tracker.facts(fight, "bess")["mounted"] is not dismounted
    # PH-15: once dismounted, no longer the Heavy wolf's 3d6 in a bull rush
    assert fight.ruleset.tracker.facts(fight, "bess")["rush_dice"] == (
        "2d6" if dismounted else "3d6")
    forged(before, events, success=not dismounted)


@settings(max_examples=100, deadline=None)
@given(die, st.integers(0, 8))
def test_a_subdue_deals_what_its_d6_says(face: int, damage: int) -> None:
    fight = duel()
    before = fight.copy()
    events = run(fight, "subdue", "grub", {"target": "hale", "damage": damage,
                                           "dice": str(face), "phase": 3})
    status = fight.status["hale"]
    if face <= 3:
        assert (status.marks["fatigue"], status.hp) == (damage // 2, 9)
    elif face <= 5:
        assert (status.marks["fatigue"], status.hp) == (damage, 9)
    else:
        assert (status.marks["fatigue"], status.hp) == (0, 9 - damage)
    forged(before, events, fatigue=face == 6)
    if face <= 3 and damage >= 2:
        forged(before, events, amount=damage)
