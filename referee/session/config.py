"""The referee's settings: a small TOML file in the platform's config directory
(`~/.config/referee/config.toml` on Linux), read strictly and written by the app when the
referee changes a theme or the campaign directory.

```toml
theme = "nord"                      # the app's theme (TEXTUAL_THEME, when set, wins)
campaign = "~/games/ford"           # a campaign directory: new saves go to its saves/
ruleset = "RULESET-ID"              # a new save's ruleset when none is named (its id)
view_host = "127.0.0.1"             # `referee serve`'s --host when not given
view_port = 8000                    # `referee serve`'s --port, and where V starts looking
```

A missing file is no settings at all. A key not listed above, a value of the wrong kind, or
TOML that does not read is a LoadError naming the file, the line and the key: one line on
stderr and a non-zero exit, never a traceback and never a guess.

Writing keeps the file as the referee wrote it: the one key's line is replaced (or added
before the first table), comments and the other keys stay.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .files import LoadError

CAP = 64 * 1024  # a settings file larger than this is no settings file


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _port(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 65536:
        return value
    return None


# each key: how its value is checked (None: refused) and what it takes, said when refused
KEYS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "theme": (_text, "a theme's name, such as \"nord\" (the app's ctrl+p lists them)"),
    "campaign": (_text, "a directory, such as \"~/games/ford\""),
    "ruleset": (_text, "a ruleset's id, such as \"demon-idol\", or a ruleset file's path"),
    "view_host": (_text, "an address to serve on, such as \"127.0.0.1\""),
    "view_port": (_port, "a port, a whole number from 1 to 65535"),
}


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # where it was read from (None: made in memory)
    theme: str | None = None
    campaign: str | None = None
    ruleset: str | None = None
    view_host: str | None = None
    view_port: int | None = None

    @property
    def campaign_dir(self) -> Path | None:
        return None if self.campaign is None else Path(self.campaign).expanduser()

    def where(self, key: str) -> str:
        """`file:line` of a key, for a message about its value."""
        line = None
        if self.path is not None:
            with suppress(OSError, UnicodeDecodeError):
                line = key_line(self.path.read_text(encoding="utf-8"), key)
        return f"{self.path}:{line}" if line else str(self.path or "the settings")


def load_config(path: Path | None = None) -> Config:
    """The settings in `path` (default: the platform's config file); none when missing."""
    from .files import parse_toml, read_regular

    if path is None:
        from .places import config_path

        path = config_path()
    name = str(path)
    try:
        raw = read_regular(path, name, CAP, "a settings file")
    except FileNotFoundError:
        return Config(path)
    except OSError as error:
        raise LoadError(name, f"cannot be read: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise LoadError(name, "is not valid UTF-8 text",
                        raw[: error.start].count(b"\n") + 1) from None
    if not text.strip():
        return Config(path)
    data = parse_toml(text, name)
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in KEYS:
            known = ", ".join(KEYS)
            raise LoadError(name, f"unknown key {key!r} (the keys are: {known})",
                            key_line(text, key), key)
        check, takes = KEYS[key]
        if check(value) is None:
            raise LoadError(name, f"takes {takes}, not {value!r}", key_line(text, key), key)
        values[key] = value
    return Config(path, **values)


def key_line(text: str, key: str) -> int | None:
    from .tomlpos import locate

    return locate(text, (key,))


def save_setting(key: str, value: str | int | None, path: Path | None = None) -> Path:
    """`key` set to `value` (None: taken out) in the settings file, the rest of the file as
    it was; the folder is made when missing. The file is read strictly first: a broken one
    is refused (LoadError), never written over."""
    from .store import write_atomic

    if key not in KEYS:
        raise KeyError(key)
    if path is None:
        from .places import config_path

        path = config_path()
    load_config(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    line = None if value is None else f"{key} = {toml_value(value)}\n"
    own = re.compile(rf"^[ \t]*(?:{re.escape(key)}|\"{re.escape(key)}\")[ \t]*=.*\n?",
                     re.MULTILINE)
    table = re.compile(r"^[ \t]*\[", re.MULTILINE)
    end = table.search(text)
    head, tail = (text[: end.start()], text[end.start():]) if end else (text, "")
    if own.search(head):
        head = own.sub(lambda _: line or "", head, count=1)
    elif line is not None:
        head = head + ("" if not head or head.endswith("\n") else "\n") + line
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, head + tail)
    return path


def toml_value(value: str | int) -> str:
    import tomli_w

    return tomli_w.dumps({"v": value}).partition("=")[2].strip()


def with_setting(config: Config, key: str, value: Any) -> Config:
    return replace(config, **{key: value})


def described(config: Config) -> list[tuple[str, str]]:
    """Each key and its value as the file has it (blank: not set)."""
    return [(f.name, "" if getattr(config, f.name) is None else str(getattr(config, f.name)))
            for f in fields(config) if f.name != "path"]
