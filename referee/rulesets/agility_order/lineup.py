"""AO-1 … AO-3: the lineup of a round, worked out from the fold."""

from __future__ import annotations

from referee.engine.record import record
from referee.engine.view import Fight
from referee.hints import TYPE_CHECKING

from . import stats, units
from .state import State

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any


@record(frozen=True)
class Slot:
    cid: str
    agility: int
    rules: tuple[str, ...]
    why: tuple[str, ...]


@record(frozen=True)
class Lineup:
    slots: tuple[Slot, ...]
    skipped: tuple[dict[str, Any], ...]
    unrolled: tuple[str, ...]  # tied units still waiting for their tie roll (or a reroll)
    # the units whose turn, once taken, makes this lineup another: who is out of the
    # fight, and who is tied with no roll to tell them apart (the rest keep their slots)
    touchy: frozenset[str] = frozenset()


NAMED = 3  # a big tie names a few of the others and counts the rest: a why stays readable


def taken(fight: Fight, round_: int) -> frozenset[str]:
    """The units whose turn of `round_` is resolved, while the round is under way."""
    if round_ != max(fight.round, 1) or round_ > fight.round:
        return frozenset()
    return frozenset(key[:-5] for key in fight.resolved.get(round_, ())
                     if key.endswith(":turn"))


def begun(fight: Fight, round_: int) -> frozenset[str]:
    """The units whose turn of `round_` is under way (something recorded in it), while
    the round is under way."""
    state = units.state(fight)
    if round_ != max(fight.round, 1) or round_ > fight.round or state.round != round_:
        return frozenset()
    return state.begun


# A run's slots by everything they are worked out from (see `_placed_kept`)
Placed = dict[tuple[Any, ...], tuple[list[Slot], tuple[str, ...]]]


def lineup(fight: Fight, round_: int, tie_mode: str,
           taken: frozenset[str] = frozenset(),
           begun: frozenset[str] = frozenset(), stood: str | None = None,
           placed: Placed | None = None) -> Lineup:
    """The lineup of `round_`, ties broken as the ruleset file's `tie_mode` says, the
    turns `taken` (of the round under way) where they were: before the turns to come
    (`taken_first`); a turn `begun` (under way) stays where it is if its unit falls;
    the unit `stood` as it stood before the hit that just felled it. `placed`: the runs
    of equal Agility placed before, kept by what placed them (a turn taken in a tie
    places its run again, not the other runs: the same slots, the same objects)."""
    state = units.state(fight)
    live = round_ >= max(fight.round, 1)
    fresh = round_ > fight.round  # the round has not begun: no delays, today's modifiers
    present: list[str] = []
    skipped: list[dict[str, Any]] = []
    out: list[str] = []
    fell: dict[str, tuple[str, str]] = {}  # fell during its turn: (rule, why)
    for cid in fight.roster:
        # who fell or fled before its turn is out of the lineup, listed as skipped; a turn
        # already taken stays where it was, resolved, whatever happened later (the beats
        # keep their numbers), and so does a turn under way (something recorded in it):
        # the beat is its own, resolved when the referee moves on; none of them is asked
        # to roll a tie (AO-1)
        unable = units.no_turn(fight, cid) if live and cid != stood else None
        if unable is not None:
            out.append(cid)
            if cid in begun and cid not in taken:
                fell[cid] = unable
        if unable is not None and cid not in taken and cid not in fell:
            rule, why = unable
            skipped.append({"actor": cid, "action": "turn", "why": why, "rule": rule})
        else:
            present.append(cid)
    # a turn taken or under way rolls no tie any more: it went before those tied with it
    # still to go, and its beat keeps its number
    held = taken | begun
    known = state.lineup_agility if not fresh and state.round == round_ else {}

    def agility(cid: str) -> int:
        value = known.get(cid)
        return units.agility_now(fight, cid) if value is None else value

    rank = fight.roster_index
    first = [c for c in present if not stats.initiator(fight.roster[c])]
    last = [c for c in present if stats.initiator(fight.roster[c])]
    slots: list[Slot] = []
    unrolled: list[str] = []
    for group, initiators in ((first, False), (last, True)):
        ordered = sorted(group, key=lambda c: (-agility(c), rank(c)))
        index = 0
        while index < len(ordered):
            value = agility(ordered[index])
            run = [c for c in ordered[index:] if agility(c) == value]
            index += len(run)
            slots += _placed_kept(fight, state, run, value, initiators, unrolled,
                                  tie_mode, held, placed)
    if live and not fresh and state.round == round_:
        slots = _delayed(fight, state, slots)
    if fell:
        slots = [_fell(s, *fell[s.cid]) if s.cid in fell else s for s in slots]
    touchy = frozenset(out) | _tied(fight, state, present + out, agility) if live \
        else frozenset()
    return Lineup(tuple(slots), tuple(skipped), tuple(unrolled), touchy)


