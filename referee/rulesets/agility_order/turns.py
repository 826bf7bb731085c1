"""What a unit may do on its turn (AO-3 … AO-6, AO-10): a delay, a spend and an attack,
checked against whose turn it is and what is left of the unit's budget, and how a spend
is paid and what it buys. The roster schema checks each such event with these, and the
acts check what they make."""

from __future__ import annotations

from referee.engine.errors import IllegalEvent
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import events as ao
from . import ranges as rg
from . import stats, units
from .budget import free_left, has_grant, left, left_text, movement_of, mp_left, slots
from .ranges import within

if TYPE_CHECKING:
    from .planner import AgilityPlanner


def delay(planner: AgilityPlanner, fight: Fight, e: ao.Delay) -> None:
    """AO-3: on its turn, after a unit still to act this round (`planner`: the lineup)."""
    planner.on_turn(fight, e.actor, e.round, "a unit delays")
    if e.after is None:
        return
    if e.after == e.actor:
        raise IllegalEvent(f"{e.actor} cannot delay after itself", ("after",))
    done = fight.resolved.get(e.round, set()) if e.round <= fight.round else set()
    if f"{e.after}:turn" in done:
        raise IllegalEvent(f"{e.after} has already acted this round: {e.actor} can only "
                           "delay after a unit still to act (AO-3)", ("after",))
    if all(s.cid != e.after for s in planner.lineup(fight, e.round).slots):
        raise IllegalEvent(f"{e.after} takes no turn this round (AO-3)", ("after",))


def spend(planner: AgilityPlanner, fight: Fight, e: ao.Spend, movement: int) -> None:
    """AO-4 … AO-6: on its turn (standing up: off it too), with what is left to pay;
    `movement` is the ruleset file's (AO-5)."""
    name = fight.roster[e.actor].name
    if units.no_turn(fight, e.actor):
        raise IllegalEvent(f"{name} cannot act: {units.can_act(fight, e.actor)}",
                           ("actor",))
    later = False
    if e.off_turn:
        if e.use != "stand up":
            raise IllegalEvent("only standing up can be done off-turn (AO-6)", ("off_turn",))
        if planner.turn(fight, e.round) == e.actor:
            raise IllegalEvent(f"it is {name}'s own turn: no need to take from the next",
                               ("off_turn",))
        later = f"{e.actor}:turn" in fight.resolved.get(e.round, set())
    else:
        planner.on_turn(fight, e.actor, e.round, "actions are spent")
    have = left(fight, e.actor, e.round, later)
    for index, (label, want) in enumerate((("AA", e.aa), ("MA", e.ma), ("BA", e.ba))):
        if want > have[index]:
            turn = "its next turn" if e.off_turn else "this turn"
            has = f"only {have[index]}" if have[index] else "no"
            raise IllegalEvent(f"{e.actor} has {has} {label} left {turn} "
                               f"(left: {left_text(have)})", (label.lower(),))
    if e.use == "stand up" and not units.prone(fight, e.actor):
        raise IllegalEvent(f"{name} is not prone (AO-6)", ("use",))
    payment(fight, e, movement)


def attack(planner: AgilityPlanner, fight: Fight, actor: str, target: str, free: bool,
           extra: bool, granted: bool, round_: int | None = None) -> None:
    round_ = max(fight.round, 1) if round_ is None else round_
    name = fight.roster[actor].name
    why = units.can_act(fight, actor)
    if why:
        raise IllegalEvent(f"{name} cannot attack: {why}", ("actor",))
    if target == actor:
        raise IllegalEvent(f"{name} cannot attack itself", ("target",))
    if free:
        if granted:
            if not has_grant(fight, actor, target, "tragedy"):
                raise IllegalEvent(f"{name} has no tragedy's free critical against "
                                   f"{target} (AO-9)", ("granted",))
            return
        if free_left(fight, actor) < 1:
            raise IllegalEvent(f"{actor} has no free hit slot left this round (slots: "
                               f"{slots(fight, actor)}, used "
                               f"{units.state(fight).free_used.get(actor, 0)}) (AO-10)",
                               ("free",))
        return
    planner.on_turn(fight, actor, round_, "an attack (not a free hit) is made")
    have = left(fight, actor, round_)
    if extra and (have[1] < 1 or have[2] < 2):
        raise IllegalEvent(f"{actor} has not MA + 2 BA left for the extra attack "
                           f"(left: {left_text(have)}) (AO-4)", ("extra",))
    if not extra and have[0] < 1:
        more = (" — MA + 2 BA would pay the extra attack" if have[1] and have[2] >= 2
                else "")
        raise IllegalEvent(f"{actor} has no AA left this turn (left: "
                           f"{left_text(have)}){more}", ("actor",))


# -- a turn's spending (AO-4, AO-5) -------------------------------------------------------


def payment(fight: Fight, e: ao.Spend, movement: int) -> None:
    """How a spend is paid and what it buys (AA, MA and BA against what is left are
    the budget's own check, `spend`); `movement` is the ruleset file's."""
    if e.use == "disengage" and (e.aa, e.ma, e.ba) not in ((1, 0, 0), (0, 0, 2)):
        field = "ma" if e.ma else ("ba" if e.ba else "aa")
        raise IllegalEvent("disengage is paid with the AA or with 2 BA, never with the MA "
                           f"(AO-4): found AA {e.aa}, MA {e.ma}, BA {e.ba}", (field,))
    if e.spaces is not None:
        spaces(fight, e, e.spaces, movement)
    if e.mp:
        mp(fight, e)
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


def spaces(fight: Fight, e: ao.Spend, count: int, movement: int) -> None:
    """AO-5: no move covers more than the unit's movement allows."""
    name = fight.roster[e.actor].name
    ways = {mode: label for label, mode in stats.MOVES}
    if (e.how or "") not in ways:
        raise IllegalEvent(f"unknown way of moving {e.how!r} (ways: "
                           f"{', '.join(m or 'normal' for m in ways)})", ("how",))
    if e.use == "move 2":  # the app writes what they add to the move (more_spaces)
        span, why = (0, 2), f"{name}'s 2 more spaces (AO-5)"
    else:
        span = (0, movement_of(movement, fight, e.actor, e.how or "", round_=e.round))
        how = f" {ways[e.how]}" if e.how else ""
        why = f"{name} moves {span[1]} spaces{how} (AO-5)"
    within(count, span, ("spaces",), why)


def mp(fight: Fight, e: ao.Spend) -> None:
    """MP paid: no more than the unit has left."""
    has = mp_left(fight, e.actor)
    if has is None:
        within(e.mp, rg.MP, ("mp",))
    else:
        has = max(has, 0)  # an older save may have overspent already
        within(e.mp, (0, has), ("mp",), f"{fight.roster[e.actor].name} has {has} MP left")
