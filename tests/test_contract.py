"""The port's contract, run for every ruleset the directories hold (never a hard-coded
list): the bundled ones, and the toy that lives only in the tests (see conftest.py).

Every case is one pytest parameter, found at import time by walking the folders:
- a ruleset *logic* is a package (`referee.rulesets.available()`, the toy's included);
- a *ruleset file* is each `rulesets/*.toml`, and each `tests/rulesets/*.toml` that says
  `format = "referee-ruleset"`; its `logic` (else its `id`) names its package, so a logic
  may have several files, none of them named after it (`demon-idol-dmg.toml`);
- a ruleset file's *demo* is the bundled demo for its id (`demo_for`), or, for a file of
  the tests, `tests/rulesets/<id>-demo.toml`; a file without one has no demo cases;
- a *scenario* is `tests/scenarios/<folder>/NAME.toml` with `NAME.expect.toml`, of the
  logic of the ruleset its header names (`tests/scenarios/state/` holds several logics');
- a *broken file* is `tests/broken/<logic>/NAME.toml` with `NAME.expect`;
- a logic's *rules of record* are `tests/specs/<logic>.md` (a copy of the spec, so a
  fresh clone tests); a logic without one has no spec case.
Ids read `logic/file` (`demon-idol/di-rule-02-three-sides-order`); the forms of every
ruleset are driven through the app in test_contract_forms.py.
"""

from __future__ import annotations

import copy
import json
import random
import re
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine.fight import Fight
from referee.engine.options import Declaring, acts_of
from referee.engine.record import replace
from referee.rulesets import available, module_of, rules_of, ruleset_class
from referee.session import fastload
from referee.session.demos import NoDemo, demo_for, demo_ruleset
from referee.session.fastload import loads
from referee.session.files import LoadError, builtin_rulesets, load_ruleset, load_save
from referee.session.writer import save_text
from tests.conftest import ROOT

TESTS = ROOT / "tests"
LOGICS = available()
STATE = TESTS / "scenarios" / "state"  # logs as the referee entered them (Fight.enter)


# -- what the folders hold -------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    """A file's TOML, or {} when it cannot be read (its own case then says why)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


@dataclass(frozen=True)
class RulesetFile:
    path: Path
    id: str
    logic: str

    @property
    def name(self) -> str:
        return f"{self.logic}/{self.path.stem}"

    def sort_key(self) -> str:
        return self.name


def find_ruleset_files() -> list[RulesetFile]:
    found = []
    for folder, marked_only in ((ROOT / "rulesets", False), (TESTS / "rulesets", True)):
        for path in sorted(folder.glob("*.toml")):
            data = read_toml(path)
            if marked_only and data.get("format") != "referee-ruleset":
                continue  # a save or a demo beside the test rulesets
            named, logic = data.get("id"), data.get("logic", data.get("id"))
            file_id = named if isinstance(named, str) else path.stem
            found.append(RulesetFile(path, file_id, logic if isinstance(logic, str)
                                     else file_id))
    return found


RULESET_FILES = find_ruleset_files()
BY_PATH = {f.path.resolve(): f for f in RULESET_FILES}


def demo_of(file: RulesetFile) -> Path | None:
    own = TESTS / "rulesets" / f"{file.id}-demo.toml"  # a ruleset of the tests (the toy)
    if own.is_file():
        return own
    try:
        return demo_for(file.id)
    except NoDemo:
        return None


@dataclass(frozen=True)
class Demo:
    file: RulesetFile
    path: Path

    @property
    def logic(self) -> str:
        return self.file.logic

    @property
    def name(self) -> str:
        return f"{self.logic}/{self.path.stem}"


def find_demos() -> list[Demo]:
    """One per ruleset file id that has a demo (a file of the tests that shares a bundled
    id, as phases-up.toml does, plays the same demo: it is not opened twice)."""
    found: dict[str, Demo] = {}
    for file in RULESET_FILES:
        demo = demo_of(file)
        if demo is not None and file.id not in found:
            found[file.id] = Demo(file, demo)
    return sorted(found.values(), key=lambda d: d.name)


DEMOS = find_demos()


@cache
def bundled() -> dict[str, Path]:
    """The bundled rulesets by id, looked up once for the whole collection (not once a
    scenario: the folders listed and each path resolved, 280 times in every worker)."""
    return builtin_rulesets()


