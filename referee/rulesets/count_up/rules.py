"""Every rule id of the count-up spec, and where it lives in this package."""

RULES = {
    "CU-1": "ruleset.py: surprised (skipped in round 1)",
    "CU-2": "ruleset.py: roll_initiative, initiative_from, base_initiative; State.base",
    "CU-3": "ruleset.py: modifier, weapon_used, round_initiative; rulesets/count-up.toml",
    "CU-4": "ruleset.py: plan, beat (lowest first, equal counts together)",
    "CU-5": "ruleset.py: latecomer_turns, missed; join_fields",
    "CU-6": "ruleset.py: morale_triggers, morale_check, roll_morale; notices",
    "CU-7": "ruleset.py: apply_damage, critical_damage",
    "CU-8": "ruleset.py: condition, after, end_of_round, stabilize_tn",
    "CU-9": "ruleset.py: injury, roll_injury",
    "CU-10": "ruleset.py: apply (end wipes initiative)",
}
