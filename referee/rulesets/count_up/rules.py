"""Every rule id of the count-up spec, and where it lives in this package."""

RULES = {
    "CU-1": "planner.py: surprised (skipped in round 1); fold.py: State.surprise",
    "CU-2": "initiative.py: roll_initiative, initiative_from; fold.py: base_initiative, "
            "State.base; outcomes.py: check_initiative (a rolled base is its die less "
            "Agility)",
    "CU-3": "order.py: modifier, weapon_used; planner.py: round_initiative; "
            "rulesets/count-up.toml",
    "CU-4": "planner.py: plan; order.py: beat (lowest first, equal counts together), "
            "fell_in_beat; planner.py: standing (one slain in its own beat still acts)",
    "CU-5": "planner.py: latecomer_turns, missed; joining.py: join_fields, count_now",
    "CU-6": "morale.py: triggers (a check made is not asked for again), settled, check, "
            "roll_morale, check_morale (the verdict is its dice against the TN); "
            "tracker.py: notices; log_lines.py: tell_morale (the sum)",
    "CU-7": "fold.py: apply_damage; damage.py: critical_damage, critical_field, "
            "damage_events (the weapon's multiplier); outcomes.py: multiplier",
    "CU-8": "conditions.py: condition (stabilised); healing.py: apply_heal (the `stable` "
            "mark); fold.py: after, end_of_round; settings.py: stabilize_tn; planner.py: standing "
            "(the dead take no turn); healing.py: the Heal check's TN, the heal form's "
            "stabilise",
    "CU-9": "settings.py: injury; injuries.py: injury_form (the last critical hit), "
            "roll_injury (the verdict); outcomes.py: check_injury (d% against the damage, "
            "the d20's row)",
    "CU-10": "fold.py: base (none in force once ended); order.py: after_the_end (no turn "
             "left to take); log_lines.py: tell_end",
}
