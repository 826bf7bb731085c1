"""In-round demon-idol rules as engine functions over the state (DI-1, 14, 15, 18-21)."""

from __future__ import annotations

import random

import pytest

from referee.engine import Fight, IllegalDeclaration
from referee.engine import events as ev
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save
from tests.conftest import ROOT

SCENARIOS = ROOT / "tests" / "scenarios" / "demon-idol"


def fight_from(name: str) -> Fight:
    return load_save(SCENARIOS / name).fight


def push_all(fight: Fight, events: list[ev.Event]) -> None:
    for event in events:
        fight.push(event)


def damage(fight: Fight, target: str, amount: int, beat: int | None = None) -> list[ev.Event]:
    hit = ev.Damage(round=fight.round, target=target, amount=amount, beat=beat)
    fight.push(hit)
    consequences = fight.ruleset.after(fight, hit)
    push_all(fight, consequences)
    return consequences


def test_damage_before_the_spell_resolves_loses_it():
    fight = fight_from("di-04-caster-vs-caster.toml")  # zed's sleep goes in beat 1
    lost = damage(fight, "shaman", 3, beat=1)
    assert [type(e) for e in lost] == [di.SpellLost]
    assert lost[0].actor == "shaman" and "DI-15" in lost[0].reason
    shaman = [a for b in fight.plan().beats for a in b.actions if a.actor == "shaman"][0]
    assert dict(shaman.extra)["lost"] is True


def test_damage_in_the_same_beat_does_not_interrupt():
    fight = fight_from("di-04-caster-vs-caster.toml")
    fight.push(ev.Resolve(round=1, beat=1))
    assert damage(fight, "shaman", 3, beat=2) == []


def test_a_resolved_spell_is_not_lost():
    fight = fight_from("di-04-caster-vs-caster.toml")
    fight.push(ev.Resolve(round=1, beat=1))
    assert damage(fight, "zed", 2) == []


def test_devices_are_not_interrupted():
    fight = fight_from("di-03-melee-vs-caster.toml")
    fight.pop()  # zed's sleep
    fight.push(di.Declare(round=1, actor="zed", action="D", device="wand", usage_time=3))
    assert damage(fight, "zed", 1, beat=1) == []


def test_death_at_minus_ten():
    fight = fight_from("di-01-won-initiative.toml")
    out = damage(fight, "gob1", 15)
    assert [type(e) for e in out] == [ev.Death]
    assert fight.status["gob1"].dead and fight.status["gob1"].hp == -10


def test_bleeding_only_for_those_below_zero_at_the_start_of_the_round():
    fight = fight_from("di-01-won-initiative.toml")
    damage(fight, "gob1", 6)  # -1 during round 1: not bleeding yet this round
    assert fight.ruleset.end_of_round(fight) == []
    fight.push(ev.NewRound(round=2))
    bleeding = fight.ruleset.end_of_round(fight)
    assert [(type(e), e.target) for e in bleeding] == [(ev.Damage, "gob1")]
    assert bleeding[0].amount == 1 and "DI-19" in bleeding[0].note


def test_bleeding_to_minus_ten_dies():
    fight = fight_from("di-01-won-initiative.toml")
    damage(fight, "gob1", 14)  # -9
    fight.push(ev.NewRound(round=2))
    out = fight.ruleset.end_of_round(fight)
    assert [type(e) for e in out] == [ev.Damage, ev.Death]


def test_a_dead_actor_cannot_declare():
    fight = fight_from("di-01-won-initiative.toml")
    fight.push(ev.Death(round=1, target="gob1"))
    fight.push(ev.NewRound(round=2))
    with pytest.raises(IllegalDeclaration, match="dead"):
        fight.push(di.Declare(round=2, actor="gob1", action="G"))


def test_simultaneous_beat_all_resolve():
    fight = fight_from("di-02-tied-speed-factor.toml")
    fight.push(ev.Death(round=1, target="brann"))  # slain while beat 1 resolves
    assert fight.ruleset.acts_in(fight, "brann", 1)
    assert not fight.ruleset.acts_in(fight, "brann", 2)


def test_failed_morale_replaces_the_groups_actions_with_avoidance():
    fight = fight_from("di-01-won-initiative.toml")
    fight.push(ev.Morale(round=1, group=("gob1",), roll=9, target=7, passed=False, avoid="flee"))
    actions = {a.actor: a for b in fight.plan().beats for a in b.actions}
    assert actions["gob1"].action == "A"
    assert dict(actions["gob1"].extra)["replaces"] == "G"
    assert any("DI-18" in b.rules for b in fight.plan().beats)


def test_pending_morale_is_noted_in_the_plan():
    fight = fight_from("di-01-won-initiative.toml")
    fight.push(ev.Morale(round=1, group=("goblins",)))
    assert any("morale check due" in note for note in fight.plan().notes)


