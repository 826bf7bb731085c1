"""The rules engine: pure Python, no Textual, no files, no clock, no global random.

It knows no ruleset by name: each ruleset is a package under `referee/rulesets/` that
implements the port (`port.Ruleset`).
"""

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
from .model import Combatant, Encounter, Side, Spell, Weapon
from .plan import Beat, Plan, PlannedAction
from .port import Ruleset

__all__ = [
    "Beat", "Combatant", "DuplicateId", "Encounter", "Fight", "FormatError",
    "IllegalDeclaration", "IllegalEvent", "Plan", "PlannedAction", "RefereeError", "Ruleset",
    "Side", "Spell", "Status", "UnknownCombatant", "UnknownId", "UnknownSide", "UnknownSpell",
    "UnknownWeapon", "Weapon",
]
