"""In-round demon-idol rules as engine functions over the state (DI-1, 14, 15, 18-21)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.engine import Fight, IllegalDeclaration
from referee.engine import events as ev
from referee.engine.options import Declaring, Rolling
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_save
from tests.acts import act
from tests.conftest import ROOT

SCENARIOS = ROOT / "tests" / "scenarios" / "demon-idol"


def fight_from(name: str) -> Fight:
    return load_save(SCENARIOS / name).fight


def declaring(fight: Fight) -> Declaring[Any]:
    """demon-idol's declarations role (its letters, forms and declarations)."""
    found = fight.ruleset.role(Declaring)
    assert found is not None
    return found


def push_all(fight: Fight, events: list[ev.Event]) -> None:
    for event in events:
        fight.push(event)


def damage(fight: Fight, target: str, amount: int, beat: int | None = None) -> list[ev.Event]:
    hit = ev.Damage(round=fight.round, target=target, amount=amount, beat=beat)
    fight.push(hit)
    consequences = fight.ruleset.fold.after(fight, hit)
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
    assert fight.ruleset.fold.end_of_round(fight) == []
    fight.push(ev.NewRound(round=2))
    bleeding = fight.ruleset.fold.end_of_round(fight)
    assert [(type(e), e.target) for e in bleeding] == [(ev.Damage, "gob1")]
    assert bleeding[0].amount == 1 and "DI-19" in bleeding[0].note


def test_bleeding_to_minus_ten_dies():
    fight = fight_from("di-01-won-initiative.toml")
    damage(fight, "gob1", 14)  # -9
    fight.push(ev.NewRound(round=2))
    out = fight.ruleset.fold.end_of_round(fight)
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
    assert fight.ruleset.planner.acts_in(fight, "brann", 1)
    assert not fight.ruleset.planner.acts_in(fight, "brann", 2)


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
    notes = [e for e in fight.ruleset.fold.end_of_round(fight) if isinstance(e, ev.Note)]
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
    rolling = fight.ruleset.role(Rolling)
    assert rolling is not None
    one = rolling.roll_initiative(fight, random.Random(5))[0]
    two = rolling.roll_initiative(fight, random.Random(5))[0]
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
    assert ruleset.damage.damage_default(fight, "brann") == "1d6+1d6"
    assert ruleset.damage.damage_default(fight, "orc") == "1d6"


def test_initiative_overrides_are_checked_shown_and_offered():
    fight = fight_from("di-08-speed-haste-slow.toml")
    actions = {a.actor: a for b in fight.plan().beats for a in b.actions}
    assert actions["brann"].flag("initiative") == "speed"
    assert actions["orc"].flag("initiative") == "slow"
    with pytest.raises(IllegalDeclaration):
        fight.copy().push(di.Declare(round=1, actor="dagger", action="G", initiative="fast",
                                     replaces=True))
    role = declaring(fight)
    assert role.prefill(fight, "brann", "G")["initiative"] == "speed"
    brann = role.declare_form(fight, "brann", "G", role.prefill(fight, "brann", "G"))
    dagger = role.declare_form(fight, "dagger", "G", role.prefill(fight, "dagger", "G"))
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


# -- issue 24: the forms and the table know the rules ------------------------------------


def demo() -> Fight:
    return load_save(ROOT / "saves" / "demo.toml").fight


def declare(fight: Fight, actor: str, action: str, **values: object) -> di.Declare:
    """A declaration as the app's form gives it (the form's own words and lines), pushed."""
    event = declaring(fight).declaration(fight, actor, action, values)
    assert isinstance(event, di.Declare)
    fight.push(event)
    return event


def row(fight: Fight, cid: str) -> str:
    """What the tracker and the players' view show of `cid`'s declaration."""
    decl = {d.actor: d for _, d in fight.declared(fight.round)}[cid]
    return declaring(fight).declared_text(fight, cid, decl)


# B.4: a D discharges a missile or thrown weapon, a device, a spell or turning


