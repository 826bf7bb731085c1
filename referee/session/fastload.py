"""A fast path for reading saves: the [[events]] blocks this program writes, and long
files of plain TOML (a roster written by hand or by tomli_w).

A long fight is mostly `[[events]]` blocks of `key = value` lines. Parsing them with a
TOML library costs most of a load; this reads exactly the plain shapes the writer
produces (bare keys; strings without escapes; integers; booleans; lists and tables of
integers), skips blank and comment lines, and hands any other value (escapes, floats,
nested tables) to the TOML parser for that value alone. Anything unusual — a sub-table,
a key written twice, a multi-line value, CRLF — makes the whole file go through the
TOML parser, so the result is always what the parser would give (a property test
checks this).

A long head (the roster), or long event blocks written by hand, are read by `plain`:
`key = value` lines of plain scalars, arrays (across lines too) of scalars and inline
tables of scalars, `[[a]]`, `[[a.b]]`, `[a]` and `[a.b]` headers, blank and comment
lines. A value of another shape goes to the parser on its own; a line of any other
shape, a key or table defined twice, sends the text to the parser, which gives (or
reports, with its line) what it makes of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cached_property

from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

HEADER = "\n[[events]]\n"
FAST_FROM = 32_768  # a shorter text goes straight to the parser: quick, and no patterns to compile
_INT = r"-?(?:0|[1-9][0-9]{0,17})"


class _Unusual(Exception):
    pass


def loads(text: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """What `parse(text)` gives, faster for long saves."""
    if len(text) < FAST_FROM or "\r" in text:
        return parse(text)
    head, found, rest = text.partition(HEADER)
    if not found:
        return loads_plain(text, parse)
    try:
        data = loads_plain(head, parse)
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
        tail = loads_plain(HEADER.lstrip("\n") + rest, parse)
    except Exception:
        return parse(text)  # the parser reports the fault against the whole file
    if set(tail) & set(data):
        return parse(text)  # a key in both parts: the parser says what it makes of it
    data.update(tail)
    return data


_ESCAPES_JSON_READS_OTHERWISE = ('\\"', "\\u", "\\U", "\\/")
# the blocks are read as JSON documents of about this many characters each, split at
# their headers: a long log's text is not copied whole three times over (100,000
# events: `referee check` peaks 17 MB lower, and their JSON is read a seventh quicker)
PIECE = 1 << 16


def _events_json(rest: str, piece: int = PIECE) -> list[dict[str, Any]] | None:
    """The blocks as JSON documents (`_piece_json`), `piece` characters or so at a time,
    each split where a block begins; None where any piece gives None."""
    events: list[dict[str, Any]] = []
    start = 0
    while True:
        end = rest.find(HEADER, start + piece)
        found = _piece_json(rest[start:] if end == -1 else rest[start:end])
        if found is None:
            return None
        events += found
        if end == -1:
            return events
        start = end + len(HEADER)


def _piece_json(rest: str) -> list[dict[str, Any]] | None:
    """The blocks as one JSON document, when they are written as the writer writes them:
    `"key" = value` lines whose values are JSON as they stand.

    Where JSON would take what TOML refuses (null, NaN, \\/, lone surrogates, DEL, two
    pairs on a line, a key written twice) this gives None and the block reader decides.
    """
    if not rest.startswith('"') or "null" in rest or "\x7f" in rest:
        return None
    if "\\" in rest and any(mark in rest for mark in _ESCAPES_JSON_READS_OTHERWISE):
        return None  # (multi-line strings need no check: JSON refuses them)
    # a comma before every key line but a block's first (a header then no key line: JSON
    # refuses what is left of the header); each replacement's count is what it changed of
    # the length (a pass fewer each)
    text = rest.replace('\n"', '\n,"')
    lines = len(text) - len(rest) + 1  # key lines: each holds one pair of its block
    text = text.replace(HEADER + ",", "\n},{\n")  # (each step's text let go: a long
    pairs = len(text)  # log's peak)
    text = text.replace('" = ', '": ')
    pairs -= len(text)  # every pair, in the blocks and in their inline tables
    text = "[{" + text + "}]"
    try:
        events: list[dict[str, Any]] = json.loads(text, parse_constant=_refuse)
    except ValueError:
        return None
    del text
    if sum(map(len, events)) != lines:
        return None  # two pairs on one line, or a key written twice in a block
    # every line break ends the text or starts a key line, a blank line or a header (one
    # a block): JSON takes a value on the line after its key, or an inline table across
    # lines, which TOML refuses (an array across lines is left to the other readers too)
    if rest.count("\n") != lines - 1 + rest.count("\n\n") + len(events) - 1 + rest.endswith("\n"):
        return None
    if pairs != lines and pairs != lines + _inner_keys(rest, events):
        return None  # a key written twice in an inline table
    return events


def _inner_keys(rest: str, events: list[dict[str, Any]]) -> int:
    """How many keys the tables inside the events hold (JSON keeps one of a key written
    twice: fewer keys than the text has pairs). Only the blocks with a `{` can hold one."""
    count = 0
    block, start, seen = 0, 0, -1
    brace = rest.find("{")
    while brace != -1:
        block += rest.count(HEADER, start, brace)
        start = brace
        if block != seen:
            seen = block
            count += sum(_keys_in(value) for value in events[block].values())
        brace = rest.find("{", brace + 1)
    return count


def _keys_in(value: Any) -> int:
    if type(value) is dict:
        return len(value) + sum(_keys_in(v) for v in value.values())
    if type(value) is list:
        return sum(_keys_in(v) for v in value)
    return 0


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not TOML")


def _events(rest: str, parse: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    return [_block(block, parse) for block in rest.split(HEADER)]


def _block(block: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """Every line must be a `key = value`, blank or a comment."""
    found = PATTERNS.lines.findall(block)
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
    if PATTERNS.ints.fullmatch(text):
        return [int(n) for n in text[1:-1].split(", ")] if len(text) > 2 else []
    if PATTERNS.int_table.fullmatch(text):
        pairs = [item.split(" = ") for item in text[2:-2].split(", ")]
        table = {name: int(number) for name, number in pairs}
        if len(table) == len(pairs):
            return table
    return parse("v = " + text)["v"]



# -- plain TOML: what a hand-written or tomli_w-written file is made of ------------------

_KEY = r'(?:[A-Za-z0-9_-]+|"[^"\\\x00-\x08\x0a-\x1f\x7f]*")'
_STR = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_LIT = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_FLOAT = r"[+-]?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)"
_WHOLE = r"[+-]?(?:0|[1-9][0-9]{0,17})"
_SCALAR = rf"(?:{_STR}|{_LIT}|{_FLOAT}|{_WHOLE}|true|false)"
_COMMENT = r"(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"
_NAME = r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?"
# One line each (a multi-line array: all its lines): `key = value`, a `[[table]]` or
# `[table]` header of one or two bare keys, or a blank or comment line. An array or
# inline table is caught whole, its inside read by `_compound_value`; a value of any
# other shape (`other`) is read by the parser on its own.
_PLAIN = (
    rf"^[ \t]*(?:({_KEY})[ \t]*=[ \t]*(?:({_STR})|({_FLOAT})|({_WHOLE})|(true|false)"
    r"|(\[[^\n]*\]|\{[^\n]*\}|\[\n(?:[ \t]*(?:[^\n\]# \t][^\n]*)?\n)*[ \t]*\])"
    rf"|([^\n]*?))|\[\[({_NAME})\]\]|\[({_NAME})\]|)[ \t]*{_COMMENT}$"
)
_PAIR = rf"{_KEY}[ \t]*=[ \t]*{_SCALAR}"
# TOML 1.0's inline table (no newline, no trailing comma) of scalars; an array of scalars
# and such tables, across lines, without comments
_INLINE = rf"\{{[ \t]*(?:{_PAIR}[ \t]*(?:,[ \t]*(?=[A-Za-z0-9_\"-])|(?=\}})))*\}}"
_ARRAY = rf"\[(?:[ \t\n]*(?:{_SCALAR}|{_INLINE})[ \t\n]*(?:,|(?=[ \t\n]*\])))*[ \t\n]*\]"
_TOKENS = rf"({_STR}|{_LIT})|({_FLOAT})|({_WHOLE})|(true|false)|({_INLINE})"


class _Patterns:
    """Each compiled on first use: a run that never needs one never pays for it."""

    @cached_property
    def lines(self) -> re.Pattern[str]:  # the lines of the blocks the writer writes
        return re.compile(
            r'^(?:([A-Za-z0-9_-]+) = (?:("[^"\\\x00-\x1f\x7f]*")|(-?(?:0|[1-9][0-9]{0,17}))'
            r"|(true|false)|(.+))|[ \t]*(?:#.*)?)$",
            re.MULTILINE,
        )

    @cached_property
    def ints(self) -> re.Pattern[str]:
        return re.compile(rf"\[(?:{_INT}(?:, {_INT})*)?\]")

    @cached_property
    def int_table(self) -> re.Pattern[str]:
        return re.compile(rf"\{{ [A-Za-z0-9_-]+ = {_INT}(?:, [A-Za-z0-9_-]+ = {_INT})* \}}")

    @cached_property
    def plain(self) -> re.Pattern[str]:
        return re.compile(_PLAIN, re.MULTILINE)

    @cached_property
    def array(self) -> re.Pattern[str]:
        return re.compile(_ARRAY)

    @cached_property
    def inline(self) -> re.Pattern[str]:
        return re.compile(_INLINE)

    @cached_property
    def tokens(self) -> re.Pattern[str]:
        return re.compile(_TOKENS)

    @cached_property
    def pairs(self) -> re.Pattern[str]:
        return re.compile(rf"({_KEY})[ \t]*=[ \t]*({_SCALAR})")


PATTERNS = _Patterns()


def loads_plain(text: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """`parse(text)`, read directly when `text` is long and of plain shapes."""
    if len(text) >= FAST_FROM:
        try:
            return plain(text, parse)
        except _Unusual:
            pass
    return parse(text)


def plain(text: str, parse: Callable[[str], dict[str, Any]]) -> dict[str, Any]:
    """What `parse(text)` gives for a document of plain shapes; _Unusual for any other
    (the caller then has the parser read it, or report its fault)."""
    patterns = PATTERNS
    found = patterns.plain.findall(text)
    newlines = 0  # inside multi-line arrays
    root: dict[str, Any] = {}
    table = root
    arrays: set[int] = set()  # ids of the lists that [[headers]] made
    tables: set[int] = set()  # ids of the tables that [headers] made
    cache: dict[str, Any] = {}
    for key, quoted, real, whole, flag, compound, other, array_of, table_of in found:
        if key:
            if key[0] == '"':
                key = key[1:-1]
            if key in table:
                raise _Unusual  # a key written twice: the parser reports it
            if quoted:
                table[key] = quoted[1:-1]
            elif whole:
                table[key] = int(whole)
            elif real:
                table[key] = float(real)
            elif flag:
                table[key] = flag == "true"
            elif compound:
                newlines += compound.count("\n")
                known = cache.get(compound)  # (what `_compound_value` does, inline when known)
                if known is None:
                    table[key] = _compound_value(compound, cache, patterns, parse)
                elif type(known) is dict:
                    table[key] = dict(known)
                else:
                    table[key] = [dict(item) if type(item) is dict else item for item in known]
            else:
                table[key] = _alone(other, parse)
        elif array_of:
            table = _header(root, array_of, arrays, tables, True)
        elif table_of:
            table = _header(root, table_of, arrays, tables, False)
    if len(found) + newlines != text.count("\n") + 1:
        raise _Unusual  # a line none of the shapes covers
    return root


def _header(root: dict[str, Any], name: str, arrays: set[int], tables: set[int],
            many: bool) -> dict[str, Any]:
    """The table a `[[name]]` (many) or `[name]` header opens, when the parser would open
    it without complaint; else _Unusual."""
    first, _, second = name.partition(".")
    parent = root
    if second:
        above = root.get(first)
        if type(above) is list and id(above) in arrays:
            parent = above[-1]
        elif type(above) is dict and id(above) in tables:
            parent = above
        else:
            raise _Unusual
        first = second
    made: dict[str, Any] = {}
    there = parent.get(first)
    if there is None:
        if many:
            items = [made]
            arrays.add(id(items))
            parent[first] = items
        else:
            tables.add(id(made))
            parent[first] = made
    elif many and type(there) is list and id(there) in arrays:
        there.append(made)
    else:
        raise _Unusual  # defined twice, or a value's key: the parser says what it makes of it
    return made


def _compound_value(text: str, cache: dict[str, Any], patterns: _Patterns,
                    parse: Callable[[str], dict[str, Any]]) -> Any:
    """An array or inline table: of scalars and inline tables of scalars directly (a text
    seen before is read once, each use getting its own copy), else by the parser."""
    known = cache.get(text)
    if known is None:
        if text[0] == "{" and patterns.inline.fullmatch(text):
            known = _inline(text, patterns)
        elif text[0] == "[" and patterns.array.fullmatch(text):
            known = _array(text, patterns)
        else:
            return _alone(text, parse)
        cache[text] = known
    if type(known) is dict:
        return dict(known)
    return [dict(item) if type(item) is dict else item for item in known]


def _array(text: str, patterns: _Patterns) -> list[Any]:
    items: list[Any] = []
    for quoted, real, whole, flag, inline in patterns.tokens.findall(text):
        if quoted:
            items.append(quoted[1:-1])
        elif whole:
            items.append(int(whole))
        elif real:
            items.append(float(real))
        elif flag:
            items.append(flag == "true")
        else:
            items.append(_inline(inline, patterns))
    return items


def _inline(text: str, patterns: _Patterns) -> dict[str, Any]:
    pairs = patterns.pairs.findall(text)
    table = {(key[1:-1] if key[0] == '"' else key): _scalar(token) for key, token in pairs}
    if len(table) != len(pairs):
        raise _Unusual  # a key written twice
    return table


def _scalar(token: str) -> Any:
    start = token[0]
    if start == '"' or start == "'":
        return token[1:-1]
    if token == "true":
        return True
    if token == "false":
        return False
    if "." in token or "e" in token or "E" in token:
        return float(token)
    return int(token)


def _alone(text: str, parse: Callable[[str], dict[str, Any]]) -> Any:
    """A value of another shape, read by the parser on its own: a value on one line (or
    an array up to its closing line) reads the same alone as in its place."""
    try:
        return parse("v = " + text)["v"]
    except Exception:
        raise _Unusual from None
