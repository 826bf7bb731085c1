"""The round (PH-1 to PH-5, PH-10, PH-20): phases, each unit's Move and Action gained on
its phase, used, delayed and held, and the statuses that take them away.

Units are independent of each other within a round, so each is worked out on its own from
how its round began (`Start`) and its own events of the round (`Op`); the plan, the
checks and the tracker all read that one simulation.
"""

from __future__ import annotations

from referee.engine.errors import IllegalEvent
from referee.engine.record import field, record
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any
else:
    from referee.hints import Any

KINDS = ("move", "action")
BOTH = frozenset(KINDS)
NONE: frozenset[str] = frozenset()
STATUSES = ("stun", "immobilized", "incapacitated", "calm")
WORD = {"move": "Move", "action": "Action"}
HELD = "\x00"  # in a why, where the kinds held go: "a delayed Move and Action"
DROPPED = "\x01"  # in a why's head: a status took delayed ones it held (planner.stopped)


@record(frozen=True)
class Start:
    """A unit as its round began."""

    held: frozenset[str] = NONE  # delayed Move / Action carried in (PH-3, PH-4)
    stun: frozenset[str] = NONE  # kinds whose next one a stun takes (PH-10)
    statuses: tuple[tuple[str, int | None], ...] = ()  # (name, last round or None)


EMPTY = Start()


@record(frozen=True)
class Op:
    """One of a unit's events in the round, where it falls: `pos` is the index of its
    phase in the round's order (-1: the round's start), `seq` its place in the log."""

    pos: int
    seq: int
    op: str  # use, cond, delay
    kind: str = ""  # use: move/action; cond: the status; delay: unused
    on: bool = True
    until: int | None = None
    engaged: bool = False
    keep: frozenset[str] = NONE


@record(frozen=True)
class RoundLog:
    round: int
    order: tuple[int, ...]  # the phases, in the order they run (PH-1)
    fighting: frozenset[str]  # units in the fight as the round began
    start: dict[str, Start] = field(default_factory=dict)  # only units not EMPTY
    ops: dict[str, tuple[Op, ...]] = field(default_factory=dict)
    reached: int = -1  # the furthest phase (its index) an event has named
    delaying: frozenset[str] = NONE  # members of squads on Delay: gains held at once (PH-20)

    def pos(self, phase: int) -> int | None:
        """The index of `phase` in the order, or None."""
        if not self.order:
            return None
        first, last = self.order[0], self.order[-1]
        index = first - phase if first >= last else phase - first
        return index if 0 <= index < len(self.order) else None


def phase_order(combats: list[int], count_up: bool) -> tuple[int, ...]:
    """PH-1: highest base Combat + 1 phases, from the highest down to 0 (or up)."""
    top = max(combats, default=0)
    return tuple(range(0, top + 1)) if count_up else tuple(range(top, -1, -1))


class Unit:
    """Facts about one unit the simulation needs: `carried` is Immobilized while carried;
    `bound` says what keeps it from taking an Action (PH-18: carrying, dragging or
    dragged), "" when nothing does."""

    __slots__ = ("cid", "name", "base", "agile", "immune", "carried", "bound", "plain")

    def __init__(self, cid: str, name: str, base: int, agile: bool, immune: bool,
                 carried: bool = False, bound: str = "") -> None:
        self.cid, self.name, self.base, self.agile, self.immune = cid, name, base, agile, immune
        self.carried, self.bound = carried, bound
        self.plain = not carried and not bound  # its round needs no more than the common case


