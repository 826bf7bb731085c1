"""simple: a ruleset whose whole behaviour its file sets (README, "Your own system in a
file"): roll a die, add a roster key, go in order, ties as the file says."""

from __future__ import annotations

from referee.engine.port import Fold, Later, Planner, Rolling, RosterSchema, Ruleset, Tracker
from referee.engine.reading import Fields
from referee.hints import TYPE_CHECKING

from . import settings
from .standing import State

if TYPE_CHECKING:
    from .settings import Settings


class Simple(Ruleset[State]):
    """Its roles: the schema of the roster keys the file names, the fold of the rolls,
    the plan by initiative, the tracker's columns and the initiative roll."""

    id = "simple"
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(RosterSchema, ".schema:SimpleSchema"), Later(Fold, ".fold:SimpleFold"),
             Later(Planner, ".planner:SimplePlanner"), Later(Tracker, ".tracker:SimpleTracker"),
             Later(Rolling, ".initiative:SimpleInitiative"))
    settings: Settings

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        added = f" + {s.modifier}" if s.modifier else ""
        ties = {"simultaneous": "act together (SI-5)", "reroll": "re-roll (SI-6)",
                "key": f"{s.tie_key}, higher first, then the players' side (SI-7)"}
        return [f"initiative: by {s.mode} (SI-1)",
                f"roll: {s.die}{added}, {s.low} to {s.high} on the die (SI-2)",
                f"order: {s.order} first (SI-3)",
                f"rolled: {s.rolled} (SI-4)",
                f"ties: {ties[s.ties]}",
                f"columns: {', '.join(s.columns) or 'none'} (SI-9)"]
