"""sanctum's runs: each run of the odds replayed in full, as `referee fight --seed X -o`
fights it (SA-11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import events as ev
from referee.engine.fight import Fight
from referee.engine.options import Runs

from . import turns
from .state import State

if TYPE_CHECKING:
    from .ruleset import Sanctum


class SanctumRuns(Runs[State]):
    rs: Sanctum

    def replay_run(self, fight: Fight, seed: int) -> tuple[Fight, list[ev.Event]]:
        """Run `seed` of the odds: the turn from its start, as `referee fight --seed X -o`
        fights it."""
        base, _, _ = turns.turn_start(fight)
        return base, self.rs.fold.pending(base, seed)[0]
