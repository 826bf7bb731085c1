"""Session speed on a generated save of 10,000 events.

Prints, each against a measurement taken in the same run:
- load and fold to the final state, against `json.loads` of the same events written as
  JSON (target: within 10x);
- one durable append (write, flush, fsync), median and 95th percentile (target: under
  2 ms), against a bare append + fsync of the same bytes;
- a full atomic save of the 10,000 events (target: under 0.5 s);
- replay to the end (the `referee replay` chronicle), against the load (target: within 2x).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_ms  # noqa: E402

from referee.engine import Fight  # noqa: E402
from referee.engine import events as ev  # noqa: E402
from referee.rulesets.demon_idol import events as di  # noqa: E402
from referee.session.files import load_save  # noqa: E402
from referee.session.replay import chronicle  # noqa: E402
from referee.session.store import Session, write_atomic  # noqa: E402
from referee.session.writer import event_block, save_text  # noqa: E402

EVENTS = 10_000


def generated_fight(events: int = EVENTS, seed: int = 5) -> Fight:
    """A long demon-idol fight: declarations, initiative, beats, rolls, damage, heals."""
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
        for beat in range(1, 8):
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




def appends(folder: Path, source: Path, count: int = 200) -> tuple[list[float], list[float]]:
    path = folder / "append.toml"
    shutil.copyfile(source, path)
    session = Session.open(path)
    ours = []
    for n in range(count):
        start = time.perf_counter()
        session.append(ev.Note(round=session.fight.round, text=f"note {n}"))
        ours.append((time.perf_counter() - start) * 1000)
    session.close()
    block = ("\n" + event_block(ev.Note(round=1, text="note 100"))).encode()
    bare = []
    with open(folder / "bare.toml", "ab") as handle:
        for _ in range(count):
            start = time.perf_counter()
            handle.write(block)
            handle.flush()
            os.fsync(handle.fileno())
            bare.append((time.perf_counter() - start) * 1000)
    return ours, bare


def p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95) - 1]


def main() -> None:
    fight = generated_fight()
    with tempfile.TemporaryDirectory(dir=ROOT) as name:
        folder = Path(name)
        path = folder / "long.toml"
        path.write_text(save_text(fight.encounter, fight.log))
        as_json = json.dumps([e.to_dict() for e in fight.log])
        size = path.stat().st_size // 1024
        load = median_ms(lambda: load_save(path), runs=15)
        baseline = median_ms(lambda: json.loads(as_json), runs=15)
        print(f"load + fold of {len(fight.log)} events ({size} KiB): {load:.1f} ms; json.loads "
              f"of the same events: {baseline:.1f} ms = {load / baseline:.1f}x "
              "(target within 10x)")
        ours, bare = appends(folder, path)
        print(f"durable append: median {statistics.median(ours):.2f} ms, p95 {p95(ours):.2f} ms "
              f"(target < 2 ms); bare append + fsync: median {statistics.median(bare):.2f} ms, "
              f"p95 {p95(bare):.2f} ms")
        text = save_text(fight.encounter, fight.log)
        full = median_ms(lambda: write_atomic(folder / "full.toml",
                                              save_text(fight.encounter, fight.log)), runs=5)
        write_only = median_ms(lambda: write_atomic(folder / "full.toml", text), runs=5)
        print(f"full atomic save of {len(fight.log)} events: {full:.1f} ms "
              f"(of which writing and fsync {write_only:.1f} ms; target < 500 ms)")
        save = load_save(path)
        replay = median_ms(lambda: chronicle(save), runs=5)
        print(f"replay to the end: {replay:.1f} ms = {replay / load:.2f}x the load "
              "(target within 2x)")


if __name__ == "__main__":
    main()
