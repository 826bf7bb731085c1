"""What a save may say of agility-order's dice and numbers: every outcome is the one its
dice give, and every number lies in the range the rules make sense in. A save that
disagrees is refused with the field at fault and both values, never folded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from referee.engine import events as ev
from referee.engine.dice import DiceError, from_values
from referee.engine.errors import IllegalEvent, Path
from referee.engine.fight import Fight

from . import attack, stats
from . import events as ao
from . import ranges as rg
from .ranges import within

if TYPE_CHECKING:
    from .ruleset import AgilityOrder

LEVELS = {"critical": ("a critical hit", "a super critical", "a decisive victory"),
          "fumble": ("a natural 1", "a tragedy", "a death")}


def round_ahead(fight: Fight, event: ev.Event) -> None:
    """A round far ahead of the fight is a typo: refused, never walked through."""
    within(event.round, (0, fight.round + rg.LEAP), ("round",),
           f"the fight is in round {fight.round}")


# -- an attack (AO-7 … AO-9) -----------------------------------------------------------


def attack_dice(rs: AgilityOrder, fight: Fight, e: ao.Attack) -> None:
    """The d20 against the target the rules give, then the chain: each recorded result
    must be the one its dice make."""
    if e.granted:
        if not e.free or not e.hit or e.crit < 1:
            raise IllegalEvent("a tragedy's free critical is a free hit that hits as a "
                               "critical (AO-9)", ("granted",))
    else:
        within(e.d20, rg.D20, ("d20",), "a d20's faces")
        needed(rs, fight, e)
        bonus(rs, fight, e)
        hit = e.d20 == 20 or (e.d20 != 1 and e.d20 + e.bonus >= e.needed)
        if e.hit != hit:
            raise IllegalEvent(f"d20 {e.d20} {e.bonus:+d} against {e.needed} is "
                               f"{'a hit' if hit else 'a miss'} (AO-7)", ("hit",))
        if (e.crit > 0) != (e.d20 == 20):
            raise IllegalEvent("only a natural 20 is a critical (AO-8)", ("crit",))
        if (e.fumble > 0) != (e.d20 == 1):
            raise IllegalEvent("only a natural 1 fumbles (AO-9)", ("fumble",))
    chain(rs, e)


def needed(rs: AgilityOrder, fight: Fight, e: ao.Attack) -> None:
    """AO-7, AO-13: the number to hit is the target's as the rules give it now."""
    want, why = rs.target_number(fight, e.target, bool(e.sneak), e.round)
    allowed = {want} if e.sneak is not None else {want, 5}  # older saves: sneak unsaid
    if e.needed not in allowed:
        rules = "AO-7, AO-13" if "flat-footed" in why else "AO-7"
        raise IllegalEvent(f"{e.needed} disagrees with the rules: "
                           f"{fight.roster[e.target].name} is hit on {want}: {why} "
                           f"({rules})", ("needed",))


def bonus(rs: AgilityOrder, fight: Fight, e: ao.Attack) -> None:
    """AO-7: what the attacker adds to its d20, as the rules give it now."""
    want, parts = rs.hit_bonus(fight, e.actor, bool(e.flank), e.aim == "centre", e.round)
    allowed = {want} if e.flank is not None else {want, want + 1}  # flank unsaid
    if e.bonus not in allowed:
        raise IllegalEvent(f"{e.bonus:+d} disagrees with the rules: "
                           f"{fight.roster[e.actor].name} adds {want:+d} "
                           f"({', '.join(parts)}) (AO-7)", ("bonus",))


def chain(rs: AgilityOrder, e: ao.Attack) -> None:
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
        links = attack.chain(rs.chain_dice, list(e.chain), None, kind)
    except IllegalEvent as error:
        raise error.at("chain") from None
    level = 1 + attack.level(links)
    if recorded != level:
        dice = ", ".join(f"d{size} {value}" for size, value in links)
        raise IllegalEvent(f"{recorded} disagrees with its dice: {dice} make "
                           f"{LEVELS[kind][level - 1]} ({level}) "
                           f"({'AO-8' if kind == 'critical' else 'AO-9'})", (field,))


