"""What a save may say of agility-order's dice and numbers: every outcome is the one its
dice give, and every number lies in the range the rules make sense in. A save that
disagrees is refused with the field at fault and both values, never folded."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.dice import DiceError, from_values
from referee.engine.errors import IllegalEvent, Path
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import attack, stats, units
from . import events as ao
from . import ranges as rg
from .ranges import within

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

LEVELS = {"critical": ("a critical hit", "a super critical", "a decisive victory"),
          "fumble": ("a natural 1", "a tragedy", "a death")}


def round_ahead(fight: Fight, event: ev.Event) -> None:
    """A round far ahead of the fight is a typo: refused, never walked through."""
    within(event.round, (0, fight.round + rg.LEAP), ("round",),
           f"the fight is in round {fight.round}")


# -- an attack (AO-7 … AO-9) -----------------------------------------------------------


def attack_dice(fight: Fight, e: ao.Attack, chain_dice: tuple[int, ...]) -> None:
    """The d20 against the target the rules give, then the chain (its dice the ruleset
    file's `chain_dice`): each recorded result must be the one its dice make."""
    if e.granted:
        if not e.free or not e.hit or e.crit < 1:
            raise IllegalEvent("a tragedy's free critical is a free hit that hits as a "
                               "critical (AO-9)", ("granted",))
    else:
        within(e.d20, rg.D20, ("d20",), "a d20's faces")
        needed(fight, e)
        bonus(fight, e)
        hit = e.d20 == 20 or (e.d20 != 1 and e.d20 + e.bonus >= e.needed)
        if e.hit != hit:
            raise IllegalEvent(f"d20 {e.d20} {e.bonus:+d} against {e.needed} is "
                               f"{'a hit' if hit else 'a miss'} (AO-7)", ("hit",))
        if (e.crit > 0) != (e.d20 == 20):
            raise IllegalEvent("only a natural 20 is a critical (AO-8)", ("crit",))
        if (e.fumble > 0) != (e.d20 == 1):
            raise IllegalEvent("only a natural 1 fumbles (AO-9)", ("fumble",))
    chain(e, chain_dice)


def needed(fight: Fight, e: ao.Attack) -> None:
    """AO-7, AO-13: the number to hit is the target's as the rules give it now."""
    want, why = units.target_number(fight, e.target, bool(e.sneak), e.round)
    allowed = {want} if e.sneak is not None else {want, 5}  # older saves: sneak unsaid
    if e.needed not in allowed:
        rules = "AO-7, AO-13" if "flat-footed" in why else "AO-7"
        raise IllegalEvent(f"{e.needed} disagrees with the rules: "
                           f"{fight.roster[e.target].name} is hit on {want}: {why} "
                           f"({rules})", ("needed",))


def bonus(fight: Fight, e: ao.Attack) -> None:
    """AO-7: what the attacker adds to its d20, as the rules give it now."""
    want, parts = units.hit_bonus(fight, e.actor, bool(e.flank), e.aim == "centre",
                                  e.round)
    allowed = {want} if e.flank is not None else {want, want + 1}  # flank unsaid
    if e.bonus not in allowed:
        raise IllegalEvent(f"{e.bonus:+d} disagrees with the rules: "
                           f"{fight.roster[e.actor].name} adds {want:+d} "
                           f"({', '.join(parts)}) (AO-7)", ("bonus",))


def chain(e: ao.Attack, chain_dice: tuple[int, ...]) -> None:
    """AO-8, AO-9: the chain follows only a 20 or a 1, and its dice give the level."""
    kind = attack.chain_kind(e.d20, e.granted)
    field = "crit" if kind == "critical" else "fumble"
    recorded = e.crit if kind == "critical" else e.fumble
    if not kind:
        if e.chain:
            raise IllegalEvent(f"a chain follows only a natural 20 or 1, not d20 {e.d20} "
                               "(AO-8, AO-9)", ("chain",))
        return
    if not e.chain:  # an older save: the level as written (3 or more: decisive)
        within(recorded, rg.LEVEL_UNSAID, (field,))
        return
    try:
        links = attack.chain(chain_dice, list(e.chain), None, kind)
    except IllegalEvent as error:
        raise error.at("chain") from None
    level = 1 + attack.level(links)
    if recorded != level:
        dice = ", ".join(f"d{size} {value}" for size, value in links)
        raise IllegalEvent(f"{recorded} disagrees with its dice: {dice} make "
                           f"{LEVELS[kind][level - 1]} ({level}) "
                           f"({'AO-8' if kind == 'critical' else 'AO-9'})", (field,))


# -- an attack's damage (AO-11) ----------------------------------------------------------


def attack_damage(fight: Fight, e: ev.Damage, fatal_bonus: int) -> None:
    """The damage of the attack that just hit is what its dice make (attack.damage): the
    weapon's roll, Strength (melee, not the extra attack), the +1s bought, the sneak dice,
    doubled by a critical (twice by a super), less armour and the reductions the attack
    names, plus a fatal wound's bonus on a 4. An older save that names no reductions is
    held to the most its dice make."""
    at = next((n for n in range(len(fight.events) - 1, -1, -1)
               if isinstance(fight.events[n], ao.Attack)), None)
    if at is None:
        return
    hit = fight.events[at]
    assert isinstance(hit, ao.Attack)
    rolls = [x for x in fight.events[at + 1:] if isinstance(x, ev.Roll)]
    main = next((r for r in rolls if (r.purpose or "").startswith("damage to")), None)
    if main is None:
        return  # damage typed alone, with no roll logged: nothing to hold it to
    attacker, victim = fight.roster[hit.actor], fight.roster[hit.target]
    weapon = attacker.weapon(hit.weapon) if hit.weapon else None
    total, parts = main.total, [f"{main.expr} {main.total}"]
    melee = not stats.ranged(weapon)
    strength = units.strength_now(fight, hit.actor) if melee and not hit.extra else 0
    plus = units.bought(fight, hit.actor)[1] if melee else 0
    sneak = sum(r.total for r in rolls if (r.purpose or "").startswith("sneak damage"))
    for value, words in ((strength, f"Strength {strength:+d}"), (plus, f"+{plus} bought"),
                         (sneak, f"sneak {sneak}")):
        if value:
            total += value
            parts.append(words)
    multiplier = 2 ** min(hit.crit, 2) if hit.crit else 1
    gross = max(total, 0) * multiplier
    fatal = fatal_bonus if any(r.total == 4 for r in rolls
                               if (r.purpose or "").startswith("fatal wound")) else 0
    off = stats.armor(victim) + (hit.reduce or 0)
    made = max(gross - off, 0) + fatal
    text = " + ".join(parts) + (f", ×{multiplier}" if multiplier > 1 else "") + (
        f", −{off} armour/reductions" if off else "") + (f", fatal +{fatal}" if fatal else "")
    if hit.reduce is None and e.amount > made:
        raise IllegalEvent(f"{e.amount} disagrees with its dice: {text} make at most "
                           f"{made} (AO-11)", ("amount",))
    if hit.reduce is not None and e.amount != made:
        raise IllegalEvent(f"{e.amount} disagrees with its dice: {text} make {made} "
                           "(AO-11)", ("amount",))


# -- tie rolls (AO-1) --------------------------------------------------------------------


def ties(fight: Fight, e: ao.Initiative, tie_mode: str) -> None:
    for cid, value in e.ties.items():
        if cid not in fight.roster:
            known = ", ".join(fight.roster)
            raise IllegalEvent(f"unknown combatant {cid!r} (combatants: {known})",
                               ("ties", cid))
        if tie_mode == "d20":
            within(value, rg.D20, ("ties", cid), "a d20's faces")
        else:
            within(value, rg.RANKS, ("ties", cid))
        if not units.standing(fight, cid):
            raise IllegalEvent(f"{fight.roster[cid].name} is out of the fight "
                               f"({units.can_act(fight, cid)}): only the units still in it "
                               "roll (AO-1)", ("ties", cid))
        die = e.dice.get(cid)
        if die is not None and list(die if isinstance(die, list) else [die]) != [value]:
            raise IllegalEvent(f"{value} disagrees with its die: dice.{cid} shows "
                               f"{die} (AO-1)", ("ties", cid))


# -- a roll (any die logged) -------------------------------------------------------------


def roll_total(e: ev.Roll) -> None:
    """A roll's total is what its dice make (a total typed alone has no dice)."""
    if not e.dice:
        return
    try:
        total = from_values(e.expr, list(e.dice)).total
    except DiceError as error:
        raise IllegalEvent(str(error), ("dice",)) from None
    if total != e.total:
        shown = " ".join(map(str, e.dice))
        raise IllegalEvent(f"{e.total} disagrees with its dice: {e.expr} showing {shown} "
                           f"makes {total}", ("total",))


# -- the roster --------------------------------------------------------------------------


def numbers(values: Mapping[str, Any], path: Path) -> None:
    """A unit's numbers within their keys' ranges (each `Field`'s minimum and maximum:
    the engine's reader takes an integer at or above the minimum as read)."""
    for spec in stats.COMBATANT:
        value = values.get(spec.name)
        if spec.maximum is None or type(value) is not int:
            continue
        low = -spec.maximum if spec.minimum is None else spec.minimum
        within(value, (low, spec.maximum), path + (spec.name,))


def join(fight: Fight, e: ev.Join) -> None:
    """A unit joining: its numbers in range, and a summon summoned by then (AO-14)."""
    assert e.combatant is not None
    numbers(e.combatant.stats, ("combatant",))
    came = e.combatant.stats.get("summoned")
    if isinstance(came, int) and came > e.round:
        within(came, (0, e.round), ("combatant", "summoned"),
               f"a summon that joins in round {e.round} came by then (AO-14)")
