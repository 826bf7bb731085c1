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
from referee.engine.port import Ruleset
from referee.engine.specs import Act
from referee.rulesets.agility_order import attack as atk
from referee.rulesets.agility_order import budget, units
from referee.rulesets.agility_order import events as ao
from referee.session.files import load_save
from referee.session.writer import save_text
from tests.acts import act as act_of
from tests.conftest import ROOT

DEMO = ROOT / "saves" / "agility-order.toml"
CHAIN = (4, 6, 8, 10, 12, 20)


def demo() -> Fight:
    return load_save(DEMO).fight


def act(rs: Ruleset, fight: Fight, name: str) -> Act:
    assert fight.ruleset is rs
    return act_of(fight, name)


def events_of(rs: Ruleset, fight: Fight, name: str, actor: str | None,
              values: dict[str, object], rng: random.Random) -> list[ev.Event]:
    """The events of the act `name` done by `actor` (nothing entered)."""
    found = act(rs, fight, name).run
    assert found is not None
    return found(fight, actor, values, rng)


def run(fight: Fight, command: str, actor: str | None, seed: int = 1,
        **values: object) -> list[ev.Event]:
    events = events_of(fight.ruleset, fight, command, actor, values, random.Random(seed))
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
    assert fight.ruleset.planner.ties_due(fight) == ["brann", "vask"]
    assert "Reach" in fight.roster["vask"].stats["feats"]
    assert fight.plan().beats[-1].rules == ["AO-1", "AO-2"]


def test_tie_rolls_typed_are_kept_and_named_in_the_why() -> None:
    fight = demo()
    run(fight, "ties", None, brann=3, vask=17)
    assert order(fight)[1:3] == ["vask", "brann"]
    assert "d20" in fight.plan().beats[1].why[-1]
    assert fight.ruleset.planner.ties_due(fight) == []
    fight.enter(ev.NewRound(round=2))
    assert order(fight)[1:3] == ["vask", "brann"]  # kept for the battle


def test_a_tie_rolled_equal_is_rolled_again() -> None:
    fight = demo()
    run(fight, "ties", None, brann=9, vask=9)
    assert fight.ruleset.planner.ties_due(fight) == ["brann", "vask"]
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
        events_of(referee, fight, "ties", None, {}, random.Random(1))
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
    assert fight.ruleset.planner.ties_due(fight) == []
    with pytest.raises(IllegalEvent, match="only the units still in it roll"):
        fight.enter(ao.Initiative(round=1, ties={"brann": 3, "vask": 17}))


def test_a_new_tie_asks_only_the_unit_that_never_rolled() -> None:
    fight = demo()
    run(fight, "ties", None, brann=3, vask=17)
    fight.enter(ao.Wound(round=1, target="sable", effect="slowing"))  # Agility 3 -> 2
    fight.enter(ev.NewRound(round=2))
    assert fight.ruleset.planner.ties_due(fight) == ["sable"]
    run(fight, "ties", None, sable=10)
    assert order(fight)[:3] == ["vask", "sable", "brann"]  # 17, 10, 3: kept rolls


# -- AO-4 … AO-6: the budget ---------------------------------------------------------------


