"""agility-order from issue 30 (table-ready 3): an ended fight takes no act (A2), a turn
taken stays taken whatever happens later in the round (A3), and a hit's damage is what its
dice make (A5). The refusals in files are pinned in tests/broken/agility-order/, the plans
in tests/scenarios/agility-order/; what the table and the command line do is here."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.engine.errors import OVER, IllegalEvent
from referee.engine.options import Declaring, acts_of
from referee.rulesets.agility_order import events as ao
from referee.session.files import LoadError, load_save
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "agility-order.toml"
DEMOS = sorted((ROOT / "saves").glob("*.toml"))

# two raiders against two of the party; Brann has 6 hit points, Kell acts first
SMALL = """format = "referee-save"
version = 1
ruleset = "agility-order"
seed = 7
sides = [
    { id = "party", name = "The party", players = true },
    { id = "raiders", name = "Raiders" },
]
title = "A small fight"

[[combatants]]
id = "kell"
name = "Kell"
side = "raiders"
hp = 12
agility = 3
accuracy = 1
weapons = [ { name = "axe", damage = "1d8" } ]

[[combatants]]
id = "brann"
name = "Brann"
side = "party"
hp = 6
agility = 1
weapons = [ { name = "axe", damage = "1d8" } ]
"""


def ended(tmp_path: Path, source: Path = DEMO, text: str | None = None) -> Path:
    path = tmp_path / "fight.toml"
    if text is None:
        shutil.copyfile(source, path)
    else:
        path.write_text(text)
    with Session.open(path) as session:
        Table(session, random.Random(1)).end("a truce")
    return path


# -- A2: an ended fight takes no act -------------------------------------------------------


@pytest.mark.parametrize("demo", DEMOS, ids=lambda p: p.stem)
def test_every_act_of_every_ruleset_refuses_an_ended_fight(tmp_path: Path,
                                                          demo: Path) -> None:
    """Every act that writes (declarations too) says the one message once the fight is
    over, for every combatant, and its run refuses whatever was answered; only what the
    end leaves to do (`after_end`) is left to its own rules."""
    fight = load_save(ended(tmp_path, demo)).fight
    declaring = fight.ruleset.role(Declaring)
    acts = acts_of(fight.ruleset, fight) + (declaring.declaration_acts() if declaring
                                            else [])
    for act in acts:
        if act.run is None or act.after_end:
            continue
        for actor in [None, *fight.roster]:
            assert act.allowed(fight, actor) == OVER, (act.id, actor)
            with pytest.raises(IllegalEvent, match="the fight is over"):
                act.run(fight, actor, {}, random.Random(1))


@pytest.mark.parametrize(("name", "options"), [
    ("move", ["--actor", "sable"]), ("bonus", ["--actor", "sable"]),
    ("delay", ["--actor", "sable"]), ("free", ["--actor", "sable", "--target", "vask"]),
    ("stand", ["--actor", "sable"]), ("wound", ["--target", "vask"]),
    ("attack", ["--actor", "sable", "--target", "vask"]), ("ties", [])])
def test_referee_act_on_an_ended_save_writes_nothing(tmp_path: Path, name: str,
                                                     options: list[str],
                                                     capsys: pytest.CaptureFixture[str],
                                                     ) -> None:
    path = ended(tmp_path)
    before = path.read_text()
    assert main(["act", str(path), name, *options]) == 1
    assert OVER in capsys.readouterr().err
    assert path.read_text() == before
    assert main(["check", str(path)]) == 0


def test_what_the_end_leaves_to_do_still_goes_in(tmp_path: Path) -> None:
    """A wound is removed after the end (a healing), and the blow that ends the battle
    keeps its wound, written after the end it brought (AO-11, AO-15)."""
    path = tmp_path / "fight.toml"
    path.write_text(SMALL)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        made = table.command("attack", "kell", {"target": "brann", "d20": "15",
                                                "damage": "8"})
        kinds = [e.TYPE for e in made]
        assert table.fight.ended and kinds.index("end") < kinds.index("wound")
        table.command("cure", "brann", {"wound": 1})
        assert not table.fight.ruleset.fold.state(table.fight).wounds.get("brann")
    fight = load_save(path).fight  # and the file reads back whole
    assert fight.ended and [e.TYPE for e in fight.log][-1] == "heal"


# -- A3: a turn taken stays taken ---------------------------------------------------------

TAKEN = ROOT / "tests" / "scenarios" / "agility-order" / "ao-rule-01-turn-taken-then-fell.toml"


def test_a_turn_taken_stays_resolved_where_it_was(capsys: pytest.CaptureFixture[str],
                                                  ) -> None:
    """Kell takes beat 1, then Brann fells him in beat 2: Kell's beat stays his, ticked,
    the beats keep their numbers, and he is not listed as skipped (FORMAT: `skipped` is
    for the beats not reached)."""
    fight = load_save(TAKEN).fight
    plan = fight.plan()
    assert [b.actions[0].actor for b in plan.beats] == ["kell", "brann", "ulf"]
    assert not plan.skipped
    assert plan.current(fight.resolved[1]) == 3
    assert fight.ruleset.planner.turn(fight) == "ulf"
    assert main(["plan", str(TAKEN)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("✓  1") and "kell:turn" in line for line in lines), lines
    assert not [line for line in lines if "skipped" in line]


def test_the_log_never_resolves_a_beat_twice(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`n` through a round in which a unit falls after its turn: each beat resolved once,
    by its own number."""
    path = tmp_path / "fight.toml"
    path.write_text(TAKEN.read_text().split("[[events]]")[0])  # Kell, Brann, Ulf
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        table.resolve_next()  # Kell's turn
        table.session.append(ev.Damage(round=1, target="kell", amount=12, source="brann"))
        table.resolve_next()  # Brann's
        table.resolve_next()  # Ulf's
        beats = [e.beat for e in table.fight.log if isinstance(e, ev.Resolve)]
    assert beats == [1, 2, 3]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert [out.count(f"beat {n} resolved") for n in (1, 2, 3)] == [1, 1, 1], out


