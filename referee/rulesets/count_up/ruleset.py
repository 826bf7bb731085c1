"""count-up: base d12 - Agility once per combat, action modifiers, lowest count first.

The ruleset holds its file's settings (settings.py) and names its roles: the roster
schema (schema.py), the fold (fold.py), the plan (planner.py, order.py), the tracker
(tracker.py, log_lines.py), the damage form (damage.py), the declarations (declaring.py),
the initiative (initiative.py), its acts (acts.py: morale, morale.py; injuries,
injuries.py), the heal check (healing.py) and a latecomer's join (joining.py)."""

from __future__ import annotations

from referee.engine.port import Ruleset
from referee.engine.reading import Fields

from . import settings
from .acts import CountUpActs
from .carrying import CountUpCarrying
from .damage import CountUpDamage
from .declaring import CountUpDeclarations
from .fold import CountUpFold, State
from .healing import CountUpHealing
from .initiative import CountUpInitiative
from .joining import CountUpJoin
from .planner import CountUpPlanner
from .schema import CountUpSchema
from .settings import ID, Settings
from .tracker import CountUpTracker


class CountUp(Ruleset[State]):
    id = ID
    ROLES = (CountUpSchema, CountUpFold, CountUpPlanner, CountUpTracker, CountUpDamage,
             CountUpDeclarations, CountUpInitiative, CountUpActs, CountUpHealing, CountUpJoin,
             CountUpCarrying)
    settings: Settings
    fold: CountUpFold  # its base initiative, in force and as rolled (fold.base, rolled)

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        return [f"base initiative: d{s.die} - Agility (CU-2)",
                f"latecomer's extra turn {s.shift} earlier (CU-5)",
                f"morale: {s.morale_dice} vs {s.morale_tn} + opponents (CU-6)",
                "actions: " + ", ".join(f"{k} {r.modifier:+d}" for k, r in s.kinds.items())]
