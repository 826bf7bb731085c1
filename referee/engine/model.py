"""The encounter as it starts: sides, combatants, their weapons and spells.

The core keeps only what every ruleset shares; the keys a ruleset adds (reaction,
speed factors, Agility, Combat scores, squads ...) are read by its `Schema` into each
record's `stats`, exactly as the file gives them.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.hints import TYPE_CHECKING

from .errors import DuplicateId, FormatError, Path, UnknownSide
from .reading import LARGEST, describe, out_of_range
from .record import field, record
from .stats import KeySpec, Schema, plain

if TYPE_CHECKING:
    from typing import Any, Protocol, TypeVar
else:
    from referee.hints import Any, Protocol, TypeVar

R = TypeVar("R")


@record(frozen=True)
class Weapon:
    name: str
    damage: str | None = None  # a dice expression: what a hit does
    notes: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def stat(self, key: str, default: Any = None) -> Any:
        return self.stats.get(key, default)


@record(frozen=True)
class Spell:
    name: str
    notes: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def stat(self, key: str, default: Any = None) -> Any:
        return self.stats.get(key, default)


@record(frozen=True)
class Side:
    id: str
    name: str
    color: str = ""
    players: bool = False  # the players' own side
    stats: dict[str, Any] = field(default_factory=dict)

    def stat(self, key: str, default: Any = None) -> Any:
        return self.stats.get(key, default)


@record(frozen=True)
class Combatant:
    id: str
    name: str
    side: str
    hp: int
    max_hp: int
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    notes: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    # conditions it comes into the fight with (a party carried over): rounds left, or
    # None for one that lasts until taken off
    conditions: dict[str, int | None] = field(default_factory=dict)

    def stat(self, key: str, default: Any = None) -> Any:
        return self.stats.get(key, default)

    def weapon(self, name: str) -> Weapon | None:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        return None

    def spell(self, name: str) -> Spell | None:
        for spell in self.spells:
            if spell.name == name:
                return spell
        return None

    def to_dict(self) -> dict[str, Any]:
        return combatant_to_dict(self)


@record(frozen=True)
class Encounter:
    """The fight as it started: the header and roster of a save."""

    ruleset: str
    title: str
    seed: int
    sides: tuple[Side, ...]
    combatants: tuple[Combatant, ...]
    notes: str = ""
    stats: dict[str, Any] = field(default_factory=dict)  # the ruleset's own top-level keys

    def side(self, side_id: str) -> Side | None:
        return next((s for s in self.sides if s.id == side_id), None)

    def combatant(self, combatant_id: str) -> Combatant | None:
        return next((c for c in self.combatants if c.id == combatant_id), None)


# -- reading ------------------------------------------------------------------------------

COMBATANT_KEYS = frozenset({"id", "name", "side", "hp", "max_hp", "weapons", "spells", "notes",
                            "conditions"})
MOST_CONDITIONS = 64
MOST_ROUNDS = 9999  # a condition's rounds left
WEAPON_KEYS = frozenset({"name", "damage", "notes"})
SPELL_KEYS = frozenset({"name", "notes"})
SIDE_KEYS = frozenset({"id", "name", "color", "players"})


class Owner(Protocol):
    @property
    def id(self) -> str: ...


class Keys(Protocol):
    """What the schemas read of a ruleset's roster schema (`roles.RosterSchema`): the
    keys it adds to each kind of table, and whose they are (`rs.id`)."""

    @property
    def rs(self) -> Owner: ...
    def combatant_fields(self) -> tuple[KeySpec, ...]: ...
    def weapon_fields(self) -> tuple[KeySpec, ...]: ...
    def spell_fields(self) -> tuple[KeySpec, ...]: ...
    def side_fields(self) -> tuple[KeySpec, ...]: ...
    def encounter_fields(self) -> tuple[KeySpec, ...]: ...


class Schemas:
    """A ruleset's schemas for each kind of table, built once per ruleset."""

    def __init__(self, roster: Keys) -> None:
        owner = roster.rs.id
        self.combatant = Schema(roster.combatant_fields(), owner)
        self.weapon = Schema(roster.weapon_fields(), owner)
        self.spell = Schema(roster.spell_fields(), owner)
        self.side = Schema(roster.side_fields(), owner)
        self.encounter = Schema(roster.encounter_fields(), owner)


_ABSENT: Any = object()
_REQUIRED_TEXT = ("id", "side")


def _text(data: Mapping[str, Any], key: str, path: Path, default: Any = None) -> Any:
    value = data.get(key, _ABSENT)
    if type(value) is str:
        if key in _REQUIRED_TEXT and not value.strip():
            raise FormatError("must not be empty", path + (key,))
        return value
    if value is _ABSENT:
        if default is None and key in _REQUIRED_TEXT:
            raise FormatError("missing required field", path + (key,))
        return default
    raise FormatError(f"expected a string, found {describe(value)}", path + (key,))


