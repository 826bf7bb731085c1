"""agility-order: unit tests of its rules and hypothesis properties (spec: agility-order.md)."""

from __future__ import annotations

import random
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent, RefereeError
from referee.engine.fight import Fight
from referee.rulesets.agility_order import attack as atk
from referee.rulesets.agility_order import events as ao
from referee.session.files import load_save
from referee.session.writer import save_text
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "agility-order.toml"
CHAIN = (4, 6, 8, 10, 12, 20)


def demo() -> Fight:
    return load_save(DEMO).fight


def run(fight: Fight, command: str, actor: str | None, seed: int = 1,
        **values: object) -> list[ev.Event]:
    events = fight.ruleset.run_command(fight, command, actor, values, random.Random(seed))
    pushed: list[ev.Event] = []
    for event in events:
        pushed += fight.enter(event)
    return pushed


def order(fight: Fight) -> list[str]:
    return [b.actions[0].actor for b in fight.plan().beats]


# -- AO-1 … AO-3: the lineup ---------------------------------------------------------------


def test_the_demo_has_a_tie_the_initiator_last_and_a_reach_unit() -> None:
    fight = demo()
    assert order(fight) == ["sable", "brann", "vask", "mira", "odo", "gorm", "hask"]
    assert fight.ruleset.ties_due(fight) == ["brann", "vask"]
    assert "Reach" in fight.roster["vask"].stats["feats"]
    assert fight.plan().beats[-1].rules == ["AO-1", "AO-2"]


def test_tie_rolls_typed_are_kept_and_named_in_the_why() -> None:
    fight = demo()
    run(fight, "ties", None, brann=3, vask=17)
    assert order(fight)[1:3] == ["vask", "brann"]
    assert "d20" in fight.plan().beats[1].why[-1]
    assert fight.ruleset.ties_due(fight) == []
    fight.enter(ev.NewRound(round=2))
    assert order(fight)[1:3] == ["vask", "brann"]  # kept for the battle


def test_a_tie_rolled_equal_is_rolled_again() -> None:
    fight = demo()
    run(fight, "ties", None, brann=9, vask=9)
    assert fight.ruleset.ties_due(fight) == ["brann", "vask"]
    run(fight, "ties", None, brann=2, vask=12)
    assert order(fight)[1:3] == ["vask", "brann"]


def test_players_first_and_the_referees_order() -> None:
    from referee.rulesets.agility_order import RULESET

    save = load_save(DEMO)
    players = RULESET({"ties": "players"})
    fight = Fight(save.encounter, players)
    assert order(fight)[1:3] == ["brann", "vask"]
    assert "players first" in fight.plan().beats[1].why[-1]
    referee = RULESET({"ties": "referee"})
    fight = Fight(save.encounter, referee)
    with pytest.raises(IllegalEvent, match="the referee orders"):
        referee.run_command(fight, "ties", None, {}, random.Random(1))
    run(fight, "ties", None, brann=1, vask=2)
    assert order(fight)[1:3] == ["vask", "brann"]


def test_delay_moves_the_turn_for_this_round_only() -> None:
    fight = demo()
    run(fight, "delay", "sable", after="mira")
    assert order(fight)[:4] == ["brann", "vask", "mira", "sable"]
    assert "AO-3" in fight.plan().beats[3].rules
    fight.enter(ev.NewRound(round=2))
    assert order(fight)[0] == "sable"


def test_a_delay_after_a_unit_that_has_acted_is_refused() -> None:
    fight = demo()
    fight.enter(ev.Resolve(round=1, actions=("sable:turn",)))
    with pytest.raises(IllegalEvent, match="already acted"):
        fight.enter(ao.Delay(round=1, actor="brann", after="sable"))


def test_a_delay_after_a_unit_that_falls_takes_its_place() -> None:
    fight = demo()
    run(fight, "ties", None, brann=3, vask=17)
    run(fight, "delay", "sable", after="odo")
    fight.enter(ev.Death(round=1, target="odo"))
    assert order(fight) == ["vask", "brann", "mira", "sable", "gorm", "hask"]
    assert "takes its place" in fight.plan().beats[3].why[-1]


