"""agility-order's table operations, each one act (AO-1 … AO-11): its key and label, when
it is allowed, its form and the events it makes. The heavy work stays where it lives: an
attack in attack.py, a wound by hand in wounds.py, the checks of a turn in turns.py.

An act of a unit (`actor_act`) needs the unit selected: without one it is refused ("select
a unit first") and has no form; its run refuses what `allowed` refuses, with the same
words, before it makes anything. Each part is given only what it reads beyond the fight:
the house rules (`s`, the settings) and the lineup (`planner`: whose turn it is, the ties
due).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from functools import cached_property, partial
from typing import Any

from referee.engine import events as ev
from referee.engine.errors import IllegalEvent
from referee.engine.options import Acting
from referee.engine.specs import Act, Field, Form, actor_act
from referee.engine.view import Fight

from . import attack, budget, checks, stats, turns, units, wounds
from . import events as ao
from . import state as st
from .planner import AgilityPlanner, Planned
from .settings import Settings, Settled
from .state import State

BA_USES = (("+1 to hit this round", "hit"), ("+1 melee damage this round", "damage"),
           ("+1 dodge this round", "dodge"), ("move 2 more spaces", "move 2"),
           ("draw or sheathe", "draw"), ("pick up an item", "pick up"), ("talk", "talk"),
           ("toggle a spell's effect", "toggle"), ("disengage (2 BA)", "disengage"))
# paid with the AA or the MA: never disengage, which the MA cannot pay (AO-4; see DISENGAGE)
ACT_USES = (("cast a spell (its cast time)", "cast"), ("draw or sheathe", "draw"),
            ("pick up an item", "pick up"), ("talk", "talk"))
# AO-4: disengage is paid with the AA or with both BA, never with the MA
DISENGAGE = {"AA": (1, 0, 0), "2 BA": (0, 0, 2)}
AIM_CHOICES = (("no aim", ""), ("centre mass (+1)", "centre"), ("fatal", "fatal"),
               ("slowing", "slowing"), ("weakening", "weakening"),
               ("disrupting", "disrupting"))

# The fields of the forms that are the same every fight: made once
STRIKE_PAY = (("AA", "AA"), ("MA + 2 BA: extra attack", "extra"))
STRIKE_FIELDS = (  # an attack's and a free hit's, after whom, with what and how paid
    Field("aim", "aim", "choice", "", options=AIM_CHOICES),
    Field("flank", "from behind (+1)", "bool", False),
    Field("sneak", "undetected (sneak)", "bool", False),
    Field("zone", "in the target's melee zone", "bool", True),
    Field("d20", "d20", "int", None, minimum=1, help="blank: the program rolls"),
    Field("chain", "chain dice", "text", "",
          help="on a 1 or 20: the d4, and the d6 after a 4 (e.g. 4 3)"),
    Field("damage", "damage dice", "text", "", help="blank: the program rolls"),
    Field("reduce", "other reductions", "int", 0, minimum=0),
    Field("sneak_dice", "sneak d4s", "text", ""),
    Field("fatal", "fatal d4", "int", None, minimum=1),
    Field("note", "note", help="anything to remember of it"))
MOVE_FIELDS = (Field("mode", "how", "choice", "", options=stats.MOVES),)
BONUS_FIELDS = (Field("use", "for", "choice", "hit", options=BA_USES),)
MP_FIELD = Field("mp", "MP spent", "int", 0, minimum=0)
HEALING_FIELD = Field("amount", "healing", "int", 0, minimum=0,
                      help="0: a spell that says so")


class AgilityActs(Settled[State], Planned[State], Acting[State]):
    def acts(self, fight: Fight) -> list[Act]:
        """Attack, move, bonus, the other action, disengage, delay, free hit, stand up,
        ties and wounds: each one act."""
        return list(self._table)

    @cached_property
    def _table(self) -> tuple[Act, ...]:
        """The acts, made once: the same for every fight of these house rules."""
        return tuple(table(self.settings, self.planner))


def table(s: Settings, planner: AgilityPlanner) -> list[Act]:
    """The table, in the order the footer and the help list it (`s`: the house rules;
    `planner`: the lineup, whose turn it is)."""
    return [
        actor_act("attack", "Attack", "a", "attack with AA, or MA + 2 BA (AO-4, AO-7)",
                  partial(attack_allowed, planner), partial(strike_form, free=False),
                  partial(attack.resolve, s, planner, free=False)),
        actor_act("move", "Move", "v", "move with MA (AO-5)",
                  partial(move_allowed, planner), move_form, partial(run_move, s)),
        actor_act("bonus", "Bonus action", "b", "spend a BA: +1 hit/damage/dodge, move 2 "
                  "... (AO-4)", partial(bonus_allowed, planner), bonus_form,
                  partial(run_bonus, s)),
        actor_act("act", "Cast / other action", "c", "spend AA or MA: cast a spell "
                  "(which, at whom), draw, pick up, talk (AO-4)",
                  partial(act_allowed, planner), act_form, run_act, show=False),
        actor_act("disengage", "Disengage", "e", "disengage with the AA or 2 BA, never "
                  "the MA (AO-4)", partial(disengage_allowed, planner), disengage_form,
                  run_disengage, show=False),
        actor_act("delay", "Delay", "d", "delay this turn (AO-3)",
                  partial(on_turn, planner), partial(delay_form, planner),
                  partial(run_delay, planner)),
        actor_act("free", "Free hit", "f", "a free hit, using a slot (AO-10)",
                  free_allowed, partial(strike_form, free=True),
                  partial(attack.resolve, s, planner, free=True)),
        actor_act("stand", "Stand up", "u", "stand up from prone, on or off turn (AO-6)",
                  partial(stand_allowed, planner), partial(stand_form, planner),
                  partial(run_stand, s, planner)),
        Act("ties", "Roll ties", "t", "roll or type the d20 tie rolls (AO-1)",
            allowed=partial(ties_allowed, s, planner), form=partial(ties_form, s, planner),
            run=partial(run_ties, s, planner)),
        Act("wound", "Add wound", "w", "a wound by hand, plain or with an aimed effect "
            "(AO-11)", show=False, allowed=wound_allowed,
            form=partial(wound_form, s, planner), run=partial(run_wound, s)),
        # `after_end`: still done once the fight is over (every other act is refused
        # then, as the engine refuses it): a healing, which the end leaves to do
        actor_act("cure", "Remove wound", "W", "a healing of 6+ or a spell removes a "
                  "wound (AO-11)", cure_allowed, cure_form, run_cure, show=False,
                  after_end=True),
    ]


# -- when a unit may act ------------------------------------------------------------------


def able(fight: Fight, actor: str) -> str:
    """Why the unit cannot act at all (fallen, fled, sick: AO-14, AO-15)."""
    why = units.can_act(fight, actor)
    return f"{fight.roster[actor].name} cannot act: {why}" if why else ""


def on_turn(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    """Why the unit cannot act on its turn now: it cannot act, or it is not its turn."""
    why = able(fight, actor)
    if why:
        return why
    now = planner.turn(fight)
    if now != actor:
        who = fight.roster[now].name if now else "nobody"
        return f"it is {who}'s turn, not {fight.roster[actor].name}'s"
    return ""


def paid(planner: AgilityPlanner, fight: Fight, actor: str,
         can_pay: Callable[[tuple[int, int, int]], bool], lacking: str) -> str:
    """On its turn, with what the act is paid with still left (AO-4); `lacking` says
    what is missing, given what is left."""
    why = on_turn(planner, fight, actor)
    if why:
        return why
    left = budget.left(fight, actor)
    return "" if can_pay(left) else lacking.format(actor=actor, left=budget.left_text(left))


def attack_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    return paid(planner, fight, actor,
                lambda left: bool(left[0] or (left[1] and left[2] >= 2)),
                "{actor} has no AA (or MA + 2 BA) left (left: {left})")


def move_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    return paid(planner, fight, actor, lambda left: bool(left[1]),
                "{actor} has no MA left (left: {left})")


def bonus_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    return paid(planner, fight, actor, lambda left: bool(left[2]),
                "{actor} has no BA left (left: {left})")


def act_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    return paid(planner, fight, actor, lambda left: bool(left[0] or left[1]),
                "{actor} has no AA or MA left (left: {left})")


def disengage_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    return paid(planner, fight, actor, lambda left: bool(left[0] or left[2] >= 2),
                "{actor} has neither the AA nor 2 BA left to disengage (left: {left}) "
                "(AO-4)")


def free_allowed(fight: Fight, actor: str) -> str:
    """AO-10: a slot left, or a tragedy's free critical (AO-9), which needs none."""
    why = able(fight, actor)
    if why:
        return why
    grants = units.state(fight).grants.get(actor, ())
    if budget.free_left(fight, actor) < 1 and not any(g.startswith("tragedy:") for g in grants):
        return (f"{actor} has no free hit slot left this round (slots: "
                f"{budget.slots(fight, actor)}) (AO-10)")
    return ""


