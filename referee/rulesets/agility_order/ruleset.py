"""agility-order: highest Agility first, a turn's budget of 1 AA, 1 MA, 2 BA, hits,
crit and fumble chains, wounds and aimed effects (spec: agility-order.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent
from referee.engine.fight import Fight, Status
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.port import Rolling
from referee.engine.reading import Fields
from referee.engine.record import replace
from referee.engine.specs import Act, Cell, Column, Field, Form

from . import acts, checks, stats, wounds
from . import events as ao
from . import lineup as lu
from . import ranges as rg
from . import state as st
from .attack import DECISIVE
from .ranges import within
from .rules import RULES
from .state import State

TIE_MODES = ("d20", "players", "referee")
FLAT = ("flat-footed", "snuck", "tied", "frozen", "paralysed", "paralyzed")
CHANNEL = ("channelling", "channeling")
OUT = ("fled", "surrendered")  # AO-15: gone from the fight, or lost the will to fight


class AgilityOrder(Rolling[State]):
    id = "agility-order"
    RULES = RULES

    def read(self, f: Fields) -> None:
        self.tie_mode: str = f.str("ties", "d20")
        if self.tie_mode not in TIE_MODES:
            raise FormatError(f"expected one of {', '.join(TIE_MODES)}, found "
                              f"{self.tie_mode!r}", ("ties",))
        self.wound_at: int = f.int("wound_at", 6, *rg.WOUND_AT)
        self.heal_removes: int = f.int("heal_removes_wound", 6, *rg.HEAL_REMOVES)
        self.movement: int = f.int("movement", 6, *rg.MOVEMENT)
        self.fatal_bonus: int = f.int("fatal_bonus", 16, *rg.FATAL_BONUS)
        chain = f.list("chain_dice", [4, 6])
        if not chain or not all(isinstance(x, int) and not isinstance(x, bool)
                                for x in chain):
            raise FormatError("expected a list of die sizes (2 or more), e.g. [4, 6]",
                              ("chain_dice",))
        for index, size in enumerate(chain):
            within(size, rg.DIE, ("chain_dice", index), "a die's size")
        self.chain_dice: tuple[int, ...] = tuple(chain)
        self._lineups: dict[tuple[int, int, int], lu.Lineup] = {}

    def switches(self) -> list[str]:
        ties = {"d20": "d20 rolls, kept for the battle", "players": "players first",
                "referee": "the referee orders them"}[self.tie_mode]
        return [f"ties: {ties} (AO-1)",
                f"wound at {self.wound_at}+ net damage; healing {self.heal_removes}+ "
                f"removes one (AO-11)",
                f"movement {self.movement} spaces (AO-5)",
                self._chain_switch(),
                f"fatal wound: ¼ chance of +{self.fatal_bonus} (AO-11)"]

    def _chain_switch(self) -> str:
        used, unused = self.chain_dice[:DECISIVE], self.chain_dice[DECISIVE:]
        text = "chain dice: " + " → ".join(f"d{n}" for n in used)
        if len(used) == DECISIVE:
            text += f", a {used[-1]} on the d{used[-1]} ends the chain"
        if unused:
            text += " (" + ", ".join(f"d{n}" for n in unused) + " never rolled)"
        return text + " (AO-8, AO-9)"

    # -- the roster and the log ------------------------------------------------------------

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def weapon_fields(self) -> tuple[Field, ...]:
        return stats.WEAPON

    def events(self) -> tuple[type[ev.Event], ...]:
        return ao.EVENTS

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        from .views import tell

        return tell(self, fight, event)

    # -- state ---------------------------------------------------------------------------

    def start(self, fight: Fight) -> State:
        return State()

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        if event.round > state.round:
            state = st.new_round(state, event.round, {cid: self._agility(fight, state, cid)
                                                      for cid in fight.roster})
        state = wounds.folded(fight, state, event)
        if isinstance(event, ao.Initiative):
            ties = dict(state.ties)
            for cid, value in event.ties.items():
                ties[cid] = ties.get(cid, ()) + (value,)
            return replace(state, ties=ties)
        if isinstance(event, ao.Delay):
            delayed = (event.actor, event.after, self._after_tail(fight, event))
            return replace(state, delays=state.delays + (delayed,))
        if isinstance(event, ao.Spend):
            return self._apply_spend(fight, state, event)
        if isinstance(event, ao.Attack):
            return st.attack(state, event)
        if isinstance(event, ao.Wound):
            return st.wound(state, event)
        if isinstance(event, ev.Heal):
            return st.heal(state, event, self.heal_removes)
        if isinstance(event, ev.End):
            victors = self.victors(fight)
            winners = [cid for cid, c in fight.roster.items() if c.side in victors]
            return st.end(state, tuple(victors), winners)
        return state

    def _apply_spend(self, fight: Fight, state: State, event: ao.Spend) -> State:
        later = event.off_turn and f"{event.actor}:turn" in fight.resolved.get(
            event.round, set())
        out = st.spend(state, event.actor, event.aa, event.ma, event.ba, later)
        if event.use in st.BOUGHT:
            out = st.bought(out, event.actor, event.use)
        if event.use == "move" and event.ma:
            out = replace(out, moved={**out.moved, event.actor: event.how or ""})
        if event.mp:
            out = replace(out, mp_spent={**out.mp_spent, event.actor:
                                         out.mp_spent.get(event.actor, 0) + event.mp})
        return out

    def _after_tail(self, fight: Fight, event: ao.Delay) -> tuple[str, ...]:
        """AO-3: the units after `event.after` in the lineup as the delay is made: where
        the delayed unit goes if `after` falls or flees before its turn."""
        if event.after is None:
            return ()
        order = [s.cid for s in lu.lineup(self, fight, event.round).slots]
        return tuple(order[order.index(event.after) + 1:]) if event.after in order else ()

    def victors(self, fight: Fight) -> list[str]:
        """AO-15: the one team still standing; an end while more stand (a parley, a
        truce) has no victors, and nobody's MP is replenished."""
        sides = self.standing_sides(fight)
        return sides if len(sides) == 1 else []

    def shapes_plan(self, event: ev.Event) -> bool:
        return event.TYPE not in ("roll", "spend", "note", "resolve", "attack")

    # -- a unit now ----------------------------------------------------------------------

    def _agility(self, fight: Fight, state: State, cid: str) -> int:
        slowing = sum(1 for effect, _ in state.wounds.get(cid, ()) if effect == "slowing")
        return stats.agility(fight.roster[cid]) - slowing

    def agility_now(self, fight: Fight, cid: str) -> int:
        """AO-1, AO-11: the Agility modifier with slowing wounds (−1 each)."""
        return self._agility(fight, self.state(fight), cid)

    def accuracy_now(self, fight: Fight, cid: str, round_: int | None = None) -> int:
        """AO-11: disrupting wounds −1 each for the battle, −3 in all in their round."""
        state = self.state(fight)
        hits = [r for effect, r in state.wounds.get(cid, ()) if effect == "disrupting"]
        now = self._round(fight, round_)
        return (stats.accuracy(fight.roster[cid]) - len(hits)
                - 2 * sum(1 for r in hits if r == now))

    @staticmethod
    def _round(fight: Fight, round_: int | None) -> int:
        """The round asked about: the fight's own (round 1 before it starts), or a later
        one an event names (a check looks at the round the event is in)."""
        return max(fight.round, 1) if round_ is None else round_

    def strength_now(self, fight: Fight, cid: str) -> int:
        return stats.strength(fight.roster[cid]) - self._count(fight, cid, "weakening")

    def _count(self, fight: Fight, cid: str, effect: str) -> int:
        return st.effects(self.state(fight), cid).count(effect)

    def bought(self, fight: Fight, cid: str, round_: int | None = None) -> st.Bought:
        """AO-4: what `cid`'s Bonus Actions bought this round (nothing yet in a later one)."""
        state = self.state(fight)
        if round_ is not None and round_ > state.round:
            return st.NOTHING
        return state.bought.get(cid, st.NOTHING)

    def conditions(self, fight: Fight, cid: str, round_: int | None = None
                   ) -> dict[str, int | None]:
        held = fight.status[cid].conditions
        if round_ is None or round_ <= fight.round:
            return held
        # a later round: the fold will have counted each condition down once by then
        return {name: (left - 1 if left is not None else None)
                for name, left in held.items() if left is None or left > 1}

    def summoned_in(self, fight: Fight, cid: str) -> int | None:
        """AO-14: the round `cid` was summoned in (0: before the battle), or None for a
        unit that is no summon. A summon that joins without saying is summoned then."""
        c = fight.roster[cid]
        came = c.stats.get("summoned")
        if came is None:
            return fight.joins[cid][0] if cid in fight.joins and stats.summoner(c) else None
        return int(came)

    def sick(self, fight: Fight, cid: str, round_: int | None = None) -> bool:
        """AO-14: a summon cannot act or dodge in what is left of the round it is
        summoned in, nor in the round after."""
        return self._sick(fight, self.summoned_in(fight, cid), round_)

    def _sick(self, fight: Fight, came: int | None, round_: int | None = None) -> bool:
        return came is not None and came >= 1 and self._round(fight, round_) <= came + 1

    def gone(self, fight: Fight, cid: str) -> bool:
        """AO-14: unthralled summons vanish: those from before the battle as it begins,
        the others as it ends."""
        return self._gone(fight, cid, self.summoned_in(fight, cid))

    def _gone(self, fight: Fight, cid: str, came: int | None) -> bool:
        if came is None or stats.thralled(fight.roster[cid]):
            return False
        return came == 0 or self.state(fight).ended

    def flat_footed(self, fight: Fight, cid: str, round_: int | None = None) -> str:
        """AO-13: why `cid` cannot dodge ("" when it can)."""
        conditions = self.conditions(fight, cid, round_)
        for name in FLAT:
            if name in conditions:
                return name
        if self.sick(fight, cid, round_):
            return "summoning sickness"
        if any(n in conditions for n in CHANNEL) and not stats.has_feat(
                fight.roster[cid], "Battle caster"):
            return "channelling"
        return ""

    def prone(self, fight: Fight, cid: str, round_: int | None = None) -> bool:
        return "prone" in self.conditions(fight, cid, round_)

    def dead(self, fight: Fight, cid: str) -> bool:
        """Dead by a death event, or felled by a chain's dice (AO-8, AO-9)."""
        return fight.status[cid].dead or cid in self.state(fight).felled

    def no_turn(self, fight: Fight, cid: str) -> tuple[str, str] | None:
        """Why `cid` takes no turn: (rule, why), or None."""
        status = fight.status[cid]
        came = self.summoned_in(fight, cid)  # once: a big battle asks of every unit
        if self._gone(fight, cid, came):
            return ("AO-14", "an unthralled summon: vanished")
        felled = self.state(fight).felled.get(cid)  # the chain's rule, death event or not
        if felled:
            return (felled, "dead")
        if status.dead:
            return ("AO-15", "dead")
        if status.hp <= 0:
            return ("AO-15", "defeated (0 hp)")
        for name in OUT:
            if name in status.conditions:
                return ("AO-15", name)
        if self._sick(fight, came):
            return ("AO-14", "summoning sickness: cannot act this round")
        return None

    def can_act(self, fight: Fight, cid: str) -> str:
        found = self.no_turn(fight, cid)
        return found[1] if found else ""

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        return None  # the lineup leaves out who takes no turn, and lists them as skipped

    def standing(self, fight: Fight, cid: str) -> bool:
        return self.no_turn(fight, cid) is None or (
            self.sick(fight, cid) and not self.dead(fight, cid))

    def standing_sides(self, fight: Fight) -> list[str]:
        sides = []
        for cid, c in fight.roster.items():
            if c.side not in sides and self.standing(fight, cid):
                sides.append(c.side)
        return sides

    # -- the hit roll (AO-7) -------------------------------------------------------------

    def hit_bonus(self, fight: Fight, actor: str, flank: bool, centre: bool,
                  round_: int | None = None) -> tuple[int, list[str]]:
        """d20 + Accuracy (disrupting wounds off), +1 flanking, +1 centre mass, +1s bought."""
        accuracy = self.accuracy_now(fight, actor, round_)
        parts = [f"Accuracy {accuracy:+d}"]
        bonus = accuracy
        for label, on in (("flanking +1", flank), ("centre mass +1", centre)):
            if on:
                bonus += 1
                parts.append(label)
        bought = self.bought(fight, actor, round_)[0]
        if bought:
            bonus += bought
            parts.append(f"+{bought} bought (BA)")
        return bonus, parts

    def target_number(self, fight: Fight, target: str, sneak: bool,
                      round_: int | None = None) -> tuple[int, str]:
        """10 + Agility (+1 a dodge bought); flat-footed 5; prone 5 + Agility."""
        agility = self.agility_now(fight, target)
        flat = "undetected" if sneak else self.flat_footed(fight, target, round_)
        if flat:
            return 5, f"flat-footed ({flat}): 5"
        if self.prone(fight, target, round_):
            return 5 + agility, f"prone: 5 {agility:+d}"
        dodge = self.bought(fight, target, round_)[2]
        return 10 + agility + dodge, f"10 {agility:+d}" + (f" +{dodge} dodge" if dodge else "")

    # -- the budget (AO-4) ----------------------------------------------------------------

    def max_ba(self, fight: Fight, cid: str) -> int:
        return max(0, 2 - self._count(fight, cid, "weakening"))

    def left(self, fight: Fight, cid: str, round_: int | None = None,
             later: bool = False) -> tuple[int, int, int]:
        """AA, MA, BA left in `cid`'s turn this round (or its next, `later`)."""
        state = self.state(fight)
        round_ = max(fight.round, 1) if round_ is None else round_
        if later or round_ > state.round:
            spent = state.owed.get(cid, st.NONE)
        else:
            spent = state.spent.get(cid, st.NONE)
        return (max(0, 1 - spent[0]), max(0, 1 - spent[1]),
                max(0, self.max_ba(fight, cid) - spent[2]))

    @staticmethod
    def left_text(left: tuple[int, int, int]) -> str:
        parts = [p for p, n in (("AA", left[0]), ("MA", left[1])) if n]
        if left[2]:
            parts.append(f"{left[2]} BA")
        return ", ".join(parts) or "nothing"

    def slots(self, fight: Fight, cid: str) -> int:
        """AO-10: free hit slots a round: Agility modifier + 1 (none at 0 or below)."""
        return max(0, self.agility_now(fight, cid) + 1)

    def free_left(self, fight: Fight, cid: str) -> int:
        return max(0, self.slots(fight, cid) - self.state(fight).free_used.get(cid, 0))

    def has_grant(self, fight: Fight, cid: str, target: str, kind: str) -> bool:
        return f"{kind}:{target}" in self.state(fight).grants.get(cid, ())

    # -- the lineup (AO-1 … AO-3) ----------------------------------------------------------

    def lineup(self, fight: Fight, round_: int) -> lu.Lineup:
        key = (fight.plan_revision, round_, fight.round)
        found = self._lineups.get(key)
        if found is None:
            if len(self._lineups) > 64:
                self._lineups.clear()
            found = self._lineups[key] = lu.lineup(self, fight, round_)
        return found

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def plan(self, fight: Fight, round_: int) -> Plan:
        found = self.lineup(fight, round_)
        beats = [Beat([PlannedAction(s.cid, "turn")], list(s.rules), list(s.why),
                      {"agility": s.agility}) for s in found.slots]
        plan = Plan(self.id, round_, beats)
        plan.skipped = [dict(item) for item in found.skipped]
        if found.unrolled:
            plan.notes.append("ties to roll (t): " + ", ".join(found.unrolled))
        return plan

    def turn(self, fight: Fight, round_: int | None = None) -> str | None:
        """Whose turn it is: the lineup's first unit not done this round."""
        round_ = max(fight.round, 1) if round_ is None else round_
        done = fight.resolved.get(round_, set()) if round_ <= fight.round else set()
        for slot in self.lineup(fight, round_).slots:
            if f"{slot.cid}:turn" not in done:
                return slot.cid
        return None

    def on_turn(self, fight: Fight, cid: str, round_: int, what: str) -> None:
        now = self.turn(fight, round_)
        if now != cid:
            who = f"{fight.roster[now].name}'s" if now else "nobody's (the round is over)"
            raise IllegalEvent(f"it is {who} turn, not {fight.roster[cid].name}'s: "
                               f"{what} on its own turn", ("actor",))

    # -- initiative: the tie rolls (AO-1) --------------------------------------------------

    def initiative_due(self, fight: Fight) -> bool:
        return False  # ties are rolled with the `t` act; nothing waits for them

    def ties_due(self, fight: Fight) -> list[str]:
        if self.tie_mode == "players":
            return []
        return list(self.lineup(fight, max(fight.round, 1)).unrolled)

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        return acts.run_ties(self, fight, None, {}, rng)

    def initiative_form(self, fight: Fight) -> Form:
        return acts.ties_form(self, fight)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return acts.run_ties(self, fight, None, values, random.Random(0))

    # -- checks ----------------------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        checks.round_ahead(fight, event)
        for name in ("actor", "target", "after", "by"):
            cid = getattr(event, name, None)
            if isinstance(cid, str) and event.TYPE in (
                    "delay", "spend", "attack", "wound") and cid not in fight.roster:
                known = ", ".join(fight.roster)
                raise IllegalEvent(f"unknown combatant {cid!r} (combatants: {known})", (name,))
        if isinstance(event, ao.Initiative):
            checks.ties(self, fight, event)
        elif isinstance(event, ao.Delay):
            self.check_delay(fight, event)
        elif isinstance(event, ao.Spend):
            self.check_spend(fight, event)
        elif isinstance(event, ao.Attack):
            checks.attack_dice(self, fight, event)
            self.check_attack(fight, event.actor, event.target, free=event.free,
                              extra=event.extra, granted=event.granted, round_=event.round)
        elif isinstance(event, ev.Roll):
            checks.roll_total(event)
        elif isinstance(event, ao.Wound):
            self._check_wound(fight, event)
        elif isinstance(event, ao.Heal) and event.wound is not None:
            had = len(self.state(fight).wounds.get(event.target, ()))
            if event.wound > had:
                raise IllegalEvent(f"{event.target} has {had} wound(s), not a wound "
                                   f"{event.wound} to remove", ("wound",))
        elif isinstance(event, ev.Join) and event.combatant is not None:
            checks.join(self, fight, event)
            self._check_summon(fight, event.combatant)

    def check_encounter(self, encounter: Any) -> None:
        for index, c in enumerate(encounter.combatants):
            checks.numbers(c.stats, ("combatants", index))

    def check_delay(self, fight: Fight, e: ao.Delay) -> None:
        self.on_turn(fight, e.actor, e.round, "a unit delays")
        if e.after is None:
            return
        if e.after == e.actor:
            raise IllegalEvent(f"{e.actor} cannot delay after itself", ("after",))
        done = fight.resolved.get(e.round, set()) if e.round <= fight.round else set()
        if f"{e.after}:turn" in done:
            raise IllegalEvent(f"{e.after} has already acted this round: {e.actor} can only "
                               "delay after a unit still to act (AO-3)", ("after",))
        if all(s.cid != e.after for s in self.lineup(fight, e.round).slots):
            raise IllegalEvent(f"{e.after} takes no turn this round (AO-3)", ("after",))

    def check_spend(self, fight: Fight, e: ao.Spend) -> None:
        name = fight.roster[e.actor].name
        if self.no_turn(fight, e.actor):
            raise IllegalEvent(f"{name} cannot act: {self.can_act(fight, e.actor)}", ("actor",))
        later = False
        if e.off_turn:
            if e.use != "stand up":
                raise IllegalEvent("only standing up can be done off-turn (AO-6)", ("off_turn",))
            if self.turn(fight, e.round) == e.actor:
                raise IllegalEvent(f"it is {name}'s own turn: no need to take from the next",
                                   ("off_turn",))
            later = f"{e.actor}:turn" in fight.resolved.get(e.round, set())
        else:
            self.on_turn(fight, e.actor, e.round, "actions are spent")
        left = self.left(fight, e.actor, e.round, later)
        for index, (label, want) in enumerate((("AA", e.aa), ("MA", e.ma), ("BA", e.ba))):
            if want > left[index]:
                turn = "its next turn" if e.off_turn else "this turn"
                have = f"only {left[index]}" if left[index] else "no"
                raise IllegalEvent(f"{e.actor} has {have} {label} left {turn} "
                                   f"(left: {self.left_text(left)})", (label.lower(),))
        if e.use == "stand up" and not self.prone(fight, e.actor):
            raise IllegalEvent(f"{name} is not prone (AO-6)", ("use",))
        checks.spend(self, fight, e)

    def check_attack(self, fight: Fight, actor: str, target: str, free: bool, extra: bool,
                     granted: bool, round_: int | None = None) -> None:
        round_ = max(fight.round, 1) if round_ is None else round_
        name = fight.roster[actor].name
        why = self.can_act(fight, actor)
        if why:
            raise IllegalEvent(f"{name} cannot attack: {why}", ("actor",))
        if target == actor:
            raise IllegalEvent(f"{name} cannot attack itself", ("target",))
        if free:
            if granted:
                if not self.has_grant(fight, actor, target, "tragedy"):
                    raise IllegalEvent(f"{name} has no tragedy's free critical against "
                                       f"{target} (AO-9)", ("granted",))
                return
            if self.free_left(fight, actor) < 1:
                raise IllegalEvent(f"{actor} has no free hit slot left this round (slots: "
                                   f"{self.slots(fight, actor)}, used "
                                   f"{self.state(fight).free_used.get(actor, 0)}) (AO-10)",
                                   ("free",))
            return
        self.on_turn(fight, actor, round_, "an attack (not a free hit) is made")
        left = self.left(fight, actor, round_)
        if extra and (left[1] < 1 or left[2] < 2):
            raise IllegalEvent(f"{actor} has not MA + 2 BA left for the extra attack "
                               f"(left: {self.left_text(left)}) (AO-4)", ("extra",))
        if not extra and left[0] < 1:
            more = (" — MA + 2 BA would pay the extra attack" if left[1] and left[2] >= 2
                    else "")
            raise IllegalEvent(f"{actor} has no AA left this turn (left: "
                               f"{self.left_text(left)}){more}", ("actor",))

    def _check_wound(self, fight: Fight, e: ao.Wound) -> None:
        if e.effect is not None and e.effect not in ao.EFFECTS:
            raise IllegalEvent(f"unknown effect {e.effect!r} (effects: "
                               f"{', '.join(ao.EFFECTS)})", ("effect",))
        if e.effect and e.by:
            hit = self.state(fight).last_hit.get(f"{e.by}>{e.target}")
            if hit is None:
                raise IllegalEvent(f"an aimed effect needs a hit: {e.by} has not attacked "
                                   f"{e.target} (AO-11)", ("effect",))
            if not hit:
                raise IllegalEvent(f"an aimed effect needs a hit: {e.by}'s attack on "
                                   f"{e.target} missed (AO-11)", ("effect",))

    def _check_summon(self, fight: Fight, c: Any) -> None:
        owner = stats.summoner(c)
        if not owner:
            return
        if owner not in fight.roster:
            raise IllegalEvent(f"unknown summoner {owner!r}", ("combatant", "summoner"))
        have = sum(1 for cid, o in fight.roster.items()
                   if stats.summoner(o) == owner and not self.dead(fight, cid)
                   and not self.gone(fight, cid))
        limit = stats.slots(fight.roster[owner])
        if have + 1 > limit:
            raise IllegalEvent(f"{owner} has no summoning slot left ({have} of {limit} "
                               "in use) (AO-14)", ("combatant", "summoner"))

    # -- consequences ----------------------------------------------------------------------

    def apply_damage(self, fight: Fight, status: Status, event: ev.Damage) -> None:
        """AO-11: a hit entered as damage alone goes through the target's armour."""
        status.hp -= wounds.net(fight, self.state(fight), event)

    def apply_heal(self, fight: Fight, status: Status, event: ev.Heal) -> None:
        status.hp = min(status.max_hp, status.hp + event.amount)

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """AO-11: a hit entered as damage alone that deals 6+ net wounds; AO-15: the
        battle ends when one team has nobody standing."""
        return wounds.wound_of_hit(self, fight, event) + self._battle_over(fight, event)

    def damage_fields(self, fight: Fight) -> tuple[Field, ...]:
        return wounds.hit_fields(self, fight)

    def _battle_over(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        if fight.ended or event.TYPE not in ("damage", "death", "condition"):
            return []
        sides = self.standing_sides(fight)
        if len(sides) > 1 or len({c.side for c in fight.roster.values()}) < 2:
            return []
        names = [s.name for s in fight.encounter.sides if s.id in sides]
        victors = ", ".join(names) or "nobody"
        return [ev.End(round=max(fight.round, 1),
                       note=f"the battle is over: {victors} stand (AO-15)")]

    # -- the tracker -----------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        return (Column("hp", "hp"), Column("agi", "agi"), Column("left", "left", 11),
                Column("fhs", "FHS"), Column("wounds", "wounds", 16, fold=4))

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        left = self.left(fight, cid)
        budget = " ".join(p for p, n in (("AA", left[0]), ("MA", left[1])) if n)
        budget = (budget + " " + "B" * left[2]).strip() or "—"
        owed = self.state(fight).owed.get(cid)
        if owed and any(owed):
            budget += "*"
        agility = self.agility_now(fight, cid)
        base = stats.agility(fight.roster[cid])
        had = st.effects(self.state(fight), cid)
        conditions = [f"{n} {d}" if d else n for n, d in status.conditions.items()]
        flat = self.flat_footed(fight, cid)
        if flat and flat not in status.conditions:
            conditions.append("flat-footed")
        if self.sick(fight, cid):
            conditions.append("sick")
        if self.gone(fight, cid):
            conditions.append("gone")
        return {"hp": Cell(f"{status.hp}/{status.max_hp}",
                           "bad" if status.hp <= 0 else ""),
                "agi": Cell(f"{agility:+d}", "warn" if agility != base else ""),
                "left": Cell(budget, "dim" if budget == "—" else ""),
                "fhs": Cell(f"{self.free_left(fight, cid)}/{self.slots(fight, cid)}"),
                "wounds": Cell(", ".join(w or "wound" for w in had), "bad"),
                "conditions": Cell(", ".join(conditions), "warn" if flat else "")}

    def state_word(self, fight: Fight, cid: str) -> str:
        found = self.no_turn(fight, cid)
        if found is None:
            return ""
        return {"dead": "dead", "defeated (0 hp)": "down"}.get(found[1], found[1].split(":")[0])

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        left = self.left(fight, cid)
        c = fight.roster[cid]
        mp = stats.max_mp(c)
        out.update(
            agility=self.agility_now(fight, cid), accuracy=self.accuracy_now(fight, cid),
            left={"AA": left[0], "MA": left[1], "BA": left[2]},
            slots=self.slots(fight, cid), free_hits_left=self.free_left(fight, cid),
            wounds=st.effects(self.state(fight), cid),
            flat_footed=bool(self.flat_footed(fight, cid)), prone=self.prone(fight, cid),
            sick=self.sick(fight, cid), gone=self.gone(fight, cid),
            movement=self.movement_of(fight, cid, ""),
            condition=self.state_word(fight, cid) or "fine")
        if mp is not None:
            out["mp"] = self.mp_left(fight, cid)
        return out

    def mp_left(self, fight: Fight, cid: str) -> int | None:
        """The MP `cid` has left (None: it has no MP at all)."""
        mp = stats.max_mp(fight.roster[cid])
        return None if mp is None else mp - self.state(fight).mp_spent.get(cid, 0)

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        out = st.plain(self.state(fight))
        out["turn"] = self.turn(fight)
        out["ties_due"] = self.ties_due(fight)
        return out

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # no declarations: whose turn it is says it

    def status_parts(self, fight: Fight) -> list[str]:
        parts = []
        now = self.turn(fight)
        if now is not None:
            left = self.left(fight, now)
            parts.append(f"turn: {fight.roster[now].name} ({self.left_text(left)} left)")
        due = self.ties_due(fight)
        if due:
            parts.append("tie to roll: t")
        return parts

    def notices(self, fight: Fight) -> list[tuple[str, str]]:
        out = []
        for cid, grants in self.state(fight).grants.items():
            for grant in grants:
                kind, target = grant.split(":", 1)
                what = "a free critical, no slot needed" if kind == "tragedy" else "a free hit"
                out.append(("Free hit (AO-9)", f"{fight.roster[cid].name} may take {what} "
                            f"at {fight.roster[target].name} — f"))
        return out

    # -- movement (AO-5) ---------------------------------------------------------------

    def movement_of(self, fight: Fight, cid: str, mode: str, more: int = 0,
                    round_: int | None = None) -> int:
        """AO-5: the spaces `cid` may move this turn moving `mode` ("" normal): the
        additions and subtractions first (Athlete +2, each slowing wound −2, each "move
        2 more spaces" BA bought, `more` such BAs still to buy), then the halving or the
        third, rounded down."""
        c = fight.roster[cid]
        adds = self.bought(fight, cid, round_)[3] + more
        spaces = self.movement + (2 if stats.has_feat(c, "Athlete") else 0) + 2 * adds
        spaces -= 2 * self._count(fight, cid, "slowing")
        spaces = max(spaces, 0)
        maneuver = stats.has_feat(c, "Maneuverer") and mode in ("sneaking", "swimming",
                                                                "tumbling")
        if mode in stats.SLOW and not maneuver:
            spaces //= 2
        if self.prone(fight, cid, round_):
            spaces //= 3
        return spaces

    def more_spaces(self, fight: Fight, cid: str, round_: int | None = None) -> int | None:
        """AO-5: how much further one more "move 2 more spaces" BA takes `cid` after its
        move this turn (added before the move's halving); None before the move, which
        then counts it in."""
        state = self.state(fight)
        mode = state.moved.get(cid) if round_ is None or round_ <= state.round else None
        if mode is None:
            return None
        return (self.movement_of(fight, cid, mode, 1, round_)
                - self.movement_of(fight, cid, mode, 0, round_))

    # -- acts ---------------------------------------------------------------------------

    def acts(self, fight: Fight) -> list[Act]:
        """Attack, move, bonus, the other action, disengage, delay, free hit, stand up,
        ties and wounds: each one act (acts.py)."""
        return acts.acts(self)
