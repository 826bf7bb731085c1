"""What a `simple` ruleset file sets: its whole behaviour, read strictly.

Every key has one meaning and a closed set of values, so a referee's own system is a file
and nothing else (README, "Your own system in a file").
"""

from __future__ import annotations

import re

from referee.engine import roles
from referee.engine.dice import Dice, DiceError, parse
from referee.engine.errors import FormatError
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar
else:
    from referee.hints import TypeVar

S = TypeVar("S")

MODES = ("side", "combatant")  # SI-1
ORDERS = ("high", "low")  # SI-3
ROLLED = ("each round", "once")  # SI-4
TIES = ("simultaneous", "reroll", "key")  # SI-5, SI-6, SI-7
KEY = re.compile(r"[a-z][a-z0-9_]*")
# keys a roster already has: a file cannot make them its own
TAKEN = frozenset({"id", "name", "side", "hp", "max_hp", "weapons", "spells", "notes",
                   "group", "joins", "players", "color"})
MOST_DICE = 20  # an initiative die has at most this many dice
MOST_COLUMNS = 8


@record(frozen=True)
class Settings:
    mode: str
    die: str
    low: int  # the least and most the die can show (a typed roll outside is refused)
    high: int
    modifier: str  # a roster key added to a combatant's roll ("": none)
    order: str
    rolled: str
    ties: str
    tie_key: str
    columns: tuple[str, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        """Every roster key the file names, each once: the modifier, the tie key, the
        columns."""
        named = (self.modifier, self.tie_key, *self.columns)
        return tuple(dict.fromkeys(k for k in named if k))


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings


def read(f: Fields) -> Settings:
    mode = one_of(f, "initiative", MODES, "side")
    die, low, high = die_of(f)
    modifier = key_of(f, "modifier")
    if modifier and mode == "side":
        raise FormatError("a modifier is a combatant's key: it needs initiative = "
                          "\"combatant\"", ("modifier",))
    ties = one_of(f, "ties", TIES, "simultaneous")
    tie_key = key_of(f, "tie_key")
    if ties == "key" and not tie_key:
        raise FormatError("ties = \"key\" needs tie_key: the roster key that breaks a tie",
                          ("ties",))
    if tie_key and ties != "key":
        raise FormatError(f"tie_key is read only with ties = \"key\" (ties is {ties!r})",
                          ("tie_key",))
    if tie_key and mode == "side":
        raise FormatError("a tie key is a combatant's key: it needs initiative = "
                          "\"combatant\"", ("tie_key",))
    return Settings(mode, die, low, high, modifier, one_of(f, "order", ORDERS, "high"),
                    one_of(f, "rolled", ROLLED, "each round"), ties, tie_key, columns_of(f))


def one_of(f: Fields, key: str, allowed: tuple[str, ...], default: str) -> str:
    value: str = f.str(key, default)
    if value not in allowed:
        choices = " or ".join(f'"{a}"' for a in allowed)
        raise FormatError(f"expected {choices}, found {value!r}", (key,))
    return value


def die_of(f: Fields) -> tuple[str, int, int]:
    """The initiative die: plain dice and a constant ("d20", "2d6", "d6+1"), with the least
    and the most it can show."""
    text: str = f.str("initiative_die", "d6")
    try:
        expression = parse(text)
    except DiceError as error:
        raise FormatError(str(error), ("initiative_die",)) from None
    dice = expression.dice
    if not dice:
        raise FormatError(f"{text!r} rolls no die", ("initiative_die",))
    if sum(d.count for d in dice) > MOST_DICE:
        raise FormatError(f"{text!r} rolls more than {MOST_DICE} dice", ("initiative_die",))
    low = high = 0
    for term in expression.terms:
        least, most = bounds(term) if isinstance(term, Dice) else (term.value, term.value)
        low, high = (low + least, high + most) if term.sign > 0 else (low - most,
                                                                       high - least)
    return str(expression), low, high


def bounds(dice: Dice) -> tuple[int, int]:
    kept = dice.highest or dice.lowest or dice.count
    return kept, kept * dice.sides


def key_of(f: Fields, key: str) -> str:
    value: str = f.str(key, "")
    if value and (not KEY.fullmatch(value) or value in TAKEN):
        raise FormatError(f"{value!r} is not a roster key of its own (lower case letters, "
                          "digits and _, not one the roster already has)", (key,))
    return value


def columns_of(f: Fields) -> tuple[str, ...]:
    found = f.list("columns", [])
    if len(found) > MOST_COLUMNS:
        raise FormatError(f"at most {MOST_COLUMNS} columns, found {len(found)}", ("columns",))
    columns: list[str] = []
    for index, value in enumerate(found):
        if not isinstance(value, str) or not KEY.fullmatch(value) or value in TAKEN:
            raise FormatError(f"{value!r} is not a roster key of its own", ("columns", index))
        if value in columns:
            raise FormatError(f"{value!r} is named twice", ("columns", index))
        columns.append(value)
    return tuple(columns)