def test_extra_attack_takes_ma_and_both_ba_and_then_nothing_is_left() -> None:
    fight = demo()
    run(fight, "attack", "sable", target="hask", d20=2)
    run(fight, "attack", "sable", target="hask", d20=2, pay="extra")
    assert budget.left(fight, "sable") == (0, 0, 0)
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
    other = act(rs, fight, "act").form(fight, "sable")
    assert other is not None
    assert "disengage" not in [v for f in other.fields for _, v in f.options]
    with pytest.raises(IllegalEvent, match="never with the MA"):
        run(fight, "act", "sable", pay="MA", use="disengage")
    form = act(rs, fight, "disengage").form(fight, "sable")
    assert form is not None and [v for _, v in form.fields[0].options] == ["AA", "2 BA"]
    run(fight, "disengage", "sable", pay="AA")
    assert budget.left(fight, "sable") == (0, 1, 2)
    form = act(rs, fight, "disengage").form(fight, "sable")
    assert form is not None and [v for _, v in form.fields[0].options] == ["2 BA"]
    run(fight, "disengage", "sable", pay="2 BA")
    assert budget.left(fight, "sable") == (0, 1, 0)
    assert "neither the AA nor 2 BA" in act(rs, fight, "disengage").allowed(fight, "sable")


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
    assert budget.movement_of(rs.movement, fight, "sable", "") == 10
    fresh = demo()
    with pytest.raises(RefereeError, match=r"spaces: 9 is out of range \(0 to 8\)"):
        fresh.push(ao.Spend(round=1, actor="sable", ma=1, use="move", spaces=9))


def test_movement_halving_feats_and_prone() -> None:
    fight = demo()
    rs = fight.ruleset
    assert budget.movement_of(rs.movement, fight, "sable", "") == 8  # Athlete
    assert budget.movement_of(rs.movement, fight, "brann", "climbing") == 3
    fight.enter(ev.Condition(round=1, target="brann", name="prone"))
    assert budget.movement_of(rs.movement, fight, "brann", "") == 2


def test_standing_up_off_turn_takes_from_the_next_turn() -> None:
    fight = demo()
    fight.enter(ev.Resolve(round=1, actions=("sable:turn",)))
    fight.enter(ev.Condition(round=1, target="sable", name="prone"))
    run(fight, "stand", "sable", pay="MA")
    assert not units.prone(fight, "sable")
    fight.enter(ev.NewRound(round=2))
    assert budget.left(fight, "sable") == (1, 0, 2)


def test_a_cast_names_one_of_the_casters_spells_and_its_target() -> None:
    """AO-4: the other action's form asks a caster which spell and at whom; the spend
    records both, and its line names them."""
    from referee.session.replay import describe

    fight = demo()
    for cid in ("sable", "brann", "vask"):
        fight.enter(ev.Resolve(round=1, actions=(f"{cid}:turn",)))
    form = act(fight.ruleset, fight, "act").form(fight, "mira")
    assert form is not None
    fields = {f.name: f for f in form.fields}
    assert fields["use"].default == "cast"
    assert [v for _, v in fields["spell"].options] == ["fire dart", "mend"]
    targets = [v for _, v in fields["target"].options]
    assert targets[0] == fields["target"].default == "vask"  # foes first
    assert targets[-2:] == ["mira", ""]  # the caster itself, or no one (an area)
    spend = events_of(fight.ruleset, fight, "act", "mira", {
        "use": "cast", "spell": "mend", "target": "odo", "pay": "AA", "mp": 2},
        random.Random(0))[0]
    assert isinstance(spend, ao.Spend)
    assert (spend.spell, spend.target, spend.mp, spend.aa) == ("mend", "odo", 2, 1)
    assert describe(fight, spend) == ("Mira the hedge-mage casts mend at Odo the "
                                      "shieldman: AA, 2 MP (AO-4)")
    fight.enter(spend)
    assert budget.mp_left(fight, "mira") == 10