def test_a_unit_that_fell_is_never_asked_to_roll_its_tie() -> None:
    fight = demo()
    fight.enter(ev.Resolve(round=1, actions=("sable:turn",)))
    fight.enter(ev.Condition(round=1, target="vask", name="fled"))
    assert fight.ruleset.ties_due(fight) == []
    with pytest.raises(IllegalEvent, match="only the units still in it roll"):
        fight.enter(ao.Initiative(round=1, ties={"brann": 3, "vask": 17}))


def test_a_new_tie_asks_only_the_unit_that_never_rolled() -> None:
    fight = demo()
    run(fight, "ties", None, brann=3, vask=17)
    fight.enter(ao.Wound(round=1, target="sable", effect="slowing"))  # Agility 3 -> 2
    fight.enter(ev.NewRound(round=2))
    assert fight.ruleset.ties_due(fight) == ["sable"]
    run(fight, "ties", None, sable=10)
    assert order(fight)[:3] == ["vask", "sable", "brann"]  # 17, 10, 3: kept rolls


# -- AO-4 … AO-6: the budget ---------------------------------------------------------------


def test_extra_attack_takes_ma_and_both_ba_and_then_nothing_is_left() -> None:
    fight = demo()
    run(fight, "attack", "sable", target="hask", d20=2)
    run(fight, "attack", "sable", target="hask", d20=2, pay="extra")
    assert fight.ruleset.left(fight, "sable") == (0, 0, 0)
    with pytest.raises(IllegalEvent, match=r"no AA \(or MA \+ 2 BA\) left \(left: nothing\)"):
        run(fight, "attack", "sable", target="hask", d20=2)


def test_spending_what_is_not_left_says_what_is() -> None:
    fight = demo()
    run(fight, "bonus", "sable", use="disengage")
    with pytest.raises(IllegalEvent, match=r"no BA left \(left: AA, MA\)"):
        run(fight, "bonus", "sable", use="hit")


def test_disengage_is_paid_with_the_aa_or_2_ba_never_the_ma() -> None:
    fight = demo()
    rs = fight.ruleset
    act = rs.command_form(fight, "act", "sable")
    assert act is not None
    assert "disengage" not in [v for f in act.fields for _, v in f.options]
    with pytest.raises(IllegalEvent, match="never with the MA"):
        run(fight, "act", "sable", pay="MA", use="disengage")
    form = rs.command_form(fight, "disengage", "sable")
    assert form is not None and [v for _, v in form.fields[0].options] == ["AA", "2 BA"]
    run(fight, "disengage", "sable", pay="AA")
    assert rs.left(fight, "sable") == (0, 1, 2)
    form = rs.command_form(fight, "disengage", "sable")
    assert form is not None and [v for _, v in form.fields[0].options] == ["2 BA"]
    run(fight, "disengage", "sable", pay="2 BA")
    assert rs.left(fight, "sable") == (0, 1, 0)
    assert "neither the AA nor 2 BA" in rs.can_run(fight, "disengage", "sable")


def test_two_more_spaces_add_before_the_halving() -> None:
    fight = demo()
    rs = fight.ruleset
    run(fight, "bonus", "sable", use="move 2")  # Athlete: (6 + 2 + 2) halved
    move = run(fight, "move", "sable", mode="sneaking")[-1]
    assert isinstance(move, ao.Spend) and move.spaces == 5
    other = demo()
    move = run(other, "move", "sable", mode="sneaking")[-1]
    more = run(other, "bonus", "sable", use="move 2")[-1]
    assert isinstance(move, ao.Spend) and isinstance(more, ao.Spend)
    assert (move.spaces, more.spaces) == (4, 1)  # 4 + 1 = (6 + 2 + 2) // 2 again
    assert rs.movement_of(fight, "sable", "") == 10
    fresh = demo()
    with pytest.raises(RefereeError, match=r"spaces: 9 is out of range \(0 to 8\)"):
        fresh.push(ao.Spend(round=1, actor="sable", ma=1, use="move", spaces=9))


