"""A whole fight of every ruleset played from the command line alone makes the save the same
fight makes through the app's keys, event by event (issue 32).

One referee (`choose`) decides each step from the save as it stands: who declares what,
initiative, each hit or miss of the beat under way, the next beat, the ruleset's own acts,
the next round, and the end after a few rounds. The same decisions are played twice, on
two copies of a ruleset's demo: by pressing the act's key in the app (the tracker's cursor
on the actor, the form answered with the values chosen, a yes to any question asked
first), and by `referee ACT SAVE --actor ID --FIELD VALUE`. The two logs must be equal,
event for event, and so must every refusal.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.app.app import RefereeApp
from referee.app.forms import FormScreen
from referee.app.widgets import Tracker
from referee.cli import main
from referee.rulesets import available
from referee.session.files import load_save
from referee.session.store import Session
from referee.session.table import Table

from .test_app_flows import FakeClock

ROOT = Path(__file__).resolve().parent.parent
LARGE = (160, 50)
ROUNDS = 2  # rounds played before the end
STEPS = 50  # at most, before the fight is ended
SKIP = {"undo", "redo", "end", "note", "heal", "condition", "join", "dice", "round",
        "initiative", "next", "hit", "miss"}  # the core's, chosen on their own below


def demos() -> list[Path]:
    """Every ruleset's demo the tests hold (the bundled saves, the tests' rulesets)."""
    found = sorted((ROOT / "saves").glob("*.toml"))
    found += sorted((ROOT / "tests" / "rulesets").glob("*-demo.toml"))
    return found


Step = tuple[str, str | None, dict[str, str]]  # (act, actor, values typed)


def table_of(path: Path) -> Table:
    return Table(Session(load_save(path)))


def choose(path: Path, tried: set[tuple[int, str, str | None]]) -> Step | None:
    """The referee's next step, from the save as it stands (None: the fight is done)."""
    table = table_of(path)
    fight = table.fight
    if fight.ended:
        return None
    acts = {act.id: act for act in table.acts()}

    def can(act_id: str, actor: str | None = None) -> bool:
        act = acts.get(act_id)
        return act is not None and not act.allowed(fight, actor) and \
            (len(fight.log), act_id, actor) not in tried

    for actor in table.undeclared():
        if not fight.alive(actor):
            continue
        declaring = [a for a in table.declaration_acts() if can(a.id, actor)]
        if declaring:  # the last of the catalogue: strike blows, attack …
            return declaring[-1].id, actor, {}
    if can("initiative"):
        return "initiative", None, {}
    left = table.to_record()
    if left:
        actor = left[0].actor
        if len(fight.log) % 3 == 0 and can("miss", actor):
            return "miss", actor, {}
        if can("hit", actor):
            amount = table.damage_default(actor, table.aim(actor))
            return "hit", actor, {} if amount else {"amount": "2"}
    # the ruleset's own, by who acts now (the cursor is always on someone): once a round
    cursor = table.working() or next((cid for cid in fight.roster if fight.alive(cid)), None)
    for act in table.ruleset_acts():
        actor = cursor
        once = (table.round, act.id, None)
        if act.run is not None and act.id not in SKIP and can(act.id, actor) \
                and act.form(fight, actor) is None and once not in tried:
            tried.add(once)
            return act.id, actor, {}
    if can("next"):
        return "next", None, {}
    if table.round_done() or table.current_beat() is None:
        if table.round >= ROUNDS:
            return "end", None, {"note": "they fled"}
        if can("round"):
            return "round", None, {}
    return "end", None, {}


def by_cli(path: Path, step: Step) -> bool:
    act, actor, values = step
    argv = [act, str(path)] + (["--actor", actor] if actor else [])
    for name, value in values.items():
        argv += [f"--{name.replace('_', '-')}", value]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv) == 0


async def by_keys(pilot: Any, step: Step) -> bool:
    """The step through the app's keys: True if it was done (no form left open)."""
    app = pilot.app
    act_id, actor, values = step
    act = app.table.act(act_id)
    if actor is not None:
        app.screen.query_one(Tracker).select(actor)
    before = len(app.table.fight.log)
    await pilot.press(act.key)
    await pilot.pause()
    for _ in range(3):  # a question first, then the act's own form
        if not isinstance(app.screen, FormScreen):
            break
        screen = app.screen
        for name, value in values.items():
            found = screen.query(f"#f-{name}")
            if found:
                found.first().value = value
        if screen.query("#f-sure"):
            screen.query_one("#f-sure").value = True
        await pilot.press("enter")
        await pilot.pause()
        if app.screen is screen:  # refused: the form stays open
            await pilot.press("escape")
            await pilot.pause()
            return False
    return len(app.table.fight.log) > before


