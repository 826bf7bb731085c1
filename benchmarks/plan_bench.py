"""Planning speed: in-process, and the whole `referee plan --json` process.

Prints, each as a median of several runs (the figures taken in turn):
- plan.in-process: planning a demon-idol round of 1,000 declarations over 500 combatants
  in-process (goal: two thirds of c8333ff's, timed in turn: `make bench-compare`;
  the script's old target under 20 ms); every combatant has two attack routines or a
  rate-2 missile, so the round's own 500 declarations hold about 850 routines, and the
  party's 250 combatants declare again in each of two surprise segments: 1,000
  declarations;
- plan.python-pass: `python -c pass`, the floor of a whole process;
- plan.json-small: `referee plan --json` on a two-declaration file, against `python -c
  pass` (goal: within 4x);
- plan.json-large: `referee plan --json` on the 1,000-declaration file (written as the
  program writes its saves) against the two-declaration file (target: within 3x);
- plan.json-plain: `referee plan --json` on a 1,000-combatant, 1,000-declaration save
  written by hand in plain TOML (bare keys, as tomli_w writes) against the
  two-declaration file (within 3x).
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import tomli_w

sys.path.insert(0, str(Path(__file__).resolve().parent))

from figures import ENV, TREE, Measure, main, single, workdir  # noqa: E402

ROOT = TREE  # the tree measured (its tests/scenarios hold the small save)


def big_save(combatants: int = 500, seed: int = 1, surprise: bool = True) -> dict:
    rng = random.Random(seed)
    sides = [{"id": "party", "name": "Party"}, {"id": "horde", "name": "Horde"}]
    roster, events = [], [
        {"type": "surprise", "round": 1, "surprised": ["horde"], "segments": 2},
        {"type": "initiative", "round": 1, "rolls": {"party": 3, "horde": 3}},
    ]
    for n in range(combatants):
        side = sides[n % 2]["id"]
        roster.append({
            "id": f"c{n}", "name": f"C{n}", "side": side, "hp": 10, "attacks": 2,
            "reaction": rng.choice([-1, 0, 0, 1]),
            "weapons": [
                {"name": "sword", "speed_factor": rng.randint(1, 9), "length": 3.5},
                {"name": "bow", "missile": True, "rate": 2, "speed_factor": 7},
            ],
            "spells": [{"name": "sleep", "casting_time": rng.randint(1, 6)}],
        })
    for n in range(combatants):
        events.append(declaration(rng, n, combatants, round_=1))
    for segment in (1, 2) if surprise else ():  # the party's two surprise segments
        for n in range(0, combatants, 2):
            events.append({"type": "declare", "round": 1, "actor": f"c{n}", "action": "G",
                           "weapon": "sword", "segment": segment})
    return {"format": "referee-save", "version": 1, "ruleset": "demon-idol",
            "title": "benchmark", "seed": seed, "sides": sides, "combatants": roster,
            "events": events}


def declaration(rng: random.Random, n: int, total: int, round_: int) -> dict:
    enemy = f"c{(n + 1 + 2 * rng.randrange(total // 2)) % total}"
    kind = rng.choice(["G", "G", "missile", "spell", "charge", "A", "F"])
    base = {"type": "declare", "round": round_, "actor": f"c{n}", "target": enemy}
    if kind == "G":
        return base | {"action": "G", "weapon": "sword"}
    if kind == "missile":
        return base | {"action": "D", "weapon": "bow"}
    if kind == "spell":
        return base | {"action": "D", "spell": "sleep"}
    if kind == "charge":
        return base | {"action": "E", "charge": True, "closing": rng.randint(1, 4)}
    return base | {"action": kind}


def small_save() -> Path:
    return ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"


def referee_command() -> list[str]:
    script = Path(sys.executable).parent / "referee"
    if script.exists():
        return [str(script)]
    found = shutil.which("referee")
    return [found] if found else [sys.executable, "-m", "referee"]


def run(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)


class Saves:
    """The saves planned, written once a process: the 1,000-declaration file as the
    program writes its saves, and the 1,000-combatant one by hand in plain TOML."""

    def __init__(self) -> None:
        from referee.session.files import load_save
        from referee.session.writer import save_text

        folder = workdir()
        self.big = folder / "plan-big.toml"
        self.big.write_text(tomli_w.dumps(big_save()))
        written = load_save(self.big)  # then as the program itself writes a save
        self.big.write_text(save_text(written.encounter, written.fight.log))
        self.fight: Any = load_save(self.big).fight
        self.declared = sum(len(v) for v in self.fight.declarations.values())
        # A save written by hand in plain TOML (bare keys, as tomli_w writes): the roster
        # of 1,000 combatants is read strictly, key by key, by the ruleset's schemas.
        self.plain = folder / "plan-plain.toml"
        self.plain.write_text(tomli_w.dumps(big_save(combatants=1000, surprise=False)))
        self.cmd = referee_command()
        run(self.cmd + ["plan", str(small_save()), "--json"])  # warm the bytecode cache


saves: Saves | None = None


def ready() -> Saves:
    global saves
    if saves is None:
        saves = Saves()
    return saves


def plan_json(path: Path | str | None) -> None:
    found = ready()
    run(found.cmd + ["plan", str(path or small_save()), "--json"])


PROCESS = {"script": (15, 1), "compare": (2, 1), "setup": ready}
MEASURES: list[Measure] = [
    single("plan.in-process", "in-process plan, 1,000 declarations over 500 combatants",
           lambda: ready().fight.plan(1), setup=ready, script=(15, 1), compare=(4, 2),
           goal="<= 2/3 of c8333ff's, timed in turn (bench-compare); < 20 ms"),
    single("plan.python-pass", "python -c pass", lambda: run([sys.executable, "-c", "pass"]),
           **PROCESS),
    single("plan.json-small", "referee plan --json, 2 declarations",
           lambda: plan_json(None), floor="plan.python-pass", goal="<= 4x python -c pass",
           **PROCESS),
    single("plan.json-large", "referee plan --json, 1,000 declarations",
           lambda: plan_json(ready().big), floor="plan.json-small",
           goal="within 3x the 2-declaration file", **PROCESS),
    single("plan.json-plain",
           "referee plan --json, 1,000 declarations over 1,000 combatants, plain TOML",
           lambda: plan_json(ready().plain), floor="plan.json-small",
           goal="within 3x the 2-declaration file", **PROCESS),
]


if __name__ == "__main__":
    main(MEASURES)
