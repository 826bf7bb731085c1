"""Line numbers for key paths in TOML text.

`tomllib` returns plain data without positions, so when a validator rejects a field
it only knows the key path, e.g. ``("combatants", 2, "weapons", 0, "speed_factor")``.
`locate` scans the text once and maps every key, table header and array element it
sees to the line where it starts.

The scanner is deliberately lenient rather than a TOML parser: it only needs to be
right for valid files and must never raise or loop on broken ones.
"""

from __future__ import annotations

import bisect
import re

Path = tuple[str | int, ...]

_BARE_KEY_STOP = frozenset(" \t\r\n=.#[]{},\"'")
_SCALAR_STOP = frozenset(",]}#\r\n")
# A statement whose value holds no array, inline table or multi-line string: a bare key,
# or a quoted one without escapes, `=`, and the start of a scalar or a one-line string.
# Read whole, it is what `statement` makes of it: its key recorded at its line, and the
# scan on at the line's end (nothing such a value holds can reach past it).
_PLAIN_STATEMENT = re.compile(
    r"(?:([^ \t\r\n=.#\[\]{},\"']+)|\"([^\"\\\n]*)\"|'([^'\n]*)')[ \t]*=[ \t]*+"
    r"(?![\[{]|\"\"\"|''')")
_DEEPEST = 100  # brackets nested deeper than any file needs are not given paths
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    '"': '"',
    "\\": "\\",
}
_ERROR_POSITION = re.compile(r"\(at line (\d+), column \d+\)\s*$")


def locate(text: str, path: tuple[str | int, ...]) -> int | None:
    """Return the 1-based line of the deepest part of `path` found in `text`.

    Falls back to the nearest enclosing key, table or array element that is found;
    returns None when no part of the path is found (an empty path finds nothing).
    """
    lines = _Scanner(text).scan()
    path = tuple(path)
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return None


def parse_error_line(exc: ValueError) -> int | None:
    """Return the line number a tomllib decode error points at, if it gives one."""
    lineno = getattr(exc, "lineno", None)
    if isinstance(lineno, int) and not isinstance(lineno, bool) and lineno >= 1:
        return lineno
    # Python 3.11 only reports the position inside the message.
    match = _ERROR_POSITION.search(str(exc))
    return int(match.group(1)) if match else None


