"""Every rule id of the demon-idol spec, and where it lives in this package."""

RULES = {
    "DI-0": "board.py: Board.place (a rule moves only what the order breaks); pairwise.py",
    "DI-1": "the app's procedure phases (phase events); recorded, not ordered",
    "DI-2": "initiative.py: roll_initiative, initiative_from; order.py: side_dice",
    "DI-3": "layout.py: Layout (won round, letter order); overrides.py (an action's or a "
            "routine's own initiative or timing); routines.py (routines naming their own weapons "
            "and timings); attacks.py: AttackRules.timed_apart (a timed routine's own beat)",
    "DI-4": "layout.py: Layout (tied round, letter order across sides)",
    "DI-5": "layout.py: Layout.run (psionics at the top of every segment)",
    "DI-6": "missiles.py: MissileRules.missiles, said_lost",
    "DI-7": "attacks.py: AttackRules.routines, routines_in_order; book.py: slow_shots",
    "DI-8": "casters.py: CasterRules.casters",
    "DI-9": "charges.py: ChargeRules.charges",
    "DI-10": "casters.py: CasterRules.melee",
    "DI-11": "layout.py: Layout.speed_factor_keys",
    "DI-12": "layout.py: Layout.tied_discharge_keys",
    "DI-13": "charges.py: ChargeRules.lengths",
    "DI-14": "fired.py: FiredRules.fired; consequences.py: lapsed_preparations; acts.py: "
             "the fire command; prepared.py (whom it fires before, asked when several could "
             "trigger it)",
    "DI-15": "consequences.py: spell_lost_by, after",
    "DI-16": "layout.py: delay_ranks; declaring.py: the declaration clock (Form.clock), "
             "one_declared (the delay shown with the declaration)",
    "DI-17": "surprise.py: surprise_beats; checks.py: check_surprise_declare; fold.py: surprise; "
             "state.py: State.surprise",
    "DI-18": "order.py: morale_failures, morale_notes; acts.py: the morale command; "
             "fold.py: morale; state.py: State.morale, State.broken; declaring.py: "
             "declared (the avoidance shown in place of the declaration)",
    "DI-19": "consequences.py: after, end_of_round (bleeding, death)",
    "DI-20": "fold.py: DemonIdolEnding (the end leaves a recovery turn); ending.py: "
             "RECOVERY, close (the plan once the fight is over); log_lines.py: tell (the end "
             "logged with the recovery turn)",
    "DI-21": "planner.py: DemonIdolPlanner.acts_in; fold.py: fell",
}

# The by-the-book rule ids (settings.BOOK's switches): not rules of the demon-idol spec, so
# not in RULES; each names the DMG page the switch follows. Pages 65-67 are the issue's;
# 62-64 are our reading of where the DMG treats the matter.
DMG_RULES = {
    "DMG-62": "attacks.py: AttackRules.first_and_last, routine_by_routine (switch "
              "routines_first_and_last: multiple routines strike first and last; on both "
              "sides, routine by routine in initiative order; DMG p62, initiative)",
    "DMG-63": "missiles.py: MissileRules.volleys, stop_at_contact; charges.py: "
              "ChargeRules.charge_against (switch volley_shots_in_turn: rate of fire, shot "
              "after shot; DMG p63, missile fire)",
    "DMG-64": "casters.py: CasterRules.devices (switch devices_by_usage_time: a device goes "
              "off on its usage time's segment; DMG p64, our reading)",
    "DMG-65": "casters.py: CasterRules.missiles_on_die (switch missiles_on_die_segment: "
              "missiles against a caster whose side won land on the segment of its side's "
              "die; DMG p65)",
    "DMG-66": "attacks.py: AttackRules.extra_blows (switch weapon_speed_blows: a much faster "
              "weapon strikes twice before the slower one in a tied round, a third time with "
              "it; DMG p66)",
    "DMG-67": "casters.py: CasterRules.blow_by_book (switch caster_speed_less_die: the losing "
              "die off the speed factor against casting time, as a positive number; DMG p67)",
}