def stand_allowed(planner: AgilityPlanner, fight: Fight, actor: str) -> str:
    """AO-6: a prone unit, with something left in this turn or its next to stand with."""
    why = able(fight, actor)
    if why:
        return why
    name = fight.roster[actor].name
    if not units.prone(fight, actor):
        return f"{name} is not prone"
    if not any(budget.left(fight, actor, later=from_next_turn(planner, fight, actor))):
        return f"{name} has nothing left in its next turn to stand up with (AO-6)"
    return ""


def from_next_turn(planner: AgilityPlanner, fight: Fight, actor: str) -> bool:
    """AO-6: standing up off turn once its own turn is done pays from its next turn."""
    return planner.turn(fight) != actor and f"{actor}:turn" in fight.resolved.get(
        max(fight.round, 1), set())


def cure_allowed(fight: Fight, actor: str) -> str:
    if units.state(fight).wounds.get(actor):
        return ""
    return f"{fight.roster[actor].name} has no wound"


# -- attack and free hit (AO-7, AO-10) ----------------------------------------------------


def enemies(fight: Fight, actor: str) -> tuple[tuple[str, Any], ...]:
    """Whom the unit may name: the foes still in the fight first, then everyone else."""
    side = fight.roster[actor].side
    foes = [(c.name, cid) for cid, c in fight.roster.items()
            if c.side != side and not units.no_turn(fight, cid)]
    rest = [(c.name, cid) for cid, c in fight.roster.items()
            if cid != actor and (c.name, cid) not in foes]
    return tuple(foes + rest)


