"""A fight's turns as sanctum's roles read them: the simulator's view of the minions and
groups, who is still standing, the turn's pairs and where its combats began. Pure
functions of the fight and sanctum's state (state.py)."""

from __future__ import annotations

from referee.engine import events as ev
from referee.engine.view import Fight

from . import events as se
from . import simulator, stats
from .settings import Settings
from .sim import Roster
from .state import State

# the source says nothing of ending a whole fight: once ended, no combat is fought
OVER = "the fight is over: no combat is fought now (an undo takes the end back)"


def level(fight: Fight, cid: str, state: State) -> int:
    """SA-9: a recruit that killed earns its level at the start of the next turn."""
    base = stats.level(fight.roster[cid])
    earned = state.promoted.get(cid)
    return 1 if base == 0 and earned is not None and earned < fight.round else base


def roster(s: Settings, fight: Fight, state: State) -> Roster:
    """The minions and groups as the simulator reads them, at the fight's turn (the
    combat's rounds and round 1's penalty as the house rules set them)."""
    r = simulator.sim.Roster()  # the runs over it take the same simulator's
    r.rounds, r.penalty = s.rounds, s.penalty
    enc = fight.encounter
    standing = {s.id: stats.STANDINGS.index(stats.standing(s)) for s in enc.sides}
    for g in stats.groups(enc):
        r.add_group(str(g["id"]), str(g["side"]), standing[str(g["side"])],
                    int(g["created"]))
    for cid, c in fight.roster.items():
        hand, missile = stats.attack(c, "hand"), stats.attack(c, "missile")
        r.add(cid, stats.group(c), level(fight, cid, state), stats.armor(c),
              (hand[0], hand[1]), missile, stats.quasi_immune(c), stats.no_attack(c),
              stats.no_deal(c), stats.must_attack(c))
    return r


def hit_points(fight: Fight) -> list[int]:
    return [0 if s.dead or s.hp <= 0 else s.hp for s in fight.status.values()]


def fallen(fight: Fight) -> set[str]:
    """The minions out of the fight: killed, or brought to 0 hit points (the
    simulator counts them out, SA-3)."""
    return {cid for cid, s in fight.status.items() if s.dead or s.hp <= 0}


def pairs(fight: Fight, state: State, turn: int | None = None) -> list[tuple[str, str]]:
    """The pairs `turn` lists (default: the fight's turn)."""
    turn = fight.round if turn is None else turn
    return list(state.pairs.get(turn, ()))


def turn_start(fight: Fight) -> tuple[Fight, list[ev.Event], int | None]:
    """The fight as its turn's combats began, the steps logged since, and the seed
    they were drawn from (None: nothing fought yet)."""
    turn = fight.round
    steps = [(n, e) for n, e in enumerate(fight.events)
             if e.round == turn and e.TYPE in se.STEPS]
    if not steps:
        return fight, [], None
    first = steps[0][1]
    seed = first.seed if isinstance(first, se.Combat) else None
    return fight.at(fight.positions[steps[0][0]]), [e for _, e in steps], seed


def fought(state: State, turn: int) -> bool:
    """Whether every combat `turn` lists has been fought (or skipped)."""
    listed = state.pairs.get(turn, ())
    return bool(listed) and state.started.get(turn, 0) >= len(listed) and not state.current


def pairs_turn(fight: Fight, state: State) -> int:
    """The turn `P` lists: this one, or the next when this one's combats are fought."""
    turn = max(fight.round, 1)
    return turn + 1 if fought(state, turn) else turn


def hostile_pairs(fight: Fight) -> list[tuple[str, str]]:
    """Every pair of hostile groups with a minion standing, in creation order."""
    standing = {stats.group(c) for cid, c in fight.roster.items()
                if not fight.status[cid].dead and fight.status[cid].hp > 0}
    found = [g for g in stats.groups(fight.encounter) if str(g["id"]) in standing]
    ordered = sorted(found, key=lambda g: int(g["created"]))  # stable: file order next
    return [(str(a["id"]), str(b["id"])) for n, a in enumerate(ordered)
            for b in ordered[n + 1:] if a["side"] != b["side"]]
