"""simple: a ruleset whose whole behaviour its file sets (SI-1 ... SI-9). The plans of each
rule are scenarios (tests/scenarios/simple); here: reading a file, the rolls the program
makes (ties re-rolled until they differ), typed dice, a latecomer, and a round at the
table in the app."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import Combatant, Encounter, Fight, Side, Weapon
from referee.engine import events as ev
from referee.engine.errors import FormatError, RefereeError
from referee.engine.options import Rolling
from referee.rulesets import make_ruleset
from referee.rulesets.simple.events import Initiative, Tie
from referee.rulesets.simple.ruleset import Simple
from referee.session.files import load_ruleset, load_save
from tests.conftest import ROOT

BASE = {"format": "referee-ruleset", "version": 1, "id": "mine", "logic": "simple"}


def ruleset(**keys: Any) -> Simple:
    made = make_ruleset({**BASE, **keys})
    assert isinstance(made, Simple)
    return made


def rolling(rs: Simple) -> Rolling[Any]:
    found = rs.role(Rolling)
    assert found is not None
    return found


def fight(rs: Simple, **dex: int) -> Fight:
    sides = (Side("party", "Party", players=True), Side("orcs", "Orcs"))
    names = dex or {"ann": 0, "bob": 0, "orc": 0, "rat": 0}
    roster = tuple(Combatant(cid, cid.title(), "party" if cid in ("ann", "bob") else "orcs",
                             hp=6, max_hp=6, weapons=(Weapon("club", damage="1d6"),),
                             stats={k: v for k, v in (("dex", d),) if k in rs.settings.keys})
                   for cid, d in names.items())
    return Fight(Encounter(rs.file_id, "test", 1, sides, roster), rs)


def labels(f: Fight) -> list[list[str]]:
    return [sorted(a.actor for a in beat.actions) for beat in f.plan(max(f.round, 1)).beats]


@pytest.mark.parametrize(("keys", "field", "words"), [
    ({"initiative": "party"}, "initiative", 'expected "side" or "combatant"'),
    ({"order": "fast"}, "order", 'expected "high" or "low"'),
    ({"rolled": "twice"}, "rolled", "each round"),
    ({"ties": "coin"}, "ties", "simultaneous"),
    ({"initiative_die": "2d0"}, "initiative_die", "sides"),
    ({"initiative_die": "3"}, "initiative_die", "rolls no die"),
    ({"initiative_die": "21d6"}, "initiative_die", "more than 20 dice"),
    ({"modifier": "dex"}, "modifier", "needs initiative = \"combatant\""),
    ({"initiative": "combatant", "modifier": "HP"}, "modifier", "not a roster key"),
    ({"initiative": "combatant", "modifier": "hp"}, "modifier", "not a roster key"),
    ({"initiative": "combatant", "ties": "key"}, "ties", "needs tie_key"),
    ({"initiative": "combatant", "tie_key": "dex"}, "tie_key", "only with ties"),
    ({"columns": ["dex", "dex"]}, "columns", "named twice"),
    ({"columns": [f"k{n}" for n in range(9)]}, "columns", "at most 8"),
    ({"columns": "dex"}, "columns", "list"),
    ({"colour": "red"}, "colour", "unknown"),
])
def test_a_file_that_says_something_it_cannot_mean_is_refused(keys: dict[str, Any],
                                                              field: str, words: str) -> None:
    with pytest.raises(FormatError) as raised:
        ruleset(**keys)
    assert raised.value.path[0] == field
    assert words in str(raised.value)


def test_the_bundled_files_say_what_the_issue_asks() -> None:
    side = load_ruleset("side-d6")
    dex = load_ruleset("d20-dex")
    assert isinstance(side, Simple) and isinstance(dex, Simple)
    assert (side.settings.mode, side.settings.die, side.settings.order, side.settings.rolled,
            side.settings.ties) == ("side", "1d6", "high", "each round", "simultaneous")
    assert (dex.settings.mode, dex.settings.die, dex.settings.modifier, dex.settings.rolled,
            dex.settings.ties, dex.settings.tie_key) == ("combatant", "1d20", "dex", "once",
                                                         "key", "dex")
    assert [c.key for c in dex.tracker.columns()] == ["hp", "init", "dex", "ac"]


def test_the_die_sets_what_a_typed_roll_may_be() -> None:
    rs = ruleset(initiative_die="2d6+1")
    assert (rs.settings.low, rs.settings.high) == (3, 13)
    f = fight(rs)
    with pytest.raises(RefereeError, match="cannot be rolled on 2d6\\+1"):
        f.push(Initiative(round=1, rolls={"party": 14}))
    with pytest.raises(RefereeError, match="unknown side 'ann'"):
        f.push(Initiative(round=1, rolls={"ann": 5}))


def test_logged_dice_must_make_the_roll() -> None:
    rs = ruleset()
    f = fight(rs)
    event = rolling(rs).roll_initiative(f, random.Random(3))[0]
    assert isinstance(event, Initiative)
    forged = dict(event.rolls)
    forged["party"] = forged["party"] % 6 + 1
    with pytest.raises(RefereeError, match="do not make"):
        f.push(Initiative(round=1, rolls=forged, dice=event.dice))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_rolled_ties_are_re_rolled_until_everyone_has_a_place(seed: int) -> None:
    """SI-6: `i` rolls, then re-rolls every tie (as Tie events in the log, undone with the
    roll), so no beat holds two combatants and initiative is no longer due."""
    rs = ruleset(initiative="combatant", initiative_die="d2", ties="reroll")
    f = fight(rs)
    events = rolling(rs).roll_initiative(f, random.Random(seed))
    for event in events:
        f.push(event)
    assert all(isinstance(e, Tie) and e.follows for e in events[1:])
    assert not rolling(rs).initiative_due(f)
    assert sorted(len(b) for b in labels(f)) == [1, 1, 1, 1]


def test_a_tie_typed_from_real_dice_is_asked_for_only_the_tied() -> None:
    rs = ruleset(initiative="combatant", ties="reroll")
    f = fight(rs)
    f.push(Initiative(round=1, rolls={"ann": 4, "bob": 4, "orc": 4, "rat": 1}))
    assert rolling(rs).initiative_due(f) and rolling(rs).initiative_blocks(f)
    form = rolling(rs).initiative_form(f)
    assert [field.name for field in form.fields] == ["ann", "bob", "orc"]
    with pytest.raises(RefereeError, match="Rat is not in a tie"):
        f.push(Tie(round=1, rolls={"rat": 2}))
    for event in rolling(rs).initiative_from(f, {"ann": 6, "bob": 2, "orc": 6}):
        f.push(event)
    assert labels(f) == [["ann", "orc"], ["bob"], ["rat"]]  # ann and orc tie again
    assert rolling(rs).initiative_due(f)
    assert [field.name for field in rolling(rs).initiative_form(f).fields] == ["ann", "orc"]


def test_rolled_each_round_a_new_round_wants_new_rolls() -> None:
    rs = ruleset()
    f = fight(rs)
    f.push(Initiative(round=1, rolls={"party": 2, "orcs": 5}))
    assert labels(f) == [["orc", "rat"], ["ann", "bob"]]
    f.push(ev.NewRound(round=2))
    assert rolling(rs).initiative_due(f) and labels(f) == []
    f.push(Initiative(round=2, rolls={"party": 6, "orcs": 5}))
    assert labels(f) == [["ann", "bob"], ["orc", "rat"]]


def test_rolled_once_a_latecomer_alone_is_asked_for() -> None:
    """SI-4: once per fight, a combatant who joins rolls when it comes in; nobody else."""
    rs = ruleset(initiative="combatant", rolled="once", modifier="dex", initiative_die="d20")
    f = fight(rs, ann=2, orc=0)
    f.push(Initiative(round=1, rolls={"ann": 10, "orc": 11}))
    f.push(ev.NewRound(round=2))
    assert not rolling(rs).initiative_due(f)
    wolf = Combatant("wolf", "Wolf", "orcs", hp=5, max_hp=5, stats={"dex": 1})
    f.push(ev.Join(round=2, combatant=wolf))
    assert rolling(rs).initiative_due(f)
    events = rolling(rs).roll_initiative(f, random.Random(1))
    assert [set(e.rolls) for e in events if isinstance(e, Initiative)] == [{"wolf"}]


def test_the_tracker_shows_the_score_and_the_files_columns() -> None:
    rs = ruleset(initiative="combatant", modifier="dex", columns=["dex"], initiative_die="d20")
    f = fight(rs, ann=3, orc=-1)
    assert rs.tracker.cells(f, "ann")["init"].text == "—"
    f.push(Initiative(round=1, rolls={"ann": 10, "orc": 11}))
    cells = rs.tracker.cells
    assert (cells(f, "ann")["init"].text, cells(f, "orc")["init"].text) == ("13", "10")
    assert rs.tracker.cells(f, "orc")["dex"].text == "-1"
    beat = f.plan(1).beats[0]
    assert beat.why[0] == "Ann 13 (10 + dex 3)" and beat.extra["initiative"] == 13


def test_the_log_tells_the_rolls() -> None:
    save = load_save(ROOT / "tests" / "scenarios" / "simple" / "si-rule-06-ties-rerolled.toml")
    told = [save.ruleset.tracker.tell(save.fight, e) for e in save.fight.log]
    assert told[0] == "initiative (1d6): Ann 4, Bob 4, Orc 4, Rat 1"
    assert told[1] == "tie re-rolled (1d6, SI-6): Ann 5, Bob 2, Orc 5"


async def test_a_round_at_the_table(tmp_path: Path) -> None:
    """The app on the d20-dex demo: i rolls, every beat is resolved with n (a hit on the
    way), r starts round 2 in the same order (rolled once)."""
    from referee.app import RefereeApp

    path = tmp_path / "fight.toml"
    path.write_text((ROOT / "saves" / "d20-dex.toml").read_text())
    app = RefereeApp(path, tmp_path, random.Random(7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("i")
        await pilot.pause()
        first = load_save(path).fight.plan(1)
        assert len(first.beats) >= 4
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        for _ in first.beats:
            await pilot.press("n")
            await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
    after = load_save(path).fight
    assert after.round == 2
    assert any(isinstance(e, ev.Damage) for e in after.log)
    assert after.plan(2).labels() == first.labels()


async def test_a_hit_aims_at_an_enemy_still_standing(tmp_path: Path) -> None:
    """With no declaration to say whom, the hit form offers the first enemy not down."""
    from referee.app import RefereeApp
    from referee.app.forms import FormScreen

    path = tmp_path / "fight.toml"
    path.write_text((ROOT / "saves" / "side-d6.toml").read_text())
    session_fight = load_save(path).fight
    assert list(session_fight.roster)[3] == "bandit1"
    app = RefereeApp(path, tmp_path, random.Random(7))
    async with app.run_test(size=(80, 24)) as pilot:
        app.table.append([Initiative(round=1, rolls={"party": 5, "bandits": 2}),
                          ev.Damage(round=1, target="bandit1", amount=6)])
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, FormScreen)
        assert form.values()["target"] == "bandit2"


def test_an_ended_fight_has_no_beat_to_come() -> None:
    """After the end (E) the plan marks no beat as the next: the fight is over."""
    rs = ruleset()
    f = fight(rs)
    f.push(Initiative(round=1, rolls={"party": 5, "orcs": 2}))
    assert f.plan(1).current(set()) == 1
    f.push(ev.End(round=1))
    assert f.plan(1).current(set()) is None


def test_a_blank_die_in_the_real_dice_form_is_rolled_by_the_program() -> None:
    rs = ruleset(initiative="combatant", initiative_die="d20")
    f = fight(rs)
    form = rolling(rs).initiative_form(f)
    assert not any(field.required for field in form.fields)
    assert "blank" in form.hint and all("blank" in field.help for field in form.fields)
    [event] = rolling(rs).initiative_from(f, {"ann": 17, "bob": None, "orc": "", "rat": 3})
    assert isinstance(event, Initiative)
    assert (event.rolls["ann"], event.rolls["rat"]) == (17, 3)
    assert set(event.dice) == {"bob", "orc"} and all(1 <= event.rolls[w] <= 20
                                                     for w in ("bob", "orc"))
    f.push(event)  # the logged dice make the rolls
    again = rolling(rs).initiative_from(fight(rs), {"ann": 17, "bob": None, "orc": "",
                                                    "rat": 3})
    assert again == [event]  # the same dice from the same save at the same point


async def test_I_with_one_die_typed_rolls_the_rest(tmp_path: Path) -> None:
    from referee.app import RefereeApp
    from referee.app.forms import FormScreen

    path = tmp_path / "fight.toml"
    path.write_text((ROOT / "saves" / "d20-dex.toml").read_text())
    app = RefereeApp(path, tmp_path, random.Random(7))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("I")
        await pilot.pause()
        assert isinstance(pilot.app.screen, FormScreen)
        first = pilot.app.screen.spec.fields[0].name
        pilot.app.screen.query_one(f"#f-{first}").value = "12"
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, FormScreen)
    fight = load_save(path).fight
    [event] = [e for e in fight.log if isinstance(e, Initiative)]
    assert event.rolls[first] == 12 and first not in event.dice
    assert set(event.rolls) == set(fight.roster) and set(event.dice) == set(fight.roster) - {first}