def test_movement_halving_feats_and_prone() -> None:
    fight = demo()
    rs = fight.ruleset
    assert rs.movement_of(fight, "sable", "") == 8  # Athlete
    assert rs.movement_of(fight, "brann", "climbing") == 3
    fight.enter(ev.Condition(round=1, target="brann", name="prone"))
    assert rs.movement_of(fight, "brann", "") == 2


def test_standing_up_off_turn_takes_from_the_next_turn() -> None:
    fight = demo()
    fight.enter(ev.Resolve(round=1, actions=("sable:turn",)))
    fight.enter(ev.Condition(round=1, target="sable", name="prone"))
    run(fight, "stand", "sable", pay="MA")
    assert not fight.ruleset.prone(fight, "sable")
    fight.enter(ev.NewRound(round=2))
    assert fight.ruleset.left(fight, "sable") == (1, 0, 2)


# -- AO-7 … AO-12: attacks -----------------------------------------------------------------


def test_hit_targets() -> None:
    fight = demo()
    rs = fight.ruleset
    assert rs.target_number(fight, "hask", False)[0] == 13
    assert rs.target_number(fight, "hask", True)[0] == 5
    fight.enter(ev.Condition(round=1, target="hask", name="prone"))
    assert rs.target_number(fight, "hask", False)[0] == 8
    assert rs.hit_bonus(fight, "sable", True, True)[0] == 4


@given(hs.lists(hs.integers(1, 20), max_size=8))
def test_chains_stop_exactly_where_their_dice_say(values: list[int]) -> None:
    try:
        links = atk.chain(CHAIN, values, random.Random(0), "critical")
    except IllegalEvent:
        return
    assert [v for _, v in links] == values
    assert len(links) <= atk.DECISIVE  # a 6 on the d6 ends it (AO-8, AO-9)
    for size, value in links[:-1]:
        assert value == size
    if links and len(links) < atk.DECISIVE:
        assert links[-1][1] != links[-1][0]


@given(hs.integers(0, 10_000))
def test_program_chains_stop_at_the_first_die_short_of_its_maximum(seed: int) -> None:
    links = atk.chain(CHAIN, None, random.Random(seed), "fumble")
    assert all(v == s for s, v in links[:-1])
    assert links[-1][1] != links[-1][0] or len(links) == atk.DECISIVE
    assert len(links) <= atk.DECISIVE  # never a d8: the d6's 6 is decisive (AO-9)


def test_a_critical_chain_typed_short_or_long_is_refused() -> None:
    with pytest.raises(IllegalEvent, match="goes on"):
        atk.chain(CHAIN, [4], random.Random(0), "critical")
    with pytest.raises(IllegalEvent, match="stops at d4"):
        atk.chain(CHAIN, [2, 5], random.Random(0), "critical")


def test_a_super_critical_quadruples_damage_and_sneak_dice_and_wounds() -> None:
    fight = demo()
    pushed = run(fight, "attack", "sable", target="hask", d20=20, chain="4 2", damage="3",
                 sneak=True, sneak_dice="1 1", aim="weakening")
    damage = next(e for e in pushed if isinstance(e, ev.Damage))
    assert damage.amount == (3 + 2) * 4 - 1  # sneak 2d4 (Sneak attack), armour 1
    wound = next(e for e in pushed if isinstance(e, ao.Wound))
    assert wound.effect == "weakening"
    assert fight.ruleset.max_ba(fight, "hask") == 1


def test_a_decisive_victory_fells_the_target() -> None:
    fight = demo()
    with pytest.raises(IllegalEvent, match="a 6 on the d6 ends it"):
        run(fight, "attack", "sable", target="gorm", d20=20, chain="4 6 1", damage="1")
    run(fight, "attack", "sable", target="gorm", d20=20, chain="4 6", damage="1")
    assert fight.status["gorm"].dead


def test_a_fatal_wound_adds_16_on_a_4() -> None:
    fight = demo()
    pushed = run(fight, "attack", "sable", target="gorm", d20=19, damage="6", aim="fatal",
                 fatal=4)
    damage = next(e for e in pushed if isinstance(e, ev.Damage))
    assert damage.amount == 6 + 16


