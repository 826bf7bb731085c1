"""A unit now, as the fold has it: its numbers less its wounds (AO-11), what its Bonus
Actions bought, its conditions, its summoning (AO-14) and whether it still stands and
takes a turn (AO-15). Pure functions of the fight."""

from __future__ import annotations

from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import state as st
from . import stats
from .state import State

if TYPE_CHECKING:
    from typing import cast
else:
    from referee.hints import cast

FLAT = ("flat-footed", "snuck", "tied", "frozen", "paralysed", "paralyzed")
CHANNEL = ("channelling", "channeling")
OUT = ("fled", "surrendered")  # AO-15: gone from the fight, or lost the will to fight


def state(fight: Fight) -> State:
    """agility-order's state as the fight's fold has it now (held untyped there)."""
    return cast(State, fight.rs)


def at_round(fight: Fight, round_: int | None) -> int:
    """The round asked about: the fight's own (round 1 before it starts), or a later
    one an event names (a check looks at the round the event is in)."""
    return max(fight.round, 1) if round_ is None else round_


# -- its numbers -----------------------------------------------------------------------


def agility(fight: Fight, now: State, cid: str) -> int:
    slowing = sum(1 for effect, _ in now.wounds.get(cid, ()) if effect == "slowing")
    return stats.agility(fight.roster[cid]) - slowing


def agility_now(fight: Fight, cid: str) -> int:
    """AO-1, AO-11: the Agility modifier with slowing wounds (−1 each)."""
    return agility(fight, state(fight), cid)


def accuracy_now(fight: Fight, cid: str, round_: int | None = None) -> int:
    """AO-11: disrupting wounds −1 each for the battle, −3 in all in their round."""
    hits = [r for effect, r in state(fight).wounds.get(cid, ()) if effect == "disrupting"]
    now = at_round(fight, round_)
    return (stats.accuracy(fight.roster[cid]) - len(hits)
            - 2 * sum(1 for r in hits if r == now))


def strength_now(fight: Fight, cid: str) -> int:
    return stats.strength(fight.roster[cid]) - count(fight, cid, "weakening")


def count(fight: Fight, cid: str, effect: str) -> int:
    return st.effects(state(fight), cid).count(effect)


def bought(fight: Fight, cid: str, round_: int | None = None) -> st.Bought:
    """AO-4: what `cid`'s Bonus Actions bought this round (nothing yet in a later one)."""
    now = state(fight)
    if round_ is not None and round_ > now.round:
        return st.NOTHING
    return now.bought.get(cid, st.NOTHING)


# -- its conditions ----------------------------------------------------------------------


def conditions(fight: Fight, cid: str, round_: int | None = None) -> dict[str, int | None]:
    held = fight.status[cid].conditions
    if round_ is None or round_ <= fight.round:
        return held
    # a later round: the fold will have counted each condition down once by then
    return {name: (left - 1 if left is not None else None)
            for name, left in held.items() if left is None or left > 1}


def flat_footed(fight: Fight, cid: str, round_: int | None = None) -> str:
    """AO-13: why `cid` cannot dodge ("" when it can)."""
    held = conditions(fight, cid, round_)
    for name in FLAT:
        if name in held:
            return name
    if sick(fight, cid, round_):
        return "summoning sickness"
    if any(n in held for n in CHANNEL) and not stats.has_feat(
            fight.roster[cid], "Battle caster"):
        return "channelling"
    return ""


def prone(fight: Fight, cid: str, round_: int | None = None) -> bool:
    return "prone" in conditions(fight, cid, round_)


# -- summons (AO-14) -----------------------------------------------------------------------


def summoned_in(fight: Fight, cid: str) -> int | None:
    """AO-14: the round `cid` was summoned in (0: before the battle), or None for a
    unit that is no summon. A summon that joins without saying is summoned then."""
    c = fight.roster[cid]
    came = c.stats.get("summoned")
    if came is None:
        return fight.joins[cid][0] if cid in fight.joins and stats.summoner(c) else None
    return int(came)


