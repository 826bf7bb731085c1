"""agility-order's part of the fold: tie rolls, delays, each unit's budget this round,
free hits, wounds, the +1s bought with Bonus Actions, MP (immutable: `apply` makes anew)."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.record import field, record, replace
from referee.hints import TYPE_CHECKING

from . import events as ao

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

Budget = tuple[int, int, int]  # AA, MA, BA spent
NONE: Budget = (0, 0, 0)
Bought = tuple[int, int, int, int]  # +1 hit, +1 damage, +1 dodge, 2 more spaces (BA)
NOTHING: Bought = (0, 0, 0, 0)
# AO-3: a delay, and the units that stood after its `after` when it was made: if that
# unit falls or flees before its turn, the delayed unit takes its place (before the
# first of them still in the lineup)
Delayed = tuple[str, str | None, tuple[str, ...]]


@record(frozen=True)
class State:
    round: int = 0
    ties: dict[str, tuple[int, ...]] = field(default_factory=dict)  # AO-1, whole battle
    delays: tuple[Delayed, ...] = ()  # AO-3: this round's, in order
    spent: dict[str, Budget] = field(default_factory=dict)  # AO-4: this round's turn
    # this round's turns under way: a hit or a miss was recorded in the unit's beat (the
    # log names the beat by its number); if the unit falls before the turn is resolved,
    # the turn stays where it is, the beat and its number its own (issue 30 A3)
    begun: frozenset[str] = frozenset()
    # this round's turns taken, in the order they were taken: each keeps the beat it was
    # taken in, whatever reorders the turns to come (a tie roll, a fall; issue 30 A3)
    took: tuple[str, ...] = ()
    owed: dict[str, Budget] = field(default_factory=dict)  # AO-6: taken from next turn
    free_used: dict[str, int] = field(default_factory=dict)  # AO-10: this round
    grants: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "kind:attacker"
    bought: dict[str, Bought] = field(default_factory=dict)  # AO-4: this round's BAs
    moved: dict[str, str] = field(default_factory=dict)  # AO-5: how the MA moved this round
    wounds: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)  # (effect, round)
    lineup_agility: dict[str, int] = field(default_factory=dict)  # AO-1: as the round began
    mp_spent: dict[str, int] = field(default_factory=dict)
    last_hit: dict[str, bool] = field(default_factory=dict)  # "actor>target": last result
    # AO-8, AO-9: who a chain's dice felled (a decisive victory, a tragedy's death), and
    # the rule: the dice decide it, with or without the death event that follows
    felled: dict[str, str] = field(default_factory=dict)
    victors: tuple[str, ...] = ()
    ended: bool = False
    # AO-11: "actor>target" of the attack that just hit: its damage, next in the log, is
    # net already (the attack took the armour off and wrote its wound)
    pending: str = ""
    # AO-11: the hit entered as damage alone (h) that the last event was, as (target,
    # source, net): its wound, at 6+ net, is the consequence the rules add
    struck: tuple[str, str, int] | None = None


BOUGHT = {"hit": 0, "damage": 1, "dodge": 2, "move 2": 3}


def add(budget: Budget, aa: int, ma: int, ba: int) -> Budget:
    return (budget[0] + aa, budget[1] + ma, budget[2] + ba)


def new_round(state: State, round_: int, agility: dict[str, int]) -> State:
    return replace(state, round=round_, delays=(), spent=dict(state.owed), owed={},
                   begun=frozenset(), took=(), free_used={}, grants={}, bought={}, moved={},
                   lineup_agility=agility)


def spend(state: State, actor: str, aa: int, ma: int, ba: int, later: bool) -> State:
    if later:
        return replace(state, owed={**state.owed, actor: add(state.owed.get(actor, NONE),
                                                             aa, ma, ba)})
    return replace(state, spent={**state.spent, actor: add(state.spent.get(actor, NONE),
                                                           aa, ma, ba)})


def begun(state: State, cid: str | None, on: bool = True) -> State:
    """`cid`'s turn is under way (`on`), or no longer (it delayed: what comes is later)."""
    if cid is None or (cid in state.begun) == on:
        return state
    return replace(state, begun=state.begun | {cid} if on else state.begun - {cid})


def bought(state: State, actor: str, what: str) -> State:
    had = list(state.bought.get(actor, NOTHING))
    had[BOUGHT[what]] += 1
    return replace(state, bought={**state.bought, actor: (had[0], had[1], had[2], had[3])})


def attack(state: State, e: ao.Attack) -> State:
    out = replace(state, last_hit={**state.last_hit, f"{e.actor}>{e.target}": e.hit})
    out = felled(out, e)
    if not e.free and not e.extra:
        out = spend(out, e.actor, 1, 0, 0, False)
    elif e.extra:
        out = spend(out, e.actor, 0, 1, 2, False)
    if e.free:
        grants = list(out.grants.get(e.actor, ()))
        kind = "tragedy" if e.granted else "free"
        token = f"{kind}:{e.target}"
        if token in grants:
            grants.remove(token)
        out = replace(out, grants={**out.grants, e.actor: tuple(grants)})
        if not e.granted:
            out = replace(out, free_used={**out.free_used,
                                          e.actor: out.free_used.get(e.actor, 0) + 1})
    if e.fumble >= 1 and e.zone:
        kind = "tragedy" if e.fumble >= 2 else "free"
        out = replace(out, grants={**out.grants, e.target: out.grants.get(e.target, ())
                                   + (f"{kind}:{e.actor}",)})
    return out


def felled(state: State, e: ao.Attack) -> State:
    """AO-8: a decisive victory fells the target at once; AO-9: a tragedy's 6 kills the
    attacker outright (in the target's melee zone)."""
    if e.hit and e.crit >= 3:
        return replace(state, felled={**state.felled, e.target: "AO-8"})
    if e.fumble >= 3 and e.zone:
        return replace(state, felled={**state.felled, e.actor: "AO-9"})
    return state


def wound(state: State, e: ao.Wound) -> State:
    return replace(state, wounds={**state.wounds, e.target: state.wounds.get(e.target, ())
                                  + ((e.effect or "", e.round),)})


def heal(state: State, e: ev.Heal, threshold: int) -> State:
    had = state.wounds.get(e.target, ())
    which = getattr(e, "wound", None)
    if not had or (which is None and e.amount < threshold):
        return state
    index = (which - 1) if which is not None else len(had) - 1
    if not 0 <= index < len(had):
        return state
    return replace(state, wounds={**state.wounds, e.target: had[:index] + had[index + 1:]})


def end(state: State, victors: tuple[str, ...], winners: list[str]) -> State:
    """AO-15: the victors' MP replenished to full."""
    mp = {cid: n for cid, n in state.mp_spent.items() if cid not in winners}
    return replace(state, ended=True, victors=victors, mp_spent=mp)


def effects(state: State, cid: str) -> list[str]:
    return [effect for effect, _ in state.wounds.get(cid, ())]


def plain(state: State) -> dict[str, Any]:
    return {"ties": {k: list(v) for k, v in state.ties.items()},
            "delays": [{"actor": a, "after": b} if b else {"actor": a}
                       for a, b, _ in state.delays],
            "victors": list(state.victors)}
