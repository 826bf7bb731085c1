"""Every rule id of the count-up spec, and where it lives in this package."""

RULES = {
    "CU-1": "ruleset.py: surprised (skipped in round 1); State.surprise",
    "CU-2": "ruleset.py: roll_initiative, initiative_from, base_initiative; State.base; "
            "outcomes.py: check_initiative (a rolled base is its die less Agility)",
    "CU-3": "ruleset.py: modifier, weapon_used, round_initiative; rulesets/count-up.toml",
    "CU-4": "ruleset.py: plan, beat (lowest first, equal counts together); standing, "
            "fell_in_beat (one slain in its own beat still acts)",
    "CU-5": "ruleset.py: latecomer_turns, missed; join_fields",
    "CU-6": "ruleset.py: morale_triggers (a check made is not asked for again), settle, "
            "morale_check, roll_morale; notices; views.py: tell_morale (the sum); "
            "outcomes.py: check_morale (the verdict is its dice against the TN)",
    "CU-7": "ruleset.py: apply_damage, critical_damage; hits.py: critical_field, "
            "damage_events (the weapon's multiplier); outcomes.py: multiplier",
    "CU-8": "ruleset.py: condition (stabilised), apply_heal (the `stable` mark), after, "
            "end_of_round, stabilize_tn; standing (the dead take no turn); healing.py: the "
            "Heal check's TN, the heal form's stabilise",
    "CU-9": "ruleset.py: injury; injuries.py: injury_form (the last critical hit), "
            "roll_injury (the verdict); outcomes.py: check_injury (d% against the damage, "
            "the d20's row)",
    "CU-10": "ruleset.py: base (none in force once ended), ended (no turn left to take); "
             "views.py: tell_end",
}