def test_a_cast_without_a_spell_of_the_casters_is_refused_at_its_field() -> None:
    fight = demo()
    rs = fight.ruleset
    for cid in ("sable", "brann", "vask"):
        fight.enter(ev.Resolve(round=1, actions=(f"{cid}:turn",)))
    with pytest.raises(IllegalEvent, match="a cast names its spell") as caught:
        events_of(rs, fight, "act", "mira", {"use": "cast"}, random.Random(0))
    assert caught.value.path == ("spell",)
    with pytest.raises(IllegalEvent, match="no spell 'fireball'"):
        events_of(rs, fight, "act", "mira", {"use": "cast", "spell": "fireball"},
                  random.Random(0))
    fight.enter(ev.Resolve(round=1, actions=("mira:turn",)))
    fight.enter(ev.Resolve(round=1, actions=("odo:turn",)))
    fight.enter(ev.Resolve(round=1, actions=("gorm:turn",)))
    fight.enter(ev.NewRound(round=2))
    fight.enter(ev.Resolve(round=2, actions=("sable:turn",)))
    brann = act(rs, fight, "act").form(fight, "brann")
    assert brann is not None and "cast" not in [v for _, v in brann.fields[0].options]
    assert "spell" not in [f.name for f in brann.fields]
    with pytest.raises(IllegalEvent, match="Brann has no spell to cast"):
        events_of(rs, fight, "act", "brann", {"use": "cast"}, random.Random(0))
    # another use names no spell; a save that says otherwise is refused
    talk = events_of(rs, fight, "act", "brann", {"use": "talk"}, random.Random(0))[0]
    assert isinstance(talk, ao.Spend) and talk.spell is None and talk.target is None
    with pytest.raises(IllegalEvent, match="only a cast names a spell"):
        fight.enter(ao.Spend(round=2, actor="brann", aa=1, use="talk", spell="mend"))
    with pytest.raises(IllegalEvent, match="Brann has no spell 'mend'"):
        fight.enter(ao.Spend(round=2, actor="brann", aa=1, use="cast", spell="mend"))
    fight.enter(ao.Spend(round=2, actor="brann", aa=1, use="cast"))  # as older saves say


# -- AO-7 … AO-12: attacks -----------------------------------------------------------------


def test_hit_targets() -> None:
    fight = demo()
    assert units.target_number(fight, "hask", False)[0] == 13
    assert units.target_number(fight, "hask", True)[0] == 5
    fight.enter(ev.Condition(round=1, target="hask", name="prone"))
    assert units.target_number(fight, "hask", False)[0] == 8
    assert units.hit_bonus(fight, "sable", True, True)[0] == 4


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
    assert budget.max_ba(fight, "hask") == 1


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
    assert budget.has_grant(fight, "gorm", "sable", "tragedy")
    assert budget.free_left(fight, "gorm") == 0  # Agility -1: no slots
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
    assert "no free hit slot" in act(fight.ruleset, fight, "free").allowed(fight, "hask")


def test_healing_six_removes_the_wound_and_its_effect() -> None:
    fight = demo()
    fight.enter(ao.Wound(round=1, target="hask", effect="slowing"))
    assert units.agility_now(fight, "hask") == 2
    fight.enter(ev.Heal(round=1, target="hask", amount=6))
    assert units.agility_now(fight, "hask") == 3


# -- AO-11: a hit entered as damage alone (h), and a wound by hand (w) --------------------


def hit(fight: Fight, target: str, amount: int, source: str = "sable") -> list[ev.Event]:
    """What the hit key enters: damage with its source, and what the rules add."""
    return fight.enter(ev.Damage(round=max(fight.round, 1), target=target, amount=amount,
                                 source=source))


def test_a_hit_entered_as_damage_goes_through_armour_and_wounds_at_six_net() -> None:
    fight = demo()
    pushed = hit(fight, "odo", 7)  # armour 2: 5 net, no wound
    assert fight.status["odo"].hp == 20 - 5 and len(pushed) == 1
    pushed = hit(fight, "odo", 8)  # 6 net: a wound
    assert fight.status["odo"].hp == 15 - 6
    wound = pushed[-1]
    assert isinstance(wound, ao.Wound) and (wound.target, wound.by, wound.effect) == (
        "odo", "sable", None)
    assert wound.follows  # one act with its damage
    assert fight.ruleset.tracker.facts(fight, "odo")["wounds"] == [""]
    hit(fight, "gorm", 3)
    assert fight.status["gorm"].hp == 13  # no armour: all of it


