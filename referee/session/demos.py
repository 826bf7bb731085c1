"""The bundled demo saves: one fight per ruleset, ready for round 1.

They are the `*.toml` files of `referee/_saves/` in an installed wheel, or of `saves/` in a
checkout (the first of the two that holds the default demo). In a checkout that folder is
also where `referee` writes its fresh `demo-<time>.toml` copies: those are not demos.

Only a demo's header is read here (its `ruleset = "..."` line): no engine, no TOML parser.
"""

from __future__ import annotations

import re
from pathlib import Path

import referee

DEFAULT_DEMO = "demo.toml"

# `ruleset = "id"` before the first table header: the save's own ruleset, not a key of a
# side or combatant further down.
_RULESET = re.compile(r"""^ruleset[ \t]*=[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)')[ \t]*(?:#.*)?$""",
                      re.MULTILINE)
_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)
_SEED = re.compile(r"^seed[ \t]*=[ \t]*[-+]?[0-9_]+[ \t]*(?:#.*)?$", re.MULTILINE)
SEEDS = 2**31  # a new encounter's seed is drawn below this (short enough to read aloud)


class NoDemo(LookupError):
    """No bundled demo for what was asked; the message says which rulesets have one."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no bundled demo"


def demo_folders() -> list[Path]:
    package = Path(referee.__file__).resolve().parent
    return [package / "_saves", package.parent / "saves"]


def demo_folder() -> Path:
    for folder in demo_folders():
        if (folder / DEFAULT_DEMO).is_file():
            return folder
    raise NoDemo(f"the bundled demo save ({DEFAULT_DEMO}) is missing")


def default_demo() -> Path:
    """The demo `referee` opens a fresh copy of: `demo.toml`."""
    return demo_folder() / DEFAULT_DEMO


def bundled_demos() -> list[Path]:
    """Every bundled demo, the default first, then by name."""
    folder = demo_folder()
    others = sorted(p for p in folder.glob("*.toml")
                    if p.name != DEFAULT_DEMO and not p.name.startswith(("demo-", ".")))
    return [folder / DEFAULT_DEMO, *others]


def demo_ruleset(path: Path) -> str | None:
    """The `ruleset` a save's header names, or None when it names none (or is unreadable)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    table = _TABLE.search(text)
    found = _RULESET.search(text, 0, table.start() if table else len(text))
    return None if found is None else (found.group(1) if found.group(1) is not None
                                       else found.group(2))


def fresh_seed() -> int:
    """A new encounter's seed: drawn from the operating system's randomness, so no two
    encounters roll the same dice (the engine only ever gets it injected)."""
    import secrets

    return secrets.randbelow(SEEDS)


def seeded(text: str, seed: int) -> str:
    """A save's text with its header's `seed` set to `seed` (added when it names none)."""
    table = _TABLE.search(text)
    end = table.start() if table else len(text)
    found = _SEED.search(text, 0, end)
    if found is not None:
        return text[:found.start()] + f"seed = {seed}" + text[found.end():]
    return text[:end] + f"seed = {seed}\n" + text[end:]


def demo_text(path: Path, seed: int | None = None) -> str:
    """A bundled demo's text for a new save: its seed replaced by `seed`, or by a fresh
    one, so that every copy rolls its own dice."""
    return seeded(path.read_text(encoding="utf-8"), fresh_seed() if seed is None else seed)


def default_ruleset() -> str:
    """The ruleset of the default demo: what a new save is for when none is named."""
    path = default_demo()
    ruleset = demo_ruleset(path)
    if not ruleset:
        raise NoDemo(f"{path}: the bundled demo names no ruleset")
    return ruleset


def demos() -> dict[str, Path]:
    """Ruleset id -> its demo (`<id>.toml` if there is one, else the first that plays it)."""
    found: dict[str, Path] = {}
    for path in bundled_demos():
        ruleset = demo_ruleset(path)
        if ruleset and (ruleset not in found or path.stem == ruleset):
            found[ruleset] = path
    return found


def demo_for(ruleset: str) -> Path:
    """The bundled demo for `ruleset`: `<id>.toml` if present, else the first bundled demo
    whose header names it. NoDemo (a LookupError) lists the rulesets that have one."""
    found = demos()
    if ruleset in found:
        return found[ruleset]
    have = ", ".join(sorted(found)) or "none"
    raise NoDemo(f"no bundled demo for ruleset {ruleset!r} (demos exist for: {have})")