@pytest.mark.parametrize("values", [{"weapon": "long sword"}, {"weapon": "spear"}, {}])
def test_a_d_with_a_melee_weapon_or_nothing_is_refused(values):
    fight = demo()
    with pytest.raises(IllegalDeclaration) as refused:
        fight.push(di.Declare(round=1, actor="brann", action="D", target=("gob1",),
                              **values))
    assert refused.value.path == ("weapon",)
    assert "a missile or thrown weapon, a device, a spell or turning undead" in str(
        refused.value)
    for allowed in ({"weapon": "short bow"}, {"spell": "sleep"}, {"turn": True},
                    {"device": "wand", "usage_time": 2}):
        fight.copy().push(di.Declare(round=1, actor="zed" if "spell" in allowed else "mira",
                                     action="D", target=("gob1",), **allowed))


def test_one_with_nothing_to_discharge_cannot_declare_d_and_no_form_offers_a_sword():
    fight = demo()
    role = declaring(fight)
    assert "has nothing a D discharges" in role.can_declare(fight, "brann", "D")
    assert role.can_declare(fight, "brann", "G") == ""
    assert role.prefill(fight, "gob2", "D")["weapon"] == "heavy crossbow"
    assert role.prefill(fight, "zed", "D") == {"spell": "sleep", "target": "gob1"}
    for cid in fight.roster:
        if not role.can_declare(fight, cid, "D"):
            declare(fight.copy(), cid, "D", **role.prefill(fight, cid, "D"))


def test_a_thrown_weapon_is_discharged_as_a_missile():
    fight = fight_from("di-rule-06-thrown-dagger.toml")
    assert fight.plan().labels() == [["hal:D"], ["orc:G"]]
    assert declaring(fight).prefill(fight, "hal", "D")["weapon"] == "dagger"
    assert fight.ruleset.damage.damage_default(fight, "hal") == "1d4"


# B.5: a volley split between targets, from the form's one line


def test_the_form_splits_a_volley_between_targets_by_id_or_name():
    fight = demo()
    event = declare(fight, "mira", "D", weapon="short bow", target="gob3",
                    shots="Goblin 1, gob2")
    assert event.shots == ("gob1", "gob2") and event.target == ("gob1", "gob2")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    shots = [a for b in fight.plan().beats for a in b.actions if a.actor == "mira"]
    assert [a.flag("target") for a in shots] == ["gob1", "gob2"]
    assert row(fight, "mira") == "D short bow → Goblin 1, Goblin 2"
    told = fight.ruleset.tracker.tell(fight, event)
    assert told == ("Mira the ranger declares D (short bow) at Goblin 1, Goblin 2 "
                    "(2 shots, in order)")


def test_several_shots_at_one_target_and_what_is_refused():
    fight = demo()
    two = declaring(fight).declaration(fight, "mira", "D", {"weapon": "short bow",
                                                            "shots": "gob1 x2"})
    assert two.shots == ("gob1", "gob1") and two.target == ("gob1",)
    blank = declaring(fight).declaration(fight, "mira", "D", {"weapon": "short bow",
                                                              "target": "gob3", "shots": " "})
    assert blank.shots == () and blank.target == ("gob3",)
    with pytest.raises(IllegalDeclaration, match="no one is called 'gob9'") as unknown:
        declaring(fight).declaration(fight, "mira", "D", {"weapon": "short bow",
                                                          "shots": "gob1, gob9"})
    assert unknown.value.path == ("shots",)
    with pytest.raises(IllegalDeclaration, match="3 targets for short bow's 2 shot"):
        declare(fight, "mira", "D", weapon="short bow", shots="gob1 x2, gob2")


# B.8: a group that broke shows its avoidance, never the old declaration


