"""The port as the layers above see it: nothing above the engine names a ruleset,
resolved actions are kept by what they are, and the program's dice roll on after a resume."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from referee.engine import events as ev
from referee.rulesets import available
from referee.rulesets.count_up import events as cu
from referee.rulesets.demon_idol import events as di
from referee.session.files import builtin_rulesets, load_save
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

# every ruleset the directory holds, by its logic, and every bundled ruleset file's id
IDS = tuple(sorted(set(available()) | set(builtin_rulesets())))
ABOVE = [ROOT / "referee" / "app", ROOT / "referee" / "session", ROOT / "referee" / "cli"]
NAMING = re.compile(r"ruleset(\.id)? *(==|!=|in) *[\"'(\[]|[\"'](" + "|".join(IDS) + r")[\"']")


def sources() -> list[Path]:
    found: list[Path] = []
    for place in ABOVE:
        found += [place] if place.is_file() else sorted(place.rglob("*.py"))
    return found


def test_nothing_above_the_engine_names_a_ruleset() -> None:
    hits = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in sources()
            for n, line in enumerate(p.read_text().splitlines(), 1)
            if NAMING.search(line) and not line.strip().startswith("#")]
    assert hits == []


def copy(source: Path, folder: Path) -> Path:
    target = folder / source.name
    shutil.copyfile(source, target)
    return target


def test_the_program_dice_roll_on_after_a_resume(tmp_path: Path) -> None:
    path = copy(ROOT / "saves" / "demo.toml", tmp_path)
    rolls = []
    for _ in range(2):
        with Session.open(path) as session:
            table = Table(session)
            rolls.append([table.rolled("1d20", "a test")[0] for _ in range(4)])
    assert rolls[0] != rolls[1]
    again = load_save(path).fight.log
    assert [e.total for e in again if isinstance(e, ev.Roll)] == rolls[0] + rolls[1]


def test_two_copies_of_the_demo_roll_their_own_initiative(tmp_path: Path) -> None:
    from referee.app.app import fresh_demo

    seeds = {load_save(fresh_demo(tmp_path, ROOT / "saves" / "demo.toml")).encounter.seed
             for _ in range(4)}
    assert len(seeds) > 1


def test_a_fired_preparation_is_not_done_before_it_is_resolved(tmp_path: Path) -> None:
    path = copy(ROOT / "saves" / "demo.toml", tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        table.declare("mira", "D", weapon="short bow", target="gob1", prepared=True,
                      trigger="a goblin charges")
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.enter_initiative({"party": 5, "goblins": 2})
        table.resolve_next()  # brann's G
        done = set(table.resolved())
        table.command("fire", "mira", {"before": "gob1"})
        plan = table.plan()
        fired = next(n for n, b in enumerate(plan.beats, 1)
                     if any(a.actor == "mira" for a in b.actions))
        assert not set(plan.keys(fired)) <= table.resolved()  # fired: to do, not done
        assert done <= table.resolved()
        assert (table.current_beat() or 0) <= fired


def test_a_latecomer_joining_keeps_the_beats_already_resolved(tmp_path: Path) -> None:
    path = copy(ROOT / "saves" / "count-up.toml", tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        for cid in table.fight.roster:
            table.declare(cid, "attack", **table.prefill(cid, "attack"))
        table.roll_initiative()
        table.resolve_next()
        first = table.plan().beats[0]
        done = set(table.resolved())
        ghoul = table.fight.roster[next(iter(table.fight.roster))]
        from referee.engine.record import replace

        table.join(replace(ghoul, id="ghoul", name="Ghoul"),
                   {"base": 20, "at_count": first.extra["count"]})
        table.declare("ghoul", "attack", **table.prefill("ghoul", "attack"))
        plan = table.plan()
        assert len(plan.beats) > 1 and done <= table.resolved()
        still = next(n for n, b in enumerate(plan.beats, 1) if set(plan.keys(n)) == done)
        assert (table.current_beat() or 0) > still


def test_a_save_that_resolved_by_beat_number_loads_and_is_rewritten_by_action(
        tmp_path: Path) -> None:
    source = ROOT / "tests" / "scenarios" / "demon-idol" / "di-03-melee-vs-caster.toml"
    path = tmp_path / "old.toml"
    path.write_text(source.read_text() + '\n[[events]]\ntype = "resolve"\nround = 1\nbeat = 1\n')
    fight = load_save(path).fight
    assert fight.resolved[1] == {"zed:D"}
    with Session.open(path) as session:
        session.save_as(tmp_path / "new.toml")
    text = (tmp_path / "new.toml").read_text()
    assert '"actions" = "zed:D"' in text and '"beat"' not in text.split('"resolve"')[-1]
    assert load_save(tmp_path / "new.toml").fight.resolved[1] == {"zed:D"}


def test_every_event_class_a_ruleset_adds_has_a_type() -> None:
    for cls in (*di.EVENTS, *cu.EVENTS):
        assert cls.TYPE


def test_an_actor_who_can_no_longer_act_keeps_no_beat(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(ROOT / "saves" / "demo.toml", tmp_path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        table.declare("brann", "G", weapon="long sword", target="gob1")
        table.declare("gob1", "G", target="brann")
        table.declare("zed", "A")
        table.enter_initiative({"party": 2, "goblins": 5})
        table.resolve_next()  # gob1 strikes
        table.damage("brann", 16, source="gob1")  # brann 14 hp: -2, dying
        plan = table.plan()
        brann = next(a for b in plan.beats for a in b.actions if a.actor == "brann")
        assert "dying" in brann.flag("skipped")
        assert {"actor": "brann", "action": "G", "rule": "DI-19"}.items() <= plan.skipped[0].items()
        assert table.acting() == ["zed"]
        table.resolve_next()
        assert table.current_beat() is None  # brann's beat is not waited for
    from referee.cli import main

    assert main(["plan", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["skipped"][0]["rule"] == "DI-19"
    assert main(["plan", str(path)]) == 0
    assert "skipped" in capsys.readouterr().out


@pytest.mark.parametrize(("demo", "declares"), [
    ("demo.toml", True), ("count-up.toml", True), ("agility-order.toml", False),
    ("phases.toml", False), ("sanctum.toml", False)])
def test_the_status_line_names_a_declaration_phase_only_where_there_is_one(
        demo: str, declares: bool) -> None:
    from referee.session.view import status_text

    fight = load_save(ROOT / "saves" / demo).fight
    assert ("declarations" in status_text(fight, "t")) is declares


def test_a_beats_keys_are_worked_out_once_and_again_when_it_changes():
    """Where a plan stands is asked many times a key press: a beat keeps its actions'
    keys, works them out again when it gains an action or a new list, and a skipped
    action (same key) is not waited for."""
    from referee.engine.plan import Beat, Plan, PlannedAction, action_key

    beat = Beat([PlannedAction("a", "move"), PlannedAction("b", "move")], extra={"ready": 1})
    plan = Plan("toy", 1, [beat, Beat([PlannedAction("c", "action")])])
    keys = beat.action_keys()
    assert keys == tuple(action_key(beat, x) for x in beat.actions) == ("a:move@ready",
                                                                          "b:move@ready")
    assert beat.action_keys() is keys
    assert plan.current(set()) == 1 and plan.current(set(keys)) == 2
    beat.actions[1] = beat.actions[1].with_extra(skipped="croaked")
    assert beat.action_keys() is keys and plan.current({"a:move@ready"}) == 2
    beat.actions.append(PlannedAction("d", "move"))
    assert beat.action_keys()[-1] == "d:move@ready" and plan.current(set(keys)) == 1
    beat.actions = [PlannedAction("e", "move")]
    assert plan.keys(1) == ["e:move@ready"]
    assert plan.current({"e:move@ready", "c:action"}) is None


# -- the port in small roles ----------------------------------------------------------------

MOST_MEMBERS = 12


def public(cls: type) -> set[str]:
    """The members a class declares itself (its methods, properties and class data)."""
    return {name for name in vars(cls) if not name.startswith("_")}


def test_the_ruleset_is_its_id_its_house_rules_and_its_roles() -> None:
    from referee.engine.port import Ruleset

    bare = Ruleset({})
    members = public(Ruleset) | {n for n in vars(bare) if not n.startswith("_")}
    assert members == {"id", "ROLES", "name", "file_id", "read", "switches", "role",
                       "schema", "fold", "planner", "tracker", "damage"}
    assert len(members) <= MOST_MEMBERS


def test_every_role_is_small() -> None:
    from referee.engine import options, roles

    kinds = [roles.RosterSchema, roles.Fold, roles.Planner, roles.Tracker, roles.Damage,
             options.Declaring, options.Rolling, options.Grouping, options.Runs,
             options.Acting, options.Healing, options.Joining, options.Entries,
             options.Carrying]
    sizes = {kind.__name__: len(public(kind)) for kind in kinds}
    assert all(size <= MOST_MEMBERS for size in sizes.values()), sizes


def test_a_ruleset_without_a_role_has_none() -> None:
    from referee.engine import options
    from referee.engine.port import Ruleset

    bare = Ruleset({})
    for kind in (options.Declaring, options.Rolling, options.Grouping, options.Runs,
                 options.Acting, options.Healing, options.Joining, options.Entries,
                 options.Carrying):
        assert bare.role(kind) is None, kind.__name__
    assert options.join_fields(bare, None) == ()  # type: ignore[arg-type]


# Members of a role every ruleset has that one ruleset alone overrides: each has a default
# that works for the others (a core behaviour, not a do-nothing), so it stays in the role.
ONE_RULESET_OVERRIDES = {
    "schemas": "the roster's schemas built from its fields (phases: squads' own table)",
    "reader": "the event reader built from its events (sanctum: fields it reads itself)",
    "damage_default": "the acting weapon's damage (demon-idol: the declared action's)",
    "new_round": "the fold as it was (phases: the round's phases worked out)",
    "row_basis": "what a combatant's row reads: the ruleset's whole state (phases: the "
                 "unit's own part of the round)",
}


def test_a_role_every_ruleset_has_grows_no_hook_for_one_ruleset() -> None:
    """A new hook one ruleset alone needs belongs in an optional role (options.py), as
    the heal check (Healing) and a join's questions (Joining) do."""
    from referee.engine import roles
    from referee.session.files import load_ruleset
    from tests.test_contract import RULESET_FILES

    files: dict[str, Path] = {}
    for file in RULESET_FILES:  # one file of each ruleset the directory holds
        files.setdefault(file.logic, file.path)
    assert set(files) == set(available())
    rulesets = [load_ruleset(str(files[logic])) for logic in available()]
    lone = {}
    for kind, name in ((roles.RosterSchema, "schema"), (roles.Fold, "fold"),
                       (roles.Planner, "planner"), (roles.Tracker, "tracker"),
                       (roles.Damage, "damage")):
        for member in public(kind):
            owners = [rs.id for rs in rulesets
                      if any(member in vars(cls) for cls in type(getattr(rs, name)).__mro__
                             if cls not in kind.__mro__)]
            if len(owners) == 1:
                lone[member] = owners[0]
    assert set(lone) == set(ONE_RULESET_OVERRIDES), lone


