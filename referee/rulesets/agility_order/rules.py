"""Every rule id of the agility-order spec, and where it lives in this package."""

RULES = {
    "AO-1": "lineup.py: lineup (who fell or fled left out), _placed (d20 / players / "
            "referee; only who never rolled is asked); acts.py: the ties act; "
            "checks.py: ties (units in the fight, rolls their dice); settings.py: tie_mode "
            "(the file's `ties`)",
    "AO-2": "lineup.py: lineup (initiators last)",
    "AO-3": "lineup.py: _delayed, _place (a fallen unit's place), _overtaken; "
            "fold.py: _after_tail; turns.py: delay; acts.py: the delay act",
    "AO-4": "state.py: Budget; budget.py: left; turns.py: spend; acts.py: the bonus, move, "
            "attack and disengage acts (paid: what each is paid with), the other action "
            "(act_form, cast: a cast's spell and target); "
            "turns.py: payment (disengage: the AA or 2 BA, never the MA), cast",
    "AO-5": "budget.py: movement_of, more_spaces; acts.py: the move act; turns.py: spaces; "
            "settings.py: movement",
    "AO-6": "acts.py: the stand-up act (off-turn: from_next_turn); turns.py: "
            "spend (off_turn); state.py: owed",
    "AO-7": "attack.py: outcome; units.py: target_number, hit_bonus; acts.py: the attack act; "
            "checks.py: needed, bonus, attack_dice",
    "AO-8": "attack.py: chain (ends at the d6: DECISIVE), outcome, decisive victory; "
            "state.py: felled; checks.py: chain; settings.py: chain_dice",
    "AO-9": "attack.py: chain (fumble), free-hit grants, tragedy; state.py: grants, felled; "
            "checks.py: chain",
    "AO-10": "state.py: free_used; stats.py: slots; budget.py: slots, free_left; "
             "acts.py: the free-hit act",
    "AO-11": "attack.py: wounds and aimed effects; state.py: wounds, pending, struck; "
             "wounds.py: a hit entered as damage alone through armour (armour_off, net, "
             "folded), its wound at 6+ net (wound_of_hit), the hit form's display "
             "(hit_fields), a wound by hand (wound_form, run_wound, fatal); acts.py: the wound "
             "and cure acts; "
             "events.py: Heal.wound; settings.py: wound_at, heal_removes, fatal_bonus",
    "AO-12": "attack.py: sneak dice multiplied by criticals; flat-footed while undetected",
    "AO-13": "units.py: flat_footed (conditions, sickness, channelling, Battle caster)",
    "AO-14": "units.py: summoned_in (a join's round), sick, gone; schema.py: _check_summon "
             "(summoning slots); checks.py: join",
    "AO-15": "units.py: victors (one team standing), no_turn; fold.py: after (the battle "
             "ends); "
             "state.py: end (the victors' MP replenished)",
}
