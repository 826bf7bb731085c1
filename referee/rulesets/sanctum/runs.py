"""sanctum's runs: each run of the odds replayed in full, as `referee fight --seed X -o`
fights it (SA-11)."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.options import Runs
from referee.engine.view import Fight

from . import turns
from .fold import SanctumFold
from .state import State


class SanctumRuns(Runs[State]):
    def replay_run(self, fight: Fight, seed: int) -> tuple[Fight, list[ev.Event]]:
        """Run `seed` of the odds: the turn from its start, as `referee fight --seed X -o`
        fights it."""
        base, _, _ = turns.turn_start(fight)
        fold = self.rs.role(SanctumFold)  # sanctum's own, always there
        assert fold is not None
        return base, fold.pending(base, seed)[0]