def test_a_hit_and_its_wound_go_back_together_and_fold_the_same_from_the_save() -> None:
    fight = demo()
    hit(fight, "vask", 9)  # armour 1: 8 net
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "battle.toml"
        path.write_text(save_text(load_save(DEMO).encounter, fight.log))
        again = load_save(path).fight
    assert again.status["vask"].hp == fight.status["vask"].hp == 7
    assert again.rs == fight.rs
    fight.enter(ev.Undo(round=1))
    assert fight.status["vask"].hp == 15
    assert fight.ruleset.tracker.facts(fight, "vask")["wounds"] == []


def test_an_attacks_own_damage_is_net_already_and_wounds_once() -> None:
    fight = demo()
    pushed = run(fight, "attack", "sable", target="hask", d20=19, damage="6")
    damage = next(e for e in pushed if isinstance(e, ev.Damage))
    assert damage.amount == 5 and fight.status["hask"].hp == 15  # armour off once
    assert not [e for e in pushed if isinstance(e, ao.Wound)]
    pushed = run(fight, "attack", "sable", target="hask", d20=19, damage="6", pay="extra")
    assert len([e for e in pushed if isinstance(e, ao.Wound)]) == 0
    other = demo()
    pushed = run(other, "attack", "sable", target="gorm", d20=19, damage="6")
    assert len([e for e in pushed if isinstance(e, ao.Wound)]) == 1  # attack.py's own
    hit(other, "gorm", 2)  # the next hit is a hit of its own, not the attack's damage
    assert other.status["gorm"].hp == 16 - 6 - 2


def test_damage_with_no_source_is_no_hit_and_no_armour_stops_it() -> None:
    fight = demo()
    pushed = fight.enter(ev.Damage(round=1, target="odo", amount=9))
    assert fight.status["odo"].hp == 11 and not [e for e in pushed if isinstance(e, ao.Wound)]


def test_the_hit_form_shows_the_armour_taken_off_and_where_a_wound_begins() -> None:
    from referee.session.replay import describe

    fight = demo()
    (shown,) = fight.ruleset.damage.damage_fields(fight)
    options = dict((v, label) for label, v in shown.options)
    assert options["vask"] == "Vask the spearman: 1 off, 7+ wounds"
    assert options["odo"] == "Odo the shieldman: 2 off, 8+ wounds"
    assert options["gorm"] == "Gorm: 0 off, 6+ wounds"
    assert shown.default == "vask"  # the first foe of Sable, whose turn it is
    line = describe(fight, ev.Damage(round=1, target="vask", amount=9, source="sable"))
    assert line == ("Vask the spearman takes 8 damage (9 − armour 1) from Sable the scout "
                    "(hp 7/15)")
    hit(fight, "vask", 9)
    assert describe(fight.at(len(fight.log) - 1), fight.log[-1]) == (
        "Vask the spearman is wounded: 6+ net damage (AO-11)")


def test_a_wound_by_hand_with_its_aimed_effect() -> None:
    fight = demo()
    rs = fight.ruleset
    form = act(rs, fight, "wound").form(fight, "hask")
    assert form is not None
    fields = {f.name: f for f in form.fields}
    assert list(fields) == ["target", "effect", "by", "fatal"]
    assert fields["target"].default == "hask" and fields["by"].default == "sable"
    assert [v for _, v in fields["effect"].options] == ["", "fatal", "slowing", "weakening",
                                                        "disrupting"]
    assert act(rs, fight, "wound").allowed(fight, None) == ""
    with pytest.raises(IllegalEvent, match="an aimed effect needs a hit"):
        run(fight, "wound", None, target="hask", effect="slowing", by="sable")
    hit(fight, "hask", 2)  # a hit by Sable: an aimed effect may follow it
    run(fight, "wound", None, target="hask", effect="slowing", by="sable")
    assert rs.tracker.facts(fight, "hask")["wounds"] == ["slowing"] and units.agility_now(
        fight, "hask") == 2
    run(fight, "wound", None, target="odo")  # a plain wound, by nobody named
    assert rs.tracker.facts(fight, "odo")["wounds"] == [""]
    fight.enter(ev.Undo(round=1))
    assert rs.tracker.facts(fight, "odo")["wounds"] == []


