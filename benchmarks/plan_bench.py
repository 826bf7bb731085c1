"""Planning speed: in-process, and the whole `referee plan --json` process.

Prints, each as a median of several runs:
- planning a demon-idol round of 1,000 declarations over 500 combatants in-process
  (target: under 20 ms); every combatant has two attack routines or a rate-2 missile,
  so the round's own 500 declarations hold about 850 routines, and the party's
  250 combatants declare again in each of two surprise segments: 1,000 declarations;
- `referee plan --json` on a two-declaration file against `python3 -c pass` (target:
  within 5x);
- `referee plan --json` on the 1,000-declaration file (written as the program writes its
  saves) against the two-declaration file (target: within 3x);
- `referee plan --json` on a 1,000-combatant, 1,000-declaration save written by hand in
  plain TOML (bare keys, as tomli_w writes) against the two-declaration file (within 3x).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import tomli_w

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import median_ms, medians_ms  # noqa: E402

from referee.session.files import load_save  # noqa: E402
from referee.session.writer import save_text  # noqa: E402

RUNS = 15


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


# A user's shell writes bytecode caches; measure that, not a recompile on every start.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.toml"
        big.write_text(tomli_w.dumps(big_save()))
        written = load_save(big)  # then as the program itself writes a save
        big.write_text(save_text(written.encounter, written.fight.log))
        fight = load_save(big).fight
        declared = sum(len(v) for v in fight.declarations.values())
        planned = sum(len(b.actions) for b in fight.plan().beats)
        in_process = median_ms(lambda: fight.plan(1), RUNS)
        print(f"in-process plan: {declared} declarations over {len(fight.roster)} combatants, "
              f"{planned} planned actions: {in_process:.2f} ms median (target < 20 ms)")

        cmd = referee_command()
        run(cmd + ["plan", str(small_save()), "--json"])  # warm the bytecode cache
        # A save written by hand in plain TOML (bare keys, as tomli_w writes): the roster
        # of 1,000 combatants is read strictly, key by key, by the ruleset's schemas.
        plain = Path(folder) / "plain.toml"
        plain.write_text(tomli_w.dumps(big_save(combatants=1000, surprise=False)))
        found = medians_ms({
            "bare": lambda: run([sys.executable, "-c", "pass"]),
            "small": lambda: run(cmd + ["plan", str(small_save()), "--json"]),
            "large": lambda: run(cmd + ["plan", str(big), "--json"]),
            "plain": lambda: run(cmd + ["plan", str(plain), "--json"]),
        }, RUNS)
        bare, small, large, hand = (found[k] for k in ("bare", "small", "large", "plain"))
        print(f"python3 -c pass: {bare:.1f} ms; referee plan --json (2 declarations): "
              f"{small:.1f} ms = {small / bare:.2f}x (target within 5x)")
        print(f"referee plan --json ({declared} declarations): {large:.1f} ms = "
              f"{large / small:.2f}x the 2-declaration file (target within 3x)")
        print(f"referee plan --json (1000 declarations, 1000 combatants, plain TOML): "
              f"{hand:.1f} ms = {hand / small:.2f}x the 2-declaration file (target within 3x)")

if __name__ == "__main__":
    main()
