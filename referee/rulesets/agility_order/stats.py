"""The keys agility-order adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.events import ROUNDS
from referee.engine.model import Combatant, Weapon
from referee.engine.specs import Field

# the ranges the rules make sense in: the hit target is 10 + Agility on a d20, so a
# modifier past 30 leaves no roll that matters; a save's rounds end at ROUNDS
MODIFIER = 30
COMBATANT = (
    Field("agility", "Agility modifier", "int", 0, maximum=MODIFIER,
          help="the lineup (AO-1); hit target 10 + it (AO-7)"),
    Field("accuracy", "Accuracy", "int", 0, maximum=MODIFIER,
          help="added to the d20 to hit (AO-7)"),
    Field("initiator", "initiator", "bool", False,
          help="attacked before the battle began: last (AO-2)"),
    Field("feats", "feats", "texts", (), help="Reach, Athlete, Maneuverer, Sneak attack ..."),
    Field("armor", "armour", "int", 0, minimum=0, maximum=100,
          help="taken off each hit's damage (AO-11)"),
    Field("strength", "Strength modifier", "int", 0, maximum=MODIFIER,
          help="added to melee damage"),
    Field("mp", "MP", "int", minimum=0, maximum=9999, help="replenished for the victors "
          "(AO-15)"),
    Field("level", "level", "int", 0, minimum=0, maximum=100,
          help="summoning slots (AO-14)"),
    Field("summoned", "summoned in round", "int", minimum=0, maximum=ROUNDS,
          help="a summon: the round it came (0: before the battle) (AO-14)"),
    Field("thralled", "thralled", "bool", False, help="a summon that stays (AO-14)"),
    Field("summoner", "summoner", "id", help="whose summoning slot it takes (AO-14)"),
)
WEAPON = (
    Field("ranged", "ranged", "bool", False, help="no Strength, no +1 melee damage BA"),
)

# AO-5: the ways a unit moves ("" normal), and those that halve its spaces
MOVES = (("normal", ""), ("sneaking", "sneaking"), ("swimming", "swimming"),
         ("climbing", "climbing"), ("at maximum load", "max load"), ("tumbling", "tumbling"))
SLOW = ("sneaking", "swimming", "climbing", "max load", "tumbling")

FEATS = ("Reach", "Athlete", "Maneuverer", "Sneak attack", "Battle caster", "Legion leader",
         "Weapon focus")


def agility(c: Combatant) -> int:
    return int(c.stats.get("agility", 0))


def accuracy(c: Combatant) -> int:
    return int(c.stats.get("accuracy", 0))


def initiator(c: Combatant) -> bool:
    return bool(c.stats.get("initiator", False))


def feats(c: Combatant) -> tuple[str, ...]:
    return tuple(c.stats.get("feats", ()))


def has_feat(c: Combatant, feat: str) -> bool:
    wanted = feat.lower()
    return any(f.lower() == wanted for f in feats(c))


def armor(c: Combatant) -> int:
    return int(c.stats.get("armor", 0))


def strength(c: Combatant) -> int:
    return int(c.stats.get("strength", 0))


def max_mp(c: Combatant) -> int | None:
    value = c.stats.get("mp")
    return None if value is None else int(value)


def level(c: Combatant) -> int:
    return int(c.stats.get("level", 0))


def summoned(c: Combatant) -> int | None:
    value = c.stats.get("summoned")
    return None if value is None else int(value)


def thralled(c: Combatant) -> bool:
    return bool(c.stats.get("thralled", False))


def summoner(c: Combatant) -> str:
    return str(c.stats.get("summoner", "") or "")


def ranged(w: Weapon | None) -> bool:
    return bool(w is not None and w.stats.get("ranged", False))


def slots(c: Combatant) -> int:
    """AO-14: summoning slots = level (+2 with Legion leader)."""
    return level(c) + (2 if has_feat(c, "Legion leader") else 0)


def melee_zone(c: Combatant) -> int:
    """AO-10: the melee zone, in spaces (Reach: 2)."""
    return 2 if has_feat(c, "Reach") else 1
