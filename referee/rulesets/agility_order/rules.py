"""Every rule id of the agility-order spec, and where it lives in this package."""

RULES = {
    "AO-1": "lineup.py: lineup, tie_order (d20 / players / referee); ruleset.py: tie command",
    "AO-2": "lineup.py: lineup (initiators last)",
    "AO-3": "lineup.py: delayed; ruleset.py: check_delay, the delay command",
    "AO-4": "state.py: Budget, left; ruleset.py: check_spend, bonus/move/attack commands",
    "AO-5": "stats.py: movement; ruleset.py: the move command",
    "AO-6": "ruleset.py: stand-up command (off-turn: from the next turn); state.py: owed",
    "AO-7": "attack.py: target_number, hit bonus; ruleset.py: the attack command",
    "AO-8": "attack.py: chain, multiplier (crit chain d4 -> d6 -> d8 ...), decisive victory",
    "AO-9": "attack.py: chain (fumble), free-hit grants, tragedy; state.py: grants",
    "AO-10": "state.py: free_used; stats.py: slots; ruleset.py: the free-hit command",
    "AO-11": "attack.py: wounds and aimed effects; state.py: wounds; events.py: Heal.wound",
    "AO-12": "attack.py: sneak dice multiplied by criticals; flat-footed while undetected",
    "AO-13": "ruleset.py: flat_footed (conditions, sickness, channelling, Battle caster)",
    "AO-14": "ruleset.py: sick, gone, check_join (summoning slots)",
    "AO-15": "ruleset.py: after (the battle ends), apply End (MP replenished)",
}
