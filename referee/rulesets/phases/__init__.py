"""phases: rounds of phases, Moves and Actions held across rounds, squads and roll-offs,
for large battles (source 001; spec: phases.md)."""

from .rules import RULES
from .ruleset import Phases

RULESET = Phases

__all__ = ["RULES", "RULESET"]
