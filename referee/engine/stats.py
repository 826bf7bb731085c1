"""Reading the keys a ruleset adds to combatants, weapons, spells, sides and the encounter.

A ruleset lists its keys as `Field` specs; a `Schema` built from them reads a table's
remaining keys strictly (same file:line:field errors as everything else) and names the
ruleset when a key is not one of its own. Only the keys a file gives are kept, so a
roster is written back exactly as it was read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from referee.hints import TYPE_CHECKING

from .errors import FormatError, Path
from .reading import LARGEST, describe, out_of_range

if TYPE_CHECKING:
    from typing import Any, Protocol, cast
else:
    from referee.hints import Any, Protocol, cast

Reader = Callable[[Any, Path, str], Any]  # (value, path of its table, its key)


class KeySpec(Protocol):
    """What a schema reads of a key's spec (a `specs.Field`, which also builds the key's
    set-up form): its name and kind, whether it is required, its bounds, a choice's
    options and a table's own keys."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def required(self) -> bool: ...
    @property
    def minimum(self) -> int | None: ...
    @property
    def maximum(self) -> int | None: ...
    @property
    def options(self) -> tuple[tuple[str, Any], ...]: ...
    @property
    def items(self) -> tuple[KeySpec, ...]: ...


def _unknown_key(value: Any, path: Path, key: str) -> Any:
    raise AssertionError("a marker, never called")


class _Never:
    """No value is of this type: a key without a quick acceptance."""


# (the type a value that needs no reading has, its least and greatest value for a number,
# the key's reader)
_Entry = tuple[type, "int | None", "int | None", Reader]
_UNKNOWN: _Entry = (_Never, None, None, _unknown_key)
_AS_GIVEN = {"int": int, "bool": bool, "number": float, "text": str}


def _entry(spec: KeySpec, reader: Reader) -> _Entry:
    """A value of the kind's own type (a number within its range) is its own reading:
    it is kept without a call to the reader, which checks every other value (and says
    what is wrong with it)."""
    given = _AS_GIVEN.get(spec.kind, _Never)
    if given not in (int, float):
        return (given, None, None, reader)
    top = LARGEST if spec.maximum is None else spec.maximum
    return (given, -top if spec.minimum is None else spec.minimum, top, reader)


