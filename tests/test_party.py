"""A party that carries over: written after a fight with its hit points, conditions and
what its ruleset carries, then loaded into a new encounter's set-up."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.cli import main
from referee.cli import play as cli
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save
from referee.session.store import Session
from tests.conftest import ROOT


def fought(tmp_path: Path, name: str = "demo.toml") -> Path:
    """The demo after a fight: Brann hurt and cursed for 3 rounds, Zed's web lost, Odo dead,
    Mira blessed for good."""
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / name, path)
    session = Session.open(path, lock=True)
    try:
        for event in (ev.Damage(round=1, target="brann", amount=6),
                      ev.Condition(round=1, target="brann", name="cursed", duration=3),
                      ev.Condition(round=1, target="mira", name="blessed"),
                      di.SpellLost(round=1, actor="zed", spell="web", reason="hit"),
                      ev.Death(round=1, target="odo", cause="a test")):
            session.append(event)
    finally:
        session.close()
    return path


@pytest.fixture()
def no_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, bool]]:
    opened: list[tuple[Path, bool]] = []
    monkeypatch.setattr(cli, "open_app",
                        lambda path, setup, *own, **named: opened.append((path, setup)) or 0)
    return opened


def test_the_party_is_written_as_the_fight_left_it(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = fought(tmp_path)
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    assert "left out, dead: Brother Odo" in capsys.readouterr().err
    text = out.read_text()
    assert 'format = "referee-roster"' in text and 'side = "goblins"' not in text
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: ok (demon-idol roster, 1 side, 3 combatants)\n"
    new = tmp_path / "next.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", new)
    session = Session.open(new, lock=True)
    try:
        from referee.session.roster import RosterEditor

        editor = RosterEditor(session)
        for cid in ("brann", "zed", "mira", "odo"):
            editor.remove(cid)
        editor.remove_side("party")
        assert editor.import_roster(out) == 3
    finally:
        session.close()
    fight = load_save(new).fight
    assert (fight.status["brann"].hp, fight.status["brann"].max_hp) == (8, 14)
    assert fight.status["brann"].conditions == {"cursed": 3}
    assert fight.status["mira"].conditions == {"blessed": None}
    assert [s.name for s in fight.roster["zed"].spells] == ["sleep", "magic missile"]
    assert "odo" not in fight.roster and fight.encounter.side("party").players


def test_play_starts_a_new_encounter_from_the_party(tmp_path: Path,
                                                    no_app: list[tuple[Path, bool]]) -> None:
    out = tmp_path / "party.toml"
    assert main(["party", str(fought(tmp_path)), "-o", str(out)]) == 0
    new = tmp_path / "next.toml"
    assert main(["play", str(new), "--ruleset", "demon-idol", "--party", str(out)]) == 0
    assert no_app == [(new, True)]  # set-up opens first, the party in it
    encounter = load_save(new).encounter
    assert [c.id for c in encounter.combatants] == ["brann", "zed", "mira"]
    assert encounter.combatant("brann").conditions == {"cursed": 3}


def test_a_broken_party_file_leaves_no_new_save(tmp_path: Path,
                                                no_app: list[tuple[Path, bool]],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "party.toml"
    assert main(["party", str(fought(tmp_path)), "-o", str(out)]) == 0
    out.write_text(out.read_text().replace("hp = 8", 'hp = "eight"'))
    new = tmp_path / "next.toml"
    assert main(["play", str(new), "--party", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out}:" in err and "combatants[0].hp" in err
    assert not new.exists() and no_app == []


@pytest.mark.parametrize(("conditions", "said"), [
    ("{ cursed = 0 }", "rounds left (1 to 9999)"),
    ('{ cursed = "long" }', "rounds left"),
    ("3", "expected a table of conditions"),
])
def test_conditions_in_a_roster_are_read_strictly(tmp_path: Path, conditions: str,
                                                  said: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.toml"
    text = (ROOT / "saves" / "demo.toml").read_text()
    path.write_text(text.replace('id = "brann"', f'id = "brann"\nconditions = {conditions}',
                                 1))
    assert main(["check", str(path)]) == 1
    assert said in capsys.readouterr().err


def test_the_party_needs_a_players_side_and_never_writes_over_its_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = fought(tmp_path)
    before = path.read_bytes()
    assert main(["party", str(path), "-o", str(path), "--force"]) == 1
    assert path.read_bytes() == before
    assert main(["party", str(path)]) == 1
    assert "-o FILE" in capsys.readouterr().err


def test_count_up_carries_wound_points_and_says_stress_is_back_to_full(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.toml"
    text = (ROOT / "saves" / "count-up.toml").read_text()
    path.write_text(text.replace('id = "hilde"', 'id = "hilde"\nstress = 10', 1))
    session = Session.open(path, lock=True)
    try:
        session.append(ev.Damage(round=1, target="hilde", amount=12))  # 10 Stress, 2 WP
    finally:
        session.close()
    marks = load_save(path).fight.status["hilde"].marks
    assert (marks["stress"], marks["wounds"]) == (0, 12)
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    assert "not carried over: Stress: back to full" in capsys.readouterr().err
    hilde = load_save_roster(out, "count-up")["hilde"]
    assert (hilde["stress"], hilde["wounds"]) == (10, 12)  # Stress full, the wounds kept


def load_save_roster(path: Path, ruleset: str) -> dict[str, dict[str, object]]:
    import tomllib

    data = tomllib.loads(path.read_text())
    assert data["ruleset"] == ruleset
    return {c["id"]: c for c in data["combatants"]}


def test_agility_order_leaves_prone_behind_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "agility-order.toml", path)
    session = Session.open(path, lock=True)
    try:
        for name in ("prone", "poisoned"):
            session.append(ev.Condition(round=1, target="sable", name=name))
    finally:
        session.close()
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    assert "not carried over: prone: a unit stands up once the fight is over (AO-6)" in \
        capsys.readouterr().err
    assert load_save_roster(out, "agility-order")["sable"]["conditions"] == {"poisoned": True}
    assert main(["check", str(out)]) == 0


def test_a_party_of_another_ruleset_is_refused(tmp_path: Path, no_app: list[tuple[Path, bool]],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "party.toml"
    assert main(["party", str(fought(tmp_path)), "-o", str(out)]) == 0
    new = tmp_path / "next.toml"
    assert main(["play", str(new), "--ruleset", "count-up", "--party", str(out)]) == 1
    assert "a demon-idol roster: this save is count-up" in capsys.readouterr().err
    assert not new.exists()


async def test_the_app_writes_the_party_at_the_end_of_a_fight(tmp_path: Path) -> None:
    from referee.app.forms import FormScreen
    from tests.test_app_flows import SIZE, app_on

    path = fought(tmp_path)
    async with app_on(path).run_test(size=SIZE) as pilot:
        assert not pilot.app.screen.check_action("party", ())  # the fight goes on
        await pilot.press("E", "right", "enter")
        await pilot.pause()
        assert pilot.app.table.fight.ended
        await pilot.press("W")
        assert isinstance(pilot.app.screen, FormScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, FormScreen)
        await pilot.press("W", "enter")  # again: the file is there, not replaced
        await pilot.pause()
        assert "exists; 'replace a file there' replaces it" in pilot.app.screen.fault()
    party = (tmp_path / "party.toml").read_text()
    assert 'id = "brann"' in party and 'id = "odo"' not in party and "cursed = 3" in party


def test_a_spell_cast_is_spent_and_leaves_the_party(tmp_path: Path) -> None:
    """Zed casts sleep (a D with a spell, its beat resolved): the party keeps magic missile
    and web, not sleep."""
    from referee.session.table import Table

    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    session = Session.open(path, lock=True)
    try:
        table = Table(session)
        table.declare("zed", "D", spell="sleep", target="gob1")
        table.enter_initiative({"party": 5, "goblins": 2})
        while table.current_beat() is not None:
            table.resolve_next()
    finally:
        session.close()
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert '"magic missile"' in text and '"web"' in text and '"sleep"' not in text


def test_a_new_save_takes_the_ruleset_its_party_names(tmp_path: Path,
                                                      no_app: list[tuple[Path, bool]]) -> None:
    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "count-up.toml", path)
    out = tmp_path / "party.toml"
    assert main(["party", str(path), "-o", str(out)]) == 0
    new = tmp_path / "next.toml"
    assert main(["play", str(new), "--party", str(out)]) == 0  # no --ruleset: the party's
    assert no_app == [(new, True)]
    save = load_save(new)
    assert save.encounter.ruleset == "count-up"
    party = load_save(path).encounter.combatants
    players = {s.id for s in load_save(path).encounter.sides if s.players}
    assert {c.id for c in party if c.side in players} <= {c.id for c in
                                                          save.encounter.combatants}
