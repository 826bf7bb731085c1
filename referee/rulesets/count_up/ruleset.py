"""count-up: base d12 - Agility once per combat, action modifiers, lowest count first.

The ruleset holds its file's settings (settings.py) and names its roles: the roster
schema (schema.py), the fold (fold.py), the plan (planner.py, order.py), the tracker
(tracker.py, log_lines.py), the damage form (damage.py), the declarations (declaring.py),
the initiative (initiative.py), its acts (acts.py: morale, morale.py; injuries,
injuries.py), the heal check (healing.py) and a latecomer's join (joining.py)."""

from __future__ import annotations

from referee.engine.port import (
    Acting,
    Carrying,
    Damage,
    Declaring,
    Fold,
    Healing,
    Joining,
    Later,
    Planner,
    Rolling,
    RosterSchema,
    Ruleset,
    Tracker,
)
from referee.engine.reading import Fields
from referee.hints import TYPE_CHECKING

from . import settings
from .fold import State
from .settings import ID, Settings

if TYPE_CHECKING:
    from .fold import CountUpFold


class CountUp(Ruleset[State]):
    id = ID
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(RosterSchema, ".schema:CountUpSchema"), Later(Fold, ".fold:CountUpFold"),
             Later(Planner, ".planner:CountUpPlanner"),
             Later(Tracker, ".tracker:CountUpTracker"),
             Later(Damage, ".damage:CountUpDamage"),
             Later(Declaring, ".declaring:CountUpDeclarations"),
             Later(Rolling, ".initiative:CountUpInitiative"),
             Later(Acting, ".acts:CountUpActs"), Later(Healing, ".healing:CountUpHealing"),
             Later(Joining, ".joining:CountUpJoin"),
             Later(Carrying, ".carrying:CountUpCarrying"))
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