def test_prepared_action_ready_then_fired_before_its_trigger():
    fight = fight_from("di-05-missile-reaction.toml")
    fight.pop()  # gob1's G
    fight.push(di.Declare(round=1, actor="gob1", action="G", weapon="short sword",
                          target=("mira",), prepared=True, trigger="mira moves"))
    ready = [b for b in fight.plan().beats if b.extra.get("ready")]
    assert [a.actor for b in ready for a in b.actions] == ["gob1"]
    assert "DI-14" in ready[0].rules
    fight.push(di.Fire(round=1, actor="gob1", before="brann"))
    labels = fight.plan().labels()
    assert labels.index(["gob1:G"]) == labels.index(["brann:G"]) - 1
    assert not any(b.extra.get("ready") for b in fight.plan().beats)


def test_unfired_preparations_lapse_at_the_end_of_the_round():
    fight = fight_from("di-05-missile-reaction.toml")
    fight.pop()
    fight.push(di.Declare(round=1, actor="gob1", action="G", prepared=True, trigger="x"))
    notes = [e for e in fight.ruleset.end_of_round(fight) if isinstance(e, ev.Note)]
    assert notes and "lapses" in notes[0].text


def test_phases_follow_the_procedure():
    fight = fight_from("di-01-won-initiative.toml")
    assert fight.phase == "declarations"
    fight.push(ev.Phase(round=1, phase="bleeding"))
    assert fight.phase == "bleeding"
    fight.push(ev.End(round=1))
    assert fight.ended and fight.phase == "recovery"


def test_initiative_is_rolled_with_the_injected_generator():
    fight = fight_from("di-01-won-initiative.toml")
    one = fight.ruleset.roll_initiative(fight, random.Random(5))[0]
    two = fight.ruleset.roll_initiative(fight, random.Random(5))[0]
    assert one == two and set(one.rolls) == {"party", "goblins"}
    assert all(1 <= v <= 6 for v in one.rolls.values())
    assert one.dice["party"]["total"] == one.rolls["party"]


def test_pop_and_copy_give_back_earlier_states():
    fight = fight_from("di-01-won-initiative.toml")
    before = fight.plan().labels()
    copy = fight.copy()
    damage(fight, "gob1", 15)
    assert fight.status["gob1"].dead and not copy.status["gob1"].dead
    fight.pop()
    fight.pop()
    assert not fight.status["gob1"].dead and fight.plan().labels() == before


def test_surprise_segment_declarations_only_for_the_surprising_side():
    fight = fight_from("di-01-won-initiative.toml")
    fight = Fight(fight.encounter, fight.ruleset)
    fight.push(di.Surprise(round=1, surprised=("goblins",), segments=2))
    with pytest.raises(IllegalDeclaration, match="surprised"):
        fight.push(di.Declare(round=1, actor="gob1", action="G", segment=1))
    with pytest.raises(IllegalDeclaration, match="3 surprise|2 surprise"):
        fight.push(di.Declare(round=1, actor="brann", action="G", segment=3))
    fight.push(di.Declare(round=1, actor="zed", action="D", spell="web", segment=2,
                          target=("gob1",)))
    beats = fight.plan().beats
    assert beats[0].extra["segment"] == 2 and beats[0].rules == ["DI-17"]
    assert dict(beats[0].actions[0].extra)["completes"] == "after surprise"


def test_undo_from_checkpoints_gives_the_same_state_as_a_full_fold(monkeypatch):
    from referee.engine import fight as fight_module

    monkeypatch.setattr(fight_module, "CHECKPOINT_EVERY", 3)
    fight = fight_from("di-01-won-initiative.toml")
    for n in range(12):
        fight.push(ev.Damage(round=1, target="gob1" if n % 2 else "brann", amount=1))
        if n % 4 == 3:
            fight.push(ev.Undo(round=1))
            fight.push(ev.Undo(round=1))
            fight.push(ev.Redo(round=1))
        fight.push(ev.Condition(round=1, target="zed", name=f"c{n}", duration=2))
    assert fight.checkpoints  # the undos went through checkpoints
    fresh = fight.copy()
    assert {k: vars(v) for k, v in fight.status.items()} == {
        k: vars(v) for k, v in fresh.status.items()}
    assert fight.plan().labels() == fresh.plan().labels()
    assert (fight.round, fight.phase, fight.resolved) == (fresh.round, fresh.phase,
                                                          fresh.resolved)


