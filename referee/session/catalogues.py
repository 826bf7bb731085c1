"""Catalogues: a ruleset's weapons, spells and monsters by name, as data a referee can
house-rule (README, "Catalogues").

A catalogue is one TOML file per ruleset and kind: the bundled ones in
`rulesets/catalogues/<ruleset>.<kind>.toml`, a referee's own loaded by path and merged
over them by name. Every entry is read as its ruleset reads that gear (a monster as a
combatant), so a key the ruleset does not know is refused with file:line:field.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from referee.engine.dice import Constant, DiceError, Expression, parse
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import FormatError, RefereeError
from referee.engine.model import Combatant, read_combatant, read_spell, read_weapon
from referee.engine.options import Entries
from referee.engine.port import Ruleset
from referee.engine.record import record
from referee.engine.stats import Schema

from .files import builtin_ruleset_dirs, fault, load_ruleset, parse_toml, read_text

CATALOGUE_FORMAT = "referee-catalogue"
CATALOGUE_VERSION = 1
KINDS = ("weapons", "spells", "devices", "monsters")
MONSTER_KEYS = ("hit_dice", "hp", "keys")  # a bestiary's own: the rest is the roster's
HIT_DICE = re.compile(r"\d{1,2}([+-]\d{1,2})?|\d/\d")
MOST_HP = 999  # the most a monster's hit-point expression may come to
MOST_ENTRIES = 2000


@record(frozen=True)
class Catalogue:
    """One file's entries by name, each the table as written (checked)."""

    path: Path
    ruleset: str
    kind: str
    entries: Mapping[str, Mapping[str, Any]]


def catalogue_dirs() -> list[Path]:
    return [folder / "catalogues" for folder in builtin_ruleset_dirs()]


def bundled() -> dict[tuple[str, str], Path]:
    """The bundled catalogue files by (ruleset id, kind)."""
    found: dict[tuple[str, str], Path] = {}
    for folder in catalogue_dirs():
        if folder.is_dir():
            for file in sorted(folder.glob("*.toml")):
                ruleset, _, kind = file.stem.rpartition(".")
                if ruleset and kind in KINDS:
                    found.setdefault((ruleset, kind), file)
    return found


def load_catalogue(path: Path) -> Catalogue:
    """A catalogue file, every entry checked against its ruleset (LoadError naming the
    file, line and field); read again only when the file changes."""
    try:
        stamp = path.stat()
    except OSError:
        return _load(path)
    key = (str(path.resolve()), stamp.st_mtime_ns, stamp.st_size)
    found = _LOADED.get(key)
    if found is None:
        if len(_LOADED) > 64:
            _LOADED.clear()
        found = _LOADED[key] = _load(path)
    return found


_LOADED: dict[tuple[str, int, int], Catalogue] = {}


def _load(path: Path) -> Catalogue:
    text = read_text(path, "a catalogue")
    data = parse_toml(text, str(path))
    try:
        return read_catalogue(path, data)
    except RefereeError as error:
        raise fault(str(path), text, error) from None


