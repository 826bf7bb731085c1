"""agility-order: the Agility lineup of source 002 (spec: agility-order.md)."""

from .rules import RULES
from .ruleset import AgilityOrder

RULESET = AgilityOrder

__all__ = ["RULES", "RULESET"]
