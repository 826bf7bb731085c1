"""Every rule id of the phases spec, and where it lives in this package."""

RULES = {
    "PH-1": "rounds.py: phase_order (highest base Combat + 1, down or up); planner.py: plan",
    "PH-2": "rounds.py: Run.gain (each unit gains on its base Combat), Run.use; planner.py: "
            "plan",
    "PH-3": "rounds.py: Run.gain (a held one blocks a new one), Run.end (delay events keep); "
            "planner.py: ended; log_lines.py: tell_end (what is held lapses when the fight ends)",
    "PH-4": "fold.py: start (defending sides hold a delayed Move and Action)",
    "PH-5": "rounds.py: Run.use (the Action ends the Move; engaged, not Agile)",
    "PH-6": "manoeuvres.py: bull_rush (simultaneous = true: no Action spent)",
    "PH-7": "squads.py: read_squads, check_squads; changes.py: settled (a squad without a "
            "standing leader or Command Unit dissolves); checks.py: check_new_leader",
    "PH-8": "squads.py: command_unit",
    "PH-9": "squads.py: Order, order_rank; checks.py: check_order (conflicting orders)",
    "PH-10": "rounds.py: Run.condition (stun, immobilized, incapacitated, calm), Run.drop "
             "(what a status takes is not held in its phase); fold.py: surrendering, "
             "after (a round's or the fight's end too)",
    "PH-11": "modifiers.py: effective (the floor of 1 only for modifiers), check, attacks",
    "PH-12": "changes.py: apply_regroup (an Action); checks.py: check_regroup",
    "PH-13": "manoeuvres.py: bull_rush; outcomes.py: check_bull_rush (the dice decide)",
    "PH-14": "manoeuvres.py: subdue; outcomes.py: check_subdue_damage; fold.py: "
             "apply_damage (Fatigue into lost Hits); damage.py: damage_events (the hit "
             "form's Fatigue)",
    "PH-15": "manoeuvres.py: dismount; checks.py: check_dismount (an enemy, a rider still "
             "mounted); outcomes.py: check_dismount",
    "PH-16": "modifiers.py: elevation bonus; manoeuvres.py (dismount defense)",
    "PH-17": "modifiers.py: Elite, decay; changes.py: elite_hits, decayed; fold.py: end_of_round "
             "(decay, and the extended decay as well); rounds.py: stun immunity",
    "PH-18": "carrying.py: check_carried, bound; rounds.py: Run.gain (carried: Immobilized; "
             "bound: no Action); modifiers.py: carried / dragged",
    "PH-19": "carrying.py: check_mounts, check_pairs_in_squads; checks.py: check_pair_stays; "
             "manoeuvres.py: rusher_of; modifiers.py: transport cannot dodge",
    "PH-20": "rounds.py: Run.gain (held at once), RoundLog.delaying; standing.py: roll; "
             "changes.py: with_squads; checks.py: check_actor_fights",
    "PH-21": "changes.py: apply_out; standing.py: fresh_run (left out of the runs), roll, "
             "can_act; planner.py: Frame.gone (the why); tracker.py: now_run",
}
