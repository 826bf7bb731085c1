"""What a 1e referee says at the table beyond the letters: a slow missile's rate of fire
("1/2"), movement over segments (a distance at a movement rate, a charge's faster pace),
close-then-strike declarations, and a spell's start and completion as two points.

Everything here is worked out from the fold (the round's declarations, earlier rounds'
shots, the encounter's keys): pure, like the rest of the scheduler.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from math import ceil

from referee.engine.plan import Plan
from referee.hints import TYPE_CHECKING

from . import events as di
from . import stats
from .board import ready, repeats
from .state import state_of
from .wording import segments as counted

if TYPE_CHECKING:
    from fractions import Fraction
    from typing import Any, cast

    from referee.engine.model import Combatant, Weapon
    from referee.engine.view import Fight

    from .board import Board
    from .items import Item
    from .settings import Settings
else:
    from referee.hints import Any, cast

# who declared an E in a round (`movers`), looked up once a plan by the rules that ask
Moving = Callable[[int], frozenset[str]]


# -- a slow missile's rate of fire: "1/2" fires every other round ---------------------


def shoots(role_of: Mapping[str, str], fight: Fight, round_: int, decl: Any, actor: str,
           weapon: str) -> bool:
    """Whether `decl` is `actor` loosing `weapon` in round `round_`: a missile D with it,
    not in a surprise segment, and not a preparation that lapsed unfired."""
    return (isinstance(decl, di.Declare) and decl.actor == actor and decl.weapon == weapon
            and decl.segment is None
            and role_of.get(decl.action) == "discharge"
            and (not decl.prepared or (round_, actor) in state_of(fight).fired))


def firing_rounds(role_of: Mapping[str, str], fight: Fight, actor: str, weapon: Weapon,
                  upto: int) -> list[int]:
    """The rounds before `upto` in which `actor`'s slow `weapon` fired: it fires the
    first round it is declared, then only once `every` rounds have passed."""
    every, fired = stats.every(weapon), cast("list[int]", [])
    for round_ in range(1, upto):
        if fired and round_ - fired[-1] < every:
            continue  # reloading: a declaration then shot nothing
        if any(shoots(role_of, fight, round_, d, actor, weapon.name)
               for _, d in fight.declared(round_)):
            fired.append(round_)
    return fired


def reloading(role_of: Mapping[str, str], fight: Fight, round_: int,
              item: Item) -> tuple[bool, str]:
    """(fires this round, why) for a missile D whose weapon fires less than once a
    round; (True, "") for any other action."""
    arm = item.arm
    if not item.missile or arm is None or stats.every(arm) == 1:
        return True, ""
    every, rate = stats.every(arm), stats.rate_text(arm)
    fired = firing_rounds(role_of, fight, item.actor.id, arm, round_)
    who = f"{item.actor.id}'s {arm.name} (rate {rate})"
    if fired and round_ - fired[-1] < every:
        return False, (f"reloading: {who} fired in round {fired[-1]}, fires next in "
                       f"round {fired[-1] + every}")
    return True, f"{who} fires this round, then reloads: next in round {round_ + every}"


Skipped = list[dict[str, Any]]


def slow_shots(role_of: Mapping[str, str], fight: Fight, round_: int,
               items: list[Item]) -> tuple[list[Item], Skipped, list[tuple[Item, str]]]:
    """The round's items without the shots of a weapon still reloading (each listed as
    skipped, DI-7: the rate of fire), and the slow shots that do fire, with why."""
    kept: list[Item] = []
    skipped: Skipped = []
    firing: list[tuple[Item, str]] = []
    for item in items:
        if not item.missile:
            kept.append(item)  # what `reloading` says of it, without asking
            continue
        fires, why = reloading(role_of, fight, round_, item)
        if fires:
            kept.append(item)
            if why and item.first:
                firing.append((item, why))
        elif item.first:
            skipped.append({"actor": item.actor.id, "action": item.letter, "why": why,
                            "rule": "DI-7"})
    return kept, skipped, firing


# -- movement over segments -------------------------------------------------------------


def indoors(fight: Fight, decl: di.Declare) -> bool:
    """The declaration's own word, else the encounter's (indoors unless it says not)."""
    if decl.indoors is not None:
        return decl.indoors
    return bool(fight.encounter.stats.get("indoors", True))


def pace(fight: Fight, decl: di.Declare, rate: int) -> tuple[Fraction, str]:
    """Inches a round at which the E moves, and how: a charge adds 100% to the movement
    rate indoors and a third outdoors (source 004, the charge's footnote)."""
    from fractions import Fraction  # only a distance to close needs it (start-up)

    if not decl.charge:
        return Fraction(rate), f'at {rate}" a round'
    if indoors(fight, decl):
        return Fraction(rate * 2), f'charging indoors at {rate * 2}" a round (twice {rate}")'
    speed = Fraction(rate * 4, 3)
    return speed, f'charging outdoors at {float(speed):g}" a round ({rate}" and a third)'


def closing(fight: Fight, decl: di.Declare, actor: Combatant) -> tuple[int, str]:
    """Segments an E needs to close, and how they were found: `closing` as typed wins;
    else the distance at a tenth of the pace each segment (the charger moves 1/10th of
    its charge MV every segment); else 1."""
    if decl.closing is not None:
        return decl.closing, ""
    rate = stats.move(actor)
    if decl.distance is None or not rate:
        return 1, ""
    from fractions import Fraction  # only a distance to close needs it (start-up)

    speed, how = pace(fight, decl, rate)
    segments = max(1, ceil(Fraction(decl.distance) * 10 / speed))
    return segments, f'{actor.id} closes {decl.distance:g}" {how}: {counted(segments)}'


def moved(item: Item, moving: Moving) -> str:
    """Why `item`'s actor counts as moving this round ("" when it does not): it declared
    an E (`moving`: who did, by round), or it is encumbered."""
    if stats.encumbered(item.actor):
        return "is encumbered"
    return "moved this round (E)" if item.actor.id in moving(item.decl.round) else ""


def movers(role_of: Mapping[str, str], fight: Fight, round_: int) -> frozenset[str]:
    """Who declared an E this round (not in a surprise segment); the rules ask it once a
    plan (`Pairwise.moving`), not once a shot."""
    return frozenset(decl.actor for _, decl in fight.declared(round_)
                     if decl.step is None and role_of.get(decl.action) == "move")


def missile_reaction(item: Item, moving: Moving) -> tuple[int, str]:
    """DI-6's reaction adjustment for a shot, and why a bonus was lost: one who moved
    this round or is encumbered has no positive missile reaction bonus."""
    reaction = stats.reaction(item.actor)
    if reaction <= 0:
        return reaction, ""
    why = moved(item, moving)
    if not why:
        return reaction, ""
    return 0, f"{item.actor.id} {why}: no missile reaction bonus (+{reaction} lost)"


# -- several declarations: close, then strike --------------------------------------------


def further(s: Settings, earlier: list[Any], action: str) -> str:
    """Why a further declaration of `action` after `earlier` is refused ("" when it is
    allowed): an E that closes (not a charge, which strikes its own blow, DI-13) may be
    followed by one G, or by one missile D (a shot on the move)."""
    letter = s.letter_of
    if (len(earlier) == 1 and s.role_of.get(earlier[0].action) == "move"
            and s.role_of.get(action) in ("strike", "discharge")):
        if getattr(earlier[0], "charge", False):
            return (f"a charge strikes its own blow (DI-13): no further {action} after "
                    f"{letter['move']} with charge")
        return ""
    said = " then ".join(d.action for d in earlier)
    return (f"{earlier[0].actor} has declared {said} this round: a further declaration "
            f"follows one {letter['move']} (close), and is a {letter['strike']} (strike) or "
            f"a missile {letter['discharge']}")


def after_closing(board: Board, items: list[Item], by_decl: dict[int, list[Item]]) -> None:
    """A further declaration resolves after its actor's E: the strike comes once the
    closing is done, whatever moved it (DI-7 slotting a first routine in, DI-6)."""
    for item in items:
        if not item.decl.then or not item.first:
            continue
        closes = [i for i in items if i.actor is item.actor and i.role == "move"]
        if not closes:
            continue
        anchor = closes[-1]
        why = (f"{item.actor.id}: {item.letter} declared after its {anchor.letter}, "
               f"resolves once the closing is done")
        # only routines a rule put before the E move; the others keep their place
        early = [i for i in by_decl[item.index] if board.pos(i) <= board.pos(anchor)]
        if not early or not board.place(early, anchor, "after", "DI-3", why):
            board.slot_of(item).cite("DI-3", why)


# -- a spell's start and its completion (DI-14, DI-15) -------------------------------------


def casting_points(fight: Fight, plan: Plan, starts: dict[int, int]) -> None:
    """For each spell that takes more than a segment: the point where it starts (the
    top of the round, or a prepared start where its trigger happened) and its beat,
    where it completes; the blows on the caster between them are named (DI-15)."""
    spells = []
    log = fight.log
    size = len(log)
    for number, beat in enumerate(plan.beats, start=1):
        if repeats(beat) or "segment" in beat.extra:
            continue
        for index, action in enumerate(beat.actions):
            decl = log[action.declared] if 0 <= action.declared < size else None
            if getattr(decl, "spell", None) is None:
                continue  # no spell cast (what `long_spell` looks at first)
            found = long_spell(fight, action)
            if found is not None:
                spells.append((number, beat, index, action, *found))
    if not spells:
        return
    blows = blows_at(fight, plan, {action.actor for _, _, _, action, _, _ in spells})
    for number, beat, index, action, spell, time in spells:
        if ready(beat):
            plan.points.append(prepared_point(action, number, spell, time))
            continue
        at = starts.get(action.declared, 1)
        between = blows_between(fight, blows, action.actor, at, number)
        plan.points.append(start_point(action, spell, time, at, number, between))
        beat.actions[index] = action.with_extra(starts=at)


def long_spell(fight: Fight, action: Any) -> tuple[str, int] | None:
    """(spell, casting time) when `action` casts a spell of more than one segment."""
    decl = fight.log[action.declared] if 0 <= action.declared < len(fight.log) else None
    if not isinstance(decl, di.Declare) or decl.spell is None or decl.actor != action.actor:
        return None
    spell = fight.roster[action.actor].spell(decl.spell)
    time = stats.casting_time(spell) if spell is not None else None
    if time is None or time <= 1:
        return None
    return decl.spell, time + decl.delay


def prepared_point(action: Any, number: int, spell: str, time: int) -> dict[str, Any]:
    return {"before": number, "actor": action.actor, "action": action.action,
            "point": "starts", "rules": ["DI-14"],
            "why": (f"{action.actor}'s start of {spell} is prepared: it starts when its "
                    f"trigger happens and completes {time} segments later, after the action "
                    "that triggered it (its finish cannot be prepared)")}


def start_point(action: Any, spell: str, time: int, at: int, number: int,
                blows: list[str]) -> dict[str, Any]:
    where = "at the top of the round" if at == 1 else f"before beat {at}"
    why = (f"{action.actor} starts casting {spell} ({time} segments) {where}; it completes "
           f"in beat {number}")
    if blows:
        why += f": a blow landing first spoils it (DI-15): {', '.join(blows)}"
    else:
        why += ": no blow at the caster is planned between (DI-15)"
    return {"before": at, "actor": action.actor, "action": action.action, "point": "starts",
            "rules": ["DI-15"] if at == 1 else ["DI-14", "DI-15"], "why": why}


def blows_at(fight: Fight, plan: Plan, casters: set[str]
             ) -> dict[str, list[tuple[int, str, str]]]:
    """Every planned action at each of `casters`: (beat, label, the actor's side), once a
    plan, so that many casters cost one pass over the plan."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    roster, log = fight.roster, fight.log
    size = len(log)
    # each declaration's targets when one may be casting, else () (at nobody casting: a
    # side or a group is looked into), worked out once for all its routines
    at_casters: dict[int, tuple[str, ...]] = {}

    def aims(action: Any) -> tuple[str, ...]:
        index = action.declared
        decl = log[index] if 0 <= index < size else None
        if not isinstance(decl, di.Declare):
            at_casters[index] = ()
            return ()
        aimed = action.flag("target") if action.extra else None
        if aimed:  # a volley's shot: its own target
            return (aimed,) if aimed not in roster or aimed in casters else ()
        named = decl.target
        if not named:
            pass  # at nobody
        elif len(named) == 1:  # one combatant named: most often
            if named[0] in roster and named[0] not in casters:
                named = ()
        elif all(t in roster and t not in casters for t in named):
            named = ()
        at_casters[index] = named
        return named

    for number, beat in enumerate(plan.beats, start=1):
        if ready(beat) or repeats(beat):
            continue
        for action in beat.actions:
            named = at_casters.get(action.declared)
            if named is None or action.extra:
                named = aims(action)
            if named:
                side = roster[action.actor].side
                for target in casters.intersection(fight.members(tuple(named))):
                    found.setdefault(target, []).append((number, action.label(), side))
    return found


def blows_between(fight: Fight, blows: dict[str, list[tuple[int, str, str]]], caster: str,
                  start: int, end: int) -> list[str]:
    """Attacks at `caster` planned from beat `start` up to, not into, beat `end`: each
    would spoil the spell if it lands (damage in the spell's own beat does not)."""
    side = fight.roster[caster].side
    return [f"{label} in beat {number}" for number, label, by in blows.get(caster, ())
            if start <= number < end and by != side]
