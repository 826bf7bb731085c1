"""sanctum: group combats that resolve themselves (spec: sanctum.md).

The referee lists a turn's pairs (a `combats` event); the program runs the pipeline
(sim.py) and logs every step as an event. The fold reads the logged results — an attack
event says what it did — so a replay never draws again.

Its roles: the roster schema and its checks, with the groups set-up makes (schema.py),
the fold (fold.py), the plan (planner.py), the tracker (tracker.py), its acts
(acting.py, acts.py) and the runs of the odds (runs.py, odds.py); its house rules are one
record (settings.py) that the roles read, not the ruleset.
"""

from __future__ import annotations

from referee.engine.port import Ruleset
from referee.engine.reading import Fields

from . import settings
from .acting import SanctumActs
from .fold import SanctumFold
from .planner import SanctumPlanner
from .runs import SanctumRuns
from .schema import SanctumGroups, SanctumSchema
from .settings import Settings
from .state import State
from .tracker import SanctumTracker


class Sanctum(Ruleset[State]):
    id = "sanctum"
    ROLES = (SanctumSchema, SanctumFold, SanctumPlanner, SanctumTracker, SanctumActs,
             SanctumRuns, SanctumGroups)
    settings: Settings  # its house rules, read once with its file: what the roles read
    schema: SanctumSchema
    fold: SanctumFold
    planner: SanctumPlanner
    tracker: SanctumTracker

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        return [f"a combat lasts up to {s.rounds} rounds (SA-3)",
                f"round 1: missiles only, at -{s.penalty} damage (SA-4)",
                f"odds in the app: {s.odds_runs} runs (SA-11)"]

    @property
    def penalty(self) -> int:
        """Round 1's missile penalty (SA-4), as the settings have it."""
        return self.settings.penalty
