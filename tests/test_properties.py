"""Invariants of planning, for any encounter and any round of declarations."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.strategies import count_up_rounds, fight_of


def planned(fight):
    return Counter((a.declared, a.routine, a.turn) for b in fight.plan().beats for a in b.actions)


def shape(fight):
    return [
        (sorted(a.label() for a in b.actions), b.rules, b.why, b.extra, b.tag)
        for b in fight.plan().beats
    ]


def deterministic_whatever_the_order(round_, rnd):
    """The same round planned twice gives the same plan; its declarations in any order
    too."""
    encounter, initiative, declarations = round_
    planned_once = shape(fight_of(*round_))
    assert planned_once == shape(fight_of(*round_))
    shuffled = list(declarations)
    rnd.shuffle(shuffled)  # (the round as drawn is the one just planned twice)
    assert planned_once == shape(fight_of(encounter, initiative, shuffled))


@settings(max_examples=200, deadline=None)
@given(count_up_rounds(), st.randoms(use_true_random=False))
def test_every_count_up_action_planned_exactly_once_and_plans_are_deterministic(round_, rnd):
    """Every action planned once, and the plan the same planned twice and whatever the
    order of its declarations (held over about 100 count-up rounds of 200 drawn from both
    rulesets apart, now over these 200; demon-idol's rounds are held to the same, and
    more, in test_demon_idol_properties)."""
    fight = fight_of(*round_)
    want = Counter((index, None, None) for index, _ in fight.declared(1))
    assert planned(fight) == want
    deterministic_whatever_the_order(round_, rnd)


def test_two_shots_at_one_target_plan_alike_in_either_order():
    """The case hypothesis found: a loser's shot with a bonus that ties the winner's die
    joins the winner's D beat; the winner's own shot (a bonus too) stays in its usual
    place, first, whichever of the two was declared first (DI-6)."""
    from referee.engine import Combatant, Encounter, Side, Weapon
    from referee.rulesets.demon_idol import events as di

    def fighter(n, side, reaction, missile=None):
        weapons = (Weapon("sword", stats={"rate": 1}),)
        if missile:
            weapons += (Weapon(missile, stats={"missile": True, "rate": 1}),)
        return Combatant(f"c{n}", f"C{n}", side, 10, 10, weapons,
                         stats={"reaction": reaction, "attacks": 1})

    encounter = Encounter("demon-idol", "generated", 1, (Side("a", "A"), Side("b", "B")),
                          (fighter(0, "a", 0), fighter(1, "b", 0), fighter(2, "a", 2, "bow"),
                           fighter(3, "b", 1, "club")))
    initiative = di.Initiative(round=1, rolls={"a": 4, "b": 6})
    psionic = di.Declare(round=1, actor="c0", action="P")
    bow = di.Declare(round=1, actor="c2", action="D", target=("c0",), weapon="bow")
    club = di.Declare(round=1, actor="c3", action="D", target=("c0",), weapon="club")
    first = shape(fight_of(encounter, initiative, [psionic, bow, club]))
    assert first == shape(fight_of(encounter, initiative, [psionic, club, bow]))
    assert sorted(first[1][0]) == ["c2:D", "c3:D"], first
