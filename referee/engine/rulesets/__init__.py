"""Rulesets: one module of logic each, chosen by the ruleset file's `logic` (or `id`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FormatError
from .base import ActionKind, Ruleset
from .count_up import CountUp
from .demon_idol import DemonIdol

LOGIC: dict[str, type[Ruleset]] = {cls.id: cls for cls in (DemonIdol, CountUp)}


def make_ruleset(config: Mapping[str, Any]) -> Ruleset:
    logic = config.get("logic", config.get("id"))
    if logic not in LOGIC:
        known = ", ".join(sorted(LOGIC))
        field = "logic" if "logic" in config else "id"
        raise FormatError(f"unknown ruleset logic {logic!r} (known: {known})", (field,))
    return LOGIC[logic](config)


__all__ = ["ActionKind", "LOGIC", "Ruleset", "make_ruleset"]
