"""simple: a sixth ruleset whose whole behaviour its file sets (no Python of the
referee's own): initiative by side or combatant, a die and a roster key added, high or
low first, each round or once, ties together, re-rolled or broken by a key."""

from .rules import RULES
from .ruleset import Simple

RULESET = Simple

__all__ = ["RULES", "RULESET"]
