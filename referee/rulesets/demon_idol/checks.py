"""demon-idol's checks of its own events, as the roster schema asks them: a declaration's
fields against its letter's role, a volley's shots, a surprise segment's declaration
(DI-17), a move over a distance; the side dice of an initiative (DI-2); and a hit's
damage against the damage roll logged with it."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.dice import DiceError, Roll
from referee.engine.errors import IllegalDeclaration, IllegalEvent
from referee.engine.words import counted
from referee.hints import TYPE_CHECKING

from . import discharge, routines, stats
from . import events as di
from .declaring import ALWAYS, FIELDS
from .items import INITIATIVE
from .state import state_of

if TYPE_CHECKING:
    from typing import Any

    from referee.engine.view import Fight
else:
    from referee.hints import Any


def check_declare(role_of: dict[str, str], fight: Fight, d: di.Declare) -> None:
    role = role_of[d.action]
    allowed = FIELDS[role] + ALWAYS
    for name in ("weapon", "spell", "device", "usage_time", "closing", "distance",
                 "indoors"):
        if getattr(d, name) is not None and name not in allowed:
            raise IllegalDeclaration(f"{d.action} ({role}) takes no {name}", (name,))
    for name in ("turn", "charge"):
        if getattr(d, name) and name not in allowed:
            raise IllegalDeclaration(f"{d.action} ({role}) cannot {name}", (name,))
    if d.initiative is not None and d.initiative not in INITIATIVE:
        raise IllegalDeclaration(f"initiative: expected one of {', '.join(INITIATIVE)}, "
                                 f"found {d.initiative!r}", ("initiative",))
    if d.shots:
        check_shots(fight, d)
    if d.routines:
        routines.check(d, fight.roster[d.actor], role)
    chosen = [n for n in ("spell", "device", "turn") if getattr(d, n)]
    if role == "discharge" and len(chosen) + (d.weapon is not None) > 1:
        raise IllegalDeclaration("a D names one of weapon, spell, device or turn",
                                 (chosen[0],))
    if d.prepared and role == "discharge" and d.spell and d.segment:
        raise IllegalDeclaration("a spell's start can be prepared, not in surprise",
                                 ("prepared",))
    if d.segment is not None:
        check_surprise_declare(fight, d)
    if d.distance is not None:
        check_distance(fight, d)
    if d.then and role == "discharge" and not shot(fight, d):
        raise IllegalDeclaration("a D after an E is a shot on the move: name a missile "
                                 "weapon (spells and devices are not cast moving)",
                                 ("then",))
    if role == "discharge":
        discharge.check(d, fight.roster[d.actor])


# The fields of a declaration that `check_declare` reads nothing of, or reads only to ask
# the role of its action: a declaration that gives no other field (the rest keep their
# defaults, none of them, which every check but a D's passes) is checked by `check_plain`.
PLAIN = frozenset({"round", "follows", "from_device", "actor", "action", "target",
                   "replaces", "note"})


def check_plain(role_of: dict[str, str], fight: Fight, d: di.Declare) -> None:
    """`check_declare` of a declaration whose own fields are all in PLAIN: what is left
    of it is a D's (it names nothing, which the actor must be able to discharge)."""
    if role_of[d.action] == "discharge":
        discharge.check(d, fight.roster[d.actor])


def check_distance(fight: Fight, d: di.Declare) -> None:
    rate = stats.move(fight.roster[d.actor])
    if d.distance is not None and d.distance < 0:
        raise IllegalDeclaration(f"must be at least 0, found {d.distance:g}",
                                 ("distance",))
    if rate is None:
        raise IllegalDeclaration(f"{d.actor} has no movement rate (move) to cover a "
                                 "distance: give its move, or closing in segments",
                                 ("distance",))
    if rate == 0 and d.closing is None:
        raise IllegalDeclaration(f"{d.actor} cannot move (move = 0)",
                                 ("distance",))


def shot(fight: Fight, d: di.Declare) -> bool:
    weapon = fight.roster[d.actor].weapon(d.weapon) if d.weapon else None
    return weapon is not None and stats.discharged(weapon)


