"""The keys count-up adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.model import Combatant, Spell, Weapon
from referee.engine.specs import Field

COMBATANT = (
    Field("agility", "Agility modifier", "int", 0, help="base initiative = d12 - this (CU-2)"),
    Field("stress", "Stress", "int", 0, minimum=0, help="soaks damage first (CU-7)"),
    Field("wounds", "Wound Points", "int", help="blank: the hit points (CU-7)", form=False),
    Field("strength", "Strength", "int", 10, minimum=1, help="dead at minus this (CU-8)"),
    Field("insight", "Insight", "int", 0, help="adds to morale (CU-6)"),
    Field("hd", "HD", "int", 0, minimum=0, help="adds to morale (CU-6)"),
    Field("group", "group", "id", help="identical monsters share a roll (CU-2)"),
    Field("reaction", "reaction", "int", 0, form=False),  # kept: shared rosters carry it
    Field("attacks", "attacks", "int", 1, minimum=1, form=False),
    Field("ac", "armour class", "int", form=False),
    Field("level", "level", "int", form=False),
    Field("move", "movement rate", "int", minimum=0, form=False),
)
WEAPON = (
    Field("speed", "speed", "int", 0, help="added to the attack's modifier (CU-3)"),
    Field("critical", "critical", "int", 2, minimum=1, help="critical multiplier (CU-7)"),
    Field("damage_type", "damage type", "text", "", help="its injury table (CU-9)"),
)
SPELL = (
    Field("casting_tn", "casting TN", "int", help="speed = TN - 10 (CU-3)"),
    Field("speed", "speed", "int", form=False),
    Field("level", "level", "int", form=False),
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