class _Frame:
    """An open `[...]` array or `{...}` inline table inside a value."""

    def __init__(self, path: Path, is_array: bool) -> None:
        self.path = path
        self.is_array = is_array
        self.count = 0


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.newlines = [match.start() for match in re.finditer("\n", text)]
        self.lines: dict[Path, int] = {}
        # Array-of-tables path -> number of `[[...]]` headers seen for it so far.
        self.arrays: dict[Path, int] = {}
        self.table: Path = ()

    def scan(self) -> dict[Path, int]:
        text, plain = self.text, _PLAIN_STATEMENT.match
        while self.skip_blank():
            if text[self.pos] == "[":
                self.header()
                continue
            found = plain(text, self.pos)
            if found is None:
                self.statement()
                continue
            self.record(self.table + (found[found.lastindex or 0],), self.pos)
            newline = text.find("\n", found.end())
            self.pos = len(text) if newline == -1 else newline
        return self.lines

    # -- recording -------------------------------------------------------------

    def line_at(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def record(self, path: Path, pos: int) -> None:
        """Record `path` and its prefixes at the line of `pos`; the earliest sighting wins.
        A recorded path's prefixes are all recorded, so the walk stops at the first one
        found (a deep value costs each element one step, not one per level)."""
        line = self.line_at(pos)
        for end in range(len(path), 0, -1):
            prefix = path[:end]
            if prefix in self.lines:
                return
            self.lines[prefix] = line

    # -- statements --------------------------------------------------------------

    def header(self) -> None:
        start = self.pos
        is_array = self.text.startswith("[[", start)
        self.pos += 2 if is_array else 1
        keys = self.read_key()
        self.skip_line()
        if not keys:
            return
        if is_array:
            array = self.resolve(keys[:-1]) + (keys[-1],)
            index = self.arrays.get(array, 0)
            self.arrays[array] = index + 1
            self.table = array + (index,)
        else:
            self.table = self.resolve(keys)
        self.record(self.table, start)

    def resolve(self, keys: list[str]) -> Path:
        """Turn header keys into a path; array-of-tables names mean their latest element."""
        path: Path = ()
        for key in keys:
            path += (key,)
            if path in self.arrays:
                path += (self.arrays[path] - 1,)
        return path

    def statement(self) -> None:
        start = self.pos
        keys = self.read_key()
        self.skip_spaces()
        if keys and self.peek() == "=":
            self.pos += 1
            path = self.table + tuple(keys)
            self.record(path, start)
            self.value(path)
        self.skip_line()

    # -- values --------------------------------------------------------------------

    def value(self, path: Path) -> None:
        frames: list[_Frame] = []
        self.open_value(path, frames)
        while frames and self.skip_blank():
            frame = frames[-1]
            char = self.text[self.pos]
            if char in "]}":
                # Either closer ends the innermost frame, so a mismatch cannot stall the scan.
                self.pos += 1
                frames.pop()
            elif char == ",":
                self.pos += 1
            elif frame.is_array:
                element = frame.path + (frame.count,)
                frame.count += 1
                self.record(element, self.pos)
                self.open_value(element, frames)
            else:
                self.inline_entry(frame.path, frames)

    def inline_entry(self, table: Path, frames: list[_Frame]) -> None:
        start = self.pos
        keys = self.read_key()
        if not keys:
            self.pos += 1
            return
        self.skip_spaces()
        if self.peek() == "=":
            self.pos += 1
            path = table + tuple(keys)
            self.record(path, start)
            self.open_value(path, frames)

    def open_value(self, path: Path, frames: list[_Frame]) -> None:
        self.skip_spaces()
        char = self.peek()
        if char in ("[", "{"):
            self.pos += 1
            # past any depth a file may hold, the brackets are followed but not named
            frames.append(_Frame(path if len(frames) < _DEEPEST else path[:-1], char == "["))
        elif char in ('"', "'"):
            self.skip_string()
        else:
            self.skip_scalar()

    def skip_scalar(self) -> None:
        text, end = self.text, len(self.text)
        while self.pos < end and text[self.pos] not in _SCALAR_STOP:
            self.pos += 1

    # -- keys ------------------------------------------------------------------------

    def read_key(self) -> list[str]:
        keys: list[str] = []
        while True:
            self.skip_spaces()
            part = self.read_key_part()
            if part is None:
                return keys
            keys.append(part)
            self.skip_spaces()
            if self.peek() != ".":
                return keys
            self.pos += 1

    def read_key_part(self) -> str | None:
        start = self.pos
        quote = self.peek()
        if quote in ('"', "'"):
            closed = self.skip_quoted(quote)
            raw = self.text[start + 1 : self.pos - 1 if closed else self.pos]
            return _unescape(raw) if quote == '"' else raw
        text, end = self.text, len(self.text)
        while self.pos < end and text[self.pos] not in _BARE_KEY_STOP:
            self.pos += 1
        return text[start : self.pos] or None

    # -- strings, comments and whitespace ------------------------------------------

    def skip_string(self) -> None:
        quote = self.text[self.pos]
        if not self.text.startswith(quote * 3, self.pos):
            self.skip_quoted(quote)
            return
        self.pos += 3
        self.skip_until(quote * 3, escapes=quote == '"', multiline=True)
        # `""""` ends a multi-line string with a quote as its last character.
        for _ in range(2):
            if self.peek() == quote:
                self.pos += 1

    def skip_quoted(self, quote: str) -> bool:
        self.pos += 1
        return self.skip_until(quote, escapes=quote == '"', multiline=False)

    def skip_until(self, closer: str, escapes: bool, multiline: bool) -> bool:
        """Move past `closer`; stop at a newline first unless `multiline`."""
        text, end = self.text, len(self.text)
        while self.pos < end:
            char = text[self.pos]
            if escapes and char == "\\":
                # Never step over a newline, so a broken string cannot swallow the next line.
                self.pos += 1 if text.startswith("\n", self.pos + 1) else 2
            elif char == "\n" and not multiline:
                return False
            elif text.startswith(closer, self.pos):
                self.pos += len(closer)
                return True
            else:
                self.pos += 1
        self.pos = end
        return False

    def skip_blank(self) -> bool:
        """Skip whitespace, newlines and comments; return whether any text is left."""
        text, end = self.text, len(self.text)
        while self.pos < end:
            char = text[self.pos]
            if char in " \t\r\n":
                self.pos += 1
            elif char == "#":
                self.skip_line()
            else:
                return True
        return False

    def skip_spaces(self) -> None:
        text, end = self.text, len(self.text)
        while self.pos < end and text[self.pos] in " \t":
            self.pos += 1

    def skip_line(self) -> None:
        newline = self.text.find("\n", self.pos)
        self.pos = len(self.text) if newline == -1 else newline

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]


def _unescape(raw: str) -> str:
    return _ESCAPE.sub(_unescape_one, raw)


def _unescape_one(match: re.Match[str]) -> str:
    code = match.group(1)
    if len(code) > 1:
        value = int(code[1:], 16)
        return chr(value) if value <= 0x10FFFF else match.group(0)
    return _SIMPLE_ESCAPES.get(code, match.group(0))
