"""The range each number of a count-up file makes sense in.

Saves are shared and ruleset files downloaded: a number out of its range is refused with
its field and the range ("agility: 100000000 is out of range (-99 to 99)"), and a round
far ahead of the fight is refused rather than walked to.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent, Path
from referee.engine.model import Combatant, Encounter
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

Bounds = tuple[int, int]

MODIFIER = 99  # an initiative, Agility or Insight modifier (CU-2, CU-3, CU-6)
COUNT: Bounds = (-999, 999)  # a base initiative or a count the round reaches (CU-2, CU-5)
POINTS: Bounds = (-999, 9999)  # Wound Points (CU-7, CU-8): below 0 is dying
AMOUNT: Bounds = (0, 9999)  # damage or healing at once
MULTIPLIER: Bounds = (1, 10)  # a critical multiplier: x2 to x4 by the book (CU-7)
CHECK: Bounds = (-999, 999)  # a Heal check's result and its TN (CU-8)
# a combatant's hit points and their maximum, the core's keys (the ruleset's own keys
# carry their ranges in their Fields, stats.py)
CORE: dict[str, Bounds] = {"hp": POINTS, "max_hp": (0, POINTS[1])}
# the numbers of each event type (`initiative` and `injury` are checked with their dice)
EVENT: dict[str, dict[str, Bounds]] = {
    "declare": {"modifier": (-MODIFIER, MODIFIER)},
    "join": {"at_count": COUNT, "base": COUNT},
    "damage": {"amount": AMOUNT, "beat": (1, 9999), "multiplier": MULTIPLIER},
    "heal": {"amount": AMOUNT, "check": CHECK, "tn": CHECK},
    "condition": {"duration": (1, 999)},
    "morale": {"roll": COUNT, "target": COUNT},
    "resolve": {"beat": (1, 9999), "segment": (1, 99)},
    "injury": {"damage": AMOUNT},
}


def within(value: int, bounds: Bounds, path: Path) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise FormatError(f"{value} is out of range ({low} to {high})", path)


def numbers(values: Mapping[str, Any], table: dict[str, Bounds], path: Path) -> None:
    for key, bounds in table.items():
        value = values.get(key)
        if isinstance(value, int):
            within(value, bounds, path + (key,))


def check_encounter(encounter: Encounter) -> None:
    for index, combatant in enumerate(encounter.combatants):
        check_combatant(combatant, ("combatants", index))


def check_combatant(c: Combatant, path: Path) -> None:
    numbers({"hp": c.hp, "max_hp": c.max_hp}, CORE, path)


def check_event(event: ev.Event, round_: int) -> None:
    """The event's numbers, and its round: at most the one after the fight's (rounds come
    one at a time; a round far ahead is refused, never walked through)."""
    if event.round > round_ + 1:
        raise IllegalEvent(f"{event.round} is out of range (0 to {round_ + 1}): the fight "
                           f"is in round {round_}, and rounds come one at a time",
                           ("round",))
    table = EVENT.get(event.TYPE)
    if table:
        numbers({key: getattr(event, key, None) for key in table}, table, ())
    if isinstance(event, ev.Initiative):
        for who, base in getattr(event, "base", {}).items():
            within(base, COUNT, ("base", who))
    if isinstance(event, ev.Join) and event.combatant is not None:
        check_combatant(event.combatant, ("combatant",))