def _whole(data: Mapping[str, Any], key: str, path: Path, default: Any = None) -> Any:
    if key not in data:
        if default is None:
            raise FormatError("missing required field", path + (key,))
        return default
    value = data[key]
    if type(value) is not int:
        raise FormatError(f"expected an integer, found {describe(value)}", path + (key,))
    if not -LARGEST <= value <= LARGEST:
        raise out_of_range(value, None, LARGEST, path + (key,))
    return value


def _table(data: Any, path: Path) -> Mapping[str, Any]:
    if type(data) is dict:
        return data
    if not isinstance(data, Mapping):
        raise FormatError(f"expected a table, found {describe(data)}", path)
    return data


def _name(data: Mapping[str, Any], path: Path) -> str:
    name = data.get("name", _ABSENT)
    if type(name) is str and name.strip():
        return name
    if name is _ABSENT:
        raise FormatError("missing required field", path + ("name",))
    if type(name) is not str:
        raise FormatError(f"expected a string, found {describe(name)}", path + ("name",))
    raise FormatError("must not be empty", path + ("name",))


def _built(cls: type[R], values: dict[str, Any]) -> R:
    """`cls(**values)` with every field given, without the call: a roster of thousands of
    weapons reads quicker (tests check it builds what the class does)."""
    item: R = _new(cls)
    item.__dict__.update(values)
    return item


_new = object.__new__


def read_weapon(data: Any, path: Path, schema: Schema) -> Weapon:
    data = _table(data, path)
    stats = schema.read(data, path, WEAPON_KEYS)
    return _built(Weapon, {"name": _name(data, path), "damage": _text(data, "damage", path),
                           "notes": _text(data, "notes", path, ""), "stats": stats})


def read_spell(data: Any, path: Path, schema: Schema) -> Spell:
    data = _table(data, path)
    stats = schema.read(data, path, SPELL_KEYS)
    return _built(Spell, {"name": _name(data, path), "notes": _text(data, "notes", path, ""),
                          "stats": stats})


def read_side(data: Any, path: Path, schema: Schema) -> Side:
    data = _table(data, path)
    side_id = _text(data, "id", path)
    name = _text(data, "name", path, "") or side_id
    players = data.get("players", False)
    if type(players) is not bool:
        raise FormatError(f"expected true or false, found {describe(players)}",
                          path + ("players",))
    return Side(side_id, name, _text(data, "color", path, ""), players,
                schema.read(data, path, SIDE_KEYS))


def id_fault(cid: str) -> str | None:
    """Why `cid` cannot be a combatant's id, or None: ids are written in volleys (`a,b`),
    plan lines, `--actor` and paths, so no spaces, `;`, `,`, `/` or control characters
    (nor `\\` or a control picture such as `␛`: how a file's control character is read)."""
    if cid.isprintable() and not any(ch in cid for ch in _NOT_IN_IDS):
        return None  # the common case, quick: no character to look at one by one
    for ch in cid:
        if ch in ";,/\\":
            said = repr(ch)
        elif ch == " ":
            said = "a space"
        elif "\u2400" <= ch <= "\u2421":  # a control read from a file, drawn visibly
            code = 0x7F if ch == "\u2421" else ord(ch) - 0x2400
            said = f"a control character (U+{code:04X}, shown {ch})"
        elif not ch.isprintable() or "\u2422" <= ch <= "\u2426":
            said = f"a control character (U+{ord(ch):04X})"
        else:
            continue
        break
    return (f"an id cannot hold {said} (ids are written in volleys, plan lines and "
            f"--actor): letters, digits, - and _, e.g. {id_suggested(cid)!r}")


_NOT_IN_IDS = " ;,/\\" + "".join(map(chr, range(0x2400, 0x2427)))


def id_suggested(cid: str) -> str:
    """An id like `cid` that `id_fault` takes: "Goblin 1" -> "goblin-1"."""
    kept = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in cid.lower())
    return "-".join(part for part in kept.split("-") if part) or "combatant"


def read_combatant(data: Any, path: Path, schemas: Schemas) -> Combatant:
    data = _table(data, path)
    stats = schemas.combatant.read(data, path, COMBATANT_KEYS)  # a misspelt key first
    cid = _text(data, "id", path)
    fault = id_fault(cid)
    if fault is not None:
        raise FormatError(fault, path + ("id",))
    side = _text(data, "side", path)
    hp = _whole(data, "hp", path)
    weapons = _items(data, "weapons", path, read_weapon, schemas.weapon)
    spells = _items(data, "spells", path, read_spell, schemas.spell)
    combatant = _built(Combatant, {
        "id": cid, "name": _text(data, "name", path, "") or cid, "side": side, "hp": hp,
        "max_hp": _whole(data, "max_hp", path, hp), "weapons": weapons, "spells": spells,
        "notes": _text(data, "notes", path, ""), "stats": stats,
        "conditions": _conditions(data.get("conditions", {}), path + ("conditions",))})
    _unique_names(weapons, path + ("weapons",), "weapon")
    _unique_names(spells, path + ("spells",), "spell")
    return combatant


