"""A roster file: `[[sides]]` and `[[combatants]]` as in a save, to bring into an encounter."""

from __future__ import annotations

from typing import Any

from referee.engine import Combatant, RefereeError, Side
from referee.engine.model import read_combatants, read_sides
from referee.engine.reading import Fields

from .files import fault


def read_roster(data: dict[str, Any], name: str,
                text: str) -> tuple[tuple[Side, ...], tuple[Combatant, ...]]:
    """Sides and combatants, strictly read; a fault names the roster's file and line."""
    try:
        f = Fields(data)
        f.str("format", "referee-roster")
        f.str("title", "")
        sides = read_sides(f.raw("sides"), ("sides",))
        combatants = read_combatants(f.list("combatants", []), ("combatants",), sides)
        f.done()
    except RefereeError as error:
        raise fault(name, text, error) from None
    return sides, combatants