class Run:
    """One unit's round, phase by phase."""

    __slots__ = ("held", "fresh", "used", "stun", "statuses", "gained", "lost", "blocked",
                 "keep", "holding", "gains", "invalid", "round", "unit", "base_pos", "done",
                 "share", "hold")

    def __init__(self, unit: Unit, start: Start, round_: int, base_pos: int | None,
                 hold: bool = False) -> None:
        self.unit = unit
        self.hold = hold  # its squad is on Delay: what it gains is held at once (PH-20)
        self.round = round_
        self.base_pos = base_pos
        self.held = set(start.held)
        self.fresh: set[str] = set()
        self.used: set[str] = set()
        self.stun = set(start.stun)
        self.statuses: dict[str, int | None] = dict(start.statuses)
        self.gained: list[str] = []
        self.lost: dict[str, str] = {}
        self.blocked: list[tuple[int, str, str, str]] = []  # pos, kind, rule, why
        self.keep: set[str] = set()
        self.holding: dict[int, frozenset[str]] = {}
        self.gains: tuple[str, ...] = ()
        self.invalid: list[tuple[Op, str]] = []
        self.done = -2  # the last position worked out
        self.share: Any = None  # its part of the plan, worked out once (planner.Share)

    def has(self, status: str) -> bool:
        # a carried unit is Immobilized while carried, and only then (PH-18)
        return status in self.statuses or (status == "immobilized" and self.unit.carried)

    # -- steps --------------------------------------------------------------------------

    def gain(self, pos: int) -> None:
        """PH-2: the unit's phase: a new Move and Action, unless something stops it."""
        out = []
        name = self.unit.name
        for kind in KINDS:
            word = WORD[kind]
            if self.has("incapacitated"):
                self.blocked.append((pos, kind, "PH-10", f"{name} is incapacitated: "
                                     f"regains no {word}"))
            elif kind == "move" and "immobilized" in self.statuses:
                self.blocked.append((pos, kind, "PH-10", f"{name} is immobilized: "
                                     "regains no Move"))
            elif kind == "move" and self.unit.carried:
                self.blocked.append((pos, kind, "PH-18", f"{name} is carried, so immobilized:"
                                     " regains no Move"))
            elif kind in self.held:  # the kinds held, named once for both (planner.stopped)
                self.blocked.append((pos, kind, "PH-3", f"{name} holds a delayed {HELD}: "
                                     f"gains no new {word}"))
            elif kind in self.stun:
                self.stun.discard(kind)
                self.lost[kind] = "stunned (PH-10)"
                self.blocked.append((pos, kind, "PH-10", f"{name} is stunned: loses this "
                                     f"{word}"))
            elif kind == "action" and self.unit.bound:
                self.lost[kind] = f"{self.unit.bound} (PH-18)"
                self.blocked.append((pos, kind, "PH-18", f"{name} {self.unit.bound}: takes "
                                     "no Action"))
            else:
                out.append(kind)
                self.gained.append(kind)
                if self.hold or (kind == "action" and self.has("calm")):
                    self.held.add(kind)  # PH-20, PH-10: held at once
                else:
                    self.fresh.add(kind)
        self.gains = tuple(out)

    def lose_moves(self, why: str) -> None:
        if "move" in self.fresh or "move" in self.held:
            self.lost["move"] = why
        self.fresh.discard("move")
        self.held.discard("move")

    def apply(self, op: Op, pos: int, phase: int | None) -> str:
        """Apply one event; the reason it cannot happen ("" when it can)."""
        if op.op == "use":
            return self.use(op, phase)
        if op.op == "delay":
            missing = [k for k in sorted(op.keep) if k not in self.fresh and k not in self.held]
            if missing:
                word = " or ".join(WORD[k] for k in missing)
                why = self.lost.get(missing[0]) or ("used" if missing[0] in self.used else
                                                    "none gained yet")
                return f"{self.unit.name} has no {word} to keep ({why}; PH-3)"
            self.keep |= op.keep
            return ""
        self.condition(op)
        return ""

    def use(self, op: Op, phase: int | None) -> str:
        kind, name, word = op.kind, self.unit.name, WORD[op.kind]
        if kind == "action" and self.unit.bound:
            return f"{name} {self.unit.bound}: it cannot act (PH-18)"
        if kind == "action" and self.has("calm"):
            return (f"{name} is calm: its Action waits until it is attacked or woken "
                    "(PH-10)")
        if kind in self.held:
            self.held.discard(kind)
        elif kind in self.fresh and kind not in self.keep:
            self.fresh.discard(kind)
        elif kind in self.fresh:
            return f"{name} has delayed its {word} into round {self.round + 1} (PH-3)"
        elif self.base_pos is None:
            return f"{name} is not in this round's phases and holds no delayed {word} (PH-1)"
        elif kind in self.lost:
            return f"{name} has no {word}: {self.lost[kind]}"
        elif kind in self.used:
            return f"{name} has already used its {word} this round (PH-2)"
        elif self.done < self.base_pos:
            return (f"{name}'s phase is {self.unit.base}: in phase {phase} it holds no "
                    f"delayed {word} (PH-2, PH-3)")
        else:
            return f"{name} has no {word} this round (PH-2)"
        self.used.add(kind)
        if kind == "action":
            self.lose_moves("took its Action (PH-5)")
        elif op.engaged and not self.unit.agile:
            self.lose_moves("entered an enemy's neighbourhood (PH-5)")
        return ""

    def condition(self, op: Op) -> None:
        name = op.kind
        if not op.on:
            self.statuses.pop(name, None)
            return
        if name == "stun":
            if self.unit.immune:
                return  # PH-17: Constructs and Uncroaked
            for kind in KINDS:  # kind by kind: a held one goes instead of the next
                if kind in self.held or kind in self.fresh:
                    self.drop(op, kind, "stunned")
                    self.fresh.discard(kind)
                    self.lost[kind] = "lost to a stun (PH-10)"
                else:
                    self.stun.add(kind)
            return
        self.statuses[name] = op.until
        if name == "immobilized":
            self.drop(op, "move", name)
            self.lose_moves("immobilized (PH-10)")
        elif name == "incapacitated":
            for kind in KINDS:
                self.drop(op, kind, name)
            self.lose_moves("incapacitated (PH-10)")
            if "action" in self.fresh or "action" in self.held:
                self.lost["action"] = "incapacitated (PH-10)"
            self.fresh.discard("action")
            self.held.discard("action")
        elif name == "calm" and "action" in self.fresh:
            self.fresh.discard("action")
            self.held.add("action")

    def drop(self, op: Op, kind: str, word: str) -> None:
        """A status takes a delayed `kind` the unit holds (PH-10), and its why says what
        was lost (a status from the round's start: the first phase's). The phase it names
        still lists the unit as holding, as that phase began (FORMAT: `holding`); later
        phases do not. One gained in the status's own phase was not held as it began:
        lost without that why, as one gained and not kept is."""
        if kind not in self.held:
            return
        self.held.discard(kind)
        if op.pos >= 0 and kind not in self.holding.get(op.pos, frozenset()):
            return  # gained in this very phase (a squad on Delay holds it at once): taken
            # as one gained and not yet used is, not as a delayed one held as it began
        self.blocked.append((max(op.pos, 0), kind, "PH-10",
                             f"{self.unit.name} is {word}{DROPPED}: loses a delayed one"))

    def end(self) -> Start:
        """How the unit starts the next round (PH-3: what it keeps is held)."""
        held = frozenset(self.held | (self.fresh & self.keep))
        return Start(held, frozenset(self.stun), tuple(sorted(
            (k, v) for k, v in self.statuses.items() if v is None or v > self.round)))


