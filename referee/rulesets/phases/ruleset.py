"""phases: rounds of phases for large battles (spec: phases.md). The ruleset holds its
house rules, one record the roles read (settings.py); each role is its own module: the
roster schema (schema.py), the fold (fold.py), the planner (planner.py), the tracker view
(tracker.py), the damage form (damage.py), the tracker's groups (groups.py) and the acts
(acts.py)."""

from __future__ import annotations

from referee.engine import port
from referee.engine.port import Later, Ruleset
from referee.engine.reading import Fields

from . import settings
from .rounds import WORD
from .settings import Settings
from .state import State


class Phases(Ruleset[State]):
    id = "phases"
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(port.RosterSchema, ".schema:Schema"), Later(port.Fold, ".fold:Fold"),
             Later(port.Planner, ".planner:Planner"), Later(port.Tracker, ".tracker:Tracker"),
             Later(port.Damage, ".damage:Damage"), Later(port.Grouping, ".groups:Groups"),
             Later(port.Acting, ".acts:Acts"))
    settings: Settings  # its house rules, read once with its file: what the roles read

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        return [f"phases run {s.direction}: highest base Combat + 1 phases (PH-1)",
                f"a stack holds {s.limits['stack']}, a horde {s.limits['horde']} (PH-7)",
                f"decay -{s.decay_hits} Hits a turn, and every {s.decay_every} turns "
                f"the extended decay's -{s.extended_hits} as well (PH-17)"]

    @property
    def direction(self) -> str:
        """How phases run (PH-1), as the settings have it."""
        return self.settings.direction


__all__ = ["Phases", "State", "WORD"]