def test_a_fatal_wound_by_hand_rolls_its_d4_and_no_armour_stops_the_bonus() -> None:
    fight = demo()
    pushed = run(fight, "wound", None, target="odo", effect="fatal", fatal=4)
    roll = next(e for e in pushed if isinstance(e, ev.Roll))
    assert roll.dice == (4,) and roll.real
    assert fight.status["odo"].hp == 20 - 16  # armour 2 does not stop it
    assert [e.TYPE for e in pushed] == ["wound", "roll", "damage"]
    pushed = run(fight, "wound", None, target="vask", effect="fatal", fatal=3)
    assert [e.TYPE for e in pushed] == ["wound", "roll"] and fight.status["vask"].hp == 15
    with pytest.raises(IllegalEvent, match="only a fatal wound rolls") as caught:
        run(fight, "wound", None, target="vask", effect="slowing", fatal=4)
    assert caught.value.path == ("fatal",)
    with pytest.raises(IllegalEvent, match="1 to 4") as caught:
        run(fight, "wound", None, target="vask", effect="fatal", fatal=5)
    assert caught.value.path == ("fatal",)
    fight.enter(ev.Death(round=1, target="gorm"))
    with pytest.raises(IllegalEvent, match="Gorm is dead"):
        run(fight, "wound", None, target="gorm")


# -- AO-13 … AO-15 -------------------------------------------------------------------------


def test_summons_sickness_slots_and_vanishing() -> None:
    fight = demo()
    wisp = fight.ruleset.schema.reader.read(
        {"type": "join", "round": 1, "combatant": {"id": "wisp", "name": "Wisp",
         "side": "party", "hp": 3, "summoned": 1, "summoner": "mira"}}, ())
    fight.enter(wisp)
    assert units.flat_footed(fight, "wisp") == "summoning sickness"
    assert "wisp" not in order(fight)
    more = [fight.ruleset.schema.reader.read(
        {"type": "join", "round": 1, "combatant": {"id": f"w{n}", "name": "W",
         "side": "party", "hp": 3, "summoned": 1, "summoner": "mira"}}, ()) for n in (2, 3)]
    fight.enter(more[0])
    with pytest.raises(IllegalEvent, match="no summoning slot"):
        fight.enter(more[1])
    fight.enter(ev.End(round=1))
    assert units.gone(fight, "wisp")


def test_a_summon_joining_unsaid_is_sick_for_the_rest_of_its_round_and_the_next() -> None:
    fight = demo()
    fight.enter(ev.NewRound(round=2))
    wisp = fight.ruleset.schema.reader.read(
        {"type": "join", "round": 2, "combatant": {"id": "wisp", "name": "Wisp",
         "side": "party", "hp": 3, "agility": 5, "summoner": "mira"}}, ())
    fight.enter(wisp)
    assert units.summoned_in(fight, "wisp") == 2
    assert units.flat_footed(fight, "wisp") == "summoning sickness"
    assert "wisp" not in order(fight)
    fight.enter(ev.NewRound(round=3))
    assert "wisp" not in order(fight)
    fight.enter(ev.NewRound(round=4))
    assert order(fight)[0] == "wisp"


def test_an_end_with_both_teams_standing_has_no_victors_and_refills_no_mp() -> None:
    fight = demo()
    for cid in ("sable", "brann", "vask"):
        fight.enter(ev.Resolve(round=1, actions=(f"{cid}:turn",)))
    run(fight, "act", "mira", use="cast", spell="fire dart", mp=5)
    fight.enter(ev.End(round=1, note="a parley"))
    assert fight.ruleset.tracker.fight_facts(fight)["victors"] == []
    assert fight.ruleset.tracker.facts(fight, "mira")["mp"] == 7


