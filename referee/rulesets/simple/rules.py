"""Every rule id of simple's rules of record (tests/specs/simple.md, README "Your own
system in a file"), and where it lives in this package."""

RULES = {
    "SI-1": "settings.py: initiative (side or combatant); order.py: who_rolls, beats (a "
            "side's combatants act together)",
    "SI-2": "settings.py: initiative_die, modifier; order.py: score (the die and the roster "
            "key added)",
    "SI-3": "settings.py: order; order.py: ranked (high or low first)",
    "SI-4": "settings.py: rolled; order.py: rolls_for (each round, or once per fight; a "
            "latecomer rolls when it joins)",
    "SI-5": "settings.py: ties; order.py: ranked (equal scores act together)",
    "SI-6": "settings.py: ties; order.py: untied, initiative.py: roll_initiative, "
            "initiative_form (the tied roll again until they differ)",
    "SI-7": "settings.py: tie_key; order.py: tie_key_order (the key, higher first, then "
            "the players' side)",
    "SI-8": "planner.py: can_act (down at 0 hit points or fewer, dead: no turn)",
    "SI-9": "settings.py: columns; tracker.py: columns, cells (the roster keys the file "
            "names)",
}
