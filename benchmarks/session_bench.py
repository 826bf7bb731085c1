"""Session speed on a generated save of 10,000 events.

Prints, each against a measurement taken in the same run (the figures taken in turn):
- session.load: load and fold to the final state, against session.json-loads, `json.loads`
  of the same events written as JSON (goal: within 5x; the script's old target 10x);
- session.append: one durable append (write, flush, fsync), median and p95
  (session.append.p95; target: under 2 ms), against session.bare-append(.p95), a bare
  append + fsync of the same bytes;
- session.full-save: a full atomic save of the 10,000 events (target: under 0.5 s), and
  session.write-only, the part of it that is writing and fsync;
- session.replay: replay to the end (the `referee replay` chronicle), against the load
  (target: within 2x);
- session.check: `referee check` of the 10,000-event save, a whole process: its processor
  time and (.peak) its peak resident memory (goal: within 50 MB);
- session.big-check, -plan, -replay: `referee check`, `plan` and `replay` of a generated
  save of 100,000 events (about 9 MB), each a whole process: its processor time (goal:
  within 1 s) and (.peak) its peak resident memory (goal: within 150 MB).
"""

from __future__ import annotations

import functools
import json
import os
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import (  # noqa: E402
    TREE,
    Figure,
    Measure,
    Values,
    main,
    measured,
    single,
    workdir,
)

from referee.engine import Fight  # noqa: E402
from referee.engine import events as ev  # noqa: E402
from referee.rulesets.demon_idol import events as di  # noqa: E402
from referee.session.files import load_save  # noqa: E402
from referee.session.replay import chronicle  # noqa: E402
from referee.session.store import Session, write_atomic  # noqa: E402
from referee.session.writer import event_block, save_text  # noqa: E402

ROOT = TREE
EVENTS = 10_000


@functools.cache
def generated_fight(events: int = EVENTS, seed: int = 5, beats: int = 7) -> Fight:
    """A long demon-idol fight: declarations, initiative, `beats` beats of rolls, damage,
    heals and resolves a round (made once a process for each size). A round takes the
    demo's 9 declarations, its initiative, 4 events a beat and the next round's start."""
    demo = load_save(ROOT / "saves" / "demo.toml").fight
    fight = Fight(demo.encounter, demo.ruleset)
    rng = random.Random(seed)
    ids = list(fight.roster)
    round_ = 1
    while len(fight.log) < events:
        for cid in ids:
            target = rng.choice([o for o in ids if fight.roster[o].side != fight.roster[cid].side])
            fight.enter(di.Declare(round=round_, actor=cid, action=rng.choice("ABCEFG"),
                                   target=(target,)))
        fight.enter(di.Initiative(round=round_, rolls={"party": rng.randint(1, 6),
                                                       "goblins": rng.randint(1, 6)}))
        for beat in range(1, beats + 1):
            die = rng.randint(1, 8)  # a roll's total is what its dice make
            fight.enter(ev.Roll(round=round_, expr="1d8", dice=(die,), total=die,
                                purpose="damage"))
            target = rng.choice(ids)
            fight.enter(ev.Damage(round=round_, target=target, amount=rng.randint(0, 2)))
            fight.enter(ev.Heal(round=round_, target=target, amount=2))
            fight.enter(ev.Resolve(round=round_, beat=beat))
        round_ += 1
        fight.enter(ev.NewRound(round=round_))
    del fight.log[events:]
    fight.refold()
    return fight


@functools.cache
def long_save() -> Path:
    """The 10,000-event fight as a save file (once a process)."""
    fight = generated_fight()
    path = workdir() / "session-long.toml"
    path.write_text(save_text(fight.encounter, fight.log))
    return path


@functools.cache
def as_json() -> str:
    return json.dumps([e.to_dict() for e in generated_fight().log])


@functools.cache
def loaded() -> Any:
    return load_save(long_save())


def appends(n: int) -> Values:
    """n durable appends to a copy of the long save, then n bare appends + fsync."""
    folder = workdir()
    path = folder / "append.toml"
    shutil.copyfile(long_save(), path)
    session = Session.open(path)
    ours = []
    for count in range(n):
        start = time.perf_counter()
        session.append(ev.Note(round=session.fight.round, text=f"note {count}"))
        ours.append((time.perf_counter() - start) * 1000)
    session.close()
    block = ("\n" + event_block(ev.Note(round=1, text="note 100"))).encode()
    bare = []
    with open(folder / "bare.toml", "ab") as handle:
        for _ in range(n):
            start = time.perf_counter()
            handle.write(block)
            handle.flush()
            os.fsync(handle.fileno())
            bare.append((time.perf_counter() - start) * 1000)
    return {"ours": ours, "bare": bare}