def test_a_group_that_broke_shows_its_avoidance_not_its_declaration():
    from referee.session.follow import players_view

    fight = demo()
    declare(fight, "gob1", "G", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    assert row(fight, "gob1") == "G → Brann the fighter"
    before = fight.rs
    fight.push(ev.Morale(round=1, group=("goblins",), passed=False, avoid="surrender"))
    assert fight.rs is not before  # the tracker redraws the rows of who broke
    assert row(fight, "gob1") == "A surrender (morale, DI-18)"
    shown = players_view(fight, "demo").text()
    assert "G → Brann the fighter" not in shown and "A surrender (morale, DI-18)" in shown


# B.8: F asks whom it fires before when more than one could have triggered it


def prepared_mira(dice: dict[str, int]) -> Fight:
    fight = demo()
    declare(fight, "mira", "D", weapon="short bow", target="gob1", prepared=True,
            trigger="a goblin moves")
    declare(fight, "gob1", "G", target="brann")
    declare(fight, "gob3", "G", weapon="club", target="brann")
    declare(fight, "brann", "G", weapon="long sword", target="gob1")
    fight.push(di.Initiative(round=1, rolls=dice))
    return fight


def test_fire_asks_whom_it_fires_before_when_several_could_trigger_it():
    fight = prepared_mira({"party": 2, "goblins": 5})  # the goblins' G beat first
    fire_act = act(fight, "fire")
    form = fire_act.form(fight, "mira")
    assert form is not None
    options = [value for _, value in form.fields[0].options]
    assert options == ["gob1", "gob3", None]
    (fire,) = fire_act.run(fight, "mira", {"before": "gob3"}, random.Random(1))
    assert isinstance(fire, di.Fire) and fire.before == "gob3"
    fight.push(fire)
    labels = fight.plan().labels()
    assert labels.index(["mira:D#1", "mira:D#2"]) == labels.index(["gob1:G", "gob3:G"]) - 1


def test_fire_asks_nothing_when_one_could_trigger_it():
    fight = demo()
    declare(fight, "mira", "D", weapon="short bow", target="gob1", prepared=True)
    declare(fight, "gob1", "G", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 2, "goblins": 5}))
    assert act(fight, "fire").form(fight, "mira") is None
    (fire,) = act(fight, "fire").run(fight, "mira", {"before": "mira"}, random.Random(1))
    assert fire.before is None  # its own ready beat: it fires where it is ready


# B.8: the hit form offers the acting action's own damage, never a weapon's for a spell