def _fell(slot: Slot, rule: str, why: str) -> Slot:
    return Slot(slot.cid, slot.agility, tuple(dict.fromkeys(slot.rules + (rule,))),
                slot.why + (f"{why} during its turn: the turn stays its own, where it is",))


def _tied(fight: Fight, state: State, cids: list[str], agility: Any) -> frozenset[str]:
    """The units tied with no roll to tell them apart (a roll missing, or alike), whoever
    of them has taken its turn: which of them is asked to roll depends on who has."""
    runs: dict[tuple[bool, int], list[str]] = {}
    for cid in cids:
        runs.setdefault((stats.initiator(fight.roster[cid]), agility(cid)), []).append(cid)
    out: set[str] = set()
    for run in runs.values():
        if len(run) > 1 and (any(c not in state.ties for c in run)
                             or len({state.ties[c] for c in run}) < len(run)):
            out.update(run)
    return frozenset(out)


def taken_first(found: Lineup, taken: frozenset[str], order: tuple[str, ...] = (),
                begun: frozenset[str] = frozenset()) -> Lineup:
    """The turns taken come first, in the `order` they were taken (the fold's `took`):
    each keeps the beat it was taken in, whatever reorders the turns to come (a tie rolled
    since may put a unit taken later before it in `found`); any taken not in `order` (a
    resolve being folded) follow, as `found` has them; then the turn under way (`begun`,
    not taken yet: it was the first still to go when something was recorded in it), in
    its beat whatever a tie rolled since says."""
    held = taken | begun
    if not held:
        return found
    at = {s.cid: s for s in found.slots}
    first = [at[c] for c in order if c in taken and c in at]
    listed = {s.cid for s in first}
    slots = first + [s for s in found.slots if s.cid in taken and s.cid not in listed] \
        + [s for s in found.slots if s.cid in held and s.cid not in taken] \
        + [s for s in found.slots if s.cid not in held]
    return Lineup(tuple(slots), found.skipped, found.unrolled, found.touchy)


def _placed_kept(fight: Fight, state: State, run: list[str], value: int, initiators: bool,
                 unrolled: list[str], mode: str, taken: frozenset[str],
                 kept: Placed | None) -> list[Slot]:
    """`_placed`, kept in `kept` by all it reads: the run, its Agility, the units' names,
    sides, roster places and tie rolls, which of them have taken (or begun) their turn,
    the tie mode and the players' sides."""
    if kept is None:
        return _placed(fight, state, run, value, initiators, unrolled, mode, taken)
    roster, ties = fight.roster, state.ties
    key = (tuple(run), value, initiators, mode, taken.intersection(run),
           tuple(ties.get(c) for c in run),
           tuple((roster[c].name, roster[c].side, fight.roster_index(c)) for c in run),
           tuple(s.id for s in fight.encounter.sides if s.players) if mode == "players"
           else ())
    found = kept.get(key)
    if found is None:
        added: list[str] = []
        found = kept[key] = (_placed(fight, state, run, value, initiators, added, mode,
                                     taken), tuple(added))
    unrolled += found[1]
    return list(found[0])