def logic_of_save(path: Path) -> str | None:
    """The logic of the ruleset a save's header names: a bundled id, or a file by path."""
    ref = demo_ruleset(path)
    if ref is None:
        return None
    target = (path.parent / ref) if ref.endswith(".toml") else bundled().get(ref)
    if target is None:
        return None
    known = BY_PATH.get(target.resolve())
    if known is not None:
        return known.logic
    data = read_toml(target)
    logic = data.get("logic", data.get("id"))
    return logic if isinstance(logic, str) else None


@dataclass(frozen=True)
class Scenario:
    path: Path
    logic: str

    @property
    def name(self) -> str:
        folder = self.path.parent.name
        return f"{self.logic}/{self.path.stem}" if folder == self.logic \
            else f"{self.logic}/{folder}/{self.path.stem}"

    @property
    def expect(self) -> Path:
        return self.path.with_suffix("").with_suffix(".expect.toml")


def find_scenarios() -> list[Scenario]:
    found = []
    for folder in sorted(p for p in (TESTS / "scenarios").iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.toml")):
            if not path.name.endswith(".expect.toml"):
                found.append(Scenario(path, logic_of_save(path) or folder.name))
    return sorted(found, key=lambda s: s.name)


SCENARIOS = find_scenarios()


def find_broken() -> list[tuple[str, Path]]:
    return [(folder.name, path)
            for folder in sorted(p for p in (TESTS / "broken").iterdir() if p.is_dir())
            for path in sorted(folder.glob("*.toml"))]


BROKEN = find_broken()
SPEC_LOGICS = [logic for logic in LOGICS if (TESTS / "specs" / f"{logic}.md").is_file()]

# every save a ruleset reads: its demos and its scenarios, as (logic, path)
SAVES = [pytest.param(d.logic, d.path, id=d.name) for d in DEMOS] + [
    pytest.param(s.logic, s.path, id=s.name) for s in SCENARIOS]


def spec_ids(logic: str) -> list[str]:
    text = (TESTS / "specs" / f"{logic}.md").read_text(encoding="utf-8")
    return list(dict.fromkeys(re.findall(r"^([A-Z]+-\d+)\.", text, re.MULTILINE)))


def workplace(save: Path, folder: Path) -> Path:
    """Where a copy of `save` goes under `folder` so that the ruleset file it names by a
    relative path (`../../rulesets/toy.toml`) is copied beside it, inside `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    match = re.search(r'^ruleset = "(.+\.toml)"', save.read_text(), re.MULTILINE)
    if not match:
        return folder
    ref = Path(match.group(1))
    place = folder.joinpath(*(f"up{n}" for n in range(ref.parts.count(".."))))
    target = place / ref
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((save.parent / ref).read_text())
    place.mkdir(parents=True, exist_ok=True)
    return place


def copy_of(save: Path, folder: Path) -> Path:
    """A copy of `save` that still finds its ruleset file."""
    target = workplace(save, folder) / save.name
    shutil.copyfile(save, target)
    return target


def test_the_directory_holds_the_shipped_rulesets_and_the_toy() -> None:
    assert {"demon-idol", "count-up", "toy"} <= set(LOGICS)
    assert {f.logic for f in RULESET_FILES} >= {"demon-idol", "count-up", "toy"}
    assert {d.logic for d in DEMOS} >= {"demon-idol", "count-up", "toy"}


def test_a_seventh_ruleset_added_as_files_alone_has_a_case_of_every_kind() -> None:
    """`tests/rulesets/seventh/` (one file: a roster key, a planner, a tracker column and
    one declaration; no house rules, no acts, no state), its ruleset file, demo, scenario
    and spec, and nothing else edited: every case of the suite runs for it."""
    from tests.test_contract_forms import ACTS

    assert "seventh" in LOGICS and "seventh" in SPEC_LOGICS
    assert [f.id for f in RULESET_FILES if f.logic == "seventh"] == ["seventh"]
    assert [d.name for d in DEMOS if d.logic == "seventh"] == ["seventh/seventh-demo"]
    assert [s.name for s in SCENARIOS if s.logic == "seventh"] == \
        ["seventh/se-rule-01-highest-nerve-first"]
    assert {a.kind for a in ACTS if a.demo.logic == "seventh"} == {"declare", "join"}
    ruleset = load_ruleset(str(TESTS / "rulesets" / "seventh.toml"))
    assert ruleset.switches() == [] and acts_of(ruleset, load_save(
        TESTS / "rulesets" / "seventh-demo.toml").fight) == []


def test_every_scenario_folder_holds_scenarios_and_every_expectation_one() -> None:
    folders = [p for p in (TESTS / "scenarios").iterdir() if p.is_dir()]
    assert folders and all(any(s.path.parent == f for s in SCENARIOS) for f in folders)
    scenarios = {s.expect for s in SCENARIOS}
    orphans = [p.name for f in folders for p in f.glob("*.expect.toml") if p not in scenarios]
    assert not orphans, "an expectation without its scenario"


# -- files -----------------------------------------------------------------------------


# the keys of a ruleset file the port reads for every ruleset (engine/port.py)
PORT_KEYS = frozenset({"format", "version", "id", "logic", "name", "source",
                       "players_see_own"})


@pytest.mark.parametrize("file", [pytest.param(f, id=f.name) for f in
                                  sorted(RULESET_FILES, key=RulesetFile.sort_key)])
def test_its_ruleset_file_loads_and_an_unknown_key_is_refused(file: RulesetFile,
                                                              tmp_path: Path) -> None:
    ruleset = load_ruleset(str(file.path))
    assert type(ruleset) is ruleset_class(file.logic)
    assert ruleset.id == file.logic and ruleset.file_id == file.id
    # one line per house rule in force; a ruleset with none may say none, but a file that
    # sets a rule (a key beyond the port's own) has its ruleset say what is in force
    switches = ruleset.switches()
    assert all(isinstance(line, str) and line.strip() for line in switches), switches
    if set(read_toml(file.path)) - PORT_KEYS:
        assert switches, "a file that sets house rules, and no switch says so"
    broken = tmp_path / "house.toml"
    broken.write_text("no_such_rule = 3\n" + file.path.read_text())
    with pytest.raises(LoadError) as found:
        load_ruleset(str(broken))
    assert found.value.field == "no_such_rule" and found.value.line is not None


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.name)
def test_a_roster_key_it_does_not_know_names_the_ruleset(demo: Demo, tmp_path: Path) -> None:
    text = demo.path.read_text()
    at = text.index("[[combatants]]") + len("[[combatants]]\n")
    broken = workplace(demo.path, tmp_path) / demo.path.name
    broken.write_text(text[:at] + "no_such_key = 1\n" + text[at:])
    with pytest.raises(LoadError) as found:
        load_save(broken)
    assert found.value.reason.startswith(f"not a {demo.logic} key")
    assert found.value.field.endswith("no_such_key") and found.value.line is not None


@cache
def loaded(path: Path) -> Any:
    """The save at `path` as load_save reads it, read once a worker for the three tests
    below that only read it (the round trip, apply, the checkpoint): none changes it."""
    return load_save(path)


@pytest.mark.parametrize(("logic", "path"), SAVES)
def test_stats_and_events_round_trip_through_the_writer_and_the_fast_reader(
        logic: str, path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full save of every scenario and demo loads back identical (its encounter, its
    log), beside the ruleset file it names; the fast reader reads it as tomllib does, its
    own paths taken (a written scenario is shorter than FAST_FROM, which would hand it
    straight to tomllib: tomllib's reading compared with itself)."""
    save = loaded(path)
    assert save.ruleset.id == logic
    text = save_text(save.encounter, save.fight.log)
    with monkeypatch.context() as patched:
        patched.setattr(fastload, "FAST_FROM", 0)
        assert loads(text, tomllib.loads) == tomllib.loads(text)
    again_path = workplace(path, tmp_path) / path.name
    again_path.write_text(text)
    again = load_save(again_path)
    assert again.encounter == save.encounter
    assert again.fight.log == save.fight.log


# -- the fold ----------------------------------------------------------------------------


def state_of(fight: Fight) -> Any:
    ruleset = fight.ruleset
    return (fight.round, fight.phase, fight.ended, ruleset.tracker.fight_facts(fight),
            {cid: ruleset.tracker.facts(fight, cid) for cid in fight.roster}, fight.rs,
            {r: sorted(keys) for r, keys in fight.resolved.items()})


@pytest.mark.parametrize(("logic", "path"), SAVES)
def test_apply_never_changes_its_input(logic: str, path: Path) -> None:
    save = loaded(path)
    fight = Fight(save.encounter, save.ruleset)
    fight.later = set(save.fight.later)
    for event in save.fight.log:
        before = copy.deepcopy(fight.rs)
        kept = fight.rs
        fight.push(event)
        assert kept == before, event


@pytest.mark.parametrize(("logic", "path"), SAVES)
def test_a_checkpoint_and_the_rest_of_the_log_equal_the_full_fold(logic: str,
                                                                  path: Path) -> None:
    """The fold of the first `cut` events and the rest pushed after it, at every cut, is
    the full fold's state (worked out once; the full fight, which the checkpoints and
    their pushes must leave alone, is looked at again once all cuts are made)."""
    fight = loaded(path).fight
    whole = state_of(fight)
    for cut in range(len(fight.log) + 1):
        part = fight.at(cut)
        for event in fight.log[cut:]:
            part.push(event)
        assert state_of(part) == whole, cut
    assert state_of(fight) == whole


# -- scenarios -----------------------------------------------------------------------------


def cli_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def label(action: dict[str, Any]) -> str:
    text = f"{action['actor']}:{action['action']}"
    return f"{text}#{action['routine']}" if "routine" in action else text


def held(beat: dict[str, Any]) -> list[str]:
    return sorted(f"{h['actor']}:{kind}" for h in beat.get("holding", [])
                  for kind in h["delayed"])


def attack_line(a: dict[str, Any]) -> str:
    head = f"r{a['round']} {a['attacker']}>{a['victim']}"
    if not a["hit"]:
        return f"{head} miss"
    return f"{head} hit {a['damage']}/{a['soaked']} {a['result']}"


class Case:
    """One scenario and what its checks need, each worked out once when first asked:
    - `plan`: `referee plan FILE --json` of the scenario as written;
    - `fight`, `added`: the save loaded as written, or, for a log as the referee entered
      it (the state folder, or `entered = true`), its events fed through `Fight.enter`,
      with the consequences the rules added ("type:who");
    - `fought`, `after`: `referee fight FILE --json` on a copy (with the expectation's
      `seed`), and the copy's fight once fought."""

    def __init__(self, scenario: Scenario, want: dict[str, Any], tmp_path: Path,
                 capsys: pytest.CaptureFixture[str]) -> None:
        self.path, self.logic, self.want = scenario.path, scenario.logic, want
        self.tmp_path, self.capsys = tmp_path, capsys
        self.entered = bool(want.get("entered")) or scenario.path.parent == STATE

    @cached_property
    def plan(self) -> dict[str, Any]:
        return cli_json(["plan", str(self.path)], self.capsys)

    @cached_property
    def beats(self) -> list[dict[str, Any]]:
        beats: list[dict[str, Any]] = self.plan["beats"]
        return beats

    @cached_property
    def folded(self) -> tuple[Fight, list[str]]:
        if not self.entered:
            return load_save(self.path).fight, []
        data = tomllib.loads(self.path.read_text())
        bare = workplace(self.path, self.tmp_path / "entered") / self.path.name
        bare.write_text(self.path.read_text().split("[[events]]")[0])
        fight = load_save(bare).fight
        added = []
        for index, raw in enumerate(data.get("events", [])):
            event = fight.ruleset.schema.reader.read(raw, ("events", index))
            for done in fight.enter(event):
                if replace(done, follows=False) != replace(event, follows=False):
                    who = getattr(done, "target", None) or getattr(done, "actor", None) or ""
                    added.append(f"{done.TYPE}:{who}")
        return fight, added

    @property
    def fight(self) -> Fight:
        return self.folded[0]

    @cached_property
    def fought_copy(self) -> tuple[dict[str, Any], Path]:
        fought = copy_of(self.path, self.tmp_path / "fought")
        seed = ["--seed", str(self.want["seed"])] if "seed" in self.want else []
        result = cli_json(["fight", str(fought), *seed], self.capsys)
        assert result["ruleset"] == self.logic
        # durably appended: the file holds every step, and fighting again adds nothing
        assert cli_json(["fight", str(fought)], self.capsys) == result
        return result, fought

    @property
    def fought(self) -> dict[str, Any]:
        return self.fought_copy[0]

    @cached_property
    def after(self) -> Fight:
        return load_save(self.fought_copy[1]).fight

    def steps(self, kind: str) -> list[Any]:
        return [e for e in self.after.events if kind == e.TYPE]

    def victims(self) -> list[str]:
        return [f"r{e.combat_round} {e.actor}>{e.victim} {e.how}"
                for e in self.steps("victim")]


# One check per key an expectation may hold, whatever the ruleset; each says what it is.


def check_beats(case: Case, want: list[list[str]]) -> None:
    """The plan's beats, as "actor:action" (and "#routine"), each beat in any order; and
    every beat says why and cites a rule."""
    assert [sorted(label(a) for a in beat["actions"]) for beat in case.beats] == \
        [sorted(b) for b in want]
    for beat in case.beats:
        assert beat["why"] and beat["rules"], beat


def check_cites(case: Case, want: list[str]) -> None:
    """Rules the scenario covers (see the spec case); a scenario with `beats` has them
    cited by its plan."""
    if "beats" in case.want:
        assert set(want) <= {rule for beat in case.beats for rule in beat["rules"]}


def check_counts(case: Case, want: list[int]) -> None:
    assert [beat.get("count") for beat in case.beats] == want


def check_phases(case: Case, want: list[int]) -> None:
    assert [beat.get("phase") for beat in case.beats] == want


def check_holding(case: Case, want: list[list[str]]) -> None:
    """Who holds which delayed action at each beat, as "actor:kind"."""
    assert [held(beat) for beat in case.beats] == [sorted(h) for h in want]


def check_added(case: Case, want: list[str]) -> None:
    """What the rules added to the events entered ("type:who"); run for every entered
    scenario, so one that says nothing says nothing is added."""
    assert case.folded[1] == want


def check_state(case: Case, want: dict[str, Any]) -> None:
    """`round`, `phase`, `ended`; `base` (a fight fact); `squads` (the squads there are)
    and `no_squad` (units in none); `[state.combatants.ID]`: the unit's facts."""
    fight, rs = case.fight, case.fight.ruleset
    unknown = set(want) - {"round", "phase", "ended", "base", "squads", "no_squad",
                           "combatants"}
    assert not unknown, f"state keys no check reads: {sorted(unknown)}"
    for key in ("round", "phase", "ended"):
        if key in want:
            assert getattr(fight, key) == want[key], key
    if "base" in want:
        assert rs.tracker.fight_facts(fight)["base"] == want["base"]
    if "squads" in want:
        assert sorted(rs.tracker.fight_facts(fight)["squads"]) == sorted(want["squads"])
    for cid in want.get("no_squad", []):
        assert rs.tracker.facts(fight, cid)["squad"] is None, cid
        squads = rs.tracker.fight_facts(fight)["squads"].values()
        assert all(cid not in s["members"] for s in squads)
    for cid, fields in want.get("combatants", {}).items():
        facts = rs.tracker.facts(fight, cid)
        for key, value in fields.items():
            assert facts[key] == value, f"{cid}.{key}: {facts[key]!r}"


def check_fight_fact(key: str) -> Callable[[Case, Any], None]:
    def check(case: Case, want: Any) -> None:
        assert case.fight.ruleset.tracker.fight_facts(case.fight)[key] == want, key

    check.__doc__ = f"the fight fact {key!r}"
    return check


def check_ties_due(case: Case, want: list[str]) -> None:
    """The units asked to roll a tie now."""
    assert getattr(case.fight.ruleset.planner, "ties_due")(case.fight) == want  # noqa: B009


def check_acts(case: Case, want: list[str], acts: bool = True) -> None:
    """"id@beat": the unit acts in that beat (`idle`: it does not)."""
    for who in want:
        actor, beat = who.split("@")
        acts_in = getattr(case.fight.ruleset.planner, "acts_in")  # noqa: B009 - a ruleset's own
        assert bool(acts_in(case.fight, actor, int(beat))) is acts, who


def check_idle(case: Case, want: list[str]) -> None:
    check_acts(case, want, acts=False)


def check_lost(case: Case, want: list[str]) -> None:
    """Actions the plan marks lost, by label."""
    lost = [a.label() for b in case.fight.plan().beats for a in b.actions if a.flag("lost")]
    assert set(want) <= set(lost), lost


def check_combats(case: Case, want: list[dict[str, Any]]) -> None:
    """`referee fight`'s combats: groups, first, rounds, ended, survivors, the rules each
    cites and its attacks as "rN attacker>victim hit|miss dmg/soaked result"; a skipped
    combat only says so."""
    got = case.fought["combats"]
    assert len(got) == len(want)
    for number, (combat, expected) in enumerate(zip(got, want, strict=True)):
        assert combat["groups"] == expected["groups"], number
        if expected.get("skipped"):
            assert combat.get("skipped") is True, number
            continue
        for key in ("first", "rounds", "ended", "survivors"):
            if key in expected:
                assert combat[key] == expected[key], (number, key)
        if "attacks" in expected:
            assert [attack_line(a) for a in combat["attacks"]] == expected["attacks"], number
        cited = combat["rules"] + [r for a in combat.get("attacks", []) for r in a["rules"]]
        assert set(expected.get("rules", [])) <= set(cited), number


def check_victims(case: Case, want: list[str]) -> None:
    """Each victim drawn in the fight, as "rN actor>victim how"."""
    assert case.victims() == want


def check_first_victims(case: Case, want: list[str]) -> None:
    assert case.victims()[: len(want)] == want


def check_forfeits(case: Case, want: list[str]) -> None:
    assert [f"r{e.combat_round} {e.actor}" for e in case.steps("forfeit")] == want


def check_kinds(case: Case, want: list[str]) -> None:
    """The kind of every attack fought, in order."""
    assert [a["kind"] for c in case.fought["combats"] for a in c.get("attacks", [])] == want


def check_promoted(case: Case, want: list[str]) -> None:
    assert sorted(case.after.ruleset.tracker.fight_facts(case.after)["promoted"]) == want


def check_odds(case: Case, want: dict[str, Any]) -> None:
    """`referee odds` keeps every run's seed (the same seed, the same answer, the save
    untouched), and `fight --seed X -o RUN.toml` replays a run to its outcome."""
    path, capsys = case.path, case.capsys
    before = path.read_text()
    args = ["odds", str(path), "--runs", str(want["runs"]), "--seed", str(want["seed"])]
    report = cli_json(args, capsys)
    assert path.read_text() == before  # odds never changes the save
    assert cli_json(args, capsys) == report  # the same S, the same answer
    assert len(report["seeds"]) == want["runs"]
    for k in (0, len(report["seeds"]) // 2, len(report["seeds"]) - 1):
        run = case.tmp_path / f"run{k}.toml"
        result = cli_json(["fight", str(path), "--seed", str(report["seeds"][k]), "-o",
                           str(run)], capsys)
        left = {side: 0 for side in report["sides"]}
        fight = load_save(run).fight
        for group in report["survivors"]:
            for cid, c in fight.roster.items():
                if c.stat("group") == group and not fight.status[cid].dead:
                    left[c.side] += 1
        alive = [side for side, n in left.items() if n]
        outcome = alive[0] if len(alive) == 1 else "draw"
        assert report["outcomes"][k] == outcome, (k, result)


def no_check(case: Case, want: Any) -> None:
    """Says how the others are checked: `entered` (the log is entered, not loaded) and
    `seed` (the seed `referee fight` is given)."""


CHECKS: dict[str, Callable[[Case, Any], None]] = {
    "beats": check_beats, "cites": check_cites, "counts": check_counts,
    "phases": check_phases, "holding": check_holding,
    "entered": no_check, "added": check_added, "state": check_state,
    "morale_due": check_fight_fact("morale_due"), "victors": check_fight_fact("victors"),
    "ties_due": check_ties_due, "acts": check_acts, "idle": check_idle, "lost": check_lost,
    "seed": no_check, "combats": check_combats, "victims": check_victims,
    "first_victims": check_first_victims, "forfeits": check_forfeits, "kinds": check_kinds,
    "promoted": check_promoted, "odds": check_odds,
}
# Keys whose meaning is a ruleset's own (the same word holds another shape in another
# ruleset), checked by that ruleset's scenario tests: `why` (test_agility_order_scenarios,
# test_demon_idol_scenarios, test_phases_scenarios), `skipped` (the agility-order,
# count-up and demon-idol ones), `rules` and `notes` (demon-idol), `why_not` and `absent`
# (phases).
OWN_KEYS = frozenset({"why", "why_not", "skipped", "rules", "notes", "absent"})


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_every_scenario_gives_what_it_expects(scenario: Scenario, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    want = tomllib.loads(scenario.expect.read_text())
    unknown = set(want) - set(CHECKS) - OWN_KEYS
    assert not unknown, f"expectation keys no check reads: {sorted(unknown)}"
    case = Case(scenario, want, tmp_path, capsys)
    if case.entered and "added" not in want:
        check_added(case, [])
    for key, value in want.items():
        if key in CHECKS:
            CHECKS[key](case, value)


@pytest.mark.parametrize(("folder", "path"),
                         [pytest.param(f, p, id=f"{f}/{p.stem}") for f, p in BROKEN])
def test_every_broken_file_gives_its_message(folder: str, path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    typed = path.relative_to(ROOT).as_posix()
    want = path.with_suffix(".expect").read_text().strip().replace("{file}", typed)
    assert main(["check", typed]) == 1
    assert capsys.readouterr().err.strip() == want


@pytest.mark.parametrize("logic", SPEC_LOGICS)
def test_every_rule_has_an_index_entry_and_a_scenario(logic: str) -> None:
    ids = spec_ids(logic)
    assert ids, f"tests/specs/{logic}.md lists no rule ids"
    assert set(rules_of(logic)) == set(ids)
    assert all(rules_of(logic).values())
    prefix = ids[0].split("-")[0].lower()
    covered: set[str] = set()
    for scenario in SCENARIOS:
        if scenario.logic != logic:
            continue
        name = re.match(rf"{prefix}-rule-0*(\d+)-", scenario.path.name)
        if name:
            covered.add(f"{prefix.upper()}-{int(name.group(1))}")
        if scenario.expect.is_file():
            covered.update(read_toml(scenario.expect).get("cites", []))
    assert set(ids) <= covered, sorted(set(ids) - covered)


# -- forms and commands --------------------------------------------------------------------


def defaults(spec: Any) -> dict[str, Any]:
    return {f.name: f.default for f in spec.fields}


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.name)
def test_every_form_filled_with_its_defaults_gives_events_its_checks_accept(
        demo: Demo) -> None:
    save = load_save(demo.path)
    fight, ruleset = save.fight, save.ruleset
    for actor in fight.roster:
        declaring = ruleset.role(Declaring)
        for kind in declaring.actions() if declaring else []:
            if declaring.can_declare(fight, actor, kind.key):
                continue  # refused before any form opens, with the reason
            prefill = declaring.prefill(fight, actor, kind.key)
            spec = declaring.declare_form(fight, actor, kind.key, prefill)
            values = {k: v for k, v in defaults(spec).items() if v not in (None, False, "")}
            fight.copy().push(declaring.declaration(fight, actor, kind.key, values))
    actor = next(iter(fight.roster))
    for act in acts_of(ruleset, fight):
        if act.allowed(fight, actor) or act.run is None:
            continue  # refused with the reason, or a report (it writes nothing)
        spec = act.form(fight, actor)
        values = defaults(spec) if spec is not None else {}
        if spec is not None and any(f.required and f.default is None for f in spec.fields):
            continue  # a form that asks what only the referee knows (a roll at the table)
        trial = fight.copy()
        for event in act.run(trial, actor, values, random.Random(1)):
            trial.push(event)


@pytest.mark.parametrize("logic", LOGICS)
def test_its_package_imports_nothing_but_the_engine(logic: str) -> None:
    from tests.test_import_hygiene import impure, modules_after

    module = module_of(logic)
    assert impure(modules_after(f"import {module}; {module}.RULESET")) == set()


# -- the app -----------------------------------------------------------------------------------


@pytest.mark.parametrize("demo", DEMOS, ids=lambda d: d.name)
async def test_its_demo_opens_in_the_app(demo: Demo, tmp_path: Path) -> None:
    from referee.app import RefereeApp
    from referee.app.combat import CombatScreen

    path = copy_of(demo.path, tmp_path)
    save = load_save(path)
    assert save.ruleset.file_id == demo.file.id
    app = RefereeApp(path, tmp_path, random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = pilot.app.screen
        assert isinstance(screen, CombatScreen)
        tracker = screen.query_one("#tracker")
        rows = [key for key in tracker.keys if not key.startswith("group:")]  # not headings
        assert sorted(rows) == sorted(save.fight.roster)  # in the plan's order
        for column in save.ruleset.tracker.columns():
            assert column.label in tracker.labels
        for act in acts_of(save.ruleset, save.fight):
            assert any(b.action == f"command('{act.id}')" for b in type(screen).BINDINGS)
