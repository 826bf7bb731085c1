"""An outcome never contradicts its own dice (issue 26): a bull rush, dismount or subdue
is checked against the `roll` events logged just before it, and the damage a subdue's d6
decides against that d6. A save where they disagree is refused, naming the field and
both values; the program's own manoeuvres always agree, as they are worked out from the
same dice by the same rules (manoeuvres.py).

A manoeuvre told without dice (no roll before it) has nothing to contradict, and an older
save that does not say who dodged or whether there was room is read as it can be."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent, Path
from referee.engine.view import Fight

from . import events as ph
from .manoeuvres import mount_defense, rush_dice, rusher_of, subdue_outcome

LABELS = {"bull-rush": "bull rush", "dismount": "dismount", "subdue": "subdue"}
Rolls = list[tuple[int, ev.Roll]]  # each with its index in the log


def rolls_before(fight: Fight, kind: str, end: int | None = None) -> Rolls:
    """The manoeuvre's dice: the rolls that end the log (or its first `end` events),
    back to the first event that is not one of its rolls (another event, or a roll for
    another purpose)."""
    log, label = fight.log, LABELS[kind]
    index = (len(log) if end is None else end) - 1
    out: Rolls = []
    while index >= 0:
        event = log[index]
        if type(event) is not ev.Roll or (event.purpose is not None
                                           and not event.purpose.startswith(label)):
            break
        out.append((index, event))
        index -= 1
    out.reverse()
    return out


def word(value: bool) -> str:
    return "true" if value else "false"


def total(index: int, roll: ev.Roll, count: int, who: str, rule: str,
          exact: bool = True) -> int:
    """The roll's total, from its dice: `count` d6 (at least `count` when helpers add
    theirs), each 1 to 6, adding up to the total written."""
    where: Path = ("events", index)
    if not roll.dice:
        return roll.total  # a total told without its dice: nothing more to compare
    if len(roll.dice) != count if exact else len(roll.dice) < count:
        many = f"{count}d6" if exact else f"at least {count}d6"
        raise IllegalEvent(f"{who} rolls {many} ({rule}), this roll has {len(roll.dice)} "
                           "dice", where + ("dice",))
    for number, die in enumerate(roll.dice):
        if not 1 <= die <= 6:
            raise IllegalEvent(f"{die} is out of range (1 to 6): a d6 ({rule})",
                               where + ("dice", number))
    if roll.total != sum(roll.dice):
        raise IllegalEvent(f"{roll.total}, but the dice {list(roll.dice)} add up to "
                           f"{sum(roll.dice)}", where + ("total",))
    return sum(roll.dice)


def by_unit(rolls: Rolls, parties: tuple[str, ...], rule: str) -> dict[str, tuple[int, ev.Roll]]:
    """Each party's one roll; a roll for anyone else, or a second one, is refused."""
    out: dict[str, tuple[int, ev.Roll]] = {}
    for index, roll in rolls:
        who = roll.actor or ""
        if who not in parties:
            raise IllegalEvent(f"a roll for {who or 'nobody'}, who is not in this manoeuvre "
                               f"({rule})", ("events", index, "actor"))
        if who in out:
            raise IllegalEvent(f"{who} rolls twice for one manoeuvre ({rule})",
                               ("events", index, "actor"))
        out[who] = (index, roll)
    return out


def check(fight: Fight, event: ph.Manoeuvre) -> None:
    rolls = rolls_before(fight, event.kind)
    if not rolls:
        return  # told, not rolled: no dice to contradict
    if event.kind == "bull-rush":
        check_bull_rush(fight, event, rolls)
    elif event.kind == "dismount":
        check_dismount(fight, event, rolls)
    else:
        check_subdue(event, rolls)


