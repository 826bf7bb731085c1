"""Every rule id of the sanctum spec, and where it lives in this package."""

RULES = {
    "SA-1": "sim.py: precedence (standing, then created); planner.py: plan, combat why",
    "SA-2": "sim.py: run_turn (listed order, a fought pair skipped); planner.py: plan",
    "SA-3": "sim.py: Combat.fight (10 rounds, no minions, not hostile); combat-end events; "
            "planner.py: plan (the fallen out of combats to come)",
    "SA-4": "sim.py: Combat.start_round, strike (round 1: missiles only at -1, misses "
            "infinite, hand forfeited)",
    "SA-5": "sim.py: Combat.start_round (armor, attacks, 'does not attack', shooters idle)",
    "SA-6": "sim.py: Combat.pair_bashers, compel_idle, choose_idle (bashers pair up, "
            "compulsions, wise choices in attack order)",
    "SA-7": "sim.py: Combat.attack_group, first_attacks, retaliate, strike (attack order, "
            "retaliation, forfeits, random extra victims)",
    "SA-8": "sim.py: Combat.choose, first_attacks, choose_idle, best, ranked, killable (the six "
            "tiebreakers); settled_by (which one settled a choice, for the log)",
    "SA-9": "sim.py: Combat.strike (levels, misses, damage, armor, results, recruits); "
            "fold.py: apply; turns.py: level",
    "SA-10": "sim.py: steering, steered (quasi-immunities steer only); stats.py: QUASI",
    "SA-11": "odds.py: run_odds, summarise; acts.py: the odds (O, referee odds), fight "
             "--seed -o; "
             "seeded.py: every logged step is the one its seed gives",
}
