"""A demon-idol plan never depends on the order the declarations came in (DI-0: a rule
moves the actions it names, wherever their declarations stand in the log): every
scenario's round planned with its combatants' declarations in every order, and random
rounds of missiles against reaction adjustments (DI-6), where two shots that each must
go first (or last) of the other's side once went one after the other, in the order they
were declared."""

from __future__ import annotations

import itertools
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Combatant, Encounter, Side, Weapon
from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.session.files import load_save
from tests.conftest import ROOT
from tests.strategies import DI, fight_of
from tests.test_demon_idol_properties import by_the_book, shape

HERE = ROOT / "tests" / "scenarios" / "demon-idol"
SETTING = {"initiative", "round", "join"}  # what may stand before a round's declarations


def one_round(path: Path) -> bool:
    """A scenario of one round's declarations after its setting (and nothing after)."""
    log = load_save(path).fight.log
    return (all(e.TYPE in SETTING | {"declare"} for e in log)
            and len({e.round for e in log if e.TYPE == "declare"}) == 1)


ROUNDS = sorted(p for p in HERE.glob("*.toml")
                if not p.name.endswith(".expect.toml") and one_round(p))


def orders(groups: list[list[ev.Event]]) -> list[tuple[list[ev.Event], ...]]:
    """Every order of the groups (up to 5), else each rotation and its reverse."""
    if len(groups) <= 5:
        return list(itertools.permutations(groups))
    turns = [tuple(groups[n:] + groups[:n]) for n in range(len(groups))]
    return turns + [tuple(reversed(t)) for t in turns]


def test_the_scenarios_taken_include_the_missile_rounds() -> None:
    names = {p.stem for p in ROUNDS}
    assert {"di-rule-06-tied-both-first", "di-rule-06-tied-both-last",
            "di-rule-06-side-first-together", "di-rule-06-equal-two-at-d-place"} <= names
    assert len(ROUNDS) >= 20


@pytest.mark.parametrize("path", ROUNDS, ids=lambda p: p.stem)
def test_a_scenarios_plan_is_the_same_in_every_order_of_declaring(path: Path) -> None:
    save = load_save(path)
    setting = [e for e in save.fight.log if e.TYPE != "declare"]
    by_actor: dict[str, list[ev.Event]] = {}
    for event in save.fight.log:  # an actor's own declarations keep their order (then)
        if isinstance(event, ev.Declare):
            by_actor.setdefault(event.actor, []).append(event)
    want = shape(save.fight)
    for order in orders(list(by_actor.values())):
        fight = Fight(save.encounter, save.fight.ruleset)
        for event in setting + [e for group in order for e in group]:
            fight.push(event)
        assert shape(fight) == want, [g[0].actor for g in order]


BOW = Weapon("bow", stats={"missile": True, "rate": 1, "speed_factor": 7})
SWORD = Weapon("sword", stats={"speed_factor": 5, "length": 3.5})


@st.composite
def missile_rounds(draw: st.DrawFn) -> tuple[Encounter, ev.Event, list[ev.Event]]:
    """Two or three sides of archers with reaction adjustments from -2 to +2 and fighters,
    their dice often tied; each archer shoots at someone of another side, each fighter
    strikes or runs."""
    side_ids = ["a", "b", "c"][:draw(st.integers(2, 3))]
    combatants = []
    for n in range(draw(st.integers(2, 7))):
        archer = n < 2 or draw(st.booleans())
        combatants.append(Combatant(
            id=f"c{n}", name=f"C{n}", side=side_ids[n % len(side_ids)], hp=10, max_hp=10,
            weapons=(BOW, SWORD) if archer else (SWORD,),
            stats={"reaction": draw(st.integers(-2, 2)) if archer else 0, "attacks": 1}))
    encounter = Encounter("demon-idol", "archers", 1, tuple(Side(s, s.upper()) for s in side_ids),
                          tuple(combatants))
    rolls = {s: draw(st.integers(2, 4)) for s in side_ids}
    declarations = []
    for c in combatants:
        enemy = draw(st.sampled_from([o.id for o in combatants if o.side != c.side]))
        fields = {"round": 1, "actor": c.id}
        if len(c.weapons) == 2 and draw(st.integers(0, 3)):
            declarations.append(DI.schema.event("declare", action="D", weapon="bow",
                                                target=(enemy,), **fields))
        else:
            action = draw(st.sampled_from("ABG"))
            extra = {"weapon": "sword", "target": (enemy,)} if action == "G" else {}
            declarations.append(DI.schema.event("declare", action=action, **fields, **extra))
    return encounter, DI.schema.event("initiative", round=1, rolls=rolls), declarations


@settings(max_examples=150, deadline=None)
@given(missile_rounds(), st.randoms(use_true_random=False))
def test_missiles_against_reaction_give_one_plan_in_every_order_of_declaring(
        round_: tuple[Encounter, ev.Event, list[ev.Event]], rnd: Random) -> None:
    encounter, initiative, declarations = round_
    shuffled = list(declarations)
    rnd.shuffle(shuffled)
    backwards = declarations[::-1]
    want = shape(fight_of(encounter, initiative, declarations))
    assert shape(fight_of(encounter, initiative, shuffled)) == want
    assert shape(fight_of(encounter, initiative, backwards)) == want
    book = shape(by_the_book(encounter, initiative, declarations))
    assert shape(by_the_book(encounter, initiative, shuffled)) == book
    assert shape(by_the_book(encounter, initiative, backwards)) == book


def test_a_shots_di6_line_leaves_its_beat_with_the_shot() -> None:
    """By the book, three sides: a's loser shoots with b's turn (DI-6, its die 1 + 1 equals
    b's 2), then DI-7 slots its first shot in before b's first attack. The DI-6 line left
    behind in b's D beat spoke of no one there (the properties found it)."""
    volley = Weapon("bow", stats={"missile": True, "rate": 2})
    encounter = Encounter("demon-idol", "volleys", 1,
                          tuple(Side(s, s.upper()) for s in "abc"), tuple(
        Combatant(id=f"c{n}", name=f"C{n}", side=side, hp=10, max_hp=10,
                  weapons=(volley if side != "c" else SWORD,),
                  stats={"reaction": 1 if side == "a" else 0, "attacks": 1})
        for n, side in enumerate("abc")))
    initiative = DI.schema.event("initiative", round=1, rolls={"a": 1, "b": 2, "c": 1})
    declarations = [DI.schema.event("declare", round=1, actor=actor, action="D", weapon="bow",
                                    target=(target,))
                    for actor, target in (("c0", "c1"), ("c1", "c0"))]
    beats = by_the_book(encounter, initiative, declarations).plan().beats
    by_label = {tuple(a.label() for a in b.actions): (b.rules, b.why) for b in beats}
    assert by_label[("c1:D#1",)] == (["DI-3"], ["b won initiative (2 vs 1): its D"])
    assert by_label[("c0:D#1",)][0] == ["DI-7"]
