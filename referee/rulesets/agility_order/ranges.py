"""The span the rules make sense in, for the numbers of agility-order's ruleset file and
events that the engine's readers cannot bound alone (the roster's are its `Field`s'
maxima, stats.py): a number outside it is refused with its file, line and field."""

from __future__ import annotations

from referee.engine.errors import FormatError, Path

LEAP = 100  # an event at most this many rounds ahead of the fight: more is a typo

# the ruleset file
WOUND_AT = (1, 100)  # AO-11
HEAL_REMOVES = (1, 100)  # AO-11
MOVEMENT = (0, 100)  # AO-5
FATAL_BONUS = (0, 1000)  # AO-11
DIE = (2, 100)  # AO-8, AO-9: a chain die's size

# events
D20 = (1, 20)
RANKS = (1, 999)  # ties the referee orders (AO-1): any numbers, higher first
# AO-8, AO-9: a chain's level as a save without its dice writes it: 0 none, 1 a critical
# or natural 1, 2 super or tragedy, 3 decisive; saves from before the chain ended at the
# d6 may say up to 7 (the old d4 ... d20 chain), read as decisive
LEVEL_UNSAID = (0, 7)
MP = (0, 9999)  # MP paid by a unit with no MP of its own to say otherwise


def within(value: int, span: tuple[int, int], path: Path, why: str = "") -> int:
    """`value`, or a FormatError naming the range (and why it is that range)."""
    low, high = span
    if not low <= value <= high:
        raise FormatError(f"{value} is out of range ({low} to {high})"
                          + (f": {why}" if why else ""), path)
    return value
