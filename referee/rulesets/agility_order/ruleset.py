"""agility-order: highest Agility first, a turn's budget of 1 AA, 1 MA, 2 BA, hits,
crit and fumble chains, wounds and aimed effects (spec: agility-order.md).

The ruleset holds its house rules, one record the roles read (settings.py); its roles do
the rest: the roster schema (schema.py), the fold (fold.py), the lineup plan
(planner.py), the tracker (tracker.py), the damage form (damage.py), the tie rolls
(initiative.py) and the table's acts (acts.py). What a unit is and has now is worked out
in units.py and budget.py."""

from __future__ import annotations

from referee.engine.port import (
    Acting,
    Carrying,
    Damage,
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
from .settings import ID, Settings
from .state import State


class AgilityOrder(Ruleset[State]):
    """Its roles: the schema, the fold, the lineup plan, the tracker, the damage form,
    the tie rolls and the acts; its house rules, read once from its file."""

    id = ID
    # each made the first time it is asked for (a plan asks for a few: start-up)
    ROLES = (Later(RosterSchema, ".schema:AgilitySchema"), Later(Fold, ".fold:AgilityFold"),
             Later(Planner, ".planner:AgilityPlanner"),
             Later(Tracker, ".tracker:AgilityTracker"),
             Later(Damage, ".damage:AgilityDamage"),
             Later(Rolling, ".initiative:AgilityInitiative"),
             Later(Acting, ".acts:AgilityActs"), Later(Carrying, ".carrying:AgilityCarrying"))
    settings: Settings  # its house rules, read once with its file: what the roles read

    def read(self, f: Fields) -> None:
        self.settings = settings.read(f)

    def switches(self) -> list[str]:
        s = self.settings
        ties = {"d20": "d20 rolls, kept for the battle", "players": "players first",
                "referee": "the referee orders them"}[s.tie_mode]
        return [f"ties: {ties} (AO-1)",
                f"wound at {s.wound_at}+ net damage; healing {s.heal_removes}+ "
                f"removes one (AO-11)",
                f"movement {s.movement} spaces (AO-5)",
                chain_switch(s.chain_dice),
                f"fatal wound: ¼ chance of +{s.fatal_bonus} (AO-11)"]

    @property
    def tie_mode(self) -> str:
        """How ties are broken (AO-1), as the settings have it."""
        return self.settings.tie_mode

    @property
    def movement(self) -> int:
        """The spaces a move covers (AO-5), as the settings have it."""
        return self.settings.movement


def chain_switch(chain_dice: tuple[int, ...]) -> str:
    from .attack import DECISIVE  # (the attack's rules: imported for `referee check` alone)

    used, unused = chain_dice[:DECISIVE], chain_dice[DECISIVE:]
    text = "chain dice: " + " → ".join(f"d{n}" for n in used)
    if len(used) == DECISIVE:
        text += f", a {used[-1]} on the d{used[-1]} ends the chain"
    if unused:
        text += " (" + ", ".join(f"d{n}" for n in unused) + " never rolled)"
    return text + " (AO-8, AO-9)"
