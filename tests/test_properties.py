"""Invariants of planning, for any encounter and any round of declarations: a case
hypothesis found (the properties themselves: see below)."""

from __future__ import annotations

from tests.strategies import fight_of

# The properties of drawn rounds' plans live with each ruleset's: demon-idol's in
# test_demon_idol_properties, count-up's in test_count_up_properties (each drawn round
# checked there, then fought on).


def shape(fight):
    return [
        (sorted(a.label() for a in b.actions), b.rules, b.why, b.extra, b.tag)
        for b in fight.plan().beats
    ]


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