def strike_form(fight: Fight, actor: str, free: bool) -> Form:
    """An attack's form, or a free hit's (which offers its granted target first and
    asks no payment)."""
    c = fight.roster[actor]
    foes = enemies(fight, actor)
    grants = units.state(fight).grants.get(actor, ())
    granted = [g.split(":", 1)[1] for g in grants]
    default = granted[0] if free and granted else (foes[0][1] if foes else None)
    weapons = tuple((w.name, w.name) for w in c.weapons) or (("unarmed", ""),)
    fields: list[Field] = [
        Field("target", "target", "choice", default, required=True, options=foes),
        Field("weapon", "weapon", "choice", weapons[0][1], options=weapons)]
    if not free:
        left = budget.left(fight, actor)
        fields.append(Field("pay", "pay with", "choice", "AA" if left[0] else "extra",
                            options=STRIKE_PAY))
    fields += STRIKE_FIELDS
    title = "Free hit (AO-10)" if free else "Attack (AO-7)"
    return Form(f"{c.name}: {title}", tuple(fields), focus="target")


# -- move, bonus action, disengage (AO-4, AO-5) -------------------------------------------


def move_form(fight: Fight, actor: str) -> Form:
    return Form(f"{fight.roster[actor].name} moves (MA, AO-5)", MOVE_FIELDS)


def run_move(s: Settings, fight: Fight, actor: str, values: Mapping[str, Any],
             rng: random.Random) -> list[ev.Event]:
    mode = str(values.get("mode") or "")
    return [ao.Spend(round=max(fight.round, 1), actor=actor, ma=1, use="move",
                     spaces=budget.movement_of(s.movement, fight, actor, mode),
                     how=mode or None)]


def bonus_form(fight: Fight, actor: str) -> Form:
    return Form(f"{fight.roster[actor].name}: a bonus action (AO-4)", BONUS_FIELDS)


def run_bonus(s: Settings, fight: Fight, actor: str, values: Mapping[str, Any],
              rng: random.Random) -> list[ev.Event]:
    use = str(values.get("use") or "hit")
    count = 2 if use == "disengage" else 1
    left = budget.left(fight, actor)
    if count > left[2]:
        raise IllegalEvent(f"{actor} has no 2 BA left to disengage (left: "
                           f"{budget.left_text(left)})")
    # "move 2 more spaces" adds before the move halves (AO-5): after the move, what
    # it adds in the move's way; before it, the move counts it in
    spaces = budget.more_spaces(s.movement, fight, actor) if use == "move 2" else None
    return [ao.Spend(round=max(fight.round, 1), actor=actor, ba=count, use=use,
                     spaces=spaces)]


def disengage_form(fight: Fight, actor: str) -> Form:
    left = budget.left(fight, actor)
    pay = tuple((k, k) for k in DISENGAGE if (left[0] if k == "AA" else left[2] >= 2))
    return Form(f"{fight.roster[actor].name} disengages (AO-4)",
                (Field("pay", "pay with", "choice", pay[0][1] if pay else "AA",
                       options=pay or (("AA", "AA"),)),))


