"""What a D can discharge: a missile or thrown weapon, a device, a spell, or turning undead.
A long sword is not discharged: a D naming only a melee weapon (or nothing at all) is
refused, in a save as in the form, and one with nothing to discharge cannot declare D."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.engine.errors import IllegalDeclaration

from . import stats

if TYPE_CHECKING:
    from referee.engine.model import Combatant

    from .events import Declare

WHAT = "a missile or thrown weapon, a device, a spell or turning undead"


def has_something(combatant: Combatant) -> bool:
    """Whether `combatant` carries anything a D can discharge (or can turn undead)."""
    return (any(stats.discharged(w) for w in combatant.weapons) or bool(combatant.spells)
            or bool(stats.devices(combatant)) or stats.turns(combatant))


def why_not(combatant: Combatant, letter: str) -> str:
    """Why `combatant` cannot declare a D at all ("" when it can)."""
    if has_something(combatant):
        return ""
    return (f"{combatant.name} has nothing a {letter} discharges: no missile or thrown "
            "weapon, device or spell, and does not turn undead (set-up gives it one)")


def check(d: Declare, combatant: Combatant) -> None:
    """A D names what it discharges, and a weapon it names is one that can be loosed."""
    weapon = combatant.weapon(d.weapon) if d.weapon else None
    if weapon is not None and not stats.discharged(weapon):
        raise IllegalDeclaration(f"{weapon.name} is a melee weapon, not thrown: a "
                                 f"{d.action} needs {WHAT}", ("weapon",))
    named = (weapon is not None or d.spell is not None or d.device is not None
             or d.usage_time is not None or d.turn)
    if not named:
        raise IllegalDeclaration(f"a {d.action} names what it discharges: {WHAT}",
                                 ("weapon",))


def first_weapon(combatant: Combatant) -> str | None:
    """The weapon a D looses by default: the first missile weapon, else the first one
    that can be thrown."""
    for loosed in (stats.missile, stats.thrown):
        found = next((w.name for w in combatant.weapons if loosed(w)), None)
        if found is not None:
            return found
    return None


def prefill(combatant: Combatant, filled: dict[str, Any]) -> dict[str, Any]:
    """A D's form starts on something it can discharge: never a melee weapon (the shared
    prefill falls back to the first weapon), else its spell, device or turning."""
    out = dict(filled)
    chosen = combatant.weapon(out["weapon"]) if out.get("weapon") else None
    if chosen is not None and not stats.discharged(chosen):
        del out["weapon"]
        loosed = first_weapon(combatant)
        if loosed is not None:
            out["weapon"] = loosed
    if out.get("weapon") and out.get("spell"):  # a D names one: a caster casts, unless
        weapon = combatant.weapon(out["weapon"])  # its weapon is a true missile one
        if weapon is None or not stats.missile(weapon):
            del out["weapon"]
        else:
            del out["spell"]
    if out.get("weapon") or out.get("spell"):
        return out
    if combatant.spells:
        out["spell"] = combatant.spells[0].name
    elif stats.devices(combatant):
        out["device"] = stats.devices(combatant)[0]
    elif stats.turns(combatant):
        out["turn"] = True
    return out
