"""demon-idol: side d6 initiative, A-G letter order and every out-of-sequence rule.

The planner (planner.py, order.py) lays a round out by DI-3/DI-4 (layout.py, with the tie
splits DI-11, DI-12 and the delay of DI-16), then lets each pairwise rule DI-6 ... DI-14
move only the actions it names, as DI-0 describes (pairwise.py and the modules built on
it). Every beat cites the rules that placed it. What the rules add after an event (a spell
lost, death, bleeding) is in consequences.py.

Each role is its own module: schema.py (roster keys, events and their checks), fold.py,
planner.py, tracker.py, damage.py, declaring.py (the letters), initiative.py (the side
dice) and acts.py (fire and morale). The file's settings are read in settings.py.
"""

from __future__ import annotations

from referee.engine.port import (
    Acting,
    Carrying,
    Damage,
    Declaring,
    Ending,
    Fold,
    Later,
    Planner,
    Rolling,
    RosterSchema,
    Ruleset,
    Tracker,
)
from referee.engine.reading import Fields

from . import settings
from .settings import BOOK, ID, Settings
from .state import State


class DemonIdol(Ruleset[State]):
    id = ID
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(RosterSchema, ".schema:DemonIdolSchema"), Later(Fold, ".fold:DemonIdolFold"),
             Later(Planner, ".planner:DemonIdolPlanner"),
             Later(Tracker, ".tracker:DemonIdolTracker"),
             Later(Damage, ".damage:DemonIdolDamage"),
             Later(Declaring, ".declaring:DemonIdolDeclaring"),
             Later(Rolling, ".initiative:DemonIdolInitiative"),
             Later(Acting, ".acts:DemonIdolActs"),
             Later(Carrying, ".carrying:DemonIdolCarrying"),
             Later(Ending, ".fold:DemonIdolEnding"))
    settings: Settings

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        return [f"initiative: d{s.die} per side (DI-2)",
                f"dead at {s.death_at} hit points, bleeding {s.bleed} a round (DI-19)",
                "letters: " + " ".join(key for key, _, _ in s.letters),
                *(f"{key} = {'true' if on else 'false'}: "
                  f"{BOOK[key][1] if on else BOOK[key][2]}"
                  for key, on in s.book.items())]

    def by_book(self, key: str) -> bool:
        """Whether the by-the-book switch `key` (one of BOOK) is on."""
        return self.settings.book[key]