# -- tie rolls (AO-1) --------------------------------------------------------------------


def ties(rs: AgilityOrder, fight: Fight, e: ao.Initiative) -> None:
    for cid, value in e.ties.items():
        if cid not in fight.roster:
            known = ", ".join(fight.roster)
            raise IllegalEvent(f"unknown combatant {cid!r} (combatants: {known})",
                               ("ties", cid))
        if rs.tie_mode == "d20":
            within(value, rg.D20, ("ties", cid), "a d20's faces")
        else:
            within(value, rg.RANKS, ("ties", cid))
        if not rs.standing(fight, cid):
            raise IllegalEvent(f"{fight.roster[cid].name} is out of the fight "
                               f"({rs.can_act(fight, cid)}): only the units still in it "
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


# -- a turn's spending (AO-4, AO-5) -------------------------------------------------------


def spend(rs: AgilityOrder, fight: Fight, e: ao.Spend) -> None:
    """How a spend is paid and what it buys (AA, MA and BA against what is left are
    the budget's own check)."""
    if e.use == "disengage" and (e.aa, e.ma, e.ba) not in ((1, 0, 0), (0, 0, 2)):
        field = "ma" if e.ma else ("ba" if e.ba else "aa")
        raise IllegalEvent("disengage is paid with the AA or with 2 BA, never with the MA "
                           f"(AO-4): found AA {e.aa}, MA {e.ma}, BA {e.ba}", (field,))
    if e.spaces is not None:
        spaces(rs, fight, e, e.spaces)
    if e.mp:
        mp(rs, fight, e)
    if e.spell is not None or e.target is not None:
        cast(fight, e)


def cast(fight: Fight, e: ao.Spend) -> None:
    """A spell and a target belong to a cast, and the spell is one the caster has (a
    cast saved before they were recorded names neither)."""
    if e.use != "cast":
        raise IllegalEvent(f"only a cast names a spell or a target, not {e.use!r} (AO-4)",
                           ("spell" if e.spell is not None else "target",))
    caster = fight.roster[e.actor]
    if e.spell is not None and caster.spell(e.spell) is None:
        known = ", ".join(s.name for s in caster.spells) or "none"
        raise IllegalEvent(f"{caster.name} has no spell {e.spell!r} (spells: {known})",
                           ("spell",))


def spaces(rs: AgilityOrder, fight: Fight, e: ao.Spend, count: int) -> None:
    """AO-5: no move covers more than the unit's movement allows."""
    name = fight.roster[e.actor].name
    ways = {mode: label for label, mode in stats.MOVES}
    if (e.how or "") not in ways:
        raise IllegalEvent(f"unknown way of moving {e.how!r} (ways: "
                           f"{', '.join(m or 'normal' for m in ways)})", ("how",))
    if e.use == "move 2":  # the app writes what they add to the move (more_spaces)
        span, why = (0, 2), f"{name}'s 2 more spaces (AO-5)"
    else:
        span = (0, rs.movement_of(fight, e.actor, e.how or "", round_=e.round))
        how = f" {ways[e.how]}" if e.how else ""
        why = f"{name} moves {span[1]} spaces{how} (AO-5)"
    within(count, span, ("spaces",), why)


def mp(rs: AgilityOrder, fight: Fight, e: ao.Spend) -> None:
    """MP paid: no more than the unit has left."""
    has = rs.mp_left(fight, e.actor)
    if has is None:
        within(e.mp, rg.MP, ("mp",))
    else:
        has = max(has, 0)  # an older save may have overspent already
        within(e.mp, (0, has), ("mp",), f"{fight.roster[e.actor].name} has {has} MP left")


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


def join(rs: AgilityOrder, fight: Fight, e: ev.Join) -> None:
    """A unit joining: its numbers in range, and a summon summoned by then (AO-14)."""
    assert e.combatant is not None
    numbers(e.combatant.stats, ("combatant",))
    came = e.combatant.stats.get("summoned")
    if isinstance(came, int) and came > e.round:
        within(came, (0, e.round), ("combatant", "summoned"),
               f"a summon that joins in round {e.round} came by then (AO-14)")