def _placed(fight: Fight, state: State, run: list[str], value: int, initiators: bool,
            unrolled: list[str], mode: str, taken: frozenset[str]) -> list[Slot]:
    name = _namer(fight)
    base = (f"initiator: last regardless of Agility (Agility {value:+d})" if initiators
            else f"Agility {value:+d}")
    rules = ("AO-1", "AO-2") if initiators else ("AO-1",)
    if len(run) == 1:
        return [Slot(run[0], value, rules, (base,))]
    def others(cid: str) -> str:
        named = [name(o) for o in run[:NAMED + 1] if o != cid][:NAMED]
        more = len(run) - 1 - len(named)
        return ", ".join(named) + (f" and {more} more" if more else "")

    if mode == "players":
        players = {s.id for s in fight.encounter.sides if s.players}
        run = sorted(run, key=lambda c: fight.roster[c].side not in players)
        return [Slot(c, value, rules, (base, f"tied with {others(c)}: players first"))
                for c in run]
    missing = [c for c in run if c not in state.ties]
    open_ = [c for c in run if c not in taken]
    if missing and (len(open_) < 2 or all(c in state.ties for c in open_)):
        # the units whose turn is taken stay first; among those left nothing is to roll
        # (as they went: in roster order, the tie not rolled), then the others by roll
        run = sorted(run, key=lambda c: (c not in taken, () if c in taken else tuple(
            -v for v in state.ties.get(c, ())), fight.roster_index(c)))
        return [Slot(c, value, rules, (base, f"tied with {others(c)}: "
                                             "the turns taken before the tie was rolled "
                                             "first")) for c in run]
    if missing:
        # a unit that rolled keeps its roll for the battle (AO-1); a unit whose turn is
        # taken is never asked
        unrolled += [c for c in missing if c not in taken]
        what = ("the referee has not ordered the tie yet" if mode == "referee"
                else "the tie is not rolled yet")
        return [Slot(c, value, rules, (base, f"tied with {others(c)}: {what} (roster order)"))
                for c in run]
    run = sorted(run, key=lambda c: tuple(-v for v in state.ties[c]))
    rolls = ", ".join(f"{name(c)} {'/'.join(map(str, state.ties[c]))}" for c in run)
    label = "the referee's order" if mode == "referee" else "d20"
    out = []
    alike: dict[Any, list[str]] = {}
    for c in run:
        alike.setdefault(state.ties[c], []).append(c)
    for c in run:  # a unit whose turn is taken rolls no more, nor does one tied with it
        same = [o for o in alike[state.ties[c]] if o != c and o not in taken]
        if same and c not in taken:
            unrolled.append(c)
            why = f"tie broken by {label}: {rolls}; still tied with " + ", ".join(
                name(o) for o in same) + ": roll again"
        else:
            why = f"tie broken by {label}: {rolls}"
        out.append(Slot(c, value, rules, (base, why)))
    return out


def _delayed(fight: Fight, state: State, slots: list[Slot]) -> list[Slot]:
    name = _namer(fight)
    for actor, after, tail in state.delays:
        at = next((i for i, s in enumerate(slots) if s.cid == actor), None)
        if at is None:
            continue
        slot = slots.pop(at)
        where = next((i for i, s in enumerate(slots) if s.cid == after), None)
        if after and where is not None:
            why = f"delayed until after {name(after)}"
            where += 1
        elif after:
            why = (f"delayed until after {name(after)}, who is out of the fight: "
                   "takes its place")
            where = _place(slots, tail)
        else:
            why = "delayed to the end of the round"
            where = len(slots)
        slots.insert(where, Slot(slot.cid, slot.agility,
                                 tuple(dict.fromkeys(slot.rules + ("AO-3",))),
                                 slot.why + (why,)))
    return _overtaken(fight, state, slots)


def _overtaken(fight: Fight, state: State, slots: list[Slot]) -> list[Slot]:
    """A unit that waited for one who then delayed past it goes first: its why says so
    rather than claim it comes after."""
    waits = {actor: after for actor, after, _ in state.delays}
    if not any(waits.values()):
        return slots  # only delays to the end of the round: nobody to overtake
    name = _namer(fight)
    at = {s.cid: i for i, s in enumerate(slots)}
    for actor, after in waits.items():
        if actor in at and after in at and at[after] > at[actor]:
            slot = slots[at[actor]]
            why = (f"delayed until after {name(after)}, who then delayed too: "
                   f"{name(actor)} goes first")
            slots[at[actor]] = Slot(slot.cid, slot.agility, slot.rules,
                                    slot.why[:-1] + (why,))
    return slots


def _place(slots: list[Slot], tail: tuple[str, ...]) -> int:
    """AO-3: where a unit that fell or fled stood: before every unit still in the lineup
    of those that stood after it when the delay was made (a tie rolled since may have
    put one of them before another)."""
    at = {s.cid: i for i, s in enumerate(slots)}
    return min((at[cid] for cid in tail if cid in at), default=len(slots))


def _namer(fight: Fight) -> Any:
    def name(cid: str | None) -> str:
        combatant = fight.roster.get(cid or "")
        return combatant.name if combatant else (cid or "")

    return name