def test_a_role_named_later_is_made_the_first_time_it_is_asked_for() -> None:
    """A role its ruleset names by where its class is (`Later`) is made, its module
    imported, when it is first asked for, by kind, by its own class or as `rs.tracker`;
    once made it is the same role however it is asked for, and so is a role every
    ruleset has when it is asked again (kept as a plain attribute)."""
    from referee.engine.port import Later, Role, Tracker
    from referee.rulesets.demon_idol.fold import DemonIdolFold
    from referee.rulesets.demon_idol.tracker import DemonIdolTracker
    from referee.session.files import load_ruleset

    rs = load_ruleset("demon-idol")
    assert "tracker" not in vars(rs)
    assert [type(r) for r in vars(rs)["_roles"]].count(Later) == len(type(rs).ROLES)
    tracker = rs.tracker
    assert type(tracker) is DemonIdolTracker and vars(rs)["tracker"] is tracker
    assert rs.role(Tracker) is tracker and rs.role(DemonIdolTracker) is tracker
    assert rs.role(DemonIdolFold) is rs.fold and rs.role(Role) is rs.schema
    made = [r for r in vars(rs)["_roles"] if not isinstance(r, Later)]
    assert [type(r).__name__ for r in made] == ["DemonIdolSchema", "DemonIdolFold",
                                                "DemonIdolTracker"]