def check_bull_rush(fight: Fight, event: ph.Manoeuvre, rolls: Rolls) -> None:
    """PH-13: the rusher must beat every roll; a dodging unit loses; without a square
    for everyone displaced the rush fails."""
    actor = event.actor
    found = by_unit(rolls, (actor,) + event.target, "PH-13")
    totals = {}
    for who, (index, roll) in found.items():
        count = int(rush_dice(rusher_of(fight, who))[:-2])
        totals[who] = total(index, roll, count, who, "PH-13")
    if actor not in totals:
        raise IllegalEvent(f"the dice have no roll for the rusher {actor} (PH-13)", ("actor",))
    mine = totals[actor]
    stopped, missing, beaten = None, [], []
    for cid in event.target:
        if event.dodging is not None and cid in event.dodging:
            beaten.append(f"{cid} dodging")
        elif cid not in totals:
            if event.dodging is not None:
                missing.append(cid)  # an older save says nothing of dodging: it may have
        elif totals[cid] >= mine:
            stopped = cid
            break
        else:
            beaten.append(f"{cid} {totals[cid]}")
    if event.success and stopped is not None:
        raise IllegalEvent(f"true, but the dice say false: {actor} {mine} does not beat "
                           f"{stopped} {totals[stopped]} (PH-13)", ("success",))
    if event.success and missing:
        raise IllegalEvent(f"true, but the dice say false: {missing[0]} has no roll and is "
                           "not dodging (PH-13)", ("success",))
    if event.success and event.room is False:
        raise IllegalEvent("true, but with no square for those displaced (room = false) the "
                           "rush fails (PH-13)", ("success",))
    if not event.success and stopped is None and not missing and event.room is True:
        raise IllegalEvent(f"false, but the dice say true: {actor} {mine} beats "
                           f"{', '.join(beaten)} (PH-13)", ("success",))


def check_dismount(fight: Fight, event: ph.Manoeuvre, rolls: Rolls) -> None:
    """PH-15: 2d6 + 1d6 per other enemy helping, above (not equal to) the mount's
    modified Defense."""
    actor = event.actor
    found = by_unit(rolls, (actor,), "PH-15")
    if actor not in found or not event.target:
        return
    index, roll = found[actor]
    rolled = total(index, roll, 2, actor, "PH-15: 2d6, +1d6 per helper", exact=False)
    defense = event.defense
    if defense is None:
        mount = fight.roster[event.target[0]].stats.get("mount")
        defense = mount_defense(fight, str(mount), actor)
    says = rolled > defense
    if says != event.success:
        verb = "beats" if says else "does not beat"
        raise IllegalEvent(f"{word(event.success)}, but the dice say {word(says)}: {rolled} "
                           f"{verb} the mount's Defense {defense} (PH-15: above, not equal)",
                           ("success",))


def check_subdue(event: ph.Manoeuvre, rolls: Rolls) -> None:
    """PH-14: one d6 after the attack."""
    found = by_unit(rolls, (event.actor,), "PH-14")
    for index, roll in found.values():
        total(index, roll, 1, event.actor, "PH-14: one d6")


def check_subdue_damage(fight: Fight, event: ev.Damage) -> None:
    """The damage a subdue's d6 decides (PH-14): 1-3 half Fatigue, 4-5 full Fatigue, 6
    full normal damage; it follows its subdue in the log."""
    log = fight.log
    if len(log) < 2 or not isinstance(log[-1], ph.Manoeuvre):
        return
    subdue = log[-1]
    if subdue.kind != "subdue" or event.target not in subdue.target or \
            event.source not in (None, subdue.actor):
        return
    rolls = rolls_before(fight, "subdue", end=len(log) - 1)
    if not rolls:
        return
    die = rolls[-1][1]
    face = sum(die.dice) if die.dice else die.total
    fatigue = bool(getattr(event, "fatigue", False))
    wants = face <= 5
    if fatigue != wants:
        raise IllegalEvent(f"{word(fatigue)}, but the d6 {face} says {word(wants)} (PH-14: "
                           "1-5 Fatigue, 6 full normal damage)", ("fatigue",))
    if subdue.damage is not None:
        amount, _, what = subdue_outcome(face, subdue.damage)
        if event.amount != amount:
            raise IllegalEvent(f"{event.amount}, but the d6 {face} says {amount}: {what} of "
                               f"the attack's {subdue.damage} (PH-14)", ("amount",))
