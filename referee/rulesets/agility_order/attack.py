"""AO-7 … AO-12: an attack worked out from its dice (program or typed), as events."""

from __future__ import annotations

import random
from collections.abc import Mapping

from referee.engine import events as ev
from referee.engine.dice import DiceError, from_values, parse
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import IllegalEvent
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import budget, stats, turns, units
from . import events as ao

if TYPE_CHECKING:
    from typing import Any

    from .planner import AgilityPlanner
    from .settings import Settings
else:
    from referee.hints import Any


def typed_ints(text: Any, what: str) -> list[int] | None:
    """Dice typed in ("4 3", "7"), or None when left blank (the program rolls)."""
    if text is None or text == "":
        return None
    if isinstance(text, int):
        return [text]
    try:
        return [int(part) for part in str(text).replace(",", " ").split()]
    except ValueError:
        raise IllegalEvent(f"{what}: expected numbers, found {text!r}") from None


# AO-8, AO-9: the chain's second die (the d6) is its last: its maximum is a decisive
# victory or a death, "no further rolls required" (the combat section overrides the
# general d4 -> d6 -> d8 ... chain).
DECISIVE = 2


def chain(sizes: tuple[int, ...], typed: list[int] | None, rng: random.Random | None,
          what: str) -> list[tuple[int, int]]:
    """AO-8/AO-9: d4 then d6, on while a die shows its maximum; (size, value) each."""
    sizes = sizes[:DECISIVE]
    out: list[tuple[int, int]] = []
    for number, size in enumerate(sizes):
        if typed is not None:
            if number >= len(typed):
                if out and out[-1][1] == out[-1][0]:
                    raise IllegalEvent(f"the {what} chain goes on: d{out[-1][0]} showed "
                                       f"{out[-1][1]}, now roll a d{size}")
                break
            value = typed[number]
            if not 1 <= value <= size:
                raise IllegalEvent(f"the {what} chain's d{size} cannot show {value}")
        else:
            assert rng is not None, "the program rolls what is not typed"
            value = rng.randint(1, size)
        out.append((size, value))
        if value != size:
            break
    if typed is not None and len(typed) > len(out):
        size, value = out[-1]
        why = (f"a {value} on the d{size} ends it (AO-8, AO-9)" if value == size
               else f"its {value} is not the maximum")
        more = len(typed) - len(out)
        raise IllegalEvent(f"the {what} chain stops at d{size}, {why}: "
                           f"{more} {'die' if more == 1 else 'dice'} too many")
    return out


def level(links: list[tuple[int, int]]) -> int:
    return sum(1 for size, value in links if value == size)


def chain_kind(d20: int, granted: bool) -> str:
    """Which chain a d20 starts: a natural 20 (or a tragedy's free critical) the
    critical one (AO-8), a natural 1 the fumble one (AO-9), anything else none."""
    if granted or d20 == 20:
        return "critical"
    return "fumble" if d20 == 1 else ""


def outcome(d20: int, bonus: int, needed: int, links: list[tuple[int, int]],
            granted: bool) -> tuple[bool, int, int]:
    """AO-7 … AO-9: hit, critical level and fumble level, from the dice alone."""
    kind = chain_kind(d20, granted)
    hit = granted or d20 == 20 or (d20 != 1 and d20 + bonus >= needed)
    rank = 1 + level(links) if kind else 0
    return hit, rank if kind == "critical" else 0, rank if kind == "fumble" else 0


def chain_rolled(sizes: tuple[int, ...], values: Mapping[str, Any], rng: random.Random,
                 kind: str, actor: str, round_: int, out: list[ev.Event]
                 ) -> list[tuple[int, int]]:
    """The chain a d20 starts, each die logged as a roll of its own (added to `out`)."""
    if not kind:
        return []
    rule = "AO-8" if kind == "critical" else "AO-9"
    links = chain(sizes, typed_ints(values.get("chain"), "chain"), rng, kind)
    out += [ev.Roll(round=round_, expr=f"d{size}", dice=(value,), total=value,
                    purpose=f"{kind} chain d{size} ({rule})", actor=actor,
                    real=values.get("chain") not in (None, ""))
            for size, value in links]
    return links


def dice(expr: str, typed: list[int] | None, rng: random.Random, purpose: str,
         actor: str, round_: int) -> tuple[int, ev.Roll]:
    """A roll of `expr`: by the program, from every die typed, or a typed total."""
    try:
        if typed is None:
            result = roll_dice(expr, rng)
        elif len(typed) == 1 and len(parse(expr).dice) and sum(
                d.count for d in parse(expr).dice) != 1:
            return typed[0], ev.Roll(round=round_, expr=expr, dice=(), total=typed[0],
                                     purpose=purpose + " (typed total)", actor=actor,
                                     real=True)
        else:
            result = from_values(expr, typed)
    except DiceError as error:
        raise IllegalEvent(f"{purpose}: {error}") from None
    return result.total, ev.Roll(round=round_, expr=result.expression,
                                 dice=tuple(result.rolls), total=result.total,
                                 purpose=purpose, actor=actor, real=typed is not None)


