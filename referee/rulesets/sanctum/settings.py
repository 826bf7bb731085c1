"""What a sanctum ruleset file sets: how long a combat lasts (SA-3), round 1's missile
penalty (SA-4) and the app's runs of the odds (SA-11), each within the range the rules
make sense in, so that no file makes a combat run its rounds, or the odds their runs,
without end."""

from __future__ import annotations

from referee.engine import roles
from referee.engine.reading import Fields
from referee.engine.record import record
from referee.hints import TYPE_CHECKING

from . import ranges, sim

if TYPE_CHECKING:
    from typing import TypeVar
else:
    from referee.hints import TypeVar

S = TypeVar("S")


@record(frozen=True)
class Settings:
    rounds: int  # a combat lasts up to this many rounds (SA-3)
    penalty: int  # round 1: missiles only, at this much less damage (SA-4)
    odds_runs: int  # the runs of the odds in the app (SA-11)


def read(f: Fields) -> Settings:
    rounds: int = f.int("rounds", sim.ROUNDS, minimum=1, maximum=ranges.ROUNDS)
    penalty: int = f.int("missile_round_penalty", 1, minimum=0, maximum=ranges.DAMAGE)
    odds_runs: int = f.int("odds_runs", 1000, minimum=1, maximum=ranges.RUNS)
    return Settings(rounds, penalty, odds_runs)


class Settled(roles.Settled[S, Settings]):
    """A role that reads the house rules: the ruleset's record, taken once as the ruleset
    builds its roles, never the ruleset itself."""

    SETTINGS = Settings