def run_disengage(fight: Fight, actor: str, values: Mapping[str, Any],
                  rng: random.Random) -> list[ev.Event]:
    pay = str(values.get("pay") or "AA")
    if pay not in DISENGAGE:
        raise IllegalEvent(f"disengage is paid with the AA or 2 BA, not {pay!r} (AO-4)",
                           ("pay",))
    aa, ma, ba = DISENGAGE[pay]
    return [ao.Spend(round=max(fight.round, 1), actor=actor, aa=aa, ma=ma, ba=ba,
                     use="disengage")]


# -- the other action: a cast, or what else the AA or MA pays for (AO-4) ------------------


def act_form(fight: Fight, actor: str) -> Form:
    """AO-4: what the AA or MA pays for; a caster is asked which of its spells it
    casts and at whom (asked of a cast only: another use names neither)."""
    c = fight.roster[actor]
    pay = tuple(opt for opt in (("AA", "AA"), ("MA", "MA"))
                if budget.left(fight, actor)[0 if opt[1] == "AA" else 1])
    uses = ACT_USES if c.spells else ACT_USES[1:]  # cast: a unit with spells
    fields = [Field("use", "for", "choice", uses[0][1], options=uses)]
    if c.spells:
        targets = cast_targets(fight, actor)
        fields += [Field("spell", "spell (a cast)", "choice", c.spells[0].name,
                         options=tuple((s.name, s.name) for s in c.spells)),
                   Field("target", "target (a cast)", "choice", targets[0][1],
                         options=targets)]
    fields += [Field("pay", "pay with", "choice", pay[0][1] if pay else "AA",
                     options=pay or (("AA", "AA"),)),
               MP_FIELD]
    return Form(f"{c.name}: cast or another action (AO-4)", tuple(fields))


def cast_targets(fight: Fight, actor: str) -> tuple[tuple[str, Any], ...]:
    """Whom a spell may be cast at: foes first, then the others, the caster itself,
    and no one (an area, or a spell with no target)."""
    me = (f"{fight.roster[actor].name} (self)", actor)
    living = tuple(opt for opt in enemies(fight, actor) if fight.alive(opt[1]))
    return living + (me, ("no one (an area, none)", ""))


def run_act(fight: Fight, actor: str, values: Mapping[str, Any],
            rng: random.Random) -> list[ev.Event]:
    pay = str(values.get("pay") or "AA")
    left = budget.left(fight, actor)
    if not left[0 if pay == "AA" else 1]:
        raise IllegalEvent(f"{actor} has no {pay} left this turn (left: "
                           f"{budget.left_text(left)})", ("pay",))
    use = str(values.get("use") or "cast")
    spell, target = cast(fight, actor, values) if use == "cast" else (None, None)
    return [ao.Spend(round=max(fight.round, 1), actor=actor, aa=int(pay == "AA"),
                     ma=int(pay == "MA"), use=use, mp=int(values.get("mp") or 0),
                     spell=spell, target=target)]


def cast(fight: Fight, actor: str, values: Mapping[str, Any]
         ) -> tuple[str | None, str | None]:
    """The spell a cast names (one of the caster's) and its target (None: the caster, an
    area, no one)."""
    c = fight.roster[actor]
    if not c.spells:
        raise IllegalEvent(f"{c.name} has no spell to cast (spells are set up with "
                           "ctrl+e)", ("use",))
    spell = str(values.get("spell") or "")
    if c.spell(spell) is None:
        known = ", ".join(s.name for s in c.spells)
        said = f"no spell {spell!r}" if spell else "a cast names its spell"
        raise IllegalEvent(f"{said} ({c.name}'s spells: {known})", ("spell",))
    target = str(values.get("target") or "") or None
    if target is not None and target not in fight.roster:
        raise IllegalEvent(f"unknown target {target!r}", ("target",))
    return spell, target


# -- delay (AO-3) and standing up (AO-6) --------------------------------------------------


def delay_form(planner: AgilityPlanner, fight: Fight, actor: str) -> Form:
    round_ = max(fight.round, 1)
    after = tuple((f"after {fight.roster[s.cid].name}", s.cid)
                  for s in planner.lineup(fight, round_).slots
                  if s.cid != actor and f"{s.cid}:turn" not in fight.resolved.get(
                      round_, set()))
    return Form(f"{fight.roster[actor].name} delays (AO-3)",
                (Field("after", "until", "choice", "",
                       options=(("the end of the round", ""),) + after),))


