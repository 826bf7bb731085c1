"""PH-6, PH-13 to PH-15, PH-19: bull rush, dismount and subdue as table operations, every
die logged as a `roll` event and the result applied."""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.model import Combatant
from referee.engine.port import dice_roll, roll_event
from referee.engine.view import Fight

from . import events as ph
from . import modifiers, stats
from .standing import effective
from .state import state_of

KINDS = ("bull-rush", "dismount", "subdue")


def real_dice(text: str | None) -> list[int] | None:
    """Dice typed in ("3 5 2" or "3,5,2"); None when blank: the program rolls."""
    if not text or not str(text).strip():
        return None
    try:
        return [int(part) for part in str(text).replace(",", " ").split()]
    except ValueError:
        raise IllegalEvent(f"dice are whole numbers, found {text!r}", ("dice",)) from None


def name(fight: Fight, cid: str) -> str:
    c = fight.roster.get(cid)
    return c.name if c else cid


def rusher_of(fight: Fight, cid: str) -> Combatant:
    """PH-19: a rider counts as its mount (the mount's stats) in a bull rush; once
    dismounted the two are separate units (PH-15)."""
    c = fight.roster[cid]
    mount = c.stats.get("mount")
    if mount and mount in fight.roster and cid not in state_of(fight).dismounted:
        return fight.roster[mount]
    return c


def agile(fight: Fight, actor: str) -> str:
    """Why `actor` cannot bull rush (PH-13: Agile; PH-19: a rider as its mount), or ""."""
    rusher = rusher_of(fight, actor)
    if not stats.has(rusher, "Agile"):
        return ""
    if rusher.id != actor:
        return (f"{fight.roster[actor].name} rides {rusher.name}, which is Agile: the pair "
                "cannot bull rush (PH-13, PH-19)")
    return f"{rusher.name} is Agile: it cannot bull rush (PH-13)"


def rush_dice(c: Combatant) -> str:
    """PH-13: 2d6, +1d6 if Heavy, +1d6 per square beyond the first."""
    count = 2 + (1 if stats.has(c, "Heavy") else 0) + max(0, stats.squares(c) - 1)
    return f"{count}d6"


def bull_rush(fight: Fight, actor: str, targets: Sequence[str], dodging: Sequence[str],
              room: bool, simultaneous: bool, phase: int | None,
              rng: random.Random, typed: Sequence[list[int]] = ()) -> list[ev.Event]:
    """`typed`: real dice, the rusher's first, then each resisting unit's in turn (the
    program rolls any not given)."""
    round_ = max(fight.round, 1)
    if not targets:
        raise IllegalEvent("a bull rush names whom it rushes", ("target",))
    rusher = rusher_of(fight, actor)
    why = agile(fight, actor)
    if why:
        raise IllegalEvent(why, ("actor",))
    given = list(typed)
    out: list[ev.Event] = []
    real = given.pop(0) if given else None
    mine = dice_roll(rush_dice(rusher), rng, real)
    # the words a person reads name the units; the events' fields keep their ids
    against = ", ".join(name(fight, cid) for cid in targets)
    out.append(roll_event(round_, mine, f"bull rush against {against} (PH-13)", actor,
                          real is not None))
    beaten = []
    for cid in targets:
        if cid in dodging:
            beaten.append(f"{name(fight, cid)} dodging: loses (PH-13)")
            continue
        real = given.pop(0) if given else None
        theirs = dice_roll(rush_dice(rusher_of(fight, cid)), rng, real)
        out.append(roll_event(round_, theirs, f"bull rush, resisting {name(fight, actor)} "
                              "(PH-13)", cid, real is not None))
        if mine.total <= theirs.total:
            result = f"{mine.total} does not beat {name(fight, cid)} {theirs.total}"
            out.append(ph.Manoeuvre(round=round_, kind="bull-rush", actor=actor,
                                    target=tuple(targets), success=False, phase=phase,
                                    simultaneous=simultaneous, result=result,
                                    dodging=tuple(dodging), room=room))
            return out
        beaten.append(f"{name(fight, cid)} {theirs.total}")
    if not room:
        result = f"{mine.total} beats {', '.join(beaten)}, but nobody displaced has a square"
        success = False
    else:
        result = (f"{mine.total} beats {', '.join(beaten)}: takes the square, the others "
                  "pushed back one")
        success = True
    out.append(ph.Manoeuvre(round=round_, kind="bull-rush", actor=actor, target=tuple(targets),
                            success=success, phase=phase, simultaneous=simultaneous,
                            result=result, dodging=tuple(dodging), room=room))
    return out


def dismount(fight: Fight, actor: str, rider: str, helpers: int, defense: int | None,
             phase: int | None, real: list[int] | None,
             rng: random.Random) -> list[ev.Event]:
    """PH-15: 2d6 + 1d6 per other enemy helping, above the mount's modified Defense."""
    round_ = max(fight.round, 1)
    mount = fight.roster[rider].stats.get("mount")
    if not mount:
        raise IllegalEvent(f"{fight.roster[rider].name} rides no mount", ("target",))
    if defense is None:
        defense = mount_defense(fight, mount, actor)
    roll = dice_roll(f"{2 + helpers}d6", rng, real)
    out: list[ev.Event] = [roll_event(round_, roll, f"dismount of {name(fight, rider)} "
                                      "(PH-15)", actor, real is not None)]
    success = roll.total > defense
    verdict = "dismounted" if success else "stays mounted"
    out.append(ph.Manoeuvre(round=round_, kind="dismount", actor=actor, target=(rider,),
                            success=success, phase=phase, defense=defense,
                            result=f"{roll.total} vs the mount's Defense {defense}: "
                                   f"{name(fight, rider)} {verdict}"))
    return out


def mount_defense(fight: Fight, mount: str, actor: str) -> int:
    """PH-15, PH-16: the mount's modified Defense against the unit that tries."""
    return effective(fight, mount)[1] + modifiers.elevation_bonus(fight.roster[mount],
                                                                  fight.roster[actor])


def subdue_outcome(face: int, damage: int) -> tuple[int, bool, str]:
    """PH-14: the d6 after a subdue attack: (amount, Fatigue or not, in words)."""
    if face <= 3:
        return damage // 2, True, f"half Fatigue ({damage // 2})"
    if face <= 5:
        return damage, True, f"full Fatigue ({damage})"
    return damage, False, f"full normal damage ({damage})"


def subdue(fight: Fight, actor: str, target: str, damage: int,
           phase: int | None, real: list[int] | None, rng: random.Random) -> list[ev.Event]:
    """PH-14: the attack's damage as Fatigue; d6: 1-3 half, 4-5 full, 6 full normal damage."""
    round_ = max(fight.round, 1)
    roll = dice_roll("1d6", rng, real)
    out: list[ev.Event] = [roll_event(round_, roll, f"subdue of {name(fight, target)} "
                                      "(PH-14)", actor, real is not None)]
    face = roll.total
    amount, fatigue, what = subdue_outcome(face, damage)
    out.append(ph.Manoeuvre(round=round_, kind="subdue", actor=actor, target=(target,),
                            success=True, phase=phase, damage=damage,
                            result=f"d6 {face}: {what}"))
    out.append(ph.Damage(round=round_, target=target, amount=amount, source=actor,
                         fatigue=fatigue, note=f"subdue (PH-14): {what}"))
    return out
