"""demon-idol: the AD&D 1e combat procedure of source 004 (spec: demon-idol.md)."""

from .ruleset import DemonIdol
from .rules import RULES

RULESET = DemonIdol

__all__ = ["RULES", "RULESET"]
