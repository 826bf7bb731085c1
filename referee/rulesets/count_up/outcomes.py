"""Dice and the outcomes they decide, held together.

The log keeps the dice (a `roll` event, die by die, or an initiative's `dice`) beside
what they decided (a base initiative, a morale verdict, an injury, damage dealt). Where
both are in the log they must agree: a save where they do not was changed by hand, and
is refused at the field that says otherwise, with both values. Each check is made as the
event is entered, so the app can never write such a save either; a referee who overrules
the dice writes the outcome without them (a typed number, a morale verdict without a
roll), which nothing contradicts.

An outcome is tied to the roll entered with it: the roll event just before it, for the
purpose the program gives it.
"""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.dice import Constant, DiceError, Expression, from_values
from referee.engine.dice import Roll as DiceRoll
from referee.engine.dice import parsed as parse  # (kept: an expression is frozen)
from referee.engine.errors import IllegalEvent
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as cu
from . import stats

if TYPE_CHECKING:
    from typing import Any

    from .settings import Settings
else:
    from referee.hints import Any

# the purposes the program gives the rolls of each act (morale.py, injuries.py,
# session/table.py)
DAMAGE, HEALING, MORALE = "damage to ", "healing for ", "morale "
CHANCE, TABLE = "critical injury chance", "injury table (CU-9)"
INJURY_DIE = "d20"  # CU-9: the injury table's row


def check_roll(event: ev.Roll) -> None:
    """A roll's total is what its dice make of its expression; without its dice, one its
    expression can make."""
    expression = parsed(event.expr)
    if not event.dice:
        low, high = bounds(expression)
        if not low <= event.total <= high:
            raise IllegalEvent(f"{event.total} is out of range ({low} to {high}): what "
                               f"{event.expr} can roll", ("total",))
        return
    try:
        made = from_values(expression, list(event.dice)).total
    except DiceError as error:
        raise IllegalEvent(str(error), ("dice",)) from None
    if made != event.total:
        raise IllegalEvent(f"{event.expr} with dice {list(event.dice)} makes {made}, the log "
                           f"has {event.total}", ("total",))


def parsed(expr: str) -> Expression:
    try:
        return parse(expr)
    except DiceError as error:
        raise IllegalEvent(str(error), ("expr",)) from None


def bounds(expression: Expression) -> tuple[int, int]:
    """The lowest and highest totals an expression can roll."""
    low = high = 0
    for term in expression.terms:
        if isinstance(term, Constant):
            low, high = low + term.sign * term.value, high + term.sign * term.value
            continue
        kept = term.highest or term.lowest or term.count
        least, most = kept, kept * term.sides
        low, high = (low + least, high + most) if term.sign > 0 else (low - most, high - least)
    return low, high


def roll_before(fight: Fight, purpose: str, back: int = 1) -> ev.Roll | None:
    """The roll `back` events before the one being entered, when its purpose starts
    (or, for a purpose in brackets, ends) with `purpose`. The program enters a roll and
    what it decides as one act, nothing between them; `follows` is not asked for, since
    an act's later events are checked once before they are marked as following
    (Fight.enter)."""
    if len(fight.events) < back:
        return None
    found = fight.events[-back]
    if not isinstance(found, ev.Roll):
        return None
    said = found.purpose or ""
    return found if said.startswith(purpose) or said.endswith(purpose) else None


def check_amount(fight: Fight, event: ev.Damage | ev.Heal) -> None:
    """Damage or healing rolled with it is that roll's total (none below 0), times a
    critical hit's multiplier (CU-7)."""
    times = multiplier(fight, event) if isinstance(event, ev.Damage) else 1
    roll = roll_before(fight, DAMAGE if isinstance(event, ev.Damage) else HEALING)
    if roll is None:
        return
    made = max(roll.total, 0) * times
    if event.amount != made:
        by = f" × {times}" if times != 1 else ""
        raise IllegalEvent(f"the roll entered with it ({roll.expr}: {roll.total}){by} makes "
                           f"{made}, the log has {event.amount}", ("amount",))


def multiplier(fight: Fight, event: ev.Damage) -> int:
    """CU-7: the multiplier a hit names, held to its weapon's; the damage dealt is a
    multiple of it."""
    times: int | None = getattr(event, "multiplier", None)
    weapon: str | None = getattr(event, "weapon", None)
    if times is None and weapon is None:
        return 1
    if not event.critical:
        raise IllegalEvent("only a critical hit is multiplied (CU-7)", ("multiplier",))
    if times is None or weapon is None:
        raise IllegalEvent("a critical hit's multiplier comes with the weapon it is of (CU-7)",
                           ("weapon",) if weapon is None else ("multiplier",))
    attacker = fight.roster.get(event.source or "")
    found = attacker.weapon(weapon) if attacker is not None else None
    if found is None:
        raise IllegalEvent(f"{event.source or 'no one'} has no weapon {weapon!r} to strike "
                           "with (CU-7)", ("weapon",))
    if times != stats.critical(found):
        raise IllegalEvent(f"the {weapon}'s critical multiplier is ×{stats.critical(found)}, "
                           f"the log has ×{times} (CU-7)", ("multiplier",))
    if event.amount % times:
        raise IllegalEvent(f"{event.amount} is not the damage times ×{times} (CU-7)",
                           ("amount",))
    return times


