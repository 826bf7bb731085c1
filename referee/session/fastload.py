"""A fast path for reading the [[events]] blocks this program writes.

A long fight is mostly `[[events]]` blocks of `key = value` lines. Parsing them with a
TOML library costs most of a load; this reads exactly the plain shapes the writer
produces (bare keys; strings without escapes; integers; booleans; lists and tables of
integers), skips blank and comment lines, and hands any other value (escapes, floats,
nested tables) to the TOML parser for that value alone. Anything unusual — a sub-table,
a key written twice, a multi-line value, CRLF — makes the whole file go through the
TOML parser, so the result is always what the parser would give (a property test
checks this).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

HEADER = "\n[[events]]\n"
_LINES = re.compile(
    r'^(?:([A-Za-z0-9_-]+) = (?:("[^"\\\x00-\x1f\x7f]*")|(-?(?:0|[1-9][0-9]{0,17}))'
    r"|(true|false)|(.+))|[ \t]*(?:#.*)?)$",
    re.MULTILINE,
)
_INT = r"-?(?:0|[1-9][0-9]{0,17})"
_INTS = re.compile(rf"\[(?:{_INT}(?:, {_INT})*)?\]")
_INT_TABLE = re.compile(rf"\{{ [A-Za-z0-9_-]+ = {_INT}(?:, [A-Za-z0-9_-]+ = {_INT})* \}}")


class _Unusual(Exception):
    pass


def loads(text: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """What `parse(text)` gives, faster for saves written by this program."""
    head, found, rest = text.partition(HEADER)
    if not found or "\r" in text:
        return parse(text)
    try:
        data = parse(head)
        if "events" in data:
            raise _Unusual
    except Exception:  # unusual, or a syntax error: the parser reads (or reports) it all
        return parse(text)
    try:
        data["events"] = _events_json(rest) or _events(rest, parse)
    except Exception:
        return _rest_parsed(data, rest, text, parse)
    return data


def _rest_parsed(data: dict[str, Any], rest: str, text: str,
                 parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """The events part through the parser on its own (a save written by hand, with
    sub-tables in its events): the head, already read, is not read again."""
    try:
        tail = parse(HEADER.lstrip("\n") + rest)
    except Exception:
        return parse(text)  # the parser reports the fault against the whole file
    if set(tail) & set(data):
        return parse(text)  # a key in both parts: the parser says what it makes of it
    data.update(tail)
    return data


_ESCAPES_JSON_READS_OTHERWISE = ('\\"', "\\u", "\\U", "\\/")


def _events_json(rest: str) -> list[dict[str, Any]] | None:
    """The blocks as one JSON document, when they are written as the writer writes them:
    `"key" = value` lines whose values are JSON as they stand.

    Where JSON would take what TOML refuses (null, NaN, \\/, lone surrogates, DEL, two
    pairs on a line, a key written twice) this gives None and the block reader decides.
    """
    if not rest.startswith('"') or "null" in rest or "\x7f" in rest:
        return None
    if "\\" in rest and any(mark in rest for mark in _ESCAPES_JSON_READS_OTHERWISE):
        return None  # (multi-line strings need no check: JSON refuses them)
    text = "\n" + rest
    text = text.replace('\n"', '\n,"').replace('" = ', '": ')
    text = '[{"#":0' + text.replace(HEADER, '\n},{"#":0\n') + "}]"
    try:
        events = json.loads(text, object_pairs_hook=_no_twice, parse_constant=_refuse)
    except ValueError:
        return None
    if sum(map(len, events)) != len(events) + rest.count('\n"') + 1:
        return None  # two pairs on one line
    for event in events:
        del event["#"]
    return events


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    table = dict(pairs)
    if len(table) != len(pairs):
        raise ValueError("a key written twice")
    return table


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not TOML")


def _events(rest: str, parse: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    return [_block(block, parse) for block in rest.split(HEADER)]


def _block(block: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """Every line must be a `key = value`, blank or a comment."""
    found = _LINES.findall(block)
    if len(found) != block.count("\n") + 1:
        raise _Unusual
    event: dict[str, Any] = {}
    for key, text, number, flag, other in found:  # blank and comment lines match nothing
        if text:
            event[key] = text[1:-1]
        elif number:
            event[key] = int(number)
        elif flag:
            event[key] = flag == "true"
        elif other:
            event[key] = _compound(other, parse)
    if len(event) != len(found) - found.count(_NOTHING):
        raise _Unusual  # a key written twice: the parser reports it
    return event


_NOTHING = ("", "", "", "", "")


def _compound(text: str, parse: Callable[[str], dict[str, Any]]) -> Any:
    """Lists of integers and tables of integers (dice, initiative rolls) directly;
    any other value through the parser."""
    if _INTS.fullmatch(text):
        return [int(n) for n in text[1:-1].split(", ")] if len(text) > 2 else []
    if _INT_TABLE.fullmatch(text):
        pairs = [item.split(" = ") for item in text[2:-2].split(", ")]
        table = {name: int(number) for name, number in pairs}
        if len(table) == len(pairs):
            return table
    return parse("v = " + text)["v"]
