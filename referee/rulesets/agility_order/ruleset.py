"""agility-order: highest Agility first, a turn's budget of 1 AA, 1 MA, 2 BA, hits,
crit and fumble chains, wounds and aimed effects (spec: agility-order.md).

The ruleset holds the house rules its file sets; its roles do the rest: the roster schema
(schema.py), the fold (fold.py), the lineup plan (planner.py), the tracker (tracker.py),
the damage form (damage.py), the tie rolls (initiative.py) and the table's acts
(acts.py). What a unit is and has now is worked out in units.py and budget.py."""

from __future__ import annotations

from referee.engine.errors import FormatError
from referee.engine.port import Ruleset
from referee.engine.reading import Fields

from . import ranges as rg
from .acts import AgilityActs
from .attack import DECISIVE
from .carrying import AgilityCarrying
from .damage import AgilityDamage
from .fold import AgilityFold
from .initiative import AgilityInitiative
from .planner import AgilityPlanner
from .ranges import within
from .schema import AgilitySchema
from .state import State
from .tracker import AgilityTracker

TIE_MODES = ("d20", "players", "referee")


class AgilityOrder(Ruleset[State]):
    """Its roles: the schema, the fold, the lineup plan, the tracker, the damage form,
    the tie rolls and the acts; its house rules, read from its file."""

    id = "agility-order"
    ROLES = (AgilitySchema, AgilityFold, AgilityPlanner, AgilityTracker, AgilityDamage,
             AgilityInitiative, AgilityActs, AgilityCarrying)
    planner: AgilityPlanner

    def read(self, f: Fields) -> None:
        self.tie_mode: str = f.str("ties", "d20")
        if self.tie_mode not in TIE_MODES:
            raise FormatError(f"expected one of {', '.join(TIE_MODES)}, found "
                              f"{self.tie_mode!r}", ("ties",))
        self.wound_at: int = f.int("wound_at", 6, *rg.WOUND_AT)
        self.heal_removes: int = f.int("heal_removes_wound", 6, *rg.HEAL_REMOVES)
        self.movement: int = f.int("movement", 6, *rg.MOVEMENT)
        self.fatal_bonus: int = f.int("fatal_bonus", 16, *rg.FATAL_BONUS)
        chain = f.list("chain_dice", [4, 6])
        if not chain or not all(isinstance(x, int) and not isinstance(x, bool)
                                for x in chain):
            raise FormatError("expected a list of die sizes (2 or more), e.g. [4, 6]",
                              ("chain_dice",))
        for index, size in enumerate(chain):
            within(size, rg.DIE, ("chain_dice", index), "a die's size")
        self.chain_dice: tuple[int, ...] = tuple(chain)

    def switches(self) -> list[str]:
        ties = {"d20": "d20 rolls, kept for the battle", "players": "players first",
                "referee": "the referee orders them"}[self.tie_mode]
        return [f"ties: {ties} (AO-1)",
                f"wound at {self.wound_at}+ net damage; healing {self.heal_removes}+ "
                f"removes one (AO-11)",
                f"movement {self.movement} spaces (AO-5)",
                chain_switch(self.chain_dice),
                f"fatal wound: ¼ chance of +{self.fatal_bonus} (AO-11)"]


def chain_switch(chain_dice: tuple[int, ...]) -> str:
    used, unused = chain_dice[:DECISIVE], chain_dice[DECISIVE:]
    text = "chain dice: " + " → ".join(f"d{n}" for n in used)
    if len(used) == DECISIVE:
        text += f", a {used[-1]} on the d{used[-1]} ends the chain"
    if unused:
        text += " (" + ", ".join(f"d{n}" for n in unused) + " never rolled)"
    return text + " (AO-8, AO-9)"
