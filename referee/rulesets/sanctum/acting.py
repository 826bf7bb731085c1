"""sanctum's acts as a role: fight the turn, the odds and a turn's pairs. The acts
themselves live in acts.py, imported only when they are asked for (`referee plan` never
imports them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.fight import Fight
from referee.engine.options import Acting
from referee.engine.specs import Act

from .state import State

if TYPE_CHECKING:
    from .ruleset import Sanctum


class SanctumActs(Acting[State]):
    rs: Sanctum

    def acts(self, fight: Fight) -> list[Act]:
        """Fight the turn, the odds and a turn's pairs (acts.py): the same for every
        fight, and made only when asked (nothing kept: the role holds no state)."""
        from .acts import acts

        return acts(self.rs)
