"""The plans of random fights, pinned (issue 32, "How it is checked"): a redesign keeps them.

For each bundled ruleset (demon-idol with its by-the-book variant, count-up, agility-order,
phases, sanctum, and the `simple` rulesets) this plays FIGHTS random fights, the same every
run (`random.Random` seeded by the ruleset and the fight's number, never hypothesis), and
records after every operation the plan as `referee plan SAVE --json` prints it, the beat
under way, the round, whether the fight is over, every combatant's hit points, death and
conditions, and the types of the events the operation made (or that it was refused). Each
fight starts from a copy of the ruleset's bundled demo or one of its scenario saves (its
log kept, or only its encounter), with a seed of its own, and goes through STAGES stages
of random table operations, each ending in an attempt at the next round.

The record of each stage is hashed; `tests/data/plan_digests.json` holds, per ruleset, a
sha256 over every fight and each fight's stage digests, taken from the code before the
redesign (commit b07d419). A difference names the first fight and stage that differ and
prints what that stage did and planned now, to compare with the same fight on the old code
(`git worktree add /tmp/old b07d419`, this file copied there, and
`REFEREE_PLAN_FIGHT=RULESET/N pytest -s tests/test_plan_digests.py -k RULESET` in both
prints fight N's every stage).

    REFEREE_PIN_DIGESTS=1 pytest tests/test_plan_digests.py   # write the digests anew

Only do that on the code the digests are meant to hold (the old one): re-pinning on new
code hides the very change this test is for.

The APIs used (all present at b07d419):
- `referee.session.store.Session.open`, and `Table(session)` of `referee.session.table`
  (no injected generator: the program's dice come from the save's seed and the log's
  length, as in play): `declare`, `prefill`, `undeclared`, `roll_initiative`,
  `initiative_form`, `enter_initiative`, `resolve_next`, `current_beat`, `plan`,
  `damage`, `damage_default`, `miss`, `heal`, `condition`, `next_round`, `join`, `end`,
  `undo`, `redo`, `act(id)` (its `form(fight, actor)` for the defaults) and
  `command(id, actor, values)`;
- the engine: `Fight.plan().to_json()`, `Fight.roster`, `Fight.status` (`hp`, `dead`,
  `conditions`), `Fight.round`, `Fight.ended`, `Fight.alive`, `Fight.encounter`,
  `Combatant(...)`, `Plan.beats[].actions[]` (`actor`, `flag`), an event's `TYPE`, and
  `RefereeError` for a refusal;
- the save format (FORMAT.md): a save's `seed` and `ruleset` keys and its `[[events]]`.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from referee.engine import Combatant
from referee.engine.errors import RefereeError
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "plan_digests.json"
PIN = os.environ.get("REFEREE_PIN_DIGESTS") == "1"
SHOW = os.environ.get("REFEREE_PLAN_FIGHT")  # "RULESET/N": print fight N's stages
FIGHTS = 200  # per ruleset
STAGES = 3  # per fight, each ended by an attempt at the next round
STEPS = (1, 3)  # random operations per stage, at random between these
SCENARIOS = ROOT / "tests" / "scenarios"

# Which saves each ruleset's fights start from: the demo's and the scenarios' `ruleset`.
FAMILIES: dict[str, tuple[str, ...]] = {
    "demon-idol": ("demon-idol", "demon-idol-dmg"),
    "count-up": ("count-up",),
    "agility-order": ("agility-order",),
    "phases": ("phases", "phases-up"),
    "sanctum": ("sanctum",),
    "simple": ("d20-dex", "side-d6", "by-key", "dex-high", "low-first", "once-dex",
               "reroll", "side-high"),
}
RULESET_LINE = re.compile(r'^ruleset\s*=\s*"([^"]*)"\s*$', re.MULTILINE)
SEED_LINE = re.compile(r"^seed\s*=.*$", re.MULTILINE)


def starts(family: str) -> list[Path]:
    """The saves of this ruleset the project ships: its demos and scenarios, by name."""
    found = []
    candidates = sorted((ROOT / "saves").glob("*.toml")) + sorted(
        p for p in SCENARIOS.glob("*/*.toml") if not p.name.endswith(".expect.toml"))
    for path in candidates:
        if path.name.startswith("demo-"):  # a fresh copy `referee` wrote, not a demo
            continue
        line = RULESET_LINE.search(path.read_text(encoding="utf-8"))
        if line and Path(line.group(1)).stem in FAMILIES[family]:
            found.append(path)
    return found


def save_text(path: Path, seed: int, keep_log: bool) -> str:
    """The save at `path` with a seed of its own, its ruleset named whole when it is a
    file (a copy elsewhere still finds it), and its events or none."""
    text = path.read_text(encoding="utf-8")
    if not keep_log:
        text = text.split("\n[[events]]", 1)[0] + "\n"
    ruleset = RULESET_LINE.search(text)
    assert ruleset is not None
    if ruleset.group(1).endswith(".toml"):
        whole = (path.parent / ruleset.group(1)).resolve()
        text = text[:ruleset.start()] + f'ruleset = "{whole}"' + text[ruleset.end():]
    header_end = text.find("\n[")
    header_end = len(text) if header_end < 0 else header_end
    if SEED_LINE.search(text[:header_end]):
        text = SEED_LINE.sub(f"seed = {seed}", text, count=1)
    else:
        text = text.replace("\nversion = 1\n", f"\nversion = 1\nseed = {seed}\n", 1)
    return text


# -- what a referee might do ----------------------------------------------------------------

DI_LETTERS = "GGGEEDDFABCP"
CU_ACTIONS = ("attack", "attack", "cast", "consumable", "throw", "full-defense",
              "defensive-attack")
# the ruleset's own acts each family's fights try, with how often
ACTS: dict[str, tuple[str, ...]] = {
    "demon-idol": ("fire", "fire", "morale"),
    "count-up": ("morale", "injury"),
    "agility-order": ("attack", "attack", "attack", "move", "bonus", "act", "disengage",
                      "free", "stand", "delay", "delay", "ties", "wound", "cure"),
    "phases": ("move", "move", "action", "action", "delay", "status", "order", "regroup",
               "wake", "bull-rush", "dismount", "subdue", "subdue"),
    "sanctum": ("fight", "pairs"),
    "simple": (),
}
# operations and their weights, per family
OPERATIONS: dict[str, dict[str, int]] = {
    "demon-idol": {"declare": 10, "initiative": 3, "next": 5, "hit": 4, "miss": 2,
                   "heal": 1, "condition": 1, "act": 2, "join": 1, "undo": 1, "redo": 1},
    "count-up": {"declare": 8, "initiative": 3, "next": 5, "hit": 4, "miss": 2, "heal": 1,
                 "condition": 1, "act": 2, "join": 1, "undo": 1, "redo": 1},
    "agility-order": {"act": 10, "next": 4, "hit": 3, "miss": 2, "heal": 1,
                      "condition": 1, "join": 1, "undo": 1, "redo": 1, "initiative": 1},
    "phases": {"act": 10, "next": 5, "hit": 3, "miss": 1, "heal": 1, "condition": 1,
               "undo": 1, "redo": 1},
    "sanctum": {"act": 3, "next": 5, "hit": 1, "undo": 1, "redo": 1, "join": 1},
    "simple": {"initiative": 4, "next": 6, "hit": 4, "miss": 2, "heal": 1,
               "condition": 1, "join": 1, "undo": 1, "redo": 1},
}
CONDITIONS = ("prone", "stunned", "blinded", "calm", "fled", "asleep")


class Referee:
    """One fight's operations, picked by `rng` (the fight's, never the table's dice)."""

    def __init__(self, family: str, table: Table, rng: random.Random) -> None:
        self.family, self.table, self.rng = family, table, rng
        self.joined = 0

    @property
    def fight(self) -> Any:
        return self.table.fight

    def someone(self, alive: bool = True) -> str:
        roster = list(self.fight.roster)
        standing = [cid for cid in roster if self.fight.alive(cid)]
        return self.rng.choice(standing if alive and standing else roster)

    def other_than(self, cid: str) -> str:
        others = [o for o in self.fight.roster if o != cid] or [cid]
        return self.rng.choice(others)

    def pick(self) -> str:
        weights = OPERATIONS[self.family]
        names = sorted(weights)
        return self.rng.choices(names, [weights[n] for n in names])[0]

    def do(self, what: str, *args: Any) -> list[Any]:
        """The operation `what` done: what it made (`said`: what was asked of the table)."""
        self.said = what
        made: list[Any] = getattr(self, "op_" + what)(*args)
        return made

    def asks(self, said: str) -> None:
        self.said = said

    # -- the core operations --------------------------------------------------------------

    def op_declare(self, actor: str | None = None) -> list[Any]:
        if actor is None:
            waiting = self.table.undeclared()
            actor = self.rng.choice(waiting) if waiting and self.rng.random() < 0.8 \
                else self.someone()
        then = self.rng.random() < 0.12
        if self.family == "demon-idol":
            action = self.rng.choice(DI_LETTERS)
            fields = self.table.prefill(actor, action)
            self.di_fields(actor, action, fields)
        else:
            action = self.rng.choice(CU_ACTIONS)
            fields = self.table.prefill(actor, action)
            self.cu_fields(actor, action, fields)
        self.asks(f"declare {actor} {action} {sorted(fields.items())} then={then}")
        return self.table.declare(actor, action, then=then, **fields)

    def di_fields(self, actor: str, action: str, fields: dict[str, Any]) -> None:
        rng, combatant = self.rng, self.fight.roster[actor]
        if action in "PBDEFG" and rng.random() < 0.6:
            fields["target"] = self.other_than(actor)
        if action == "G" and combatant.weapons and rng.random() < 0.4:
            fields["weapon"] = rng.choice(combatant.weapons).name
        if action == "E":
            fields["charge"] = rng.random() < 0.4
            if fields["charge"]:
                fields["closing"] = rng.randint(1, 5)
        if action == "D":
            choice = rng.choice(("as is", "as is", "spell", "device", "turn"))
            if choice == "spell" and combatant.spells:
                fields.update(weapon="", spell=rng.choice(combatant.spells).name)
            elif choice == "device":
                fields.update(weapon="", spell="", device="wand",
                              usage_time=rng.randint(1, 6))
            elif choice == "turn":
                fields.update(weapon="", spell="", turn=True)
        if rng.random() < 0.25:
            fields["delay"] = rng.choice((1, 2, 3))
        if action in "DEG" and rng.random() < 0.1:
            fields["prepared"] = True

    def cu_fields(self, actor: str, action: str, fields: dict[str, Any]) -> None:
        rng, combatant = self.rng, self.fight.roster[actor]
        if rng.random() < 0.7:
            fields["target"] = self.other_than(actor)
        if action in ("attack", "defensive-attack") and combatant.weapons:
            fields["weapon"] = rng.choice(combatant.weapons).name
        if action == "cast" and combatant.spells:
            fields["spell"] = rng.choice(combatant.spells).name

    def op_initiative(self) -> list[Any]:
        if self.rng.random() < 0.7:
            self.asks("initiative rolled")
            return self.table.roll_initiative()
        form = self.table.initiative_form()
        values = {}
        for field in form.fields:
            low = field.minimum if field.minimum is not None else 1
            high = field.maximum if field.maximum is not None else max(low, 12)
            values[field.name] = self.rng.randint(low, min(high, low + 19))
        self.asks(f"initiative typed {sorted(values.items())}")
        return self.table.enter_initiative(values)

    def op_next(self) -> list[Any]:
        self.asks("next beat")
        return self.table.resolve_next()

    def beat_actor(self) -> tuple[str, str | None]:
        """Who acts in the beat under way (at random), and the target its action names;
        outside a beat, anyone standing."""
        beat = self.table.current_beat()
        if beat is not None:
            actions = [a for a in self.table.plan().beats[beat - 1].actions
                       if not a.flag("skipped")]
            if actions:
                action = self.rng.choice(actions)
                target = action.flag("target")
                return action.actor, target if target in self.fight.roster else None
        return self.someone(), None

    def op_hit(self) -> list[Any]:
        source, target = self.beat_actor()
        if target is None or self.rng.random() < 0.3:
            target = self.other_than(source)
        how = self.rng.random()
        amount: int | str
        if how < 0.35:
            amount = self.table.damage_default(source, target) or "1d6"
        elif how < 0.5:
            amount = self.rng.choice(("1d6", "2d4", "1d8+1"))
        else:
            amount = self.rng.choice((1, 2, 3, 4, 5, 6, 8, 12, 20))
        values: dict[str, Any] = {}
        if self.family == "phases" and self.rng.random() < 0.2:
            values["fatigue"] = True
        self.asks(f"hit {source} -> {target} {amount} {values}")
        return self.table.damage(target, amount, source=source, values=values)

    def op_miss(self) -> list[Any]:
        actor, target = self.beat_actor()
        self.asks(f"miss {actor} -> {target}")
        return self.table.miss(actor, target)

    def op_heal(self) -> list[Any]:
        target = self.someone(alive=False)
        amount = self.rng.choice((1, 3, 6, "1d4"))
        self.asks(f"heal {target} {amount}")
        return self.table.heal(target, amount)

    def op_condition(self) -> list[Any]:
        target = self.someone()
        name = self.rng.choice(CONDITIONS)
        rounds = self.rng.choice((None, 1, 2))
        on = self.rng.random() < 0.8
        self.asks(f"condition {target} {name} {rounds} {on}")
        return self.table.condition(target, name, rounds, on=on)

    def op_join(self) -> list[Any]:
        model = self.fight.roster[self.someone(alive=False)]
        self.joined += 1
        side = self.rng.choice([s.id for s in self.fight.encounter.sides])
        late = Combatant(f"late{self.joined}", f"Late {self.joined}", side,
                         hp=model.max_hp, max_hp=model.max_hp, weapons=model.weapons,
                         spells=model.spells, stats=dict(model.stats))
        values: dict[str, Any] = {}
        if self.family == "count-up":
            values = {"base": self.rng.randint(1, 12), "at_count": self.rng.randint(0, 12)}
        self.asks(f"join {late.id} as {model.id} on {side} {values}")
        return self.table.join(late, values)

    def op_undo(self) -> list[Any]:
        self.asks("undo")
        return self.table.undo()

    def op_redo(self) -> list[Any]:
        self.asks("redo")
        return self.table.redo()

    def op_end(self) -> list[Any]:
        self.asks("end")
        return self.table.end("pinned")

    def op_round(self) -> list[Any]:
        self.asks("next round")
        return self.table.next_round()

    # -- the ruleset's own acts -----------------------------------------------------------

    def op_act(self) -> list[Any]:
        name = self.rng.choice(ACTS[self.family])
        actor: str | None = self.someone()
        act = self.table.act(name)
        if not act.needs_actor:
            actor = None
        if act.allowed(self.fight, actor):  # not now, as the app and the command line say
            raise RefereeError(f"{name} not now")
        form = act.form(self.fight, actor)
        values: dict[str, Any] = {f.name: f.default for f in form.fields} if form else {}
        choices = {f.name: [v for _, v in f.options] for f in form.fields} if form else {}
        self.act_values(name, actor, values, choices)
        self.asks(f"act {name} by {actor} {sorted(values.items(), key=str)}")
        return self.table.command(name, actor, values)

    def act_values(self, name: str, actor: str | None, values: dict[str, Any],
                   choices: dict[str, list[Any]]) -> None:
        """Some answers changed from the form's defaults, at random."""
        rng = self.rng
        for key in ("target", "after", "join", "leader", "effect", "mode", "use", "pay",
                    "aim", "wound", "group"):
            if key in choices and choices[key] and rng.random() < 0.5:
                values[key] = rng.choice(choices[key])
        if name in ("attack", "free"):  # agility-order
            values["d20"] = rng.choice((1, 20, rng.randint(1, 20), rng.randint(1, 20)))
            values["flank"] = rng.random() < 0.3
            values["sneak"] = rng.random() < 0.2
            if rng.random() < 0.5:
                values["damage"] = str(rng.randint(1, 12))
        if name == "ties":
            for key in list(values):
                values[key] = rng.randint(1, 20)
        if name == "injury" and values.get("damage") is None:
            values["damage"] = rng.randint(1, 30)
        if name == "morale" and self.family == "demon-idol":
            values["roll"] = rng.randint(1, 100)
        if name == "subdue":
            values["damage"] = rng.randint(1, 4)
            values["dice"] = str(rng.randint(1, 6))
        if name in ("bull-rush", "dismount"):
            values["dice"] = " ".join(str(rng.randint(1, 6)) for _ in range(2))
        if name == "status" and "name" in choices and choices["name"]:
            values["name"] = rng.choice(choices["name"])
            values["on"] = rng.random() < 0.7


