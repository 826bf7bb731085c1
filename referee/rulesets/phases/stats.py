"""The keys phases adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.model import Combatant, Side
from referee.engine.specs import Field

TRAITS = ("Agile", "Heavy", "Elite", "Construct", "Uncroaked", "Leadership", "Paragon",
          "Caster", "Military", "Skeletal", "Beast", "Scout", "Thriller", "Bone Warlord",
          "Chief Warlord")
MODIFIERS = ("block", "mighty-blow", "guard", "interpose", "support", "coordinate", "dodge",
             "take-cover")

COMBATANT = (
    Field("combat", "Combat", "int", 0, minimum=0,
          help="base Combat: its phase (PH-2) and the number of phases (PH-1)"),
    Field("defense", "Defense", "int", 0, minimum=0),
    Field("traits", "traits", "texts", help="Agile, Heavy, Elite, Construct, Uncroaked, "
          "Leadership, Paragon, Caster, Military, Skeletal, Beast ..."),
    Field("player", "player-controlled", "bool", False, help="a Command Unit (PH-8)"),
    Field("level", "level", "int", 1, minimum=1, help="one combat modifier per level (PH-11)"),
    Field("modifiers", "combat modifiers", "texts",
          help="block, mighty-blow, guard, interpose, support, coordinate, dodge, take-cover"),
    Field("leadership", "Leadership", "int", 0, minimum=0,
          help="settles conflicting orders (PH-9)"),
    Field("elevation", "elevation", "int", 0, minimum=0, help="0-4 (PH-16)"),
    Field("squares", "squares", "int", 1, minimum=1, help="squares it occupies (PH-13)"),
    Field("cover", "in cover", "bool", False, help="Take Cover needs it (PH-11)"),
    Field("mount", "rides", "id", help="the mount it rides (PH-19)", form=False),
    Field("transport", "transport", "int", minimum=1, help="carries X units (PH-19)",
          form=False),
    Field("carried_by", "carried by", "id", help="PH-18", form=False),
    Field("dragged_by", "dragged by", "id", help="PH-18", form=False),
)
SIDE = (Field("defending", "defending", "bool", False,
              help="starts holding a delayed Move and Action (PH-4)"),)


def combat(c: Combatant) -> int:
    return int(c.stats.get("combat", 0))


def defense(c: Combatant) -> int:
    return int(c.stats.get("defense", 0))


def traits(c: Combatant) -> tuple[str, ...]:
    return tuple(c.stats.get("traits", ()))


def has(c: Combatant, trait: str) -> bool:
    wanted = trait.lower()
    return any(t.lower() == wanted for t in c.stats.get("traits", ()))


def uncroaked(c: Combatant) -> bool:
    return has(c, "Uncroaked") or has(c, "Skeletal")


def stun_immune(c: Combatant) -> bool:
    return has(c, "Construct") or uncroaked(c)


def level(c: Combatant) -> int:
    return int(c.stats.get("level", 1))


def modifiers(c: Combatant) -> tuple[str, ...]:
    return tuple(c.stats.get("modifiers", ()))


def leadership(c: Combatant) -> int:
    return int(c.stats.get("leadership", 0))


def elevation(c: Combatant) -> int:
    return int(c.stats.get("elevation", 0))


def squares(c: Combatant) -> int:
    return int(c.stats.get("squares", 1))


def player(c: Combatant) -> bool:
    return bool(c.stats.get("player", False))


def defending(side: Side | None) -> bool:
    return bool(side is not None and side.stats.get("defending", False))