def test_a_declaration_delay_that_turns_a_comparison_is_cited_with_its_time():
    path = ROOT / "tests/scenarios/demon-idol/di-rule-16-delay-turns-melee-vs-caster.toml"
    beats = load_save(path).fight.plan().beats
    moved = beats[1]
    assert [a.label() for a in moved.actions] == ["zed:D"]
    assert moved.rules == ["DI-10", "DI-16"]
    assert "casting time 1 + 3 delay = 4 > speed factor 3" in moved.why[0]


def test_reasons_read_as_a_person_says_them():
    """`die 2 + reaction 2 = 4 equals goblins' die 4`, not `die 2 +2 = 4 = 4` or `goblins's`."""
    path = ROOT / "tests/scenarios/demon-idol/di-rule-06-equal-enemy-no-d.toml"
    why = "; ".join(w for b in load_save(path).fight.plan().beats for w in b.why)
    assert "die 2 + reaction 2 = 4 equals goblins' die 4" in why
    assert "'s's" not in why and "s's " not in why and "= 4 = 4" not in why


def test_later_routines_follow_a_first_blow_a_rule_moved():
    path = ROOT / "tests/scenarios/demon-idol/di-rule-07-routines-keep-their-order.toml"
    labels = [a.label() for b in load_save(path).fight.plan().beats for a in b.actions]
    assert labels.index("ogre:G#1") < labels.index("ogre:G#2")


def test_a_volleys_shots_keep_their_beat():
    """DI-7's order pass moves only a routine that came before the one it follows."""
    path = ROOT / "saves" / "demo.toml"
    fight = load_save(path).fight
    for actor, letter, weapon in (("mira", "D", "short bow"), ("ogre", "G", "great club")):
        fight.push(di.Declare(round=1, actor=actor, action=letter, weapon=weapon,
                              target=("gob1",) if actor == "mira" else ("brann",)))
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    beats = fight.plan().beats
    volley = [b for b in beats if any(a.actor == "mira" for a in b.actions)]
    assert len(volley) == 1 and "DI-7" not in volley[0].rules


def counter_charge(dice: dict[str, int]) -> list[str]:
    """The mutual charge of di-rule-13-counter-charge (short sword against spear), rolled
    again with `dice`."""
    fight = load_save(ROOT / "tests/scenarios/demon-idol/di-rule-13-counter-charge.toml").fight
    declared = [fight.pop(), fight.pop()]
    fight.pop()  # the initiative
    fight.push(di.Initiative(round=1, rolls=dice))
    for event in reversed(declared):
        fight.push(event)
    return [" ".join(sorted(a.label() for a in b.actions)) for b in fight.plan().beats]


def test_a_counter_charge_is_within_reach_whoever_won():
    """DI-13: in a mutual charge the longer weapon strikes first, on any dice."""
    for dice in ({"party": 5, "goblins": 2}, {"party": 2, "goblins": 5},
                 {"party": 3, "goblins": 3}):
        beats = counter_charge(dice)
        assert beats == ["gob2:E", "brann:E"], dice


def test_a_weapon_set_against_a_charge_offers_double_damage():
    fight = fight_from("di-rule-13-set-equal.toml")  # brann sets his long sword, the orc charges
    ruleset = fight.ruleset
    assert ruleset.damage_default(fight, "brann") == "1d6+1d6"
    assert ruleset.damage_default(fight, "orc") == "1d6"


def test_initiative_overrides_are_checked_shown_and_offered():
    fight = fight_from("di-08-speed-haste-slow.toml")
    actions = {a.actor: a for b in fight.plan().beats for a in b.actions}
    assert actions["brann"].flag("initiative") == "speed"
    assert actions["orc"].flag("initiative") == "slow"
    with pytest.raises(IllegalDeclaration):
        fight.copy().push(di.Declare(round=1, actor="dagger", action="G", initiative="fast",
                                     replaces=True))
    ruleset = fight.ruleset
    assert ruleset.prefill(fight, "brann", "G")["initiative"] == "speed"
    brann = ruleset.declare_form(fight, "brann", "G", ruleset.prefill(fight, "brann", "G"))
    dagger = ruleset.declare_form(fight, "dagger", "G", ruleset.prefill(fight, "dagger", "G"))
    assert "initiative" in [f.name for f in brann.fields]
    assert "initiative" not in [f.name for f in dagger.fields]


def test_a_volley_names_a_target_per_shot():
    fight = fight_from("di-09-volley-shot-targets.toml")
    shots = [a for b in fight.plan().beats for a in b.actions if a.actor == "mira"]
    assert [a.flag("target") for a in shots] == ["orc", "troll"]
    for shots_named in (("orc", "troll", "orc"), ("nobody",)):
        with pytest.raises(IllegalDeclaration):
            fight.copy().push(di.Declare(round=1, actor="mira", action="D", weapon="long bow",
                                         shots=shots_named, replaces=True))
