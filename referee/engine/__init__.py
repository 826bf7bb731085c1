"""The rules engine: pure Python, no Textual, no files, no clock, no global random."""

from .errors import (
    DuplicateId,
    FormatError,
    IllegalDeclaration,
    IllegalEvent,
    RefereeError,
    UnknownCombatant,
    UnknownId,
    UnknownSide,
    UnknownSpell,
    UnknownWeapon,
)
from .fight import Fight, Status
from .model import Combatant, Device, Encounter, Side, Spell, Weapon
from .plan import Beat, Plan, PlannedAction
from .rulesets import Ruleset, make_ruleset

__all__ = [
    "Beat", "Combatant", "Device", "DuplicateId", "Encounter", "Fight", "FormatError",
    "IllegalDeclaration", "IllegalEvent", "Plan", "PlannedAction", "RefereeError", "Ruleset",
    "Side", "Spell", "Status", "UnknownCombatant", "UnknownId", "UnknownSide", "UnknownSpell",
    "UnknownWeapon", "Weapon", "make_ruleset",
]
