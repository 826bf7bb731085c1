"""count-up: the count-up initiative of source 003 (spec: count-up.md)."""

from .rules import RULES
from .ruleset import CountUp

RULESET = CountUp

__all__ = ["RULES", "RULESET"]
