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

from referee.engine.port import (
    Acting,
    Entries,
    Fold,
    Later,
    Planner,
    RosterSchema,
    Ruleset,
    Runs,
    Tracker,
)
from referee.engine.reading import Fields
from referee.hints import TYPE_CHECKING

from . import settings
from .settings import Settings
from .state import State

if TYPE_CHECKING:
    from .fold import SanctumFold
    from .planner import SanctumPlanner
    from .schema import SanctumSchema
    from .tracker import SanctumTracker


class Sanctum(Ruleset[State]):
    id = "sanctum"
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(RosterSchema, ".schema:SanctumSchema"), Later(Fold, ".fold:SanctumFold"),
             Later(Planner, ".planner:SanctumPlanner"),
             Later(Tracker, ".tracker:SanctumTracker"), Later(Acting, ".acting:SanctumActs"),
             Later(Runs, ".runs:SanctumRuns"), Later(Entries, ".schema:SanctumGroups"))
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