def run_delay(planner: AgilityPlanner, fight: Fight, actor: str,
              values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    event = ao.Delay(round=max(fight.round, 1), actor=actor,
                     after=values.get("after") or None)
    turns.delay(planner, fight, event)
    return [event]


def stand_form(planner: AgilityPlanner, fight: Fight, actor: str) -> Form:
    later = planner.turn(fight) != actor
    left = budget.left(fight, actor, later=from_next_turn(planner, fight, actor))
    pay = tuple((k, k) for k, n in zip(("AA", "MA", "BA"), left, strict=True) if n)
    return Form(f"{fight.roster[actor].name} stands up (AO-6)"
                + (" — from its next turn" if later else ""),
                (Field("pay", "pay with", "choice", pay[-1][1] if pay else "BA",
                       options=pay or (("BA", "BA"),)),))


def run_stand(s: Settings, planner: AgilityPlanner, fight: Fight, actor: str,
              values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    round_ = max(fight.round, 1)
    pay = str(values.get("pay") or "BA")
    stand = ao.Spend(round=round_, actor=actor, aa=int(pay == "AA"), ma=int(pay == "MA"),
                     ba=int(pay == "BA"), use="stand up",
                     off_turn=planner.turn(fight) != actor)
    turns.spend(planner, fight, stand, s.movement)
    return [stand, ev.Condition(round=round_, target=actor, name="prone", on=False)]


# -- the tie rolls (AO-1) ------------------------------------------------------------------


def ties_allowed(s: Settings, planner: AgilityPlanner, fight: Fight,
                 actor: str | None) -> str:
    if s.tie_mode == "players":
        return "ties go to the players' side first (rulesets file): nothing to roll"
    return "" if planner.ties_due(fight) else "no tie to roll"


def ties_form(s: Settings, planner: AgilityPlanner, fight: Fight,
              actor: str | None = None) -> Form:
    fields = tuple(Field(cid, f"{fight.roster[cid].name}", "int", None, minimum=1,
                         help="blank: the program rolls" if s.tie_mode == "d20"
                         else "higher goes first")
                   for cid in planner.ties_due(fight))
    return Form("Tie rolls: d20, higher first (AO-1)", fields,
                hint="leave blank for the program's dice")


def run_ties(s: Settings, planner: AgilityPlanner, fight: Fight, actor: str | None,
             values: Mapping[str, Any], rng: random.Random) -> list[ev.Event]:
    """The rolls typed in, the program's d20 for the others (never in the referee's
    order: there the referee gives every number)."""
    due = planner.ties_due(fight)
    if not due:
        raise IllegalEvent("no tie to roll")
    ties: dict[str, int] = {}
    dice: dict[str, Any] = {}
    for cid in due:
        typed = values.get(cid)
        if typed in (None, ""):
            if s.tie_mode == "referee":
                raise IllegalEvent(f"the referee orders the ties: give "
                                   f"{fight.roster[cid].name} a number", (cid,))
            ties[cid] = rng.randint(1, 20)
            dice[cid] = [ties[cid]]
        else:
            ties[cid] = int(typed)
    event = ao.Initiative(round=max(fight.round, 1), ties=ties, dice=dice)
    checks.ties(fight, event, s.tie_mode)
    return [event]


# -- wounds by hand (AO-11) ----------------------------------------------------------------


def wound_allowed(fight: Fight, actor: str | None) -> str:
    return "" if any(fight.alive(cid) for cid in fight.roster) else "nobody to wound"


def wound_form(s: Settings, planner: AgilityPlanner, fight: Fight,
               actor: str | None) -> Form:
    """The wound form (wounds.py): who dealt it is the unit whose turn it is, if a foe."""
    return wounds.wound_form(fight, actor, planner.turn(fight), s.fatal_bonus)


def run_wound(s: Settings, fight: Fight, actor: str | None, values: Mapping[str, Any],
              rng: random.Random) -> list[ev.Event]:
    """The wound form names who is wounded: the unit selected is only its default."""
    return wounds.run_wound(fight, values, rng, s.fatal_bonus)


def cure_form(fight: Fight, actor: str) -> Form:
    had = st.effects(units.state(fight), actor)
    options = tuple((f"{n}: {w or 'plain wound'}", n) for n, w in enumerate(had, start=1))
    return Form(f"Remove one of {fight.roster[actor].name}'s wounds (AO-11)",
                (Field("wound", "which", "choice", len(had), options=options),
                 HEALING_FIELD))


def run_cure(fight: Fight, actor: str, values: Mapping[str, Any],
             rng: random.Random) -> list[ev.Event]:
    which = values.get("wound")
    return [ao.Heal(round=max(fight.round, 1), target=actor,
                    amount=int(values.get("amount") or 0),
                    wound=int(which) if which else None)]
