"""sanctum: group combats that resolve themselves (spec: sanctum.md).

The referee lists a turn's pairs (a `combats` event); the program runs the pipeline
(sim.py) and logs every step as an event. The fold reads the logged results — an attack
event says what it did — so a replay never draws again.

Its roles: the roster schema and its checks, with the groups set-up makes (schema.py),
the fold (fold.py), the plan (planner.py), the tracker (tracker.py), its acts
(acting.py, acts.py) and the runs of the odds (runs.py, odds.py).
"""

from __future__ import annotations

from referee.engine.port import Ruleset
from referee.engine.reading import Fields

from . import ranges, sim
from .acting import SanctumActs
from .fold import SanctumFold
from .planner import SanctumPlanner
from .runs import SanctumRuns
from .schema import SanctumGroups, SanctumSchema
from .state import State
from .tracker import SanctumTracker


class Sanctum(Ruleset[State]):
    id = "sanctum"
    ROLES = (SanctumSchema, SanctumFold, SanctumPlanner, SanctumTracker, SanctumActs,
             SanctumRuns, SanctumGroups)
    schema: SanctumSchema
    fold: SanctumFold
    planner: SanctumPlanner
    tracker: SanctumTracker

    # -- house rules -----------------------------------------------------------------

    def read(self, f: Fields) -> None:
        # within the ranges the rules make sense in, so that no file makes a combat run
        # its rounds, or the odds their runs, without end
        self.rounds: int = f.int("rounds", sim.ROUNDS, minimum=1, maximum=ranges.ROUNDS)
        self.penalty: int = f.int("missile_round_penalty", 1, minimum=0,
                                  maximum=ranges.DAMAGE)
        self.odds_runs: int = f.int("odds_runs", 1000, minimum=1, maximum=ranges.RUNS)

    def switches(self) -> list[str]:
        return [f"a combat lasts up to {self.rounds} rounds (SA-3)",
                f"round 1: missiles only, at -{self.penalty} damage (SA-4)",
                f"odds in the app: {self.odds_runs} runs (SA-11)"]
