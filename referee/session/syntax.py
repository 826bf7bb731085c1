"""Plain-language TOML syntax errors: what is wrong, on which line, in which field.

tomllib's messages are terse ("Invalid value", "Cannot overwrite a value"); a referee
who edited a save by hand needs to be told what to fix.
"""

from __future__ import annotations

import re

from .tomlpos import Path, _Scanner, parse_error_line

_DECLARE_TWICE = re.compile(r"Cannot declare \((.*)\) twice")


def explain(error: ValueError, text: str) -> tuple[str, int | None, str]:
    """(reason, line, field) for a TOML syntax error in `text`."""
    message = str(error).split(" (at ")[0]
    line = parse_error_line(error)
    at_end = "end of document" in str(error)
    if at_end:
        opened = unclosed_bracket(text)
        if opened is not None:
            return "unclosed list (a closing ] is missing)", opened, field_at(text, opened)
        line = text.count("\n") + 1
    source = text.splitlines()[line - 1] if line and line <= len(text.splitlines()) else ""
    return reason(message, source), line, field_at(text, line) if line else ""


def reason(message: str, source: str) -> str:
    if message.startswith("Illegal character") and source.count('"') % 2 == 1:
        return 'unclosed string (a closing " is missing)'
    if message == "Invalid value" and "=" in source:
        value = source.split("=", 1)[1].split("#")[0].strip()
        hint = " (text needs quotes)" if re.fullmatch(r"[A-Za-z_][\w -]*", value) else ""
        return f"invalid value {value}{hint}" if value else "a value is missing after ="
    if message == "Cannot overwrite a value" and "=" in source:
        return f"duplicate key {source.split('=', 1)[0].strip()!r}"
    twice = _DECLARE_TWICE.match(message)
    if twice:
        name = ".".join(part.strip().strip("'\"") for part in twice.group(1).split(","))
        return f"table {name} is defined twice"
    return message[:1].lower() + message[1:]


def field_at(text: str, line: int | None) -> str:
    """The dotted path of the deepest key the lenient scanner places on `line`."""
    if line is None:
        return ""
    from referee.engine.errors import format_path

    end = -1
    for _ in range(line):  # what comes after the line cannot name a key on it
        end = text.find("\n", end + 1)
        if end < 0:
            break
    try:
        lines = _Scanner(text if end < 0 else text[:end + 1]).scan()
    except Exception:  # the scanner is best effort on broken text; a message still goes out
        return ""
    found = [path for path, at in lines.items() if at == line]
    if not found:
        found = earlier_key(lines, key_on(text, line), line)
    return format_path(max(found, key=len)) if found else ""


def key_on(text: str, line: int) -> str:
    """The last key named on `line`: `hp = 3` gives hp, `[events.rolls]` gives rolls."""
    source = text.splitlines()[line - 1] if 0 < line <= len(text.splitlines()) else ""
    source = source.strip()
    if source.startswith("["):
        return source.strip("[] ").split(".")[-1].strip().strip("'\"")
    return source.split("=", 1)[0].split(".")[-1].strip().strip("'\"") if "=" in source else ""


def earlier_key(lines: dict[Path, int], key: str, line: int) -> list[Path]:
    """Where a key written twice was first written: its path, for the second one's message."""
    if not key:
        return []
    candidates = [(at, path) for path, at in lines.items() if path and path[-1] == key
                  and at <= line]
    return [max(candidates)[1]] if candidates else []


def unclosed_bracket(text: str) -> int | None:
    """The line of the last `[` or `{` still open at the end of `text`."""
    return _brackets(text, None)


def deepest(text: str, limit: int) -> int | None:
    """The line where `[` and `{` first nest more than `limit` deep."""
    return _brackets(text, limit)


def _brackets(text: str, limit: int | None) -> int | None:
    """Follow `[`/`{` nesting outside strings and comments: the line where it first goes
    past `limit`, or (no limit) the line of the last one still open at the end. Linear in
    the text: an error is explained for no more than reading the file costs."""
    stack: list[int] = []
    line, quote, index = 1, "", 0
    while index < len(text):
        char = text[index]
        if char == "\n":
            line += 1
            if quote in ('"', "'"):
                quote = ""
        elif quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        elif char in "[{":
            stack.append(line)
            if limit is not None and len(stack) > limit:
                return line
        elif char in "]}" and stack:
            stack.pop()
        index += 1
    return None if limit is not None or not stack else stack[-1]
