"""The keys demon-idol adds to the roster, and how its logic reads them.

Every number has the range the rules make sense in (a file past it is refused with its
line and field): a time in segments up to a turn (100; a round has 10), a speed factor to
30, a weapon's length to 50 feet, routines and shots to 20 a round.
"""

from __future__ import annotations

from referee.engine.model import Combatant, Spell, Weapon
from referee.engine.specs import Field
from referee.engine.stats import rate_parts

SEGMENTS = 100  # a time in segments: up to a turn

DEVICE = (Field("name", "name", "id", required=True),
          Field("usage_time", "segments to use", "int", 1, minimum=0, maximum=SEGMENTS))

COMBATANT = (
    Field("reaction", "reaction adjustment", "int", 0, minimum=-10, maximum=10,
          help="reaction / missile adjustment (DI-6)"),
    Field("attacks", "attack routines", "int", 1, minimum=1, maximum=20, help="above 1: DI-7"),
    Field("group", "group", "id", help="a group that can be named at once", form=False),
    Field("devices", "devices", "items", items=DEVICE, form=False),
    Field("agility", "Agility", "int", 0, maximum=10, form=False),  # kept: shared rosters
    Field("ac", "armour class", "int", maximum=10, form=False),
    Field("level", "level", "int", minimum=0, maximum=99, form=False),
    Field("move", "movement rate", "int", minimum=0, maximum=99,
          help='inches (") a round: with a distance, the segments an E needs'),
    Field("encumbered", "encumbered", "bool", False,
          help="loses a positive missile reaction bonus (DI-6)"),
    Field("initiative", "initiative", "choice", None, form=False,
          options=(("as its side", None), ("hasted: wins", "haste"), ("slowed: loses", "slow")),
          help="hasted or slowed: each action wins or loses initiative"),
    Field("turns", "turns undead", "bool", False,
          help="a cleric or paladin: a D may turn undead"),
    Field("size", "size", "choice", None,
          options=(("not given", None), ("small", "S"), ("medium", "M"), ("large", "L")),
          help="L: a hit on it offers the weapon's damage vs large"),
)
WEAPON = (
    Field("speed_factor", "sf", "int", minimum=0, maximum=30, help="none: a natural attack"),
    Field("length", "length", "number", minimum=0, maximum=50, help="feet, for DI-13"),
    Field("missile", "missile", "bool", False),
    Field("thrown", "thrown", "bool", False,
          help="a melee weapon that can be thrown: a D may throw it (a missile then)"),
    Field("rate", "rate", "rate", 1, help='shots a round, or "1/2": one every 2 rounds'),
    Field("natural", "natural", "bool", False, form=False),  # documentation only
    # the weapon table's second figure (rulesets/catalogues): kept with the weapon
    Field("damage_large", "damage vs large", "dice", form=False,
          help="what a hit does to a large target"),
    Field("speed", "of speed", "bool", False, form=False,
          help="a weapon of speed: its action wins initiative"),
)
ENCOUNTER = (
    Field("indoors", "indoors", "bool", True,
          help="indoors a charge doubles the movement rate, outdoors adds a third"),
)
SPELL = (
    Field("casting_time", "segments", "int", 1, minimum=0, maximum=SEGMENTS),
    Field("damage", "damage", "dice", help="what a hit by it does: the hit form offers it"),
    Field("level", "level", "int", minimum=0, maximum=9, form=False),
)


def large(c: Combatant) -> bool:
    """Whether `c` is large (`size = "L"`): weapons do their damage vs large to it."""
    return c.stats.get("size") == "L"


def damage_against(w: Weapon, target: Combatant | None) -> str | None:
    """The damage `w` does to `target`: its damage vs large to a large one, where the
    weapon has that figure; else its damage."""
    large_figure = w.stats.get("damage_large")
    if target is not None and large(target) and large_figure:
        return str(large_figure)
    return w.damage


def reaction(c: Combatant) -> int:
    return int(c.stats.get("reaction", 0))


def attacks(c: Combatant) -> int:
    return int(c.stats.get("attacks", 1))


def speed_factor(w: Weapon) -> int | None:
    value = w.stats.get("speed_factor")
    return None if value is None else int(value)


def length(w: Weapon) -> float | None:
    value = w.stats.get("length")
    return None if value is None else float(value)


def missile(w: Weapon) -> bool:
    return bool(w.stats.get("missile", False))


def thrown(w: Weapon) -> bool:
    return bool(w.stats.get("thrown", False))


def discharged(w: Weapon) -> bool:
    """Whether a D can loose `w`: a missile weapon, or a melee weapon that can be thrown
    (a dagger, a spear). Thrown, it is a missile like any other (DI-6, DI-7, DI-9)."""
    return missile(w) or thrown(w)


def turns(c: Combatant) -> bool:
    return bool(c.stats.get("turns", False))


def devices(c: Combatant) -> list[str]:
    return [str(d.get("name")) for d in c.stats.get("devices", ()) if d.get("name")]


def rate(w: Weapon) -> int:
    """Shots in a round the weapon fires (one for a slow weapon's "1/2")."""
    return rate_parts(w.stats.get("rate", 1))[0]


def every(w: Weapon) -> int:
    """Rounds from one shot to the next: 1, or 2 for a rate of "1/2"."""
    return rate_parts(w.stats.get("rate", 1))[1]


def rate_text(w: Weapon) -> str:
    return str(w.stats.get("rate", 1))


def move(c: Combatant) -> int | None:
    value = c.stats.get("move")
    return None if value is None else int(value)


def encumbered(c: Combatant) -> bool:
    return bool(c.stats.get("encumbered", False))


def of_speed(w: Weapon) -> bool:
    return bool(w.stats.get("speed", False))


def hasted(c: Combatant) -> str | None:
    """"haste" or "slow" (the roster's `initiative`), or None."""
    value = c.stats.get("initiative")
    return None if value is None else str(value)


def spell_damage(s: Spell) -> str | None:
    value = s.stats.get("damage")
    return None if value is None else str(value)


def casting_time(s: Spell) -> int | None:
    value = s.stats.get("casting_time")
    return None if value is None else int(value)


def device_time(c: Combatant, name: str) -> int | None:
    for device in c.stats.get("devices", ()):
        if device.get("name") == name:
            return int(device.get("usage_time", 1))
    return None
