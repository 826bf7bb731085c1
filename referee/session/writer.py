"""Writing saves as TOML text by hand, so that appending one event's block and
rewriting the whole file give exactly the same events.

tomli-w would put lists of tables inline in one place and write nested tables as
separate headers in another; a save is appended to one `[[events]]` block at a time, so
every block is written here the same way: one key per line, nested values inline.
"""

from __future__ import annotations

import math
import re
from typing import Any

from referee.engine.events import Event
from referee.engine.model import Encounter, side_to_dict
from referee.engine.stats import plain

SAVE_FORMAT = "referee-save"
SAVE_VERSION = 1

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


def string(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else string(name)


def value(item: Any) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        return _float(item)
    if isinstance(item, str):
        return string(item)
    if isinstance(item, (list, tuple)):
        return "[" + ", ".join(value(v) for v in item) + "]"
    if isinstance(item, dict):
        if not item:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }"
    raise TypeError(f"cannot write {type(item).__name__} to a save")


def _float(number: float) -> str:
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return repr(number)


def event_value(item: Any) -> str:
    """A value with every table key quoted, as in the event blocks."""
    if isinstance(item, dict):
        if not item:
            return "{}"
        return "{ " + ", ".join(f"{string(k)} = {event_value(v)}" for k, v in item.items()) + " }"
    if isinstance(item, (list, tuple)):
        return "[" + ", ".join(event_value(v) for v in item) + "]"
    return value(item)


def event_block(event: Event) -> str:
    """One `[[events]]` block: one `"key" = value` a line, nested values inline.

    Keys are quoted (still plain TOML) so that a long log reads back through the JSON
    parser (see fastload.py). `round` comes last: a block cut short by a crash at a
    line boundary then lacks a required field, so it is recognised as torn.
    """
    data = event.to_dict()
    round_ = data.pop("round")
    lines = ["[[events]]"] + [f"{string(k)} = {event_value(v)}" for k, v in data.items()]
    lines.append(f'"round" = {round_}')
    return "\n".join(lines) + "\n"


def table_block(name: str, data: dict[str, Any]) -> str:
    lines = [f"[[{name}]]"]
    for k, v in data.items():
        if isinstance(v, list) and v and all(isinstance(i, dict) for i in v):
            inner = ",\n".join(f"    {value(i)}" for i in v)
            lines.append(f"{key(k)} = [\n{inner},\n]")
        else:
            lines.append(f"{key(k)} = {value(v)}")
    return "\n".join(lines) + "\n"


def header(encounter: Encounter) -> str:
    lines = [
        "# A referee save: the encounter as it started, then one [[events]] block per event.",
        f"format = {string(SAVE_FORMAT)}",
        f"version = {SAVE_VERSION}",
        f"ruleset = {string(encounter.ruleset)}",
        f"title = {string(encounter.title)}",
        f"seed = {encounter.seed}",
    ]
    if encounter.notes:
        lines.append(f"notes = {string(encounter.notes)}")
    for name, item in encounter.stats.items():
        if not _tables(item):
            lines.append(f"{key(name)} = {value(plain(item))}")
    return "\n".join(lines) + "\n"


def _tables(item: Any) -> bool:
    return isinstance(item, (list, tuple)) and bool(item) and all(
        isinstance(i, dict) for i in item)


def save_text(encounter: Encounter, log: list[Event]) -> str:
    """A whole save: the header, the ruleset's own lists of tables (groups, squads), the
    sides and combatants, then one block per event."""
    parts = [header(encounter)]
    for name, item in encounter.stats.items():
        if _tables(item):
            parts += [table_block(name, plain(table)) for table in item]
    parts += [table_block("sides", side_to_dict(s)) for s in encounter.sides]
    parts += [table_block("combatants", c.to_dict()) for c in encounter.combatants]
    parts += [event_block(e) for e in log]
    return "\n".join(parts)