def test_a_spell_offers_its_own_damage_never_the_weapons(tmp_path):
    fight = demo()
    declare(fight, "zed", "D", spell="sleep", target="gob1")
    declare(fight, "mira", "D", weapon="short bow", target="gob1")
    declare(fight, "ogre", "G", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    ruleset = fight.ruleset
    # sleep does no damage; not the dagger's
    assert ruleset.damage.damage_default(fight, "zed") == ""
    assert ruleset.damage.damage_default(fight, "mira") == "1d6"
    assert ruleset.damage.damage_default(fight, "ogre") == "2d6"
    assert ruleset.damage.damage_default(fight, "odo") == "1d6+1"  # no declaration: its weapon's
    path = tmp_path / "demo.toml"
    path.write_text((ROOT / "saves" / "demo.toml").read_text().replace(
        '{ name = "magic missile", casting_time = 1 }',
        '{ name = "magic missile", casting_time = 1, damage = "1d4+1" }'))
    fight = load_save(path).fight
    declare(fight, "zed", "D", spell="magic missile", target="gob1")
    assert fight.ruleset.damage.damage_default(fight, "zed") == "1d4+1"


# B.9: the declaration delay is shown with the declaration


def test_the_declaration_delay_is_shown_with_the_declaration():
    fight = demo()
    declare(fight, "zed", "D", spell="web", target="gob1", delay=2)
    declare(fight, "brann", "G", weapon="long sword", target="gob1")
    assert row(fight, "zed") == "D (+2 seg) web (2 seg) → Goblin 1"
    assert row(fight, "brann") == "G long sword → Goblin 1"


# B.10: a G after an E strikes whom the E closed on


def test_a_g_after_an_e_defaults_to_the_e_s_target_this_round():
    fight = demo()
    declare(fight, "brann", "G", weapon="long sword", target="gob1")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    fight.push(ev.NewRound(round=2))
    assert declaring(fight).prefill(fight, "brann", "G")["target"] == "gob1"  # last round's
    declare(fight, "brann", "E", target="gob2", distance=2)
    assert declaring(fight).prefill(fight, "brann", "G")["target"] == "gob2"
    declare(fight, "brann", "G", then=True, **declaring(fight).prefill(fight, "brann", "G"))
    assert row(fight, "brann") == "E → Goblin 2, then G long sword → Goblin 2"


# C.12: the log says what the plan says of a charge's segments


def test_the_log_says_the_segments_to_close_the_plan_reckons():
    fight = fight_from("di-12-charge-distance-indoors.toml")
    charge = next(d for _, d in fight.declared(1) if d.charge)
    told = fight.ruleset.tracker.tell(fight, charge)
    assert "?" not in told
    assert told.endswith('charging indoors at 12" a round (twice 6") over 3": 3 segments to '
                         "close")
    assert any("3 segments to close" in why for b in fight.plan().beats for why in b.why)
    typed = fight_from("di-12-closing-wins-over-distance.toml")
    charge = next(d for _, d in typed.declared(1) if d.charge)
    assert typed.ruleset.tracker.tell(typed, charge).endswith(", charging: 2 segments to close")


# E.16: the end of the fight: one recovery turn, logged (DI-20); the plan reads as over


def test_the_end_logs_the_recovery_turn_and_leaves_no_beat_under_way():
    from referee.session.replay import describe

    fight = fight_from("di-01-won-initiative.toml")
    end = ev.End(round=1, note="the goblins flee")
    assert describe(fight, end) == (
        "the fight is over: the goblins flee — one recovery turn passes (DI-20): no travel, "
        "but bleeding can be staunched, spells cast, prisoners tied")
    fight.push(ev.Resolve(round=1, actions=tuple(fight.plan().keys(1)), beat=1))
    fight.enter(end)
    plan = fight.plan()
    assert plan.current(fight.resolved[1]) is None
    later = [a for b in plan.beats[1:] for a in b.actions]
    assert later and all("DI-20" in a.flag("skipped") for a in later)
    assert not any(a.flag("skipped") for a in plan.beats[0].actions)
    assert plan.notes[-1].startswith("the fight is over: one recovery turn passes (DI-20)")
    assert fight.phase == "recovery"
    fight.enter(ev.Undo(round=1))
    assert not fight.ended and fight.plan().current(fight.resolved[1]) == 2


# B.17: the A form takes a note: how it avoids


def test_the_a_form_takes_a_note_kept_in_the_event_the_log_and_the_tracker():
    fight = demo()
    ruleset, role = fight.ruleset, declaring(fight)
    form = role.declare_form(fight, "odo", "A", role.prefill(fight, "odo", "A"))
    assert "note" in [f.name for f in form.fields]
    event = declare(fight, "odo", "A", note="slams the door")
    assert event.note == "slams the door"
    assert ruleset.tracker.tell(fight, event) == "Brother Odo declares A — slams the door"
    assert row(fight, "odo") == "A: slams the door"


def test_every_demo_combatants_d_form_goes_through_as_it_opens():
    """A D's form opens on one thing to discharge, never two: Zed's dagger (thrown) and
    his sleep spell both prefilled made Enter refuse the form."""
    import random
    import shutil
    import tempfile
    from pathlib import Path

    from referee.session.store import Session
    from referee.session.table import Table
    from tests.conftest import ROOT

    path = Path(tempfile.mkdtemp()) / "demo.toml"
    shutil.copyfile(ROOT / "saves" / "demo.toml", path)
    with Session.open(path) as session:
        table = Table(session, random.Random(1))
        for actor in list(table.fight.roster):
            if declaring(table.fight).can_declare(table.fight, actor, "D"):
                continue  # nothing to discharge: D is not offered
            values = {f.name: f.default for f in table.declare_form(actor, "D").fields
                      if f.default not in (None, False, "")}
            table.declare(actor, "D", **values)
            assert table.declared()[actor].action == "D"


# issue 30 B.16: a caster who holds a bow: the D form starts on the bow; the one chosen
# clears the others

ARCHER_MAGE = """format = "referee-save"
version = 1
ruleset = "demon-idol"
title = "An elf who shoots and casts"
seed = 5
sides = [{ id = "party", name = "The party" }, { id = "goblins", name = "Goblins" }]

[[combatants]]
id = "ael"
name = "Ael the elf"
side = "party"
hp = 8
weapons = [
    { name = "long sword", speed_factor = 5, length = 3.5, damage = "1d8" },
    { name = "dagger", speed_factor = 2, length = 1.0, damage = "1d4", thrown = true },
    { name = "long bow", missile = true, rate = 2, speed_factor = 8, damage = "1d6" },
]
spells = [{ name = "sleep", casting_time = 1 }, { name = "magic missile", casting_time = 1 }]

[[combatants]]
id = "gob1"
name = "Goblin 1"
side = "goblins"
hp = 5
weapons = [{ name = "short sword", speed_factor = 3, damage = "1d6" }]
"""


def archer_mage(tmp_path: Any) -> Fight:
    path = tmp_path / "archer-mage.toml"
    path.write_text(ARCHER_MAGE, encoding="utf-8")
    return load_save(path).fight


def test_a_casters_d_form_starts_on_its_first_missile_weapon(tmp_path):
    fight = archer_mage(tmp_path)
    role = declaring(fight)
    started = role.prefill(fight, "ael", "D")
    assert started == {"weapon": "long bow", "target": "gob1"}
    form = role.declare_form(fight, "ael", "D", started)
    defaults = {f.name: f.default for f in form.fields}
    assert defaults["weapon"] == "long bow" and defaults["spell"] is None


@pytest.mark.parametrize(("changed", "kept"), [
    ({"spell": "sleep"}, ("spell", "sleep")),
    ({"weapon": "dagger"}, ("weapon", "dagger")),
])
def test_choosing_what_a_d_discharges_clears_what_the_form_started_on(tmp_path, changed,
                                                                      kept):
    fight = archer_mage(tmp_path)
    role = declaring(fight)
    values = {**role.prefill(fight, "ael", "D"), **changed}
    event = declare(fight, "ael", "D", **values)
    assert {n: getattr(event, n) for n in ("weapon", "spell") if getattr(event, n)} == {
        kept[0]: kept[1]}


def test_two_things_chosen_for_a_d_are_still_refused(tmp_path):
    fight = archer_mage(tmp_path)
    with pytest.raises(IllegalDeclaration, match="a D names one of"):
        declare(fight, "ael", "D", weapon="dagger", spell="sleep", target="gob1")


def test_a_d_form_starts_on_what_its_d_cast_last_round(tmp_path):
    fight = archer_mage(tmp_path)
    declare(fight, "ael", "D", spell="magic missile", target="gob1")
    declare(fight, "gob1", "G", target="ael")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    fight.push(ev.NewRound(round=2))
    assert declaring(fight).prefill(fight, "ael", "D") == {"spell": "magic missile",
                                                           "target": "gob1"}


# issue 30 A.10: a size on the roster; a weapon's damage vs large offered at a large target

GIANT_KILLER = """format = "referee-save"
version = 1
ruleset = "demon-idol"
title = "A sword against an ogre"
seed = 5
sides = [{ id = "party", name = "The party" }, { id = "monsters", name = "Monsters" }]

[[combatants]]
id = "brann"
name = "Brann"
side = "party"
hp = 14
weapons = [
    { name = "long sword", speed_factor = 5, length = 3.5, damage = "1d8", damage_large = "1d12" },
    { name = "spear", speed_factor = 6, length = 8, damage = "1d6" },
]

[[combatants]]
id = "ogre"
name = "Ogre"
side = "monsters"
hp = 19
size = "L"
weapons = [{ name = "club", damage = "1d10", natural = true }]

[[combatants]]
id = "gob1"
name = "Goblin 1"
side = "monsters"
hp = 5
size = "S"
weapons = [{ name = "short sword", speed_factor = 3, damage = "1d6" }]
"""


def giant_killer(tmp_path: Any) -> Fight:
    path = tmp_path / "giant-killer.toml"
    path.write_text(GIANT_KILLER, encoding="utf-8")
    return load_save(path).fight


def test_a_weapon_offers_its_damage_vs_large_at_a_large_target(tmp_path):
    fight = giant_killer(tmp_path)
    damage = fight.ruleset.damage
    assert damage.damage_default(fight, "brann") == "1d8"  # nothing declared: the first
    assert damage.damage_default(fight, "brann", "ogre") == "1d12"
    declare(fight, "brann", "G", weapon="long sword", target="ogre")
    assert damage.damage_default(fight, "brann") == "1d12"  # the one it aims at
    assert damage.damage_default(fight, "brann", "gob1") == "1d8"  # the form's target
    declare(fight, "gob1", "G", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "monsters": 2}))
    assert damage.damage_default(fight, "brann") == "1d12"