def full_save() -> None:
    fight = generated_fight()
    write_atomic(workdir() / "full.toml", save_text(fight.encounter, fight.log))


@functools.cache
def text() -> str:
    fight = generated_fight()
    return save_text(fight.encounter, fight.log)


BIG = 100_000
COMMANDS = ("check", "plan", "replay")


@functools.cache
def big_save(events: int = BIG) -> Path:
    """The generated save of `events` events (about 9 MB), written once a process."""
    fight = generated_fight(events)
    path = workdir() / f"session-{events}.toml"
    path.write_text(save_text(fight.encounter, fight.log))
    return path


def big_commands(n: int) -> Values:
    """`referee check`, `plan` and `replay` of the big save, n times each in turn, each a
    whole process run from figures' small launcher (a peak of its own, not this process's,
    which holds the fight): its processor time (s) and peak memory (MB), by command."""
    found: Values = {}
    for _ in range(n):
        for command in COMMANDS:
            ran = measured([sys.executable, "-m", "referee", command, str(big_save())])
            found.setdefault(command, []).append(ran.cpu)
            found.setdefault(f"{command}.peak", []).append(ran.peak)
    return found


def checks(n: int) -> Values:
    """`referee check` of the 10,000-event save, n whole processes: processor time (s)
    and peak memory (MB)."""
    runs = [measured([sys.executable, "-m", "referee", "check", str(long_save())])
            for _ in range(n)]
    return {"cpu": [ran.cpu for ran in runs], "peak": [ran.peak for ran in runs]}


def big_figures() -> tuple[Figure, ...]:
    figures = []
    for command in COMMANDS:
        name, text = f"session.big-{command}", f"referee {command}, {BIG:,} events"
        figures += [Figure(name, f"{text}, processor time", command, goal="<= 1 s",
                           unit="s"),
                    Figure(f"{name}.peak", f"{text}, peak resident memory", f"{command}.peak",
                           "max", goal="<= 150 MB", unit="MB")]
    return tuple(figures)


MEASURES: list[Measure] = [
    single("session.load", "load + fold of 10,000 events", lambda: load_save(long_save()),
           setup=long_save, floor="session.json-loads", goal="<= 5x json.loads (was 10x)",
           script=(15, 1), compare=(3, 1)),
    single("session.json-loads", "json.loads of the same events",
           lambda: json.loads(as_json()), setup=as_json, script=(15, 1), compare=(3, 2)),
    Measure("session.append", appends, (
        Figure("session.append", "durable append", "ours", goal="< 2 ms",
               floor="session.bare-append"),
        Figure("session.append.p95", "durable append", "ours", "p95",
               floor="session.bare-append.p95"),
        Figure("session.bare-append", "bare append + fsync", "bare"),
        Figure("session.bare-append.p95", "bare append + fsync", "bare", "p95"),
    ), setup=long_save, script=(1, 200), compare=(2, 40)),
    single("session.full-save", "full atomic save of 10,000 events", full_save,
           setup=long_save, goal="< 500 ms", script=(5, 1), compare=(2, 1)),
    single("session.write-only", "of which writing and fsync",
           lambda: write_atomic(workdir() / "full.toml", text()), setup=text,
           script=(5, 1), compare=(2, 1)),
    single("session.replay", "replay to the end", lambda: chronicle(loaded()), setup=loaded,
           floor="session.load", goal="within 2x the load", script=(5, 1), compare=(2, 1)),
    Measure("session.check", checks, (
        Figure("session.check", f"referee check, {EVENTS:,} events, processor time", "cpu",
               unit="s"),
        Figure("session.check.peak", f"referee check, {EVENTS:,} events, peak resident memory",
               "peak", "max", goal="<= 50 MB", unit="MB"),
    ), setup=long_save, script=(1, 3), compare=(1, 1), warm=False),
    # issue 33's 100,000-event commands: the save made once a worker (the untimed setup,
    # about 15 s), no warming sample (three whole commands), every other pair of the compare
    Measure("session.big", big_commands, big_figures(), setup=big_save, script=(1, 1),
            compare=(1, 1), every=2, warm=False),
]


if __name__ == "__main__":
    main(MEASURES, f"session: a generated demon-idol save of {EVENTS:,} events, and "
                   f"the commands on one of {BIG:,}")