@pytest.mark.parametrize("logic", sorted(set(available()) & set(builtin_rulesets())))
def test_every_role_named_later_is_its_kind_and_its_class(logic: str) -> None:
    """Each role a ruleset names by where its class is: asked for by its kind, it is that
    class, filling that kind of role alone; and the roles every ruleset has are the ones
    it names (a default for one it does not)."""
    from referee.engine.port import KINDS, Damage, Fold, Later, Planner, RosterSchema, Tracker
    from referee.session.files import load_ruleset

    rs = load_ruleset(logic)
    for later in (r for r in type(rs).ROLES if isinstance(r, Later)):
        role = rs.role(later.kind)
        assert type(role).__name__ == later.where.partition(":")[2], later
        assert [k for k in KINDS if isinstance(role, k)] == [later.kind], later
    for name, kind in (("schema", RosterSchema), ("fold", Fold), ("planner", Planner),
                       ("tracker", Tracker), ("damage", Damage)):
        role, named = getattr(rs, name), rs.role(kind)
        assert role is named if named is not None else type(role) is kind, name
    assert not any(isinstance(r, Later) for r in vars(rs)["_roles"])


def test_a_role_named_later_must_be_of_its_kind() -> None:
    from referee.engine.port import Later, Planner, Tracker

    with pytest.raises(TypeError, match="fills"):
        Later(Tracker, "referee.rulesets.demon_idol.planner:DemonIdolPlanner").role_class(None)
    assert Later(Planner, ".planner:DemonIdolPlanner").role_class(
        "referee.rulesets.demon_idol").__name__ == "DemonIdolPlanner"
    with pytest.raises(TypeError, match="module:Class"):
        Later(Tracker, ".tracker")