def events(path: Path) -> list[dict[str, Any]]:
    return [event.to_dict() for event in load_save(path).fight.log]


@pytest.mark.parametrize("demo", demos(), ids=lambda p: p.stem)
async def test_a_fight_from_the_command_line_is_the_fight_from_the_keys(tmp_path, demo):
    by_hand, scripted = tmp_path / "keys" / demo.name, tmp_path / "cli" / demo.name
    for copy in (by_hand, scripted):
        copy.parent.mkdir()
        shutil.copyfile(demo, copy)
        for beside in demo.parent.glob("*.toml"):  # a test ruleset's file, beside its demo
            if beside.stem + "-demo" == demo.stem:
                shutil.copyfile(beside, copy.parent / beside.name)
    played: list[tuple[Step, bool]] = []
    tried: set[tuple[int, str, str | None]] = set()
    app = RefereeApp(by_hand, by_hand.parent, None, clock=FakeClock())
    async with app.run_test(size=LARGE) as pilot:
        for number in range(STEPS + 1):
            step = choose(by_hand, tried) if number < STEPS else ("end", None, {})
            if step is None:
                break
            tried.add((len(app.table.fight.log), step[0], step[1]))
            played.append((step, await by_keys(pilot, step)))
    assert played and load_save(by_hand).fight.ended, [(s[0], s[1], d) for s, d in played]
    for step, done in played:
        assert by_cli(scripted, step) == done, step
    assert events(scripted) == events(by_hand)


def test_every_ruleset_is_played():
    assert set(available()) <= {load_save(path).fight.ruleset.id for path in demos()}


@pytest.mark.parametrize(("argv", "words"), [
    (["hit", "--by", "brann", "--amount", "3"], "Hit/damage: initiative first"),
    (["undo"], "Undo: nothing to undo"),
    (["next"], "Next beat: initiative first"),
    (["heal", "--target", "nobody", "--amount", "2"], "argument --target: one of"),
])
def test_a_refused_table_act_is_one_line_and_leaves_the_save_alone(tmp_path, capsys, argv,
                                                                   words):
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    text = path.read_bytes()
    assert main([argv[0], str(path), *argv[1:]]) != 0
    err = capsys.readouterr().err
    assert words in err.strip().splitlines()[-1]  # one line (an option's: after its usage)
    assert path.read_bytes() == text


def test_a_table_act_prints_its_log_lines_or_its_events(tmp_path, capsys):
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1"]) == 0
    assert main(["dice", str(path), "--party", "5", "--goblins", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("   2. initiative: The party 5")
    assert main(["hit", str(path), "--amount", "4", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert [(e["type"], e["target"], e["amount"]) for e in made][0] == ("damage", "gob1", 4)
    assert main(["condition", str(path), "--target", "gob2", "--name", "prone"]) == 0
    assert capsys.readouterr().out == "   4. Goblin 2 is prone\n"


def test_initiative_takes_real_dice_as_options_or_rolls_them(tmp_path, capsys):
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    assert main(["declare-G", str(path), "--actor", "brann", "--target", "gob1"]) == 0
    assert main(["initiative", str(path), "--party", "4", "--goblins", "3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "   2. initiative: The party 4, Goblins 3"
    assert main(["undo", str(path)]) == 0
    assert main(["initiative", str(path)]) == 0  # no dice given: the program's
    assert "(rolled 1d6" in capsys.readouterr().out.splitlines()[-1]
    assert main(["initiative", str(path)]) == 1  # in already: refused by why
    assert "initiative is in for round 1" in capsys.readouterr().err


def test_a_latecomer_joins_from_the_command_line_once(tmp_path, capsys):
    path = tmp_path / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    argv = ["join", str(path), "--id", "ned", "--name", "Ned", "--side", "party", "--hp", "5",
            "--weapons", "dagger, damage=1d4, speed_factor=2"]
    assert main(argv) == 0
    assert capsys.readouterr().out == "   1. Ned joins the fight on The party's side\n"
    ned = load_save(path).fight.roster["ned"]
    assert (ned.side, ned.hp) == ("party", 5) and ned.weapons[0].name == "dagger"
    text = path.read_bytes()
    assert main(argv) == 1  # the same id again: refused, the save untouched
    assert "duplicate id 'ned'" in capsys.readouterr().err
    assert path.read_bytes() == text