def check_shots(fight: Fight, d: di.Declare) -> None:
    weapon = fight.roster[d.actor].weapon(d.weapon) if d.weapon else None
    if weapon is None or not stats.discharged(weapon):
        raise IllegalDeclaration("shots: one target per shot of a missile (or thrown) "
                                 "weapon named", ("shots",))
    if len(d.shots) > stats.rate(weapon):
        raise IllegalDeclaration(f"shots: {counted(len(d.shots), 'target')} for {weapon.name}'s "
                                 f"{counted(stats.rate(weapon), 'shot')} a round", ("shots",))
    for index, target in enumerate(d.shots):
        if target not in fight.roster:
            raise IllegalDeclaration(f"unknown combatant {target!r}", ("shots", index))


def check_surprise_declare(fight: Fight, d: di.Declare) -> None:
    surprise = state_of(fight).surprise
    segments = getattr(surprise, "segments", 0)
    if surprise is None or segments == 0:
        raise IllegalDeclaration("no surprise segments in this fight (DI-17)", ("segment",))
    if d.segment is not None and d.segment > segments:
        raise IllegalDeclaration(
            f"segment {d.segment}: there are {segments} surprise segments (DI-17)",
            ("segment",))
    if fight.is_member(d.actor, surprise.surprised):
        raise IllegalDeclaration(
            f"{d.actor} is surprised and cannot act in surprise segments (DI-17)",
            ("actor",))
    for target in fight.members(d.target):
        reaction = stats.reaction(fight.roster[target])
        if d.segment is not None and reaction >= d.segment:
            raise IllegalDeclaration(
                f"{target} cannot be targeted in surprise segment {d.segment}: "
                f"reaction +{reaction} (DI-17)", ("target",))


def check_initiative(die: int, fight: Fight, e: di.Initiative) -> None:
    sides = fight.side_ids()
    for side, value in e.rolls.items():
        if side not in sides:
            raise IllegalEvent(f"unknown side {side!r} (sides: {', '.join(sorted(sides))})",
                               ("rolls", side))
        if not 1 <= value <= die:
            raise IllegalEvent(f"a d{die} shows 1 to {die}, found {value}",
                               ("rolls", side))
    for side, shown in e.dice.items():
        check_die(die, e, side, shown)


def check_die(die: int, e: di.Initiative, side: str, record: Any) -> None:
    """Where the program rolled, the die it logged decides the side's roll: a save in
    which they disagree is refused, with both values."""
    if side not in e.rolls:
        raise IllegalEvent(f"a die for {side!r}, which has no roll", ("dice", side))
    try:
        rolled = Roll.from_dict(record)
    except DiceError as error:
        raise IllegalEvent(str(error), ("dice", side)) from None
    if rolled.expression != f"1d{die}":
        raise IllegalEvent(f"expected one d{die}, found {rolled.expression}",
                           ("dice", side))
    if rolled.total != e.rolls[side]:
        raise IllegalEvent(f"{e.rolls[side]}, but its die (dice.{side}) shows "
                           f"{rolled.total}", ("rolls", side))


DAMAGE = "damage to "  # the purpose the table gives a hit's roll (session/table.py)


def check_damage(schema: object, fight: Fight, e: ev.Damage) -> None:
    """A hit rolled with its damage (the roll just before it, "damage to ...") deals what
    that roll makes, none below 0: a save in which they disagree was changed by hand and
    is refused, with both values. Damage typed from real dice has no roll beside it.
    (The schema's check of a damage event itself: `schema` is not read.)"""
    found = fight.events[-1] if fight.events else None
    if not isinstance(found, ev.Roll) or not (found.purpose or "").startswith(DAMAGE):
        return
    made = max(found.total, 0)
    if e.amount != made:
        shown = f" showed {list(found.dice)}" if found.dice else ""
        raise IllegalEvent(f"the damage roll logged with it ({found.expr}{shown}) makes "
                           f"{made}, the log has {e.amount} (DI-21: a hit resolves as its "
                           "dice fall)", ("amount",))