def resolve(s: Settings, planner: AgilityPlanner, fight: Fight, actor: str,
            values: Mapping[str, Any], rng: random.Random, free: bool) -> list[ev.Event]:
    """The events of one attack, every die logged one by one (nothing is entered here):
    `s` the house rules (the chain dice, wounds), `planner` the lineup (whose turn)."""
    round_ = max(fight.round, 1)
    target = str(values.get("target") or "")
    if target not in fight.roster:
        raise IllegalEvent(f"unknown target {target!r}", ("target",))
    attacker, victim = fight.roster[actor], fight.roster[target]
    weapon = attacker.weapon(values.get("weapon") or "") if values.get("weapon") else (
        attacker.weapons[0] if attacker.weapons else None)
    if values.get("weapon") and weapon is None:
        known = ", ".join(w.name for w in attacker.weapons) or "none"
        raise IllegalEvent(f"{actor} has no weapon {values['weapon']!r} (weapons: {known})",
                           ("weapon",))
    aim = values.get("aim") or None
    if aim is not None and aim not in ao.AIMS:
        raise IllegalEvent(f"unknown aim {aim!r} (aims: {', '.join(ao.AIMS)})", ("aim",))
    extra = not free and values.get("pay") == "extra"
    granted = free and budget.has_grant(fight, actor, target, "tragedy")
    zone = bool(values.get("zone", True))
    sneak = bool(values.get("sneak", False))
    flank = bool(values.get("flank", False))
    turns.attack(planner, fight, actor, target, free=free, extra=extra, granted=granted)
    out: list[ev.Event] = []
    name = attacker.name
    bonus, _ = units.hit_bonus(fight, actor, flank, aim == "centre", round_)
    needed, _ = units.target_number(fight, target, sneak, round_)
    if granted:
        d20 = 0
    else:
        typed = typed_ints(values.get("d20"), "d20")
        d20, roll = dice("d20", typed, rng, f"to hit {victim.name} (AO-7)", actor,
                         round_)
        out.append(roll)
    links = chain_rolled(s.chain_dice, values, rng, chain_kind(d20, granted), actor,
                         round_, out)
    hit, crit, fumble = outcome(d20, bonus, needed, links, granted)
    out.append(ao.Attack(round=round_, actor=actor, target=target,
                         weapon=weapon.name if weapon else None, d20=d20, bonus=bonus,
                         needed=needed, hit=hit, crit=crit, fumble=fumble, free=free,
                         granted=granted, zone=zone, aim=aim, extra=extra,
                         chain=tuple(value for _, value in links), sneak=sneak,
                         flank=flank, reduce=int(values.get("reduce") or 0) if hit else None,
                         note=str(values.get("note") or "").strip() or None))
    if fumble >= 3 and zone:
        out.append(ev.Death(round=round_, target=actor,
                            cause=f"tragedy: {victim.name} kills {name} outright (AO-9)"))
    if not hit:
        return out
    out += damage(s, fight, actor, target, weapon, values, rng, crit, extra, sneak, aim)
    return out


def damage(s: Settings, fight: Fight, actor: str, target: str, weapon: Any,
           values: Mapping[str, Any], rng: random.Random, crit: int, extra: bool,
           sneak: bool, aim: str | None) -> list[ev.Event]:
    round_ = max(fight.round, 1)
    attacker, victim = fight.roster[actor], fight.roster[target]
    out: list[ev.Event] = []
    expr = (weapon.damage if weapon is not None and weapon.damage else None) or "1d4"
    total, roll = dice(expr, typed_ints(values.get("damage"), "damage"), rng,
                       f"damage to {victim.name}", actor, round_)
    out.append(roll)
    parts = [f"{expr} {total}"]
    melee = not stats.ranged(weapon)
    if melee and not extra:
        strength = units.strength_now(fight, actor)
        if strength:
            total += strength
            parts.append(f"Strength {strength:+d}")
    if melee:
        plus = units.bought(fight, actor)[1]
        if plus:
            total += plus
            parts.append(f"+{plus} bought (BA)")
    if sneak:
        count = 2 if stats.has_feat(attacker, "Sneak attack") else 1
        extra_dice, sneak_roll = dice(f"{count}d4", typed_ints(values.get("sneak_dice"),
                                                               "sneak dice"),
                                      rng, "sneak damage (AO-12)", actor, round_)
        out.append(sneak_roll)
        total += extra_dice
        parts.append(f"sneak {extra_dice}")
    multiplier = 2 ** min(crit, 2) if crit else 1
    gross = max(total, 0) * multiplier
    reduce = stats.armor(victim) + int(values.get("reduce") or 0)
    net = max(gross - reduce, 0)
    note = " + ".join(parts) + (f", ×{multiplier}" if multiplier > 1 else "") + (
        f", −{reduce} armour/reductions" if reduce else "") + f" = {net} net"
    wounded = net >= s.wound_at
    bonus = 0
    if wounded and aim == "fatal":
        chance, fatal_roll = dice("d4", typed_ints(values.get("fatal"), "fatal d4"), rng,
                                  "fatal wound: 4 adds 16 (AO-11)", actor, round_)
        out.append(fatal_roll)
        if chance == 4:
            bonus = s.fatal_bonus
            note += f", fatal +{bonus}"
    out.append(ev.Damage(round=round_, target=target, amount=net + bonus, source=actor,
                         critical=crit > 0, note=note))
    if wounded:
        effect = aim if aim in ao.EFFECTS else None
        out.append(ao.Wound(round=round_, target=target, effect=effect, by=actor))
    if crit >= 3 and not units.dead(fight, target):
        out.append(ev.Death(round=round_, target=target,
                            cause=f"decisive victory by {attacker.name} (AO-8)"))
    return out
