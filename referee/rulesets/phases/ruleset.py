"""phases: rounds of phases for large battles (spec: phases.md). The ruleset holds its
house rules; each role is its own module: the roster schema (schema.py), the fold
(fold.py), the planner (planner.py), the tracker view (tracker.py), the damage form
(damage.py), the tracker's groups (groups.py) and the acts (acts.py)."""

from __future__ import annotations

from referee.engine.errors import FormatError
from referee.engine.port import Ruleset
from referee.engine.reading import Fields

from . import limits
from .acts import Acts
from .damage import Damage
from .fold import Fold
from .groups import Groups
from .planner import Planner
from .rounds import WORD
from .schema import Schema
from .state import State
from .tracker import Tracker


class Phases(Ruleset[State]):
    id = "phases"
    ROLES = (Schema, Fold, Planner, Tracker, Damage, Groups, Acts)

    def read(self, f: Fields) -> None:
        self.direction = f.str("phases_run", "down")
        if self.direction not in ("down", "up"):
            raise FormatError(f"expected down or up, found {self.direction!r}",
                              ("phases_run",))
        self.limits = {"stack": number(f, "stack_size", 8, 1, 99),
                       "horde": number(f, "horde_size", 24, 1, 999)}
        self.decay_every = number(f, "extended_decay_every", 3, 1, 99)
        self.decay_hits = number(f, "decay_hits", 2, 0, 99)
        self.extended_hits = number(f, "extended_decay_hits", 3, 0, 99)

    def switches(self) -> list[str]:
        return [f"phases run {self.direction}: highest base Combat + 1 phases (PH-1)",
                f"a stack holds {self.limits['stack']}, a horde {self.limits['horde']} (PH-7)",
                f"decay -{self.decay_hits} Hits a turn, and every {self.decay_every} turns "
                f"the extended decay's -{self.extended_hits} as well (PH-17)"]


def number(f: Fields, key: str, default: int, low: int, high: int) -> int:
    value: int = f.int(key, default, minimum=low)
    limits.within(value, low, high, (key,))
    return value


__all__ = ["Phases", "State", "WORD"]
