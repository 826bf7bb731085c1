"""sanctum: group combats that resolve themselves, every step logged (spec: sanctum.md)."""

from .rules import RULES
from .ruleset import Sanctum

RULESET = Sanctum

__all__ = ["RULES", "RULESET"]