def _conditions(data: Any, path: Path) -> dict[str, int | None]:
    """`{ poisoned = 3, cursed = true }`: rounds left, or true for one with no end."""
    if not isinstance(data, Mapping):
        raise FormatError(f"expected a table of conditions, found {describe(data)}", path)
    if len(data) > MOST_CONDITIONS:
        raise FormatError(f"at most {MOST_CONDITIONS} conditions", path)
    out: dict[str, int | None] = {}
    for name, left in data.items():
        if not name.strip():
            raise FormatError("a condition needs a name", path)
        if left is True:
            out[name] = None
        elif type(left) is int and 1 <= left <= MOST_ROUNDS:
            out[name] = left
        else:
            raise FormatError(f"expected rounds left (1 to {MOST_ROUNDS}) or true, found "
                              f"{describe(left)}", path + (name,))
    return out


def _items(data: Mapping[str, Any], key: str, path: Path, reader: Any,
           schema: Schema) -> tuple[Any, ...]:
    items = data.get(key)
    if items is None:
        return ()
    if not isinstance(items, list):
        raise FormatError(f"expected a list, found {describe(items)}", path + (key,))
    return tuple([reader(item, path + (key, index), schema)
                  for index, item in enumerate(items)])


def _unique_names(items: tuple[Any, ...], path: Path, what: str) -> None:
    if len(items) < 2:
        return
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.name in seen:
            raise DuplicateId(f"duplicate {what} name {item.name!r}", path + (index, "name"))
        seen.add(item.name)


def read_sides(items: Any, path: Path, schemas: Schemas) -> tuple[Side, ...]:
    if not isinstance(items, list) or not items:
        raise FormatError("expected a list of at least one side", path)
    sides = tuple(read_side(item, path + (i,), schemas.side) for i, item in enumerate(items))
    _unique_ids(sides, path)
    return sides


def read_combatants(items: Any, path: Path, sides: tuple[Side, ...],
                    schemas: Schemas) -> tuple[Combatant, ...]:
    if not isinstance(items, list):
        raise FormatError("expected a list of combatants", path)
    combatants = tuple(read_combatant(item, path + (i,), schemas) for i, item in enumerate(items))
    _unique_ids(combatants, path)
    side_ids = {s.id for s in sides}
    for index, combatant in enumerate(combatants):
        check_side(combatant.side, side_ids, path + (index, "side"))
    return combatants


def check_roster(sides: tuple[Side, ...], combatants: tuple[Combatant, ...]) -> None:
    """Ids unique across sides and combatants, and every combatant on a known side: what
    a roster read from a file is held to, and one edited in set-up too."""
    _unique_ids(sides, ("sides",))
    _unique_ids(combatants, ("combatants",))
    side_ids = {s.id for s in sides}
    for index, combatant in enumerate(combatants):
        if combatant.id in side_ids:
            raise DuplicateId(f"id {combatant.id!r} is both a side and a combatant",
                              ("combatants", index, "id"))
        check_side(combatant.side, side_ids, ("combatants", index, "side"))


def check_side(side_id: str, side_ids: set[str], path: Path) -> None:
    if side_id not in side_ids:
        known = ", ".join(sorted(side_ids))
        raise UnknownSide(f"unknown side {side_id!r} (sides: {known})", path)


def _unique_ids(items: tuple[Any, ...], path: Path) -> None:
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.id in seen:
            raise DuplicateId(f"duplicate id {item.id!r}", path + (index, "id"))
        seen.add(item.id)


# -- writing ------------------------------------------------------------------------------


def _with_stats(out: dict[str, Any], stats: Mapping[str, Any]) -> dict[str, Any]:
    out.update((k, plain(v)) for k, v in stats.items())
    return out


def weapon_to_dict(w: Weapon) -> dict[str, Any]:
    out: dict[str, Any] = {"name": w.name}
    if w.damage is not None:
        out["damage"] = w.damage
    if w.notes:
        out["notes"] = w.notes
    return _with_stats(out, w.stats)


def spell_to_dict(s: Spell) -> dict[str, Any]:
    out: dict[str, Any] = {"name": s.name}
    if s.notes:
        out["notes"] = s.notes
    return _with_stats(out, s.stats)


def side_to_dict(side: Side) -> dict[str, Any]:
    out: dict[str, Any] = {"id": side.id, "name": side.name}
    if side.color:
        out["color"] = side.color
    if side.players:
        out["players"] = True
    return _with_stats(out, side.stats)


def combatant_to_dict(c: Combatant) -> dict[str, Any]:
    out: dict[str, Any] = {"id": c.id, "name": c.name, "side": c.side, "hp": c.hp}
    if c.max_hp != c.hp:
        out["max_hp"] = c.max_hp
    if c.notes:
        out["notes"] = c.notes
    _with_stats(out, c.stats)
    if c.weapons:
        out["weapons"] = [weapon_to_dict(w) for w in c.weapons]
    if c.spells:
        out["spells"] = [spell_to_dict(s) for s in c.spells]
    if c.conditions:
        out["conditions"] = {k: True if v is None else v for k, v in c.conditions.items()}
    return out
