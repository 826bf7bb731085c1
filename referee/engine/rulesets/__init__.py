"""Rulesets: one module of logic each, chosen by the ruleset file's `logic` (or `id`)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from ..errors import FormatError
from .base import ActionKind, Ruleset

# Each ruleset's logic is imported only when a fight uses it: adding one is one line here.
LOGIC: dict[str, tuple[str, str]] = {
    "demon-idol": ("demon_idol", "DemonIdol"),
    "count-up": ("count_up", "CountUp"),
}


def make_ruleset(config: Mapping[str, Any]) -> Ruleset:
    logic = config.get("logic", config.get("id"))
    if logic not in LOGIC:
        known = ", ".join(sorted(LOGIC))
        field = "logic" if "logic" in config else "id"
        raise FormatError(f"unknown ruleset logic {logic!r} (known: {known})", (field,))
    module, name = LOGIC[logic]
    cls = getattr(import_module(f"{__name__}.{module}"), name)
    return cls(config)


__all__ = ["ActionKind", "LOGIC", "Ruleset", "make_ruleset"]