def read_catalogue(path: Path, data: Mapping[str, Any]) -> Catalogue:
    header(data)
    ruleset = catalogue_ruleset(data["ruleset"], path.parent)
    kind = data["kind"]
    entries = data.get("entries", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise FormatError("expected [[entries]] tables", ("entries",))
    if len(entries) > MOST_ENTRIES:
        raise FormatError(f"{len(entries)} entries: a catalogue holds at most {MOST_ENTRIES}",
                          ("entries",))
    found: dict[str, Mapping[str, Any]] = {}
    for index, entry in enumerate(entries):
        where = ("entries", index)
        named(entry, where)
        check_entry(ruleset, kind, entry, where)
        name = entry["name"].strip().lower()
        if name in found:
            raise FormatError(f"a second entry named {entry['name']!r}", where + ("name",))
        found[name] = entry
    return Catalogue(path, data["ruleset"], kind, found)


def named(entry: Mapping[str, Any], where: tuple[Any, ...]) -> None:
    """Every entry is found by its name: a non-empty string, whatever its kind."""
    name = entry.get("name")
    if name is None:
        raise FormatError("missing required field: every entry is found by its name "
                          "(name = \"goblin\")", where + ("name",))
    if not isinstance(name, str):
        raise FormatError(f"expected a string, found {name!r}", where + ("name",))
    if not name.strip():
        raise FormatError("must not be empty", where + ("name",))


def catalogue_ruleset(name: str, near: Path) -> Ruleset[Any]:
    """The ruleset a catalogue's entries are read as: a bundled id or a ruleset file, or a
    logic that no bundled file is named after (`simple`): a catalogue for every file of that
    logic, read as the logic's own (a monster's roster keys in its `keys`, each taken where
    a file names it)."""
    from referee.rulesets import make_ruleset, module_of

    from .files import builtin_rulesets

    if name not in builtin_rulesets() and not name.endswith(".toml") and module_of(name):
        return make_ruleset({"id": name})
    return load_ruleset(name, near)


def header(data: Mapping[str, Any]) -> None:
    if data.get("format") != CATALOGUE_FORMAT:
        raise FormatError(f"expected {CATALOGUE_FORMAT!r}, found {data.get('format')!r}",
                          ("format",))
    version = data.get("version", CATALOGUE_VERSION)
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatError(f"expected an integer, found {version!r}", ("version",))
    if version > CATALOGUE_VERSION:
        raise FormatError(f"version {version} is newer than this referee reads "
                          f"({CATALOGUE_VERSION}): upgrade referee", ("version",))
    for key in ("ruleset", "kind"):
        if not isinstance(data.get(key), str):
            raise FormatError("missing required field", (key,))
    if data["kind"] not in KINDS:
        raise FormatError(f"expected one of {', '.join(KINDS)}, found {data['kind']!r}",
                          ("kind",))
    unknown = sorted(set(data) - {"format", "version", "ruleset", "kind", "entries"})
    if unknown:
        raise FormatError("unknown key: a catalogue holds format, version, ruleset, kind "
                          "and [[entries]]", (unknown[0],))


def check_entry(ruleset: Ruleset[Any], kind: str, entry: Mapping[str, Any],
                where: tuple[Any, ...]) -> None:
    """Read the entry as its ruleset reads that gear: every key known, every number in
    range."""
    schemas = ruleset.schema.schemas
    if kind == "weapons":
        read_weapon(entry, where, schemas.weapon)
    elif kind == "spells":
        read_spell(entry, where, schemas.spell)
    elif kind == "devices":
        device_schema(ruleset).read(entry, where)
    else:
        alone(ruleset, monster(ruleset, entry, "check", "check", where), where)


def alone(ruleset: Ruleset[Any], combatant: Combatant, where: tuple[Any, ...]) -> None:
    """The ruleset's own rules over a roster, on the monster alone on its side (phases'
    traits and modifiers): what set-up would refuse is refused here."""
    from referee.engine.model import Encounter, Side

    if "group" in combatant.stats and ruleset.role(Entries) is not None:
        return  # its group is set-up's to make (sanctum's), not the entry's
    try:
        ruleset.schema.check_encounter(Encounter(ruleset.id, "", 0,
                                                 (Side("check", "check"),), (combatant,)))
    except RefereeError as error:
        inside = error.path[2:] if error.path[:2] == ("combatants", 0) else ()
        raise FormatError(error.reason, where + inside) from None


def device_schema(ruleset: Ruleset[Any]) -> Schema:
    """The keys of a device its combatants carry (demon-idol's wands, DI-9): a ruleset
    without devices has no devices catalogue."""
    spec = ruleset.schema.schemas.combatant.by_name.get("devices")
    if spec is None or not spec.items:
        raise FormatError(f"{ruleset.id} has no devices", ("kind",))
    return Schema(spec.items, ruleset.id)


def monster(ruleset: Ruleset[Any], entry: Mapping[str, Any], cid: str, side: str,
            where: tuple[Any, ...] = (), rng: random.Random | None = None,
            name: str | None = None, given: Mapping[str, Any] | None = None) -> Combatant:
    """A bestiary entry as a combatant of its ruleset: its hit points rolled from its
    expression (`rng`), or the most it can come to when none is given (a check). `given`:
    what set-up adds (a group); a key the roster requires and an entry cannot know (a
    sanctum minion's group) is taken as given when checking."""
    hit_dice = entry.get("hit_dice")
    if hit_dice is not None and not (
            isinstance(hit_dice, str) and HIT_DICE.fullmatch(hit_dice)
            or type(hit_dice) is int and 0 <= hit_dice <= 99):
        raise FormatError(f"expected hit dice as written (\"1-1\", \"4+1\", \"1/2\", 6), found "
                          f"{hit_dice!r}", where + ("hit_dice",))
    hp = hit_points(entry.get("hp"), where + ("hp",), rng)
    data = {k: v for k, v in entry.items() if k not in MONSTER_KEYS}
    schemas = ruleset.schema.schemas
    data.update(named_keys(entry.get("keys", {}), schemas.combatant, where + ("keys",)))
    if given is None:
        given = {key: cid for key in schemas.combatant.required if key not in data}
    data.update(given)
    data.update(id=cid, side=side, hp=hp, max_hp=hp, name=name or entry.get("name", cid))
    return read_combatant(data, where, schemas)


def named_keys(keys: Any, schema: Schema, where: tuple[Any, ...]) -> dict[str, Any]:
    """A generic bestiary's roster keys (`keys = { dex = 2, ac = 15 }`): those the ruleset
    names, read as the roster reads them; the rest left out (a file that names no `ac`
    gives its monsters none)."""
    if not isinstance(keys, Mapping):
        raise FormatError(f"expected a table of roster keys ({{ dex = 2, ac = 15 }}), found "
                          f"{keys!r}", where)
    for key, value in keys.items():
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise FormatError(f"expected a number or a word, found {value!r}", where + (key,))
    return {key: value for key, value in keys.items() if key in schema.by_name}


def bestiary_said(ruleset: Ruleset[Any], own: Iterable[Path] = ()) -> str:
    """Which bestiary a ruleset's monsters come from: the bundled file (its ruleset's own,
    or its logic's generic one), and a referee's own files over it."""
    found = bundled()
    rid = ruleset.file_id if (ruleset.file_id, "monsters") in found else ruleset.id
    mine = [str(path) for path in own if load_catalogue(path).kind == "monsters"]
    yours = f"; with yours: {', '.join(mine)}" if mine else ""
    if (rid, "monsters") not in found:
        return f"{ruleset.name} has no bundled bestiary{yours}"
    whose = "its own" if rid == ruleset.file_id else f"the generic one for {rid} rulesets"
    return f"{ruleset.name}'s bestiary is {found[(rid, 'monsters')].name} ({whose}){yours}"


def rolled_hp(entry: Mapping[str, Any], rng: random.Random) -> tuple[int, str]:
    """A monster's hit points rolled from its expression, and the roll as the notes keep
    it ("hp 1d8-1: 1d8 [5] -1 = 4")."""
    expr = entry.get("hp")
    if not isinstance(expr, str):
        return hit_points(expr, ("hp",), rng), ""
    hit_points(expr, ("hp",), None)  # checked: in range
    rolled = roll_dice(expr, rng)
    hp = max(1, rolled.total)
    return hp, f"hp {expr}: {rolled.detail()}" + (" (at least 1)" if rolled.total < 1 else "")


def hit_points(expr: Any, where: tuple[Any, ...], rng: random.Random | None) -> int:
    if type(expr) is int and 1 <= expr <= MOST_HP:
        return expr
    if not isinstance(expr, str):
        raise FormatError(f"expected a hit-point expression (\"1d8-1\") or a number, found "
                          f"{expr!r}", where)
    try:
        parsed = parse(expr)
    except DiceError as error:
        raise FormatError(str(error), where) from None
    most = most_of(parsed)
    if most > MOST_HP:
        raise FormatError(f"{expr} comes to more than {MOST_HP} hit points", where)
    if rng is None:
        return max(1, most)
    return max(1, roll_dice(expr, rng).total)


def most_of(expr: Expression) -> int:
    """The most an expression can come to (a die subtracted at its least)."""
    total = 0
    for term in expr.terms:
        if isinstance(term, Constant):
            total += term.sign * term.value
        else:
            kept = term.highest or term.lowest or term.count
            total += kept * (term.sides if term.sign > 0 else -1)
    return total


def entries_for(ruleset: Ruleset[Any], kind: str,
                own: Iterable[Path] = ()) -> dict[str, Mapping[str, Any]]:
    """A ruleset's catalogue of a kind: its file's own (a house copy's id) or its logic's,
    a referee's own files merged over it."""
    found = bundled()
    rid = ruleset.file_id if (ruleset.file_id, kind) in found else ruleset.id
    mine = [path for path in own if load_catalogue(path).kind == kind]
    return merged(rid, kind, mine)


def catalogue_id(ref: str, kind: str) -> str:
    """The id a ruleset's catalogue of a kind is filed under: its own (`demon-idol`), or,
    when it has none, its logic's (`side-d6` and `d20-dex` take `simple`'s)."""
    found = bundled()
    if (ref, kind) in found:
        return ref
    try:
        logic = load_ruleset(ref).id
    except (RefereeError, OSError):
        return ref
    return logic if (logic, kind) in found else ref


def merged(ruleset: str, kind: str, own: Iterable[Path] = ()) -> dict[str, Mapping[str, Any]]:
    """The bundled catalogue of a ruleset and kind, with a referee's own files merged over
    it by name (a later file wins)."""
    paths = [bundled()[(ruleset, kind)]] if (ruleset, kind) in bundled() else []
    entries: dict[str, Mapping[str, Any]] = {}
    for path in [*paths, *own]:
        found = load_catalogue(path)
        if (found.ruleset, found.kind) != (ruleset, kind):
            raise FormatError(f"{path} is a {found.ruleset} {found.kind} catalogue, not "
                              f"{ruleset} {kind}", ("kind",))
        entries.update(found.entries)
    return entries
