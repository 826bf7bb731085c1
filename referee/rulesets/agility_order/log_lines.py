"""What the log says of agility-order's own events (tie rolls, delays, spending, attacks,
wounds, a wound healed) and of damage entered alone, through armour (AO-11). The tracker
tells through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.view import Fight

from . import events as ao
from . import units, wounds

if TYPE_CHECKING:
    from .settings import Settings

CRITS = {1: "a critical hit (×2)", 2: "a super critical (×4)"}
FUMBLES = {1: "a natural 1", 2: "a tragedy"}


def name(fight: Fight, cid: str | None) -> str:
    combatant = fight.roster.get(cid or "")
    return combatant.name if combatant else (cid or "")


def tell(s: Settings, fight: Fight, event: ev.Event) -> str | None:
    """The log's line for `event` told agility-order's way (`s`: the house rules); None:
    the core's line."""
    told = TELLS.get(type(event))
    return told(s, fight, event) if told is not None else None


def tell_ties(s: Settings, fight: Fight, e: ao.Initiative) -> str | None:
    if not e.ties:
        return None
    label = "tie order" if s.tie_mode == "referee" else "tie rolls (d20)"
    return f"{label}: " + ", ".join(f"{name(fight, c)} {v}"
                                    for c, v in e.ties.items()) + " (AO-1)"


def tell_delay(s: Settings, fight: Fight, e: ao.Delay) -> str:
    where = f"until after {name(fight, e.after)}" if e.after else "to the end of the round"
    return f"{name(fight, e.actor)} delays {where} (AO-3)"


def tell_heal(s: Settings, fight: Fight, e: ao.Heal) -> str | None:
    if e.wound is None:
        return None
    return f"{name(fight, e.target)} heals {e.amount}, wound {e.wound} removed (AO-11)"


def tell_spend(s: Settings, fight: Fight, e: ao.Spend) -> str:
    paid = " + ".join(p for p, n in (("AA", e.aa), ("MA", e.ma)) if n)
    if e.ba:
        paid = (paid + " + " if paid else "") + ("2 BA" if e.ba == 2 else "BA")
    if e.spell:
        return tell_cast(fight, e, paid)
    what = e.use
    if e.use == "move 2":  # AO-5: added before the move halves
        what = "2 more spaces" + (f" ({e.spaces} further)" if e.spaces is not None
                                  else ", counted in the move (AO-5)")
    elif e.spaces is not None:
        what += f" {e.spaces} spaces" + (f" ({e.how})" if e.how else "")
    if e.mp:
        what += f", {e.mp} MP"
    off = ", from its next turn (AO-6)" if e.off_turn else ""
    return f"{name(fight, e.actor)}: {paid or 'nothing'} for {what}{off}"


def tell_cast(fight: Fight, e: ao.Spend, paid: str) -> str:
    """A cast names its spell and its target (AO-4)."""
    at = f" at {name(fight, e.target)}" if e.target else ""
    mp = f", {e.mp} MP" if e.mp else ""
    return f"{name(fight, e.actor)} casts {e.spell}{at}: {paid or 'nothing'}{mp} (AO-4)"


def tell_attack(s: Settings, fight: Fight, e: ao.Attack) -> str:
    line = attack_line(fight, e)
    return f"{line} — {e.note}" if e.note else line


def attack_line(fight: Fight, e: ao.Attack) -> str:
    who, whom = name(fight, e.actor), name(fight, e.target)
    kind = "free hit" if e.free else ("extra attack (MA + 2 BA)" if e.extra else "attack")
    if e.granted:
        return f"{who} takes the tragedy's free critical at {whom} (AO-9)"
    roll = f"d20 {e.d20} {e.bonus:+d} vs {e.needed}"
    aim = f", aimed {e.aim}" if e.aim else ""
    if e.fumble:
        level = FUMBLES.get(e.fumble, "killed outright")
        if not e.zone:
            return f"{who}'s {kind} at {whom}: {roll}, a natural 1 (outside the melee zone)"
        return (f"{who}'s {kind} at {whom}: {roll}, {level}: {whom} gets "
                f"{'a free critical' if e.fumble >= 2 else 'a free hit'} (AO-9)")
    if not e.hit:
        return f"{who}'s {kind} at {whom}{aim}: {roll}, a miss (AO-7)"
    crit = f", {CRITS.get(e.crit, 'a decisive victory')} (AO-8)" if e.crit else ""
    return f"{who}'s {kind} at {whom}{aim}: {roll}, a hit{crit}"


def tell_damage(s: Settings, fight: Fight, e: ev.Damage) -> str | None:
    """The line of a hit entered as damage alone, with its armour (None: the core's)."""
    off = wounds.armour_off(fight, units.state(fight), e)
    if off is None or e.target not in fight.status:
        return None
    amount = max(e.amount - off, 0)
    status = fight.status[e.target]
    how = f"{e.amount} − armour {off}" if off else "no armour"
    return (f"{name(fight, e.target)} takes {amount} damage ({how}) from "
            f"{name(fight, e.source)} (hp {status.hp - amount}/{status.max_hp})")


def tell_wound(s: Settings, fight: Fight, e: ao.Wound) -> str:
    effect = f" — {e.effect}" if e.effect else ""
    struck = units.state(fight).struck
    # the players' view shows this line: the damage itself stays the referee's
    hit = struck is not None and (struck[0], struck[1]) == (e.target, e.by)
    why = f": {s.wound_at}+ net damage" if hit else ""
    return f"{name(fight, e.target)} is wounded{effect}{why} (AO-11)"


# Keyed by the event's own class: a core heal removes no wound; the rest told the core's way
TELLS: dict[type[ev.Event], Callable[[Settings, Fight, Any], str | None]] = {
    ao.Initiative: tell_ties,
    ao.Delay: tell_delay,
    ao.Spend: tell_spend,
    ao.Attack: tell_attack,
    ao.Wound: tell_wound,
    ev.Damage: tell_damage,
    ao.Heal: tell_heal,
}
