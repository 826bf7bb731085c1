"""Strict reading of plain data (as parsed from TOML) into engine objects.

Every problem raises a FormatError naming the path of the field at fault.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping

from referee.hints import TYPE_CHECKING

from .errors import FormatError, Path

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

_MISSING = object()

TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a table",
}


# No number in a file means anything beyond this (hit points, rounds, speeds, counts): a
# larger one is a mistake or an attack, refused before any rule loops or allocates on it.
LARGEST = 1_000_000_000


def describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the string {value!r}"
    return f"{type(value).__name__} {value!r}"


class Fields:
    """Reads the keys of one table; `done()` rejects any key nobody asked for."""

    def __init__(self, data: Any, path: Path = ()) -> None:
        if not isinstance(data, Mapping):
            raise FormatError(f"expected a table, found {describe(data)}", path)
        self.data = data
        self.path = tuple(path)
        self.seen: set[str] = set()

    def _get(self, key: str, default: Any) -> Any:
        self.seen.add(key)
        value = self.data.get(key, _MISSING)
        if value is _MISSING:
            if default is _MISSING:
                raise FormatError("missing required field", self.path + (key,))
            return default
        return value

    def _typed(self, key: str, kinds: tuple[type, ...], default: Any) -> Any:
        value = self._get(key, default)
        if value is default and default is not _MISSING:
            return value
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
        if not ok:
            want = " or ".join(TYPE_NAMES[k] for k in kinds)
            raise FormatError(f"expected {want}, found {describe(value)}", self.path + (key,))
        return value

    def str(self, key: str, default: Any = _MISSING) -> Any:
        value = self._typed(key, (str,), default)
        if isinstance(value, str) and value.strip() == "" and default is _MISSING:
            raise FormatError("must not be empty", self.path + (key,))
        return value

    def int(self, key: builtins.str, default: Any = _MISSING, minimum: int | None = None,
            maximum: int = LARGEST) -> Any:
        value = self._typed(key, (int,), default)
        if isinstance(value, int) and minimum is not None and value < minimum:
            raise FormatError(f"must be at least {minimum}, found {value}", self.path + (key,))
        if isinstance(value, int) and not -maximum <= value <= maximum:
            raise out_of_range(value, minimum, maximum, self.path + (key,))
        return value

    def number(self, key: builtins.str, default: Any = _MISSING) -> Any:
        value = self._typed(key, (int, float), default)
        if isinstance(value, (int, float)) and not -LARGEST <= value <= LARGEST:  # nan, inf
            raise out_of_range(value, None, LARGEST, self.path + (key,))
        return float(value) if isinstance(value, int) else value

    def bool(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._typed(key, (bool,), default)

    def list(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._typed(key, (list,), default)

    def table(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._typed(key, (dict,), default)

    def raw(self, key: builtins.str, default: Any = _MISSING) -> Any:
        return self._get(key, default)

    def has(self, key: builtins.str) -> builtins.bool:
        return key in self.data

    def sub(self, key: builtins.str) -> Path:
        return self.path + (key,)

    def done(self) -> None:
        for key in self.data:
            if key not in self.seen:
                raise FormatError(f"unknown field {key!r}", self.path + (key,))


def out_of_range(value: Any, minimum: int | None, maximum: int, path: Path) -> FormatError:
    low = -maximum if minimum is None else minimum
    return FormatError(f"{value} is out of range ({low} to {maximum})", path)


def id_list(value: Any, path: Path) -> tuple[str, ...]:
    """A single id or a list of ids, as `target` and `surprised` allow."""
    items = value if isinstance(value, list) else [value]
    for index, item in enumerate(items):
        if not isinstance(item, str) or not item:
            where = path + (index,) if isinstance(value, list) else path
            raise FormatError(f"expected an id string, found {describe(item)}", where)
    return tuple(items)


def int_table(value: Any, path: Path) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise FormatError(f"expected a table, found {describe(value)}", path)
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, int):
            raise FormatError(f"expected an integer, found {describe(item)}", path + (key,))
        if not -LARGEST <= item <= LARGEST:
            raise out_of_range(item, None, LARGEST, path + (key,))
    return dict(value)
