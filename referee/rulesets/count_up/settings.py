"""What a count-up ruleset file sets: the initiative die, the latecomer's shift, the
morale and Heal check TNs, the dice of morale and of a critical injury, the actions of
CU-3's table and the injury tables of CU-9."""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from referee.engine import roles
from referee.engine.dice import DiceError
from referee.engine.dice import parse as parse_dice
from referee.engine.errors import FormatError
from referee.engine.port import unique_keys
from referee.engine.reading import Fields, describe
from referee.engine.record import record

from . import ranges

S = TypeVar("S")
ID = "count-up"  # the ruleset's own id (a house copy's file may call itself otherwise)

ADDS = ("", "weapon", "spell")


# One row of CU-3's table, as the ruleset file gives it: `adds` is "weapon", "spell" or ""
# (whose speed is added); `weapon_optional`, that naming no weapon means not attacking
# (speed 0). Made with its types, not their names (this module's annotations are strings):
# typing compiles a type given by name, and Python's first compile() costs a few
# milliseconds of start-up.
ActionRule = NamedTuple("ActionRule", [("name", str), ("modifier", int), ("adds", str),  # noqa: UP014
                                       ("hotkey", str), ("weapon_optional", bool)])


@record(frozen=True)
class Settings:
    die: int  # base initiative: d`die` - Agility (CU-2)
    shift: int  # a latecomer's extra turn comes this much earlier (CU-5)
    morale_tn: int  # 11 + opponents (CU-6)
    heal_tn: int  # 10 + the largest wound (CU-8)
    morale_dice: str
    injury_die: str
    kinds: dict[str, ActionRule]
    injuries: dict[str, list[str]]

    def stabilize_tn(self, largest_wound: int) -> int:
        return self.heal_tn + largest_wound

    def injury(self, damage_type: str, d20: int) -> str:
        table = self.injuries.get(damage_type, [])
        if not table:
            return f"no {damage_type or 'untyped'} injury table: the referee decides (CU-9)"
        return table[(d20 - 1) % len(table)]


def settings_of(rs: object) -> Settings:
    """The record a ruleset read from its file (a ruleset that read none is refused)."""
    return roles.settings_of(rs, Settings)


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings


def read(f: Fields) -> Settings:
    # each number within the range the rules make sense in: a die the dice reader
    # rolls, a shift no larger than it, a TN a 3d6 roll with its modifiers can meet
    die = f.int("initiative_die", 12, minimum=2, maximum=100)
    shift = f.int("latecomer_shift", 12, minimum=0, maximum=100)
    morale_tn = f.int("morale_tn", 11, minimum=0, maximum=99)
    heal_tn: int = f.int("heal_tn", 10, minimum=0, maximum=99)
    morale_dice = dice(f, "morale_dice", "3d6")
    injury_die = dice(f, "injury_die", "d%")
    kinds = read_actions(f.list("actions"))
    injuries = read_injuries(f.table("injuries", {}), f.sub("injuries"))
    return Settings(die, shift, morale_tn, heal_tn, morale_dice, injury_die, kinds, injuries)


def dice(f: Fields, key: str, default: str) -> str:
    text: str = f.str(key, default)
    try:
        parse_dice(text)
    except DiceError as error:
        raise FormatError(str(error), f.sub(key)) from None
    return text


def read_actions(items: list[Any]) -> dict[str, ActionRule]:
    if not items:
        raise FormatError("expected at least one action", ("actions",))
    kinds = {}
    for index, item in enumerate(items):
        f = Fields(item, ("actions", index))
        key, name, hotkey = f.str("key"), f.str("name", ""), f.str("hotkey", "")
        modifier = f.int("modifier", 0, maximum=ranges.MODIFIER)
        adds = f.str("adds", "")
        optional = f.bool("weapon_optional", False)
        if adds not in ADDS:
            raise FormatError(f"`adds` is weapon, spell or empty, found {adds!r}",
                              f.sub("adds"))
        f.done()
        kinds[key] = ActionRule(name or key, modifier, adds, hotkey, optional)
    unique_keys([Fields(i).data["key"] for i in items], "action", ("actions",))
    return kinds


def read_injuries(tables: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, list[str]]:
    for name, rows in tables.items():
        ok = isinstance(rows, list) and all(isinstance(r, str) for r in rows)
        if not ok:
            raise FormatError(f"expected a list of strings, found {describe(rows)}",
                              path + (name,))
    return {name: list(rows) for name, rows in tables.items()}
