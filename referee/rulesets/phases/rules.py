"""Every rule id of the phases spec, and where it lives in this package."""

RULES = {
    "PH-1": "round.py: phase_order (highest base Combat + 1, down or up); ruleset.py: plan",
    "PH-2": "round.py: Sim.gain (each unit gains on its base Combat), Sim.use; ruleset.py: plan",
    "PH-3": "round.py: Sim.gain (a held one blocks a new one), roll (delay events keep)",
    "PH-4": "round.py: opening (defending sides hold a delayed Move and Action)",
    "PH-5": "round.py: Sim.use (the Action ends the Move; engaged, not Agile)",
    "PH-6": "manoeuvres.py: bull_rush (simultaneous = true: no Action spent)",
    "PH-7": "squads.py: read_squads, check_squads; ruleset.py: apply (leader drops, dissolve)",
    "PH-8": "squads.py: command_unit",
    "PH-9": "squads.py: Order, resolve_orders; ruleset.py: check order events",
    "PH-10": "round.py: Sim.condition (stun, immobilized, incapacitated, calm); "
             "ruleset.py: surrendered, after",
    "PH-11": "modifiers.py: effective, check_modifiers, attack counts",
    "PH-12": "ruleset.py: regroup events (an Action)",
    "PH-13": "manoeuvres.py: bull_rush",
    "PH-14": "manoeuvres.py: subdue; ruleset.py: apply_damage (Fatigue into lost Hits)",
    "PH-15": "manoeuvres.py: dismount",
    "PH-16": "modifiers.py: elevation bonus; manoeuvres.py (dismount defense)",
    "PH-17": "modifiers.py: Elite, decay; ruleset.py: end_of_round (decay events); "
             "round.py: stun immunity",
    "PH-18": "modifiers.py: carried / dragged / carrying",
    "PH-19": "manoeuvres.py: mounts in a bull rush; modifiers.py: transport cannot dodge",
    "PH-20": "round.py: roll (a squad on Delay keeps every member's Move and Action); "
             "ruleset.py: check use",
}