def test_a_weapon_without_a_large_figure_offers_its_damage_at_a_large_target(tmp_path):
    fight = giant_killer(tmp_path)
    declare(fight, "brann", "G", weapon="spear", target="ogre")
    assert fight.ruleset.damage.damage_default(fight, "brann") == "1d6"


def test_a_set_weapon_doubles_its_damage_vs_large(tmp_path):
    fight = giant_killer(tmp_path)
    declare(fight, "brann", "F", weapon="long sword", target="ogre")
    declare(fight, "ogre", "E", charge=True, closing=2, target="brann")
    assert fight.ruleset.damage.damage_default(fight, "brann") == "1d12+1d12"


def test_size_is_read_strictly(tmp_path):
    from referee.session.files import LoadError

    path = tmp_path / "huge.toml"
    path.write_text(GIANT_KILLER.replace('size = "L"', 'size = "huge"'), encoding="utf-8")
    with pytest.raises(LoadError) as refused:
        load_save(path)
    assert ":23: combatants[1].size: expected one of" in str(refused.value)


# issue 30 A.9: each routine with the timing an item or a spell gives it (first, normal,
# last), each in a place of its own


def timed_fight() -> Fight:
    fight = fight_from("di-rule-03-routine-timing-first-then-normal-won.toml")
    fight.pop()
    fight.pop()
    fight.pop()
    return fight