def test_a_tragedy_gives_a_free_critical_without_a_slot_and_a_six_kills() -> None:
    fight = demo()
    run(fight, "attack", "sable", target="gorm", d20=1, chain="4 2")
    assert fight.ruleset.has_grant(fight, "gorm", "sable", "tragedy")
    assert fight.ruleset.free_left(fight, "gorm") == 0  # Agility -1: no slots
    pushed = run(fight, "free", "gorm", target="sable", chain="1", damage="2")
    attack = next(e for e in pushed if isinstance(e, ao.Attack))
    assert attack.granted and attack.crit == 1
    other = demo()
    run(other, "attack", "sable", target="gorm", d20=1, chain="4 6")
    assert other.status["sable"].dead


def test_free_hits_are_counted_and_refused_when_spent() -> None:
    fight = demo()
    for _ in range(4):
        run(fight, "free", "hask", target="odo", d20=2)
    assert "no free hit slot" in fight.ruleset.can_run(fight, "free", "hask")


def test_healing_six_removes_the_wound_and_its_effect() -> None:
    fight = demo()
    fight.enter(ao.Wound(round=1, target="hask", effect="slowing"))
    assert fight.ruleset.agility_now(fight, "hask") == 2
    fight.enter(ev.Heal(round=1, target="hask", amount=6))
    assert fight.ruleset.agility_now(fight, "hask") == 3


# -- AO-13 … AO-15 -------------------------------------------------------------------------


def test_summons_sickness_slots_and_vanishing() -> None:
    fight = demo()
    wisp = fight.ruleset.reader.read(
        {"type": "join", "round": 1, "combatant": {"id": "wisp", "name": "Wisp",
         "side": "party", "hp": 3, "summoned": 1, "summoner": "mira"}}, ())
    fight.enter(wisp)
    assert fight.ruleset.flat_footed(fight, "wisp") == "summoning sickness"
    assert "wisp" not in order(fight)
    more = [fight.ruleset.reader.read(
        {"type": "join", "round": 1, "combatant": {"id": f"w{n}", "name": "W",
         "side": "party", "hp": 3, "summoned": 1, "summoner": "mira"}}, ()) for n in (2, 3)]
    fight.enter(more[0])
    with pytest.raises(IllegalEvent, match="no summoning slot"):
        fight.enter(more[1])
    fight.enter(ev.End(round=1))
    assert fight.ruleset.gone(fight, "wisp")


def test_a_summon_joining_unsaid_is_sick_for_the_rest_of_its_round_and_the_next() -> None:
    fight = demo()
    fight.enter(ev.NewRound(round=2))
    wisp = fight.ruleset.reader.read(
        {"type": "join", "round": 2, "combatant": {"id": "wisp", "name": "Wisp",
         "side": "party", "hp": 3, "agility": 5, "summoner": "mira"}}, ())
    fight.enter(wisp)
    assert fight.ruleset.summoned_in(fight, "wisp") == 2
    assert fight.ruleset.flat_footed(fight, "wisp") == "summoning sickness"
    assert "wisp" not in order(fight)
    fight.enter(ev.NewRound(round=3))
    assert "wisp" not in order(fight)
    fight.enter(ev.NewRound(round=4))
    assert order(fight)[0] == "wisp"


def test_an_end_with_both_teams_standing_has_no_victors_and_refills_no_mp() -> None:
    fight = demo()
    for cid in ("sable", "brann", "vask"):
        fight.enter(ev.Resolve(round=1, actions=(f"{cid}:turn",)))
    run(fight, "act", "mira", use="cast", mp=5)
    fight.enter(ev.End(round=1, note="a parley"))
    assert fight.ruleset.fight_facts(fight)["victors"] == []
    assert fight.ruleset.facts(fight, "mira")["mp"] == 7


def test_the_battle_ends_when_a_side_falls() -> None:
    fight = demo()
    for cid in ("vask", "gorm", "hask"):
        pushed = fight.enter(ev.Damage(round=1, target=cid, amount=30))
    assert any(isinstance(e, ev.End) for e in pushed) and fight.ended
    assert fight.ruleset.fight_facts(fight)["victors"] == ["party"]


# -- ranges --------------------------------------------------------------------------------