KEPT = ROOT / "tests" / "scenarios" / "agility-order" / "ao-rule-01-kept-roll.toml"
CHAIN = ROOT / "tests" / "scenarios" / "agility-order" / "ao-rule-09-chain-ends-at-six.toml"


def table_plan_is_the_fights(table: Table) -> list[str]:
    """The plan the table shows (kept between acts) is the one the log gives now, and
    the order of its beats."""
    kept = table.plan()
    assert kept.to_json() == table.fight.plan(table.round).to_json()
    return [b.actions[0].actor for b in kept.beats]


def test_n_after_a_turn_that_settles_a_tie_resolves_the_next_by_its_roll(
        tmp_path: Path) -> None:
    """Kell, slowed into a tie he never rolled, takes his turn: the tie left is Mira's 15
    against Brann's 6 (AO-1, kept rolls), so the table's `n` next resolves Mira's turn, in
    beat 2, and Brann's in beat 3; a resolve that reorders the turns to come is not planned
    past (the digests' fights 20, 26, 49 and 116 of agility-order)."""
    path = tmp_path / "fight.toml"
    shutil.copy(KEPT, path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        assert table_plan_is_the_fights(table) == ["kell", "brann", "mira", "ulf"]
        table.resolve_next()
        assert table_plan_is_the_fights(table) == ["kell", "mira", "brann", "ulf"]
        assert table.acting() == ["mira"]
        for _ in range(3):
            table.resolve_next()
            assert table_plan_is_the_fights(table) == ["kell", "mira", "brann", "ulf"]
        resolves = [(e.beat, e.actions) for e in table.fight.log if isinstance(e, ev.Resolve)]
    assert resolves == [(1, ("kell:turn",)), (2, ("mira:turn",)), (3, ("brann:turn",)),
                        (4, ("ulf:turn",))]


def test_an_undone_felling_attack_gives_the_unit_its_turn_back_at_the_table(
        tmp_path: Path) -> None:
    """Kell's fumble chain kills him outright (AO-9, no death event in the log): undone,
    his turn is back, beat 1, and the table's miss and `n` are his, not Brann's (the
    digests' fight 88 of agility-order)."""
    path = tmp_path / "fight.toml"
    shutil.copy(CHAIN, path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        assert table_plan_is_the_fights(table) == ["brann", "mira", "ulf"]
        table.undo()
        table.session.append(ev.Note(round=1, text="waits"))  # the round is under way
        assert table_plan_is_the_fights(table) == ["kell", "brann", "mira", "ulf"]
        assert table.acting() == ["kell"]
        table.resolve_next()
        assert table.fight.resolved[1] == {"kell:turn"}


# -- A5: a hit's damage is what its dice make ----------------------------------------------

DAMAGE = ROOT / "tests" / "broken" / "agility-order" / "ao-11-damage-against-its-dice.toml"


@pytest.mark.parametrize("command", ["check", "plan", "replay", "export"])
def test_a_hit_whose_damage_is_not_its_dice_is_refused_by_every_command(
        command: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    typed = DAMAGE.relative_to(ROOT).as_posix()
    assert main([command, typed, *(["--markdown"] if command == "export" else [])]) == 1
    err = capsys.readouterr().err
    assert f"{typed}:87: events[3].amount: 9 disagrees with its dice: 1d8 4 make 4 " \
           "(AO-11)" in err


def test_a_hit_whose_damage_is_not_its_dice_never_opens_in_the_app(tmp_path: Path) -> None:
    """`play` opens a save through the session, which reads it as `check` does."""
    path = tmp_path / "fight.toml"
    shutil.copyfile(DAMAGE, path)
    with pytest.raises(LoadError, match="9 disagrees with its dice"):
        Session.open(path)


@pytest.mark.parametrize(("amount", "refused"), [(9, True), (5, True), (4, False), (2, False)])
def test_an_older_hit_that_names_no_reductions_is_held_to_the_most_its_dice_make(
        tmp_path: Path, amount: int, refused: bool) -> None:
    """A save written before attacks named their reductions beyond armour: the damage may
    be less than the dice make (a reduction the referee gave), never more."""
    path = tmp_path / "old.toml"
    path.write_text(DAMAGE.read_text().replace("reduce = 0\n", "").replace(
        "amount = 9", f"amount = {amount}"))
    if refused:
        with pytest.raises(LoadError, match=f"{amount} disagrees with its dice: 1d8 4 "
                                               "make at most 4 \\(AO-11\\)"):
            load_save(path)
    else:
        assert load_save(path).fight.status["ulf"].hp == 12 - amount


def test_an_attack_names_its_reductions_and_its_damage_is_held_to_them(tmp_path: Path,
                                                                       ) -> None:
    path = tmp_path / "fight.toml"
    path.write_text(SMALL)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        made = table.command("attack", "kell", {"target": "brann", "d20": "20", "chain": "1",
                                                "damage": "5", "reduce": "2"})
    hit, damage = first(made, ao.Attack), first(made, ev.Damage)
    assert hit.reduce == 2 and hit.crit == 1 and damage.amount == 5 * 2 - 2
    text = path.read_text()
    assert load_save(path).fight.log[-1] == made[-1]
    assert f'"amount" = {damage.amount}' in text
    path.write_text(text.replace(f'"amount" = {damage.amount}', '"amount" = 10'))
    with pytest.raises(LoadError, match="10 disagrees with its dice: 1d8 5, ×2, −2 "
                                           "armour/reductions make 8 \\(AO-11\\)"):
        load_save(path)


FELL = ROOT / "tests" / "scenarios" / "agility-order" / "ao-rule-01-fell-during-its-turn.toml"


def fell_in_his_turn(tmp_path: Path) -> tuple[Path, Session, Table]:
    """Mira and Orc warrior 1 have taken beats 1 and 2; in beat 3, Orc warrior 3's turn,
    he misses Mira (m) and her free hit (h) fells him."""
    path = tmp_path / "fight.toml"
    path.write_text(FELL.read_text().split("[[events]]")[0])
    session = Session.open(path)
    table = Table(session, random.Random(1))
    table.resolve_next()
    table.resolve_next()
    assert table.current_beat() == 3 and table.acting() == ["orc-warrior3"]
    table.miss("orc-warrior3", "mira")
    table.damage("orc-warrior3", 6, source="mira")
    assert table.fight.status["orc-warrior3"].hp <= 0
    return path, session, table


def test_a_turn_under_way_stays_where_it_is_when_its_unit_falls(tmp_path: Path) -> None:
    """The beat is still his, current, not skipped; Orc warrior 2 keeps beat 4; nobody
    else may act until the referee moves on (issue 30 A3, the fall during a turn)."""
    _, session, table = fell_in_his_turn(tmp_path)
    with session:
        plan = table.plan()
        assert [b.actions[0].actor for b in plan.beats] == [
            "mira", "orc-warrior1", "orc-warrior3", "orc-warrior2"]
        assert not plan.skipped
        assert table.current_beat() == 3 and table.acting() == ["orc-warrior3"]
        assert [e.source for e in table.recorded()] == ["orc-warrior3", "mira"]
        with pytest.raises(IllegalEvent, match="Orc warrior 3's turn"):
            table.act("attack").run(table.fight, "orc-warrior2",  # type: ignore[misc]
                                    {"target": "mira", "d20": 5}, random.Random(1))
        table.resolve_next()  # n: his beat, by its own number
        assert table.current_beat() == 4 and table.acting() == ["orc-warrior2"]
        resolves = [e for e in table.fight.log if isinstance(e, ev.Resolve)]
        assert [(e.beat, e.actions) for e in resolves][-1] == (3, ("orc-warrior3:turn",))


def test_the_end_after_a_fall_in_a_turn_resolves_that_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """E after the fall: the log resolves beat 3 as Orc warrior 3's turn, the one with the
    miss and the hit recorded in it, never Orc warrior 2's, which was not taken."""
    path, session, table = fell_in_his_turn(tmp_path)
    with session:
        table.end()
        resolve = [e for e in table.fight.log if isinstance(e, ev.Resolve)][-1]
        assert (resolve.beat, resolve.actions) == (3, ("orc-warrior3:turn",))
        assert "orc-warrior2:turn" not in table.fight.resolved[1]
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "beat 3 resolved: orc-warrior3:turn" in out, out
    assert "resolved: orc-warrior2" not in out, out
    assert main(["plan", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("✓  3") and "orc-warrior3:turn" in line for line in lines), lines
    assert not [line for line in lines if "skipped" in line], lines


def first(events: list[Any], kind: type[ev.Event]) -> Any:
    return next(e for e in events if isinstance(e, kind))


def test_no_ao_event_is_left_unchecked_after_the_end() -> None:
    """What moves an agility-order fight on says so (the engine refuses it once over);
    a wound is judged by where it stands (schema.dealt_with_it), a healing never."""
    assert ao.Delay.MOVES_ON and ao.Spend.MOVES_ON and ao.Attack.MOVES_ON
    assert not ao.Heal.MOVES_ON and not ao.Wound.MOVES_ON
