"""The keys count-up adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.model import Combatant, Spell, Weapon
from referee.engine.specs import Field

from .ranges import MODIFIER, MULTIPLIER, POINTS

# Each number has the range the rules make sense in (ranges.py): a modifier adds to a d12
# or 3d6 roll, Wound Points and Stress are a creature's, a critical multiplies by 2 to 4
# (a house rule may go further).
COMBATANT = (
    Field("agility", "Agility modifier", "int", 0, maximum=MODIFIER,
          help="base initiative = d12 - this (CU-2)"),
    Field("stress", "Stress", "int", 0, minimum=0, maximum=POINTS[1],
          help="soaks damage first (CU-7)"),
    Field("wounds", "Wound Points", "int", minimum=POINTS[0], maximum=POINTS[1],
          help="blank: the hit points (CU-7)", form=False),
    Field("strength", "Strength", "int", 10, minimum=1, maximum=99,
          help="dead at minus this (CU-8)"),
    Field("insight", "Insight", "int", 0, maximum=MODIFIER, help="adds to morale (CU-6)"),
    Field("hd", "HD", "int", 0, minimum=0, maximum=99, help="adds to morale (CU-6)"),
    Field("group", "group", "id", help="identical monsters share a roll (CU-2)"),
    # kept for the referee's eye: shared rosters carry them
    Field("reaction", "reaction", "int", 0, maximum=MODIFIER, form=False),
    Field("attacks", "attacks", "int", 1, minimum=1, maximum=99, form=False),
    Field("ac", "armour class", "int", maximum=MODIFIER, form=False),
    Field("level", "level", "int", maximum=99, form=False),
    Field("move", "movement rate", "int", minimum=0, maximum=999, form=False),
)
WEAPON = (
    Field("speed", "speed", "int", 0, maximum=MODIFIER,
          help="added to the attack's modifier (CU-3)"),
    Field("critical", "critical", "int", 2, minimum=MULTIPLIER[0], maximum=MULTIPLIER[1],
          help="critical multiplier (CU-7)"),
    Field("damage_type", "damage type", "text", "", help="its injury table (CU-9)"),
)
SPELL = (
    Field("casting_tn", "casting TN", "int", maximum=99, help="speed = TN - 10 (CU-3)"),
    Field("speed", "speed", "int", maximum=MODIFIER, form=False),
    Field("level", "level", "int", maximum=99, form=False),
)


def agility(c: Combatant) -> int:
    return int(c.stats.get("agility", 0))


def stress(c: Combatant) -> int:
    return int(c.stats.get("stress", 0))


def wound_points(c: Combatant) -> int:
    value = c.stats.get("wounds")
    return c.hp if value is None else int(value)


def strength(c: Combatant) -> int:
    return int(c.stats.get("strength", 10))


def insight(c: Combatant) -> int:
    return int(c.stats.get("insight", 0))


def hd(c: Combatant) -> int:
    return int(c.stats.get("hd", 0))


def group(c: Combatant) -> str:
    return str(c.stats.get("group", ""))


def weapon_speed(w: Weapon) -> int:
    return int(w.stats.get("speed", 0))


def critical(w: Weapon) -> int:
    return int(w.stats.get("critical", 2))


def spell_speed(s: Spell) -> int:
    speed = s.stats.get("speed")
    if speed is not None:
        return int(speed)
    tn = s.stats.get("casting_tn")
    return int(tn) - 10 if tn is not None else 0