def test_the_battle_ends_when_a_side_falls() -> None:
    fight = demo()
    for cid in ("vask", "gorm", "hask"):
        pushed = fight.enter(ev.Damage(round=1, target=cid, amount=30))
    assert any(isinstance(e, ev.End) for e in pushed) and fight.ended
    assert fight.ruleset.tracker.fight_facts(fight)["victors"] == ["party"]


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
            "prone", "hit", "wound")


def random_battle(seed: int, steps: int) -> Fight:
    fight = demo()
    rng = random.Random(seed)
    rs = fight.ruleset
    for _ in range(steps):
        command = rng.choice(COMMANDS)
        actor = rng.choice(list(fight.roster))
        try:
            if command == "next":
                now = rs.planner.turn(fight)
                if now:
                    fight.enter(ev.Resolve(round=max(fight.round, 1), actions=(f"{now}:turn",)))
            elif command == "round":
                fight.enter(ev.NewRound(round=max(fight.round, 1) + 1))
            elif command == "prone":
                fight.enter(ev.Condition(round=max(fight.round, 1), target=actor, name="prone"))
            elif command == "hit":  # the hit key: damage alone, through armour (AO-11)
                hit(fight, actor, rng.randint(1, 12), rng.choice(list(fight.roster)))
            else:
                form = act(rs, fight, command).form(fight, actor)
                values = {f.name: f.default for f in form.fields} if form else {}
                if command in ("attack", "free"):
                    values["aim"] = rng.choice(("", "slowing", "fatal", "weakening"))
                for event in events_of(rs, fight, command, actor, values, rng):
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
        spent = rs.fold.state(fight).spent.get(cid, (0, 0, 0))
        assert spent[0] <= 1 and spent[1] <= 1 and spent[2] <= budget.max_ba(fight, cid) + 2
        assert min(budget.left(fight, cid)) >= 0
        assert budget.free_left(fight, cid) >= 0


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 100_000), hs.integers(1, 60))
def test_the_lineup_is_a_permutation_of_the_units_who_can_act(seed: int, steps: int) -> None:
    fight = random_battle(seed, steps)
    lineup = order(fight)
    done = fight.resolved.get(max(fight.round, 1), set())
    # AO-1: not who fell before its turn; a turn taken stays (issue 30 A3)
    can = {cid for cid in fight.roster
           if units.no_turn(fight, cid) is None or f"{cid}:turn" in done}
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
    assert {c: rs.tracker.facts(again, c) for c in again.roster} == {
        c: rs.tracker.facts(fight, c) for c in fight.roster}
    assert again.plan().to_json() == fight.plan().to_json()
    assert tomllib.loads(text)["ruleset"] == "agility-order"
    for cut in (0, len(fight.log) // 2):
        part = again.at(cut)
        for event in fight.log[cut:]:
            part.push(event)
        assert part.rs == fight.rs


def test_an_attack_keeps_the_referees_note():
    """Issue 24 E.17: the attack form's note goes in the event and its log line."""
    import random

    from referee.session.files import load_save
    from referee.session.replay import describe
    from referee.session.store import Session
    from referee.session.table import Table
    from tests.conftest import ROOT

    fight = load_save(ROOT / "saves" / "agility-order.toml").fight
    form = act(fight.ruleset, fight, "attack").form(fight, "sable")
    assert form is not None and "note" in [f.name for f in form.fields]
    import shutil
    import tempfile
    from pathlib import Path

    folder = Path(tempfile.mkdtemp())
    path = folder / "ao.toml"
    shutil.copyfile(ROOT / "saves" / "agility-order.toml", path)
    with Session.open(path) as session:
        table = Table(session, random.Random(4))
        target = next(f for f in form.fields if f.name == "target").default
        events = table.command("attack", "sable", {"target": target, "d20": 2,
                                                   "note": "for the mill"})
        attack = next(e for e in events if e.TYPE == "attack")
        assert attack.note == "for the mill"
        assert describe(table.fight, attack).endswith("— for the mill")
    assert [e for e in load_save(path).fight.log if e.TYPE == "attack"][0].note == "for the mill"
