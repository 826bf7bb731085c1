"""The keys phases adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.model import Combatant, Side
from referee.engine.specs import Field
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

TRAITS = ("Agile", "Heavy", "Elite", "Construct", "Uncroaked", "Leadership", "Paragon",
          "Caster", "Military", "Skeletal", "Beast", "Scout", "Thriller", "Bone Warlord",
          "Chief Warlord")
KNOWN_TRAITS = frozenset(t.lower() for t in TRAITS)
MODIFIERS = ("block", "mighty-blow", "guard", "interpose", "support", "coordinate", "dodge",
             "take-cover")

# The range each number of a unit makes sense in: beyond it a file is refused, never
# walked through (a Combat of a hundred million would be as many phases, PH-1).
RANGES = {
    "hp": (-999, 9999), "max_hp": (0, 9999), "combat": (0, 99), "defense": (0, 99),
    "level": (1, 99), "leadership": (0, 99), "elevation": (0, 4),  # at most 4 (PH-16)
    "squares": (1, 25), "transport": (1, 99),
}
COMBATANT = (
    Field("combat", "Combat", "int", 0, minimum=0, maximum=RANGES["combat"][1],
          help="base Combat: its phase (PH-2) and the number of phases (PH-1)"),
    Field("defense", "Defense", "int", 0, minimum=0, maximum=RANGES["defense"][1]),
    Field("traits", "traits", "texts", help="Agile, Heavy, Elite, Construct, Uncroaked, "
          "Leadership, Paragon, Caster, Military, Skeletal, Beast ..."),
    Field("player", "player-controlled", "bool", False, help="a Command Unit (PH-8)"),
    Field("level", "level", "int", 1, minimum=1, maximum=RANGES["level"][1],
          help="one combat modifier per level (PH-11)"),
    Field("modifiers", "combat modifiers", "texts",
          help="block, mighty-blow, guard, interpose, support, coordinate, dodge, take-cover"),
    Field("leadership", "Leadership", "int", 0, minimum=0, maximum=RANGES["leadership"][1],
          help="settles conflicting orders (PH-9)"),
    Field("elevation", "elevation", "int", 0, minimum=0, maximum=RANGES["elevation"][1],
          help="0-4 (PH-16)"),
    Field("squares", "squares", "int", 1, minimum=1, maximum=RANGES["squares"][1],
          help="squares it occupies (PH-13)"),
    Field("cover", "in cover", "bool", False, help="Take Cover needs it (PH-11)"),
    Field("mount", "rides", "id", help="the mount it rides (PH-19)", form=False),
    Field("transport", "transport", "int", minimum=1, maximum=RANGES["transport"][1],
          help="carries X units (PH-19)", form=False),
    # one id, or two: two Heavy units carry a Heavy one, two regular units drag one (PH-18)
    Field("carried_by", "carried by", "ids", help="PH-18: its Heavy carrier, or two",
          form=False),
    Field("dragged_by", "dragged by", "ids", help="PH-18: who drags it, one or two",
          form=False),
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


STUN_IMMUNE = frozenset({"construct", "uncroaked", "skeletal"})  # PH-17, as lowered


def lowered(c: Combatant) -> set[str]:
    """Its traits in lower case: several asked of one unit in one look."""
    return {t.lower() for t in c.stats.get("traits", ())}


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


def carriers(c: Combatant) -> tuple[str, ...]:
    """Who carries it (PH-18): one id in older saves, a list of one or two now."""
    return ids(c.stats.get("carried_by"))


def draggers(c: Combatant) -> tuple[str, ...]:
    return ids(c.stats.get("dragged_by"))


def ids(value: Any) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def player(c: Combatant) -> bool:
    return bool(c.stats.get("player", False))


def defending(side: Side | None) -> bool:
    return bool(side is not None and side.stats.get("defending", False))
