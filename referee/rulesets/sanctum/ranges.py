"""The range each number of a sanctum file makes sense in.

Saves are shared and ruleset files downloaded: a number out of its range is refused with
its field and the range ("attacks: 100000000 is out of range (0 to 20)"), so that no
number in a file can make the simulator loop or allocate without end (a combat runs its
rounds, a minion its attacks, the odds their runs).
"""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent, Path
from referee.engine.model import Combatant, Encounter

Bounds = tuple[int, int]

SEED: Bounds = (-(2**63), 2**63 - 1)  # a 64-bit number, as TOML writes integers
ROUNDS = 99  # a combat's rounds (SA-3)
RUNS = 100_000  # the odds' runs in the app (SA-11)
ATTACKS = 20  # a minion's attacks of one kind a round (SA-5)
DAMAGE = 9999  # an attack's damage, armor, hit points
# A level stays far below the "infinite" misses of the missile round (SA-4: 2**24), so
# that the first attack still hits whatever the levels.
LEVEL = 99
CREATED = 99_999  # a group's creation order (SA-1)
# a minion's hit points and their maximum, the core's keys (the ruleset's own keys carry
# their ranges in their Fields, stats.py)
CORE: dict[str, Bounds] = {"hp": (0, DAMAGE), "max_hp": (0, DAMAGE)}
# the core's events, as a sanctum save may hold them
EVENT: dict[str, dict[str, Bounds]] = {
    "damage": {"amount": (0, DAMAGE), "beat": (1, 9999)},
    "heal": {"amount": (0, DAMAGE)},
    "condition": {"duration": (1, 999)},
    "morale": {"roll": (-999, 999), "target": (-999, 999)},
    "resolve": {"beat": (1, 9999), "segment": (1, 99)},
    "roll": {"total": (-10**8, 10**8)},
    "combat": {"seed": SEED},
}
DIE: Bounds = (1, 1000)  # a die's face: the dice reader's largest die


def within(value: int, bounds: Bounds, path: Path) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise FormatError(f"{value} is out of range ({low} to {high})", path)


def check_encounter(encounter: Encounter) -> None:
    for index, combatant in enumerate(encounter.combatants):
        check_minion(combatant, ("combatants", index))


def check_minion(c: Combatant, path: Path) -> None:
    numbers = {"hp": c.hp, "max_hp": c.max_hp}
    for key, bounds in CORE.items():
        within(numbers[key], bounds, path + (key,))


def check_event(event: ev.Event, turn: int) -> None:
    """The event's numbers, and its turn: at most the one after the fight's (a turn far
    ahead is refused, never walked through)."""
    if event.round > turn + 1:
        raise IllegalEvent(f"{event.round} is out of range (0 to {turn + 1}): the fight is "
                           f"in turn {turn}, and turns come one at a time", ("round",))
    for key, bounds in EVENT.get(event.TYPE, {}).items():
        value = getattr(event, key, None)
        if isinstance(value, int):
            within(value, bounds, (key,))
    if isinstance(event, ev.Roll):
        for index, die in enumerate(event.dice):
            within(die, DIE, ("dice", index))
    if isinstance(event, ev.Join) and event.combatant is not None:
        check_minion(event.combatant, ("combatant",))

