"""Every rule id of the sanctum spec, and where it lives in this package."""

RULES = {
    "SA-1": "sim.py: precedence (standing, then created); ruleset.py: plan, combat why",
    "SA-2": "sim.py: run_turn (listed order, a fought pair skipped); ruleset.py: plan",
    "SA-3": "sim.py: combat (10 rounds, no minions, not hostile); combat-end events; "
            "ruleset.py: plan (the fallen out of combats to come)",
    "SA-4": "sim.py: combat (round 1: missiles only at -1, misses infinite, hand forfeited)",
    "SA-5": "sim.py: combat (start of round: armor, attacks, 'does not attack', shooters idle)",
    "SA-6": "sim.py: combat (bashers pair up, compulsions, wise choices in attack order)",
    "SA-7": "sim.py: combat (attack order, retaliation, forfeits, random extra victims)",
    "SA-8": "sim.py: choose_wisely (the six tiebreakers)",
    "SA-9": "sim.py: attack (levels, misses, damage, armor, results, recruits); ruleset.py: apply",
    "SA-10": "sim.py: choose_wisely (quasi-immunities steer only); stats.py: QUASI",
    "SA-11": "odds.py: simulate, summarise; commands.py: referee odds, fight --seed -o; "
             "seeded.py: every logged step is the one its seed gives",
}
