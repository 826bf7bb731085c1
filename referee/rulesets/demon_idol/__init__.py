"""demon-idol: the AD&D 1e combat procedure of source 004 (spec: demon-idol.md)."""

from .rules import RULES
from .ruleset import DemonIdol

RULESET = DemonIdol

__all__ = ["RULES", "RULESET"]