def sick(fight: Fight, cid: str, round_: int | None = None) -> bool:
    """AO-14: a summon cannot act or dodge in what is left of the round it is
    summoned in, nor in the round after."""
    return sick_since(fight, summoned_in(fight, cid), round_)


def sick_since(fight: Fight, came: int | None, round_: int | None = None) -> bool:
    return came is not None and came >= 1 and at_round(fight, round_) <= came + 1


def gone(fight: Fight, cid: str) -> bool:
    """AO-14: unthralled summons vanish: those from before the battle as it begins,
    the others as it ends."""
    return gone_since(fight, cid, summoned_in(fight, cid))


def gone_since(fight: Fight, cid: str, came: int | None) -> bool:
    if came is None or stats.thralled(fight.roster[cid]):
        return False
    return came == 0 or state(fight).ended


# -- who stands (AO-15) ----------------------------------------------------------------


def dead(fight: Fight, cid: str) -> bool:
    """Dead by a death event, or felled by a chain's dice (AO-8, AO-9)."""
    return fight.status[cid].dead or cid in state(fight).felled


def no_turn(fight: Fight, cid: str, hp: int | None = None) -> tuple[str, str] | None:
    """Why `cid` takes no turn: (rule, why), or None (with `hp` for its hit points:
    as it stood before a hit)."""
    status = fight.status[cid]
    came = summoned_in(fight, cid)  # once: a big battle asks of every unit
    if gone_since(fight, cid, came):
        return ("AO-14", "an unthralled summon: vanished")
    felled = state(fight).felled.get(cid)  # the chain's rule, death event or not
    if felled:
        return (felled, "dead")
    if status.dead:
        return ("AO-15", "dead")
    if (status.hp if hp is None else hp) <= 0:
        return ("AO-15", "defeated (0 hp)")
    for name in OUT:
        if name in status.conditions:
            return ("AO-15", name)
    if sick_since(fight, came):
        return ("AO-14", "summoning sickness: cannot act this round")
    return None


def can_act(fight: Fight, cid: str) -> str:
    found = no_turn(fight, cid)
    return found[1] if found else ""


def standing(fight: Fight, cid: str) -> bool:
    return no_turn(fight, cid) is None or (sick(fight, cid) and not dead(fight, cid))


def standing_sides(fight: Fight) -> list[str]:
    sides = []
    for cid, c in fight.roster.items():
        if c.side not in sides and standing(fight, cid):
            sides.append(c.side)
    return sides


def victors(fight: Fight) -> list[str]:
    """AO-15: the one team still standing; an end while more stand (a parley, a
    truce) has no victors, and nobody's MP is replenished."""
    sides = standing_sides(fight)
    return sides if len(sides) == 1 else []


# -- the hit roll (AO-7) -------------------------------------------------------------


def hit_bonus(fight: Fight, actor: str, flank: bool, centre: bool,
              round_: int | None = None) -> tuple[int, list[str]]:
    """d20 + Accuracy (disrupting wounds off), +1 flanking, +1 centre mass, +1s bought."""
    accuracy = accuracy_now(fight, actor, round_)
    parts = [f"Accuracy {accuracy:+d}"]
    bonus = accuracy
    for label, on in (("flanking +1", flank), ("centre mass +1", centre)):
        if on:
            bonus += 1
            parts.append(label)
    more = bought(fight, actor, round_)[0]
    if more:
        bonus += more
        parts.append(f"+{more} bought (BA)")
    return bonus, parts


def target_number(fight: Fight, target: str, sneak: bool,
                  round_: int | None = None) -> tuple[int, str]:
    """10 + Agility (+1 a dodge bought); flat-footed 5; prone 5 + Agility."""
    agility = agility_now(fight, target)
    flat = "undetected" if sneak else flat_footed(fight, target, round_)
    if flat:
        return 5, f"flat-footed ({flat}): 5"
    if prone(fight, target, round_):
        return 5 + agility, f"prone: 5 {agility:+d}"
    dodge = bought(fight, target, round_)[2]
    return 10 + agility + dodge, f"10 {agility:+d}" + (f" +{dodge} dodge" if dodge else "")
