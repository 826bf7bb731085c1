"""sanctum's acts as a role: fight the turn, the odds and a turn's pairs. The acts
themselves live in acts.py, imported only when they are asked for (`referee plan` never
imports them)."""

from __future__ import annotations

from referee.engine.options import Acting
from referee.engine.specs import Act
from referee.engine.view import Fight

from .fold import SanctumFold
from .schema import SanctumSchema
from .settings import Settled
from .state import State


class SanctumActs(Settled[State], Acting[State]):
    def acts(self, fight: Fight) -> list[Act]:
        """Fight the turn, the odds and a turn's pairs (acts.py): the same for every
        fight, and made only when asked (nothing kept: the role holds no state)."""
        from .acts import acts

        # the fold (the turn's steps and seed) and the schema (a turn's pairs checked):
        # sanctum's own roles, always there
        fold, schema = self.rs.role(SanctumFold), self.rs.role(SanctumSchema)
        assert fold is not None and schema is not None
        return acts(self.settings, fold, schema)