# -- recording ------------------------------------------------------------------------------


def state(table: Table) -> dict[str, Any]:
    """What a fight shows after an operation: the plan as `plan --json` prints it, the beat
    under way, the round, whether it is over, and each combatant's standing."""
    fight = table.fight
    status = {cid: [s.hp, s.dead, sorted((k, v) for k, v in s.conditions.items())]
              for cid, s in fight.status.items()}
    plan = fight.plan()
    beat = plan.current(fight.resolved.get(plan.round, set()))
    return {"plan": plan.to_json(), "beat": beat, "round": fight.round,
            "ended": fight.ended, "status": status}


def digest(record: list[Any]) -> str:
    text = json.dumps(record, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@contextmanager
def unsynced() -> Iterator[None]:
    """Saves written without fsync: a thousand fights' events, none of them kept."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


def play(family: str, number: int, folder: Path, starts_: list[Path],
         ) -> tuple[str, list[list[Any]]]:
    """Fight `number` of the family: where it started, and each stage's record."""
    rng = random.Random(f"plan-digests/{family}/{number}")
    start = rng.choice(starts_)
    keep_log = rng.random() < 0.6
    path = folder / f"{family}-{number}.toml"
    path.write_text(save_text(start, rng.randrange(1, 2**31), keep_log), encoding="utf-8")
    stages: list[list[Any]] = []
    with Session.open(path) as session:
        table = Table(session)
        referee = Referee(family, table, rng)
        record: list[Any] = [["start", state(table)]]
        for stage in range(STAGES):
            for actor in table.undeclared():  # the round opens: most declare ...
                if rng.random() < 0.7:
                    record.append(step(referee, "declare", actor))
            if table.initiative_due() and rng.random() < 0.85:  # ... and initiative
                record.append(step(referee, "initiative"))
            for _ in range(rng.randint(*STEPS)):
                record.append(step(referee, referee.pick()))
            if rng.random() < 0.6:  # the round finished, as a table mostly does
                for _ in range(8):
                    if table.current_beat() is None:
                        break
                    record.append(step(referee, "next"))
            if stage == STAGES - 1 and rng.random() < 0.15:
                record.append(step(referee, "end"))
            record.append(step(referee, "round"))
            stages.append(record)
            record = []
    path.unlink()
    label = f"{start.relative_to(ROOT)}{'' if keep_log else ' (encounter only)'}"
    return label, stages


def step(referee: Referee, what: str, *args: Any) -> list[Any]:
    """One operation: what was asked, the types of the events it made (or "refused"), and
    the fight's state after it (None: nothing was entered, so it is as it was)."""
    try:
        made = referee.do(what, *args)
    except RefereeError:
        return [referee.said, "refused", None]
    return [referee.said, [e.TYPE for e in made], state(referee.table) if made else None]


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def play_all(family: str, folder: Path, found: list[Path],
             ) -> tuple[list[str], list[list[list[Any]]]]:
    assert found, f"no save of {family} to start from"
    labels, fights = [], []
    with unsynced():
        for number in range(FIGHTS):
            label, stages = play(family, number, folder, found)
            labels.append(label)
            fights.append(stages)
    return labels, fights


def short(stage_digests: list[str]) -> str:
    return " ".join(whole[:10] for whole in stage_digests)


def pinned() -> dict[str, Any]:
    if not DATA.exists():
        return {}
    found: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return found


def last_state(stages: list[list[Any]]) -> Any:
    """The fight's state after the last of `stages` that entered anything."""
    for entry in reversed([entry for stage in stages for entry in stage]):
        found = entry[1] if entry[0] == "start" else entry[2]
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_the_plans_of_random_fights_are_as_pinned(family: str, tmp_path: Path) -> None:
    want = None if PIN else pinned().get(family)
    # the saves the fights start from: those pinned with the digests (a scenario added
    # since changes no fight), else every save of the ruleset the project ships now
    found = [ROOT / name for name, _ in want["starts"]] if want else starts(family)
    missing = [str(path.relative_to(ROOT)) for path in found if not path.exists()]
    assert not missing, f"{family}: the pinned fights start from saves now gone: {missing}"
    labels, fights = play_all(family, tmp_path, found)
    digests = [[digest(s) for s in stages] for stages in fights]  # each stage's, once
    got: dict[str, Any] = {
        "fights": [short(stages) for stages in digests],
        "digest": digest(digests),
        "starts": [[str(path.relative_to(ROOT)), file_digest(path)] for path in found]}
    if SHOW and SHOW.split("/")[0] == family:
        shown = int(SHOW.split("/")[1])
        print(f"fight {shown} of {family}, from {labels[shown]}")
        for n, entries in enumerate(fights[shown], start=1):
            print(f"-- stage {n}: {digest(entries)[:10]}")
            for entry in entries:
                print(json.dumps(entry, sort_keys=True))
    if PIN:
        data = pinned()
        data[family] = got
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    assert want is not None, f"no digests pinned for {family}: REFEREE_PIN_DIGESTS=1 " \
                             "on the code they are to hold"
    if got["digest"] == want["digest"]:
        return
    assert len(want["fights"]) == FIGHTS, "the pinned fights are another number: re-pin"
    changed = {name for (name, now), (_, then) in zip(got["starts"], want["starts"],
                                                     strict=True) if now != then}
    for number, (now, then) in enumerate(zip(got["fights"], want["fights"], strict=True)):
        if now == then:
            continue
        start = labels[number].split(" ")[0]
        assert start not in changed, (
            f"{family}: fight {number} starts from {start}, which has changed since the "
            "digests were pinned: put it back as it was, or pin again from the old code "
            "with the save as it is now")
        first = next(n for n, (a, b) in enumerate(zip(now.split(), then.split(),
                                                       strict=True)) if a != b)
        lines = [json.dumps(entry, sort_keys=True) for entry in fights[number][first]]
        before = last_state(fights[number][:first])
        pytest.fail(
            f"{family}: fight {number} (from {labels[number]}) plans otherwise from stage "
            f"{first + 1} of {STAGES} (stage digests now {now}, pinned {then}); what it "
            f"did and planned now (REFEREE_PLAN_FIGHT={family}/{number} pytest -s prints "
            "every stage, here or on the old code):\n"
            + (f"before it: {json.dumps(before, sort_keys=True)}\n" if before else "")
            + "\n".join(lines))
    pytest.fail(f"{family}: every fight as pinned, but the whole digest differs: re-pin "
                "from the old code")