def simulate(log: RoundLog, unit: Unit, extra: Op | None = None,
             upto: int | None = None, keep_all: bool = False) -> Run:
    """`unit`'s round up to position `upto` (all of it by default); `extra` is an event
    still to be checked: IllegalEvent if it cannot happen."""
    start = log.start.get(unit.cid, EMPTY)
    base_pos = log.pos(unit.base) if unit.cid in log.fighting else None
    hold = unit.cid in log.delaying
    run = Run(unit, start, log.round, base_pos, hold)
    ops = log.ops.get(unit.cid, ())
    if extra is not None:
        ops = ops + (extra,)
        if len(ops) > 1 and ops[-2].pos > extra.pos:
            ops = tuple(sorted(ops, key=lambda o: (o.pos, o.seq)))
    last = len(log.order) - 1 if upto is None else upto
    # the common case: nothing held, nothing happened, nothing held back
    if not ops and start is EMPTY and unit.plain and not hold:
        if base_pos is not None and base_pos <= last:
            run.gains = KINDS
            run.gained = list(KINDS)
            run.fresh = set(KINDS)
        run.done = last
        if keep_all:
            run.keep |= BOTH
        return run
    if unit.carried:
        run.lose_moves("immobilized while carried (PH-18)")  # its delayed Move too
    index = 0
    count = len(ops)
    while index < count and ops[index].pos < 0:
        _step(run, ops[index], extra, None)
        index += 1
    for pos in range(0, last + 1):
        run.holding[pos] = frozenset(run.held)
        run.done = pos - 1
        if pos == base_pos:
            run.gain(pos)
        run.done = pos
        phase = log.order[pos]
        while index < count and ops[index].pos == pos:
            _step(run, ops[index], extra, phase)
            index += 1
    if keep_all:
        run.keep |= BOTH
    return run


def _step(run: Run, op: Op, extra: Op | None, phase: int | None) -> None:
    why = run.apply(op, op.pos, phase)
    if why:
        if op is extra:
            raise IllegalEvent(why, ("what",) if op.op == "use" else ("keep",))
        run.invalid.append((op, why))


def added(log: RoundLog, cid: str, op: Op, reach: bool = True) -> RoundLog:
    """The log with `op` among `cid`'s events, in phase order."""
    ops = log.ops.get(cid, ()) + (op,)
    if len(ops) > 1 and ops[-2].pos > op.pos:
        ops = tuple(sorted(ops, key=lambda o: (o.pos, o.seq)))
    reached = max(log.reached, op.pos) if reach else log.reached
    return RoundLog(log.round, log.order, log.fighting, log.start, {**log.ops, cid: ops},
                    reached, log.delaying)


def describe_kinds(kinds: Any) -> list[str]:
    return [k for k in KINDS if k in kinds]