class Schema:
    """The keys one kind of table may carry for one ruleset."""

    def __init__(self, fields: tuple[KeySpec, ...], owner: str, what: str = "key") -> None:
        self.fields = fields
        self.owner = owner  # "demon-idol": named when a key is not ours
        self.what = what
        self.readers: dict[str, Reader] = {f.name: reader_for(f, owner) for f in fields}
        self.by_name = {f.name: f for f in fields}
        self.required = [f.name for f in fields if f.required]
        self._entries = {f.name: _entry(f, self.readers[f.name]) for f in fields}
        self._known: dict[frozenset[str], dict[str, _Entry | None]] = {}

    def read(self, data: Mapping[str, Any], path: Path,
             skip: frozenset[str] | set[str] = frozenset()) -> dict[str, Any]:
        """The table's keys outside `skip` (the core's own), each checked by its spec."""
        out: dict[str, Any] = {}
        # every key a table may hold: its entry, or None for a core key (skipped)
        known = self._known.get(skip) if type(skip) is frozenset else None
        if known is None:
            known = {**self._entries, **dict.fromkeys(skip)}
            if type(skip) is frozenset:
                self._known[skip] = known
        for key, value in data.items():
            entry = known.get(key, _UNKNOWN)
            if entry is None:
                continue
            given, least, most, reader = entry
            if type(value) is given and (least is None
                                         or least <= cast(int, value) <= cast(int, most)):
                out[key] = value
            elif entry is _UNKNOWN:
                raise FormatError(self.unknown(key, skip), path + (key,))
            else:
                out[key] = reader(value, path, key)
        if self.required:
            for name in self.required:
                if name not in out:
                    raise FormatError("missing required field", path + (name,))
        return out

    def unknown(self, key: str, core: frozenset[str] | set[str]) -> str:
        from difflib import get_close_matches

        near = get_close_matches(key, [*self.readers, *core], n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        return f"not a {self.owner} {self.what}{hint}"


def plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def wrong(value: Any, want: str, path: Path) -> FormatError:
    return FormatError(f"expected {want}, found {describe(value)}", path)


def reader_for(spec: KeySpec, owner: str) -> Reader:
    kind = spec.kind
    if kind in ("text", "id", "dice"):
        return _text(spec)
    if kind == "int":
        return _int(spec.minimum, spec.maximum)
    if kind == "number":
        return _number_in(spec.minimum, spec.maximum)
    if kind == "bool":
        return _bool
    if kind == "choice":
        return _choice(spec)
    if kind == "ids":
        return _ids
    if kind == "texts":
        return _texts
    if kind == "table":
        return _table(Schema(spec.items, owner))
    if kind == "items":
        return _items(Schema(spec.items, owner))
    if kind == "rate":
        return _rate_in(spec.maximum)
    raise ValueError(f"unknown field kind {kind!r}")


def _text(spec: KeySpec) -> Reader:
    def read(value: Any, path: Path, key: str) -> str:
        if type(value) is not str:
            raise wrong(value, "a string", path + (key,))
        if spec.kind != "text" and not value.strip():
            raise FormatError("must not be empty", path + (key,))
        if spec.kind == "dice":
            from .dice import DiceError, parse

            try:
                parse(value)
            except DiceError as error:
                raise FormatError(str(error), path + (key,)) from None
        return value

    return read


def _int(minimum: int | None, maximum: int | None = None) -> Reader:
    top = LARGEST if maximum is None else maximum

    def read(value: Any, path: Path, key: str) -> int:
        if type(value) is not int:
            raise wrong(value, "an integer", path + (key,))
        if minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", path + (key,))
        if not (-top if minimum is None else minimum) <= value <= top:
            raise out_of_range(value, minimum, top, path + (key,))
        return value

    return read


def _number_in(minimum: int | None, maximum: int | None) -> Reader:
    top = LARGEST if maximum is None else maximum
    low = -top if minimum is None else minimum

    def read(value: Any, path: Path, key: str) -> float:
        number = _number(value, path, key)
        if not low <= number <= top:  # nan and inf too
            raise out_of_range(value, minimum, top, path + (key,))
        return number

    return read


def _number(value: Any, path: Path, key: str) -> float:
    if type(value) is float:
        return value
    if type(value) is not int:
        raise wrong(value, "a number", path + (key,))
    return float(value)


def _rate_in(maximum: int | None) -> Reader:
    top = RATE_MOST if maximum is None else maximum

    def read(value: Any, path: Path, key: str) -> int | str:
        rate = _rate(value, path, key)
        shots, every = rate_parts(rate)
        if shots > top or every > top:
            raise out_of_range(shots if shots > top else every, 1, top, path + (key,))
        return rate

    return read


RATE_MOST = 20  # shots a round, or rounds between shots: a plan lists every shot


def _bool(value: Any, path: Path, key: str) -> bool:
    if type(value) is not bool:
        raise wrong(value, "true or false", path + (key,))
    return value


def rate_parts(value: Any) -> tuple[int, int]:
    """A rate read by `_rate` as (shots, every): 2 is two shots every round, "1/3" one
    shot every third round."""
    if type(value) is str:
        return 1, int(value.partition("/")[2])
    return int(value), 1


def _rate(value: Any, path: Path, key: str) -> int | str:
    """Shots a round (an integer, at least 1) or one shot every N rounds ("1/2", "1/3"):
    a slow weapon's rate is a fraction of one, read exactly as written."""
    if type(value) is int and value >= 1:
        return value
    if type(value) is str and re.fullmatch(r"1/[1-9][0-9]{0,8}", value) and value != "1/1":
        return value
    raise FormatError("expected shots a round (1, 2 ...) or one shot every N rounds "
                      f"(\"1/2\", \"1/3\" ...), found {describe(value)}", path + (key,))


def _choice(spec: KeySpec) -> Reader:
    allowed = [value for _, value in spec.options]

    def read(value: Any, path: Path, key: str) -> Any:
        if value not in allowed:
            known = ", ".join(str(v) for v in allowed)
            raise FormatError(f"expected one of {known}, found {describe(value)}",
                              path + (key,))
        return value

    return read


def _ids(value: Any, path: Path, key: str) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [value]
    for index, item in enumerate(items):
        if not isinstance(item, str) or not item:
            where = path + (key, index) if isinstance(value, list) else path + (key,)
            raise FormatError(f"expected an id string, found {describe(item)}", where)
    return tuple(items)


def _texts(value: Any, path: Path, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise wrong(value, "a list of strings", path + (key,))
    for index, item in enumerate(value):
        if type(item) is not str:
            raise wrong(item, "a string", path + (key, index))
    return tuple(value)


def _table(schema: Schema) -> Reader:
    def read(value: Any, path: Path, key: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise wrong(value, "a table", path + (key,))
        return schema.read(value, path + (key,))

    return read


def _items(schema: Schema) -> Reader:
    def read(value: Any, path: Path, key: str) -> tuple[dict[str, Any], ...]:
        if not isinstance(value, list):
            raise wrong(value, "a list of tables", path + (key,))
        out = []
        for index, item in enumerate(value):
            if not isinstance(item, Mapping):
                raise wrong(item, "a table", path + (key, index))
            out.append(schema.read(item, path + (key, index)))
        return tuple(out)

    return read