def test_the_form_takes_each_routines_timing_and_the_log_and_tracker_show_them_apart():
    fight = timed_fight()
    event = declare(fight, "brann", "G", target="gob1",
                    routines="sword of speed, timing=first; dagger, timing=normal")
    assert event.routines == ({"weapon": "sword of speed", "timing": "first"},
                              {"weapon": "dagger", "timing": "normal"})
    assert fight.ruleset.tracker.tell(fight, event) == (
        "Brann declares G (sword of speed (first), then dagger (normal)) at Gob1")
    assert row(fight, "brann") == "G sword of speed (first) + dagger (normal) → Gob1"
    declare(fight, "gob1", "G", weapon="short sword", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    timings = [(a.routine, a.flag("timing")) for b in fight.plan().beats for a in b.actions
               if a.actor == "brann"]
    assert timings == [(1, "first"), (2, "normal")]
    assert [len(b.actions) for b in fight.plan().beats] == [1, 1, 1]  # each its own beat


@pytest.mark.parametrize(("routines", "path", "why"), [
    ([{"weapon": "dagger", "timing": "last"}, {"weapon": "sword of speed", "timing": "normal"}],
     ("routines", 1, "timing"), "routines resolve in order (DI-13)"),
    ([{"weapon": "dagger", "timing": "soon"}], ("routines", 0, "timing"),
     "expected one of first, normal, last"),
    ([{"weapon": "dagger", "timing": "first", "initiative": "haste"}],
     ("routines", 0, "timing"), "its own initiative or its timing, not both"),
    ([{"weapon": "dagger", "timing": ["first"]}], ("routines", 0, "timing"),
     "expected one of first, normal, last, found ['first']"),
    ([{"weapon": "dagger", "initiative": {"a": 1}}], ("routines", 0, "initiative"),
     "expected one of"),
])
def test_a_bad_timing_is_refused_with_its_field(routines, path, why):
    fight = timed_fight()
    with pytest.raises(IllegalDeclaration) as refused:
        fight.push(di.Declare(round=1, actor="brann", action="G", target=("gob1",),
                              routines=tuple(routines)))
    assert refused.value.path == path and why in str(refused.value)


def test_routines_without_timings_keep_sharing_their_beat():
    """Backward compatible: a won side's two routines without timings, one beat (DI-3)."""
    fight = timed_fight()
    declare(fight, "brann", "G", target="gob1", routines="sword of speed; dagger")
    declare(fight, "gob1", "G", weapon="short sword", target="brann")
    fight.push(di.Initiative(round=1, rolls={"party": 5, "goblins": 2}))
    assert fight.plan().labels() == [["brann:G#1", "brann:G#2"], ["gob1:G"]]