def test_the_ruleset_files_numbers_have_ranges_and_the_chain_ends_at_the_d6() -> None:
    from referee.engine.errors import FormatError
    from referee.rulesets.agility_order import RULESET

    with pytest.raises(FormatError, match=r"1000000 is out of range \(0 to 100\)"):
        RULESET({"movement": 1000000})
    with pytest.raises(FormatError, match=r"1 is out of range \(2 to 100\)"):
        RULESET({"chain_dice": [4, 1]})
    old_copy = RULESET({"chain_dice": [4, 6, 8, 10, 12, 20]})  # a house copy of old
    assert "d8, d10, d12, d20 never rolled" in " ".join(old_copy.switches())


def test_a_round_far_ahead_is_refused_not_walked_through() -> None:
    fight = demo()
    with pytest.raises(RefereeError, match=r"1000000 is out of range \(0 to 100\)"):
        fight.enter(ev.NewRound(round=1_000_000))
    fight.enter(ev.NewRound(round=100))
    assert fight.round == 100


# -- properties ----------------------------------------------------------------------------

COMMANDS = ("attack", "move", "bonus", "act", "free", "stand", "delay", "next", "round",
            "prone")


def random_battle(seed: int, steps: int) -> Fight:
    fight = demo()
    rng = random.Random(seed)
    rs = fight.ruleset
    for _ in range(steps):
        command = rng.choice(COMMANDS)
        actor = rng.choice(list(fight.roster))
        try:
            if command == "next":
                now = rs.turn(fight)
                if now:
                    fight.enter(ev.Resolve(round=max(fight.round, 1), actions=(f"{now}:turn",)))
            elif command == "round":
                fight.enter(ev.NewRound(round=max(fight.round, 1) + 1))
            elif command == "prone":
                fight.enter(ev.Condition(round=max(fight.round, 1), target=actor, name="prone"))
            else:
                form = rs.command_form(fight, command, actor)
                values = {f.name: f.default for f in form.fields} if form else {}
                if command in ("attack", "free"):
                    values["aim"] = rng.choice(("", "slowing", "fatal", "weakening"))
                for event in rs.run_command(fight, command, actor, values, rng):
                    fight.enter(event)
        except IllegalEvent:
            pass
    return fight


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 100_000), hs.integers(1, 60))
def test_a_budget_never_goes_below_zero(seed: int, steps: int) -> None:
    fight = random_battle(seed, steps)
    rs = fight.ruleset
    for cid in fight.roster:
        spent = rs.state(fight).spent.get(cid, (0, 0, 0))
        assert spent[0] <= 1 and spent[1] <= 1 and spent[2] <= rs.max_ba(fight, cid) + 2
        assert min(rs.left(fight, cid)) >= 0
        assert rs.free_left(fight, cid) >= 0


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 100_000), hs.integers(1, 60))
def test_the_lineup_is_a_permutation_of_the_units_who_can_act(seed: int, steps: int) -> None:
    fight = random_battle(seed, steps)
    rs = fight.ruleset
    lineup = order(fight)
    can = {cid for cid in fight.roster if rs.no_turn(fight, cid) is None}  # AO-1: not who fell
    assert sorted(lineup) == sorted(can)
    skipped = {s["actor"] for s in fight.plan().skipped}
    assert skipped | set(lineup) == set(fight.roster) and not skipped & set(lineup)


@settings(max_examples=25, deadline=None)
@given(hs.integers(0, 100_000), hs.integers(1, 60))
def test_replay_of_a_save_equals_its_fold(seed: int, steps: int) -> None:
    fight = random_battle(seed, steps)
    save = load_save(DEMO)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "battle.toml"
        path.write_text(save_text(save.encounter, fight.log))
        again = load_save(path).fight
        text = path.read_text()
    rs = fight.ruleset
    assert again.rs == fight.rs
    assert {c: rs.facts(again, c) for c in again.roster} == {
        c: rs.facts(fight, c) for c in fight.roster}
    assert again.plan().to_json() == fight.plan().to_json()
    assert tomllib.loads(text)["ruleset"] == "agility-order"
    for cut in (0, len(fight.log) // 2):
        part = again.at(cut)
        for event in fight.log[cut:]:
            part.push(event)
        assert part.rs == fight.rs
