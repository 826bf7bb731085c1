"""The tests' way to an act: by its id, as the app's key and `referee act` find it."""

from __future__ import annotations

from typing import Any

from referee.engine.options import acts_of
from referee.engine.specs import Act


def act(fight: Any, name: str) -> Act:
    """The ruleset's act `name` in this fight; a missing one fails the test by name."""
    found = next((a for a in acts_of(fight.ruleset, fight) if a.id == name), None)
    assert found is not None, f"{fight.ruleset.id} has no act {name!r}"
    return found
