"""Rulesets: one package each, found by its name in a fixed directory.

A ruleset file's `logic` (or its `id`) names the package: `demon-idol` is
`referee/rulesets/demon_idol/`. A package is imported only when a save or a ruleset file
names it, so start-up does not grow with the number of rulesets, and a save can only pick
code we ship. Each package's `__init__` holds `RULESET` (the class) and `RULES` (every
rule id of its spec, and where it lives).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from pathlib import Path

from referee.engine.errors import FormatError
from referee.engine.port import Ruleset
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

# (directory, import prefix) to look in; the tests add a folder of their own.
PACKAGE_DIRS: list[tuple[Path, str]] = [(Path(__file__).resolve().parent, __name__)]



def is_logic_name(logic: str) -> bool:
    """`logic` is `[a-z][a-z0-9]*(?:-[a-z0-9]+)*`: lowercase ASCII words and numbers
    joined by single hyphens, a letter first (checked without compiling a pattern)."""
    return logic[:1].isalpha() and all(part.isascii() and part.isalnum()
                                       and part == part.lower() for part in logic.split("-"))


def package_name(logic: str) -> str:
    return logic.replace("-", "_")


def available() -> list[str]:
    """Every ruleset logic we ship (and any the tests add), by name."""
    found: list[str] = []
    for folder, _ in PACKAGE_DIRS:
        if not folder.is_dir():
            continue
        for child in sorted(folder.iterdir()):
            logic = child.name.replace("_", "-")
            if (child / "__init__.py").is_file() and is_logic_name(logic) \
                    and logic not in found:
                found.append(logic)
    return found


def module_of(logic: str) -> str | None:
    """The import path of the package for `logic`, or None if we ship none."""
    if not isinstance(logic, str) or not is_logic_name(logic):
        return None
    for folder, prefix in PACKAGE_DIRS:
        if (folder / package_name(logic) / "__init__.py").is_file():
            return f"{prefix}.{package_name(logic)}"
    return None


def ruleset_class(logic: str) -> type[Ruleset[Any]]:
    module = module_of(logic)
    if module is None:
        known = ", ".join(available())
        raise FormatError(f"unknown ruleset logic {logic!r} (known: {known})", ("logic",))
    cls: type[Ruleset[Any]] = import_module(module).RULESET
    return cls


def rules_of(logic: str) -> Mapping[str, str]:
    module = module_of(logic)
    if module is None:
        return {}
    rules: Mapping[str, str] = getattr(import_module(module), "RULES", {})
    return rules


def make_ruleset(config: Mapping[str, Any]) -> Ruleset[Any]:
    logic = config.get("logic", config.get("id"))
    try:
        cls = ruleset_class(logic)
    except FormatError as error:
        field = "logic" if "logic" in config else "id"
        raise FormatError(error.reason, (field,)) from None
    return cls(config)


__all__ = ["PACKAGE_DIRS", "available", "make_ruleset", "module_of", "ruleset_class"]
