"""demon-idol as a 1e referee says it at the table (issue 14, section 3): a slow missile's
rate of fire, movement over segments, close-then-strike declarations, and a spell's start
and completion as two points of the plan."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main
from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalDeclaration
from referee.engine.fight import Fight
from referee.engine.options import Declaring
from referee.engine.specs import Field
from referee.engine.stats import rate_parts, reader_for
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save
from referee.session.roster import parse_gear
from referee.session.store import Session
from referee.session.table import Table
from tests.conftest import ROOT

HERE = ROOT / "tests" / "scenarios" / "demon-idol"


def fight_of(name: str) -> Fight:
    save = load_save(HERE / f"{name}.toml")
    return save.fight


def plan_json(name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["plan", str(HERE / f"{name}.toml"), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def labels(fight: Fight) -> list[list[str]]:
    return fight.plan().labels()


# -- 1. fractional rates of fire -------------------------------------------------------------


@pytest.mark.parametrize("value", [1, 2, 10, "1/2", "1/3", "1/10"])
def test_a_rate_is_shots_a_round_or_one_shot_every_n_rounds(value: Any) -> None:
    read = reader_for(Field("rate", kind="rate"), "demon-idol")
    assert read(value, ("weapons", 0), "rate") == value


@pytest.mark.parametrize("value", ["2/3", "1/1", "1/0", 0, -1, "x", "1/2 ", 1.5, "2", True])
def test_any_other_rate_is_refused_with_its_path(value: Any) -> None:
    read = reader_for(Field("rate", kind="rate"), "demon-idol")
    with pytest.raises(FormatError) as error:
        read(value, ("weapons", 0), "rate")
    assert error.value.path == ("weapons", 0, "rate")


def test_rate_parts() -> None:
    assert rate_parts(2) == (2, 1)
    assert rate_parts("1/3") == (1, 3)


def test_a_gear_line_keeps_a_fractional_rate_as_written(tmp_path: Path) -> None:
    save = load_save(HERE / "di-11-rate-half-fires.toml")
    ruleset = save.fight.ruleset
    items = parse_gear("heavy crossbow, missile, rate=1/2; bow, missile, rate=2", ruleset,
                       "weapons")
    assert [item["rate"] for item in items] == ["1/2", 2]


def crossbow_rounds(every_round: list[bool], rate: str = "1/2") -> list[bool]:
    """Whether the crossbow fires in each round, declared in the rounds marked True."""
    fight = fight_of("di-11-rate-half-fires")
    fight.roster["mira"].weapons[0].stats["rate"] = rate  # this fight's own roster
    fires = []
    for round_, declared in enumerate(every_round, start=1):
        if round_ > 1:
            fight.push(ev.NewRound(round=round_))
            fight.push(di.Initiative(round=round_, rolls={"party": 5, "goblins": 2}))
            fight.push(di.Declare(round=round_, actor="orc", action="G", target=("mira",)))
            if declared:
                fight.push(di.Declare(round=round_, actor="mira", action="D",
                                      weapon="heavy crossbow", target=("orc",)))
        plan = fight.plan()
        fires.append(any(a.actor == "mira" for b in plan.beats for a in b.actions))
    return fires


def test_a_half_rate_fires_every_other_round_it_is_declared() -> None:
    assert crossbow_rounds([True] * 5) == [True, False, True, False, True]


def test_a_round_without_a_shot_lets_it_fire_again() -> None:
    assert crossbow_rounds([True, False, True, True]) == [True, False, True, False]


def test_a_third_rate_waits_two_rounds() -> None:
    assert crossbow_rounds([True] * 5, "1/3") == [True, False, False, True, False]


def test_the_plan_says_whether_it_fires(capsys: pytest.CaptureFixture[str]) -> None:
    fires = plan_json("di-11-rate-half-fires", capsys)
    why = fires["beats"][0]["why"]
    assert "DI-7" in fires["beats"][0]["rules"] and "next in round 3" in why
    reloading = plan_json("di-11-rate-half-reloading", capsys)
    assert reloading["skipped"] == [{
        "actor": "mira", "action": "D", "rule": "DI-7",
        "why": "reloading: mira's heavy crossbow (rate 1/2) fired in round 1, fires next in "
               "round 3"}]


def test_a_lapsed_preparation_fired_nothing() -> None:
    fight = fight_of("di-11-rate-half-reloading")
    fight.log[1] = di.Declare(round=1, actor="mira", action="D", weapon="heavy crossbow",
                              target=("orc",), prepared=True, trigger="x")
    fight.refold()
    assert any(a.actor == "mira" for b in fight.plan().beats for a in b.actions)


# -- 2. movement over segments ---------------------------------------------------------------


def why_of(fight: Fight) -> str:
    return " ".join(w for beat in fight.plan().beats for w in beat.why)


def test_a_charge_indoors_doubles_the_rate() -> None:
    fight = fight_of("di-12-charge-distance-indoors")
    assert labels(fight) == [["zed:D", "gob2:E"]]
    assert 'closes 3" charging indoors at 12" a round (twice 6"): 3 segments' in why_of(fight)


def test_a_charge_outdoors_adds_a_third() -> None:
    fight = fight_of("di-12-charge-distance-outdoors")
    assert fight.encounter.stats == {"indoors": False}
    assert labels(fight) == [["zed:D"], ["gob2:E"]]
    assert "outdoors at 8\" a round" in why_of(fight) and "4 segments" in why_of(fight)


def test_the_declaration_says_outdoors_over_the_encounter() -> None:
    fight = fight_of("di-12-charge-distance-indoors")
    decl = fight.log[2]
    fight.log[2] = di.Declare(**{**decl.__dict__, "indoors": False})
    fight.refold()
    assert labels(fight) == [["zed:D"], ["gob2:E"]]


def test_closing_typed_wins_over_the_distance() -> None:
    fight = fight_of("di-12-closing-wins-over-distance")
    assert labels(fight) == [["gob2:E"], ["zed:D"]]
    assert "closes 3\"" not in why_of(fight)


def test_a_distance_needs_a_movement_rate() -> None:
    fight = fight_of("di-11-rate-half-fires")
    with pytest.raises(IllegalDeclaration, match="no movement rate"):
        fight.push(di.Declare(round=1, actor="orc", action="E", distance=2,
                              replaces=True))


def test_only_an_e_takes_a_distance() -> None:
    fight = fight_of("di-13-close-then-strike")
    with pytest.raises(IllegalDeclaration, match="takes no distance"):
        fight.push(di.Declare(round=1, actor="brann", action="G", distance=2,
                              replaces=True))


def test_an_encumbered_shooter_loses_a_positive_bonus() -> None:
    fight = fight_of("di-12-encumbered-loses-reaction")
    assert labels(fight) == [["gob1:G"], ["mira:D"]]
    assert "mira is encumbered: no missile reaction bonus (+2 lost)" in why_of(fight)


def test_without_the_load_the_bonus_shoots_first() -> None:
    fight = fight_of("di-12-encumbered-loses-reaction")
    del fight.roster["mira"].stats["encumbered"]  # this fight's own roster
    assert labels(fight) == [["mira:D"], ["gob1:G"]]


def test_a_shooter_who_moved_loses_the_bonus() -> None:
    fight = fight_of("di-13-move-then-shoot")
    assert labels(fight) == [["gob1:G"], ["mira:E"], ["mira:D"]]
    assert "mira moved this round (E): no missile reaction bonus (+2 lost)" in why_of(fight)


def test_a_penalty_stays_when_moving() -> None:
    fight = fight_of("di-13-move-then-shoot")
    fight.roster["mira"].stats["reaction"] = -2  # this fight's own roster
    assert "no missile reaction bonus" not in why_of(fight)


# -- 3. several declarations for one combatant --------------------------------------------------


def test_close_then_strike_keeps_the_strike_after_the_closing() -> None:
    fight = fight_of("di-13-close-then-strike")
    plan = labels(fight)
    assert plan.index(["ogre:E"]) < plan.index(["ogre:G#1"])
    assert "resolves once the closing is done" in why_of(fight)


def test_a_further_declaration_is_refused_where_the_ruleset_says() -> None:
    fight = fight_of("di-13-close-then-strike")
    with pytest.raises(IllegalDeclaration, match="a further declaration follows one E"):
        fight.push(di.Declare(round=1, actor="ogre", action="D", then=True))
    with pytest.raises(IllegalDeclaration, match="a further declaration follows one E"):
        fight.push(di.Declare(round=1, actor="brann", action="D", then=True))


def test_a_charge_strikes_its_own_blow() -> None:
    fight = fight_of("di-12-charge-distance-indoors")
    with pytest.raises(IllegalDeclaration, match="a charge strikes its own blow"):
        fight.push(di.Declare(round=1, actor="gob2", action="G", then=True))


def test_a_shot_on_the_move_is_a_missile() -> None:
    fight = fight_of("di-13-move-then-shoot")
    fight.log.pop(2)  # mira's shot
    fight.refold()
    with pytest.raises(IllegalDeclaration, match="a shot on the move"):
        fight.push(di.Declare(round=1, actor="mira", action="D", weapon="dagger", then=True))


def test_replacing_drops_the_further_declarations_too() -> None:
    fight = fight_of("di-13-close-then-strike")
    fight.push(di.Declare(round=1, actor="ogre", action="G", replaces=True, target=("brann",)))
    assert [d.action for _, d in fight.declared(1) if d.actor == "ogre"] == ["G"]


def test_a_further_declaration_replaces_nothing() -> None:
    fight = fight_of("di-13-close-then-strike")
    with pytest.raises(IllegalDeclaration, match="replaces nothing"):
        fight.push(di.Declare(round=1, actor="ogre", action="G", then=True, replaces=True))


def test_the_tracker_shows_both() -> None:
    fight = fight_of("di-13-close-then-strike")
    decl = fight.declared(1)[2][1]
    declaring = fight.ruleset.role(Declaring)
    assert declaring is not None
    assert declaring.declared_text(fight, "ogre", decl) == "E → Brann, then G club → Brann"


def test_the_port_takes_one_declaration_by_default() -> None:
    fight = fight_of("di-13-close-then-strike")
    declaring = fight.ruleset.role(Declaring)
    assert declaring is not None
    assert "one declaration" in Declaring.further(declaring, fight, "ogre", [], "G")


def test_the_events_round_trip() -> None:
    decl = di.Declare(round=1, actor="a", action="E", distance=2.5, indoors=False, then=True)
    data = decl.to_dict()
    assert data["distance"] == 2.5 and data["indoors"] is False and data["then"] is True
    reader = fight_of("di-13-close-then-strike").ruleset.schema.reader
    assert reader.read(data, ("events", 0)) == decl


def test_the_table_adds_a_further_declaration(tmp_path: Path) -> None:
    path = tmp_path / "fight.toml"
    shutil.copy(HERE / "di-13-close-then-strike.toml", path)
    text = path.read_text()
    cut = '\n[[events]]\ntype = "declare"\nround = 1\nactor = "ogre"\naction = "G"'
    path.write_text(text[: text.index(cut)] + "\n")  # the ogre's E, not yet its G
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        assert table.further("ogre", "G") == ""
        assert table.further("brann", "G") != ""
        table.declare("ogre", "G", then=True, weapon="club", target="brann")
        assert [d.action for _, d in table.fight.declared(1) if d.actor == "ogre"] == ["E", "G"]


# -- 4. a spell's start and its completion --------------------------------------------------------


def test_a_long_spell_starts_at_the_top_and_completes_in_its_beat(
        capsys: pytest.CaptureFixture[str]) -> None:
    plan = plan_json("di-14-spell-start-and-completion", capsys)
    [point] = plan["points"]
    assert point["before"] == 1 and point["point"] == "starts" and point["rules"] == ["DI-15"]
    assert "completes in beat 2" in point["why"] and "gob1:G in beat 1" in point["why"]
    assert plan["beats"][1]["actions"] == [{"actor": "zed", "action": "D", "starts": 1}]


def test_by_the_book_the_blow_in_the_spells_own_beat_does_not_spoil_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    [point] = plan_json("dmg-67-spell-start-and-completion", capsys)["points"]
    assert "completes in beat 3" in point["why"]
    assert "gob1:G in beat 1" in point["why"] and "ogre" not in point["why"]


def test_a_prepared_start_fired_shows_both(capsys: pytest.CaptureFixture[str]) -> None:
    plan = plan_json("di-14-prepared-start-fired", capsys)
    [point] = plan["points"]
    assert point["before"] == 2 and point["rules"] == ["DI-14", "DI-15"]
    assert "before beat 2" in point["why"] and "completes in beat 3" in point["why"]
    assert [a["actor"] for a in plan["beats"][1]["actions"]] == ["gob1"]
    assert plan["beats"][2]["actions"][0]["starts"] == 2


def test_an_unfired_prepared_start_says_when_it_will_start() -> None:
    fight = fight_of("di-14-prepared-start-fired")
    fight.log.pop()  # the fire
    fight.refold()
    [point] = fight.plan().points
    assert point["rules"] == ["DI-14"] and "starts when its trigger happens" in point["why"]


def test_a_one_segment_spell_has_no_points() -> None:
    assert not fight_of("di-rule-10-spell-lower").plan().points


def test_the_plan_pane_lists_the_start_before_the_beat_it_precedes() -> None:
    from referee.session.view import plan_rows

    rows = plan_rows(fight_of("di-14-spell-start-and-completion").plan(), set())
    assert [r.key for r in rows[:3]] == ["point0", "1", "2"]
    assert rows[0].label == "starts" and rows[0].actions == "zed:D"


def test_a_prepared_start_sits_before_its_trigger_and_the_cursor_finds_the_beat() -> None:
    from referee.session.view import plan_rows

    plan = fight_of("di-14-prepared-start-fired").plan()
    rows = plan_rows(plan, set())
    where = [r.key for r in rows].index("point0")
    assert rows[where + 1].key == str(plan.points[0]["before"])


def test_the_log_tells_a_further_declaration_as_one() -> None:
    fight = fight_of("di-13-close-then-strike")
    further = [n for n, e in enumerate(fight.log) if getattr(e, "then", False)]
    assert further
    line = fight.ruleset.tracker.tell(fight, fight.log[further[0]])
    assert line is not None and " then declares G" in line