def check_injury(s: Settings, fight: Fight, event: cu.Injury) -> None:
    """CU-9: the d20 entered with it names the table's row; the d% before it is at or
    under the damage dealt. With no injury, the d% was over it."""
    if event.roll is not None:
        low, high = bounds(parse(INJURY_DIE))
        if not low <= event.roll <= high:
            raise IllegalEvent(f"{event.roll} is out of range ({low} to {high}): the injury "
                               f"table is rolled on a {INJURY_DIE} (CU-9)", ("roll",))
    if not event.injury:
        check_no_injury(event)
    check_injury_rolls(s, fight, event)
    if event.roll is not None and s.injuries.get(event.table or ""):
        row = s.injury(event.table or "", event.roll)
        if event.injury != row:
            raise IllegalEvent(f"a {event.roll} on the {event.table} table is {row!r}, "
                               f"the log has {event.injury!r} (CU-9)", ("injury",))
    if event.chance is not None:
        low, high = bounds(parse(s.injury_die))
        if not low <= event.chance <= high:
            raise IllegalEvent(f"{event.chance} is out of range ({low} to {high}): what "
                               f"{s.injury_die} can roll (CU-9)", ("chance",))
        if event.injury and event.damage is not None and event.chance > event.damage:
            raise IllegalEvent(f"{s.injury_die} {event.chance} is over the damage dealt "
                               f"({event.damage}): no injury (CU-9)", ("chance",))
    if event.source is not None and event.source not in fight.roster:
        raise IllegalEvent(f"unknown combatant {event.source!r}", ("source",))


def check_no_injury(event: cu.Injury) -> None:
    """A verdict of no injury: its d% was over the damage dealt, and no row was rolled."""
    if event.chance is None or event.damage is None:
        raise IllegalEvent("an injury names its row of the table (or, with none, the d% "
                           "over the damage dealt) (CU-9)", ("injury",))
    if event.chance <= event.damage:
        raise IllegalEvent(f"d% {event.chance} is at or under the damage dealt "
                           f"({event.damage}): an injury is rolled on the table (CU-9)",
                           ("injury",))
    if event.roll is not None:
        raise IllegalEvent("no injury: no row of the table is rolled (CU-9)", ("roll",))


def check_injury_rolls(s: Settings, fight: Fight, event: cu.Injury) -> None:
    """The rolls entered with an injury are the ones it names: the d20 just before it (if
    an injury was rolled), the d% before that."""
    row = roll_before(fight, TABLE) if event.injury else None
    if row is not None:
        rolled_on(row, INJURY_DIE, "roll", "CU-9")
        if event.roll != row.total:
            raise IllegalEvent(f"the {INJURY_DIE} entered with it shows {row.total}, the log "
                               f"has {shown(event.roll)} (CU-9)", ("roll",))
    elif event.injury:
        return  # written by hand, without its dice: nothing to hold it to
    chance = roll_before(fight, CHANCE, 2 if row is not None else 1)
    if chance is None:
        return
    rolled_on(chance, s.injury_die, "chance", "CU-9")
    if event.chance is not None and event.chance != chance.total:
        raise IllegalEvent(f"the d% entered with it shows {chance.total}, the log has "
                           f"{event.chance} (CU-9)", ("chance",))
    damage = event.damage
    if event.injury and damage is not None and chance.total > damage:
        raise IllegalEvent(f"the d% entered with it shows {chance.total}, over the damage "
                           f"dealt ({damage}): no injury (CU-9)", ("chance",))


def rolled_on(roll: ev.Roll, dice: str, field: str, rule: str) -> None:
    """A roll entered with an outcome is on the dice its rule rolls."""
    want = str(parse(dice))
    if str(parsed(roll.expr)) != want:
        raise IllegalEvent(f"{want} is rolled here ({rule}), the roll entered with it is "
                           f"{roll.expr}", (field,))


def check_initiative(s: Settings, fight: Fight, event: cu.Initiative) -> None:
    """CU-2: a base rolled by the program is its die less the Agility modifier."""
    die = str(parse(f"d{s.die}"))
    for who, record in event.dice.items():
        if who not in event.base:
            raise IllegalEvent(f"a roll for {who}, but no base initiative for it", ("dice", who))
        try:
            roll = DiceRoll.from_dict(record)
        except DiceError as error:
            raise IllegalEvent(str(error), ("dice", who)) from None
        if roll.expression != die:
            raise IllegalEvent(f"base initiative is rolled on {die}, the log has "
                               f"{roll.expression} (CU-2)", ("dice", who))
        agility = stats.agility(rolled_for(fight, who))
        made = roll.total - agility
        if event.base[who] != made:
            raise IllegalEvent(f"{die} shows {roll.total}, less Agility {agility}: {made}, the "
                               f"log has {event.base[who]} (CU-2)", ("base", who))


def rolled_for(fight: Fight, who: str) -> Any:
    """The combatant whose Agility a roll for `who` takes: itself, or its group's first
    (identical monsters share one roll, CU-2)."""
    if who in fight.roster:
        return fight.roster[who]
    return next(c for c in fight.roster.values() if stats.group(c) == who)


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "nothing" if value is None else str(value)


def dice_values(result: Any) -> tuple[int, ...]:
    return tuple(value for term in result.terms for value in getattr(term, "rolls", ()))
