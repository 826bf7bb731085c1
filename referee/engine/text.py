"""Text that cannot drive a terminal (issue 31, point 1).

Every string that enters the program from a file is passed through `shown` where the file
is parsed (session/files.py, `parse_toml`), and every argument and form field that
carries a control character is refused (`refuse_controls`), so no name, title, note or
key that reaches a screen, a terminal, a Markdown file or a browser can hold an escape
sequence: the control characters C0 (but newline and tab), DEL, C1 and the bidi
overrides and isolates are drawn visibly instead (U+001B as `␛`, U+009B as `\\u009b`).

`markdown_text` is for Markdown: the same, with Markdown's and HTML's specials escaped
and a line break made a space, so a name cannot open a heading, a link or a tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from referee.hints import TYPE_CHECKING

from .errors import FormatError

if TYPE_CHECKING:
    from typing import Any, AnyStr
else:
    from referee.hints import Any, AnyStr


def compiled_later(pattern: AnyStr, flags: int = 0) -> Callable[[], re.Pattern[AnyStr]]:
    """A regular expression compiled the first time it is asked for (`_ESCAPE()`), not at
    import: each compile costs about as much as importing a small module, and a command's
    start-up pays for every one its modules compile whether it uses them or not."""
    return cache(lambda: re.compile(pattern, flags))


# C0 but tab and newline, DEL, C1; the bidi embeddings, overrides and isolates
CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
_CONTROL = compiled_later(f"[{CONTROLS}]")  # most text is plain: `_plain`
# What in a TOML file's raw text can give a parsed string one of them. A raw C0 or DEL
# cannot: the parser refuses it anywhere in a file (and a CRLF's CR is a line break), and
# the fast reader (fastload.py) takes nothing the parser refuses. A raw C1 or bidi control
# can (only in a text that is not all ASCII), and so can an escape: \b \f \r \e \xHH, \u
# or \U of the ranges (over-matching a few harmless ones), unless its backslash is itself
# escaped (a shown `\u009b` written back as `\\u009b` is no control).
_RAW_UTF8 = (compiled_later(b"\xc2[\x80-\x9f]"), compiled_later(b"\xe2\x80[\xaa-\xae]"),
             compiled_later(b"\xe2\x81[\xa6-\xa9]"))  # one literal start each: a fast search
_ESCAPE = compiled_later(r"\\(?:[befrx]|u00[01789]|u20[26]|U0000(?:00[01789]|20[26]))")


def shown(text: str) -> str:
    """`text` with every control character drawn visibly: C0 as its control picture
    (U+2400 + code: `␛`), DEL as `␡`, C1 and the bidi controls as `\\uXXXX`."""
    if _plain(text) or _CONTROL().search(text) is None:
        return text
    return _CONTROL().sub(_picture, text)


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"\\u{code:04x}"


def _plain(text: str) -> bool:
    """Printable ASCII (no C0, no DEL; nothing above): surely no control, no pattern run."""
    return text.isascii() and text.isprintable()


def has_controls(text: str) -> bool:
    return not _plain(text) and _CONTROL().search(text) is not None


def control(text: str) -> str | None:
    """The first control character in `text`, if any."""
    found = None if _plain(text) else _CONTROL().search(text)
    return None if found is None else found.group()


def source_may_hold_controls(source: str) -> bool:
    """Whether the parsed strings of a TOML text may hold a control character: False
    means they surely do not. A few scans of the raw text (about 1 ms for a 1 MB save),
    never a walk of what was parsed."""
    if "\\" in source:
        for found in _ESCAPE().finditer(source):
            start = before = found.start()
            while before and source[before - 1] == "\\":
                before -= 1
            if (start - before) % 2 == 0:  # its backslash is not itself escaped
                return True
    if source.isascii():
        return False
    data = source.encode("utf-8", "surrogatepass")
    return any(pattern().search(data) is not None for pattern in _RAW_UTF8)


def shown_data(data: Any) -> Any:
    """Parsed TOML with every string in it (keys too) passed through `shown`."""
    if isinstance(data, str):
        return shown(data)
    if isinstance(data, dict):
        return {shown(key): shown_data(value) for key, value in data.items()}
    if isinstance(data, list):
        return [shown_data(item) for item in data]
    return data


def refuse_controls(text: str, what: str, path: tuple[Any, ...] = ()) -> str:
    """`text` as it is; a FormatError naming `what` when it holds a control character
    (an argument, a form's field): such text is refused where it is typed."""
    found = None if _plain(text) else _CONTROL().search(text)
    if found is not None:
        raise FormatError(f"{what}: a control character ({shown(found.group())}) is not "
                          "allowed here", path)
    return text


# Markdown's specials backslash-escaped and HTML's as entities, in one pass: what the
# one adds (backslashes) the other leaves, so it is both in turn
_ESCAPED = str.maketrans({**{c: "\\" + c for c in "\\`*_[]~"},
                          "<": "&lt;", ">": "&gt;", "&": "&amp;"})
# what would open a list or a heading at the start (neither pass makes or unmakes it)
_BLOCK = compiled_later(r"^([ \t]*(?:\d+)?)([-+=#.)])")
_BLOCK_START = frozenset(" \t-+=#.)")  # or a digit (\d: any decimal digit, as isdecimal)


def markdown_text(text: str) -> str:
    """`text` as literal Markdown inline text, wherever it stands in a line: shown, on one
    line, every Markdown special that could start emphasis, code or a link, and at its
    start a heading or a list, backslash-escaped, and HTML's `<`, `>` and `&` as entities."""
    flat = shown(text)
    if "\n" in flat or "\t" in flat:
        flat = " ".join(flat.replace("\t", " ").splitlines())
    flat = flat.translate(_ESCAPED)
    if flat and (flat[0] in _BLOCK_START or flat[0].isdecimal()):
        flat = _BLOCK().sub(r"\1\\\2", flat)
    return flat


def html_text(text: object) -> str:
    """`text` as literal HTML text or attribute value (a player's page): shown, then every
    character HTML gives a meaning (`< > & " '`) as an entity. The one way text reaches a
    page."""
    import html

    return html.escape(shown(str(text)), quote=True)
