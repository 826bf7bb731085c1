"""The keys sanctum adds to the roster, and how its logic reads them."""

from __future__ import annotations

from referee.engine.model import Combatant, Encounter, Side
from referee.engine.specs import Field
from referee.hints import TYPE_CHECKING

from .ranges import ATTACKS, CREATED, DAMAGE, LEVEL

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

STANDINGS = ("initiative", "neutral", "other")  # SA-1: precedence, highest first

# SA-10: quasi-immunities against non-magical missile damage.
QUASI = frozenset({"fae gift", "karillian venom", "pixie dust"})
NO_ATTACK = frozenset({"does not attack", "do not attack", "no longer attacks"})
NO_DEAL = frozenset({"does not deal", "nor deal", "nor deals", "no longer deal",
                     "no longer deals"})
MUST = "must attack"

# each number within the range the rules make sense in (ranges.py)
ATTACK = (
    Field("attacks", "attacks a round", "int", 1, minimum=0, maximum=ATTACKS),
    Field("damage", "damage", "int", 1, minimum=0, maximum=DAMAGE),
)
MISSILE = ATTACK + (Field("magical", "magical", "bool", False),)

COMBATANT = (
    Field("group", "group", "id", required=True, help="the minion's group (SA-7 order)",
          refers="groups"),
    Field("level", "level", "int", 0, minimum=0, maximum=LEVEL,
          help="0: a recruit without a level (SA-9)"),
    Field("armor", "maximum armor", "int", 0, minimum=0, maximum=DAMAGE,
          help="reset every round (SA-5)"),
    Field("hand", "hand attack", "table", items=ATTACK),
    Field("missile", "missile attack", "table", items=MISSILE),
    Field("effects", "effects", "texts", help="Pixie Dust, does not attack ... (SA-10)"),
)
SIDE = (
    Field("initiative", "standing", "choice", "other",
          options=(("initiative player", "initiative"), ("neutral", "neutral"),
                   ("other player", "other")),
          help="SA-1: initiative, neutral or other"),
)
GROUP = (
    Field("id", "id", "id", required=True),
    Field("side", "side", "id", required=True, refers="sides"),
    Field("created", "created", "int", required=True, minimum=0, maximum=CREATED,
          help="creation order: the older group has precedence (SA-1)"),
)
ENCOUNTER = (Field("groups", "groups", "items", items=GROUP),)


def group(c: Combatant) -> str:
    return str(c.stats.get("group", ""))


def level(c: Combatant) -> int:
    return int(c.stats.get("level", 0))


def armor(c: Combatant) -> int:
    return int(c.stats.get("armor", 0))


def attack(c: Combatant, kind: str) -> tuple[int, int, bool]:
    """(attacks a round, damage, magical) of its `hand` or `missile` attack."""
    table: dict[str, Any] = c.stats.get(kind) or {}
    return (int(table.get("attacks", 1)) if table else 0, int(table.get("damage", 1)),
            bool(table.get("magical", False)))


def effects(c: Combatant) -> tuple[str, ...]:
    return tuple(c.stats.get("effects", ()))


def norm(effect: str) -> str:
    return " ".join(effect.lower().replace(":", " ").split())


def quasi_immune(c: Combatant) -> bool:
    return any(norm(e) in QUASI for e in effects(c))


def no_attack(c: Combatant) -> bool:
    return any(norm(e) in NO_ATTACK for e in effects(c))


def no_deal(c: Combatant) -> bool:
    return any(norm(e) in NO_DEAL for e in effects(c))


def must_attack(c: Combatant) -> str | None:
    """The minion a "must attack X" effect names ("" for a bare "must attack"), or None."""
    for effect in effects(c):
        text = norm(effect)
        if text == MUST or text.startswith(MUST + " "):
            return effect.replace(":", " ").split(None, 2)[2].strip() if \
                text != MUST else ""
    return None


def standing(side: Side | None) -> str:
    return str(side.stats.get("initiative", "other")) if side else "other"


def groups(encounter: Encounter) -> list[dict[str, Any]]:
    return [dict(g) for g in encounter.stats.get("groups", ())]
