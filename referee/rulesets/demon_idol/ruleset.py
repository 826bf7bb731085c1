"""demon-idol: side d6 initiative, A-G letter order and every out-of-sequence rule.

The planner (order.py) lays a round out by DI-3/DI-4 (layout.py, with the tie splits DI-11,
DI-12 and the delay of DI-16), then lets each pairwise rule DI-6 ... DI-14 move only the
actions it names, as DI-0 describes (pairwise.py and the modules built on it). Every beat
cites the rules that placed it. What the rules add after an event (a spell lost, death,
bleeding) is in consequences.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from referee.engine import events as ev
from referee.engine.dice import DiceError, Roll
from referee.engine.dice import roll as roll_dice
from referee.engine.errors import FormatError, IllegalDeclaration, IllegalEvent
from referee.engine.fight import Fight
from referee.engine.forms import last_declaration, prefill
from referee.engine.plan import Plan
from referee.engine.port import Declaring, Rolling, unique_keys
from referee.engine.reading import Fields
from referee.engine.record import replace
from referee.engine.specs import Act, ActionKind, Cell, Column, Field, Form, Timer

from . import acts, discharge, hits, ranges, routines, stats, volleys
from . import events as di
from .items import INITIATIVE
from .rules import RULES
from .state import State, state_of

# The by-the-book switches: key -> (rule id, on, off). Off is the Demon Idol procedure.
BOOK: dict[str, tuple[str, str, str]] = {
    "weapon_speed_blows": (
        "DMG-66", "tied rounds: a weapon twice as fast or 5 factors faster strikes twice "
                  "before the slower one, 10 faster a third time with it (DMG-66)",
        "tied rounds: one blow each, by speed factor (DI-11; not DMG-66)"),
    "caster_speed_less_die": (
        "DMG-67", "melee against a caster: the attacker's side lost, speed factor less its "
                  "die (negative counts as positive); tied, nothing off; the caster's side "
                  "lost, the blow first (DMG-67)",
        "melee against a caster: speed factor against casting time (DI-10; not DMG-67)"),
    "missiles_on_die_segment": (
        "DMG-65", "missiles against a caster whose side won land on the segment of the "
                  "caster's side's die (DMG-65)",
        "missiles against a caster by die only in tied rounds (DI-12; not DMG-65)"),
    "routines_first_and_last": (
        "DMG-62", "multiple attack routines (G) strike first and last, whichever side won; "
                  "several on both sides, routine by routine in initiative order (DMG-62)",
        "multiple routines slot in before the winner's first attack (DI-7; not DMG-62)"),
    "volley_shots_in_turn": (
        "DMG-63", "a volley's shots one after another; a charge's contact stops them (DMG-63)",
        "a volley's shots in one beat (DI-7; not DMG-63)"),
    "devices_by_usage_time": (
        "DMG-64", "devices go off on their usage time's segment against the enemy's die "
                  "(DMG-64)",
        "devices at the D place (DI-3; not DMG-64)"),
}

# DI-16: each full 6 seconds a player dithers over a declaration delays it 1 segment
DECLARATION_CLOCK = Timer(6, "delay", "seg", "DI-16")
ROLES = ("psionic", "avoid", "parley", "await", "discharge", "move", "set", "strike")
FIELDS = {
    "psionic": ("target",),
    "avoid": ("note",),
    "parley": ("target",),
    "await": (),
    "discharge": ("weapon", "spell", "device", "usage_time", "turn", "target", "shots"),
    "move": ("charge", "distance", "indoors", "closing", "weapon", "target"),
    "set": ("weapon", "target"),
    "strike": ("weapon", "target", "routines"),
}
ALWAYS = ("prepared", "trigger", "delay", "segment", "note", "initiative")
DECLARE_SPECS = {
    "device": Field("device", "device"),
    "usage_time": Field("usage_time", "segments to use", "int", minimum=0),
    "turn": Field("turn", "turn undead", "bool", False),
    "charge": Field("charge", "charge", "bool", False),
    "closing": Field("closing", "segments to close", "int", minimum=0,
                     help="typed: wins over the distance"),
    "distance": Field("distance", "distance", "number",
                      help='inches (") to close: with the movement rate, the segments'),
    "indoors": Field("indoors", "where", "choice", None,
                     options=(("as the encounter", None), ("indoors", "indoors"),
                              ("outdoors", "outdoors")),
                     help="a charge: twice the movement rate indoors, a third more outdoors"),
    "prepared": Field("prepared", "prepared", "bool", False),
    "trigger": Field("trigger", "trigger"),
    "initiative": Field("initiative", "initiative", "choice", None,
                        options=(("as its side", None), ("haste: wins", "haste"),
                                 ("weapon of speed: wins", "speed"), ("slow: loses", "slow")),
                        help="this action alone wins or loses initiative"),
    "shots": Field("shots", "shots at each target", help=volleys.HELP),
    "note": Field("note", "how", help="slams the door, flees north, escapes by magic …"),
    "routines": Field("routines", "weapon of each routine", help=routines.HELP),
}


class DemonIdol(Declaring[State], Rolling[State]):
    id = "demon-idol"
    RULES = RULES
    COMBATANT_FIELDS = stats.COMBATANT
    WEAPON_FIELDS = stats.WEAPON
    SPELL_FIELDS = stats.SPELL
    ENCOUNTER_FIELDS = stats.ENCOUNTER
    EVENTS = di.EVENTS
    SHAPING = Declaring.SHAPING | {"fire", "spell_lost"}

    def read(self, f: Fields) -> None:
        self.die = f.int("initiative_die", 6, minimum=2)
        self.death_at = f.int("death_at", -10)
        self.bleed = f.int("bleed", 1, minimum=0)
        ranges.check({"initiative_die": self.die, "death_at": self.death_at,
                      "bleed": self.bleed}, ranges.RULESET, f.path)
        self.letters = self._read_letters(f.list("letters", None))
        self.role_of = {key: role for key, _, role in self.letters}
        self.letter_of = {role: key for key, _, role in self.letters}
        self.order = [key for key, _, role in self.letters if role != "psionic"]
        # By the book: where the DMG differs from the Demon Idol procedure (all off: DI)
        self.book = {key: bool(f.bool(key, False)) for key in BOOK}

    @staticmethod
    def _read_letters(items: list[Any] | None) -> list[tuple[str, str, str]]:
        if items is None:
            return [(key, role, role) for key, role in zip("PABCDEFG", ROLES, strict=True)]
        letters = []
        for index, item in enumerate(items):
            f = Fields(item, ("letters", index))
            key, name = f.str("key"), f.str("name", "")
            role = f.str("role")
            if role not in ROLES:
                raise FormatError(f"unknown role {role!r} (roles: {', '.join(ROLES)})",
                                  f.sub("role"))
            f.done()
            letters.append((key, name or role, role))
        unique_keys([key for key, _, _ in letters], "letter", ("letters",))
        missing = [role for role in ROLES if role not in {r for _, _, r in letters}]
        if missing:
            raise FormatError(f"no letter for {', '.join(missing)}", ("letters",))
        return letters

    def switches(self) -> list[str]:
        return [f"initiative: d{self.die} per side (DI-2)",
                f"dead at {self.death_at} hit points, bleeding {self.bleed} a round (DI-19)",
                "letters: " + " ".join(key for key, _, _ in self.letters),
                *(f"{key} = {'true' if on else 'false'}: "
                  f"{BOOK[key][1] if on else BOOK[key][2]}"
                  for key, on in self.book.items())]

    def by_book(self, key: str) -> bool:
        """Whether the by-the-book switch `key` (one of BOOK) is on."""
        return self.book[key]

    # -- the roster and the log ----------------------------------------------------------

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        from .views import tell

        return tell(fight, event)

    # -- state -----------------------------------------------------------------------------

    def start(self, fight: Fight) -> State:
        return State({}, {}, {}, {})  # one fallen from the start has no moment: it never acts

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        kind = event.TYPE
        if kind == "spell_lost" and isinstance(event, di.SpellLost):
            return replace(state, lost_spells={**state.lost_spells,
                                               (event.round, event.actor): event})
        if kind == "fire" and isinstance(event, di.Fire):
            return replace(state, fired={**state.fired, (event.round, event.actor): event})
        if kind in ("damage", "heal", "death"):
            return self._fell(fight, state, event)
        if kind == "surprise" and isinstance(event, ev.Surprise):
            return replace(state, surprise=event)  # DI-17
        if kind == "morale" and isinstance(event, ev.Morale):
            return self._morale(fight, state, event)
        if kind == "end":
            fight.phase = "recovery"  # DI-20: one recovery turn
        return state

    @staticmethod
    def _morale(fight: Fight, state: State, event: ev.Morale) -> State:
        """DI-18: a check kept in its round (due or rolled); one failed notes who broke."""
        checks = {**state.morale, event.round: state.morale.get(event.round, ()) + (event,)}
        if event.passed is not False:
            return replace(state, morale=checks)
        broke = dict.fromkeys(((event.round, cid) for cid in fight.members(event.group)),
                              event.avoid or "flee")
        return replace(state, morale=checks, broken={**state.broken, **broke})

    @staticmethod
    def _fell(fight: Fight, state: State, event: ev.Event) -> State:
        """The moment a combatant first falls (to 0 hit points or below, or dead) is kept
        until healing stands it up again: DI-21 lets it act in that beat alone."""
        target: str = getattr(event, "target", "")
        status = fight.status[target]
        down = status.dead or status.hp <= 0
        if down and target not in state.fell:
            done = frozenset(fight.resolved.get(event.round, ()))
            beat = event.beat if isinstance(event, ev.Damage) else None
            return replace(state, fell={**state.fell, target: (event.round, beat, done)})
        if not down and target in state.fell:
            return replace(state, fell={k: v for k, v in state.fell.items() if k != target})
        return state

    def announced(self) -> tuple[str, ...]:
        return ("death", "spell_lost")

    # -- checks -------------------------------------------------------------------------

    def actions(self) -> list[ActionKind]:
        return [ActionKind(key, name, FIELDS[role], key.lower())
                for key, name, role in self.letters]

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        if isinstance(event, di.Declare):
            super().check_event(fight, event)
            ranges.check_fields(event, ranges.DECLARE, ())
            self._check_declare(fight, event)
        elif isinstance(event, di.Initiative):
            self._check_initiative(fight, event)
        elif isinstance(event, di.Surprise):
            ranges.check({"segments": event.segments}, ranges.SURPRISE, ())
        elif isinstance(event, di.Fire):
            if not any(getattr(d, "prepared", False) and d.actor == event.actor
                       for _, d in fight.declared(event.round)):
                raise IllegalEvent(f"{event.actor} has no prepared action in round "
                                   f"{event.round}", ("actor",))
        elif isinstance(event, di.SpellLost) and event.actor not in fight.roster:
            raise IllegalEvent(f"unknown combatant {event.actor!r}", ("actor",))

    def _check_declare(self, fight: Fight, d: di.Declare) -> None:
        role = self.role_of[d.action]
        allowed = FIELDS[role] + ALWAYS
        for name in ("weapon", "spell", "device", "usage_time", "closing", "distance",
                     "indoors"):
            if getattr(d, name) is not None and name not in allowed:
                raise IllegalDeclaration(f"{d.action} ({role}) takes no {name}", (name,))
        for name in ("turn", "charge"):
            if getattr(d, name) and name not in allowed:
                raise IllegalDeclaration(f"{d.action} ({role}) cannot {name}", (name,))
        if d.initiative is not None and d.initiative not in INITIATIVE:
            raise IllegalDeclaration(f"initiative: expected one of {', '.join(INITIATIVE)}, "
                                     f"found {d.initiative!r}", ("initiative",))
        if d.shots:
            self._check_shots(fight, d)
        if d.routines:
            routines.check(d, fight.roster[d.actor], role)
        chosen = [n for n in ("spell", "device", "turn") if getattr(d, n)]
        if role == "discharge" and len(chosen) + (d.weapon is not None) > 1:
            raise IllegalDeclaration("a D names one of weapon, spell, device or turn",
                                     (chosen[0],))
        if d.prepared and role == "discharge" and d.spell and d.segment:
            raise IllegalDeclaration("a spell's start can be prepared, not in surprise",
                                     ("prepared",))
        if d.segment is not None:
            self._check_surprise_declare(fight, d)
        if d.distance is not None:
            self._check_distance(fight, d)
        if d.then and role == "discharge" and not self._shot(fight, d):
            raise IllegalDeclaration("a D after an E is a shot on the move: name a missile "
                                     "weapon (spells and devices are not cast moving)",
                                     ("then",))
        if role == "discharge":
            discharge.check(d, fight.roster[d.actor])

    @staticmethod
    def _check_distance(fight: Fight, d: di.Declare) -> None:
        rate = stats.move(fight.roster[d.actor])
        if d.distance is not None and d.distance < 0:
            raise IllegalDeclaration(f"must be at least 0, found {d.distance:g}",
                                     ("distance",))
        if rate is None:
            raise IllegalDeclaration(f"{d.actor} has no movement rate (move) to cover a "
                                     "distance: give its move, or closing in segments",
                                     ("distance",))
        if rate == 0 and d.closing is None:
            raise IllegalDeclaration(f"{d.actor} cannot move (move = 0)",
                                     ("distance",))

    @staticmethod
    def _shot(fight: Fight, d: di.Declare) -> bool:
        weapon = fight.roster[d.actor].weapon(d.weapon) if d.weapon else None
        return weapon is not None and stats.discharged(weapon)

    def further(self, fight: Fight, actor: str, earlier: list[ev.Declare],
                action: str) -> str:
        from .book import further

        return further(self, earlier, action)

    def can_declare(self, fight: Fight, actor: str, action: str) -> str:
        """... and a D only of one with something to discharge (a fighter with a long
        sword alone has none)."""
        why = super().can_declare(fight, actor, action)
        if why or self.role_of.get(action) != "discharge":
            return why
        return discharge.why_not(fight.roster[actor], action)

    def _check_shots(self, fight: Fight, d: di.Declare) -> None:
        weapon = fight.roster[d.actor].weapon(d.weapon) if d.weapon else None
        if weapon is None or not stats.discharged(weapon):
            raise IllegalDeclaration("shots: one target per shot of a missile (or thrown) "
                                     "weapon named", ("shots",))
        if len(d.shots) > stats.rate(weapon):
            raise IllegalDeclaration(f"shots: {len(d.shots)} targets for {weapon.name}'s "
                                     f"{stats.rate(weapon)} shot(s) a round", ("shots",))
        for index, target in enumerate(d.shots):
            if target not in fight.roster:
                raise IllegalDeclaration(f"unknown combatant {target!r}", ("shots", index))

    def _check_surprise_declare(self, fight: Fight, d: di.Declare) -> None:
        surprise = state_of(fight).surprise
        segments = getattr(surprise, "segments", 0)
        if surprise is None or segments == 0:
            raise IllegalDeclaration("no surprise segments in this fight (DI-17)", ("segment",))
        if d.segment is not None and d.segment > segments:
            raise IllegalDeclaration(
                f"segment {d.segment}: there are {segments} surprise segments (DI-17)",
                ("segment",))
        if fight.is_member(d.actor, surprise.surprised):
            raise IllegalDeclaration(
                f"{d.actor} is surprised and cannot act in surprise segments (DI-17)",
                ("actor",))
        for target in fight.members(d.target):
            reaction = stats.reaction(fight.roster[target])
            if d.segment is not None and reaction >= d.segment:
                raise IllegalDeclaration(
                    f"{target} cannot be targeted in surprise segment {d.segment}: "
                    f"reaction +{reaction} (DI-17)", ("target",))

    def _check_initiative(self, fight: Fight, e: di.Initiative) -> None:
        sides = fight.side_ids()
        for side, value in e.rolls.items():
            if side not in sides:
                raise IllegalEvent(f"unknown side {side!r} (sides: {', '.join(sorted(sides))})",
                                   ("rolls", side))
            if not 1 <= value <= self.die:
                raise IllegalEvent(f"a d{self.die} shows 1 to {self.die}, found {value}",
                                   ("rolls", side))
        for side, shown in e.dice.items():
            self._check_die(e, side, shown)

    def _check_die(self, e: di.Initiative, side: str, record: Any) -> None:
        """Where the program rolled, the die it logged decides the side's roll: a save in
        which they disagree is refused, with both values."""
        if side not in e.rolls:
            raise IllegalEvent(f"a die for {side!r}, which has no roll", ("dice", side))
        try:
            rolled = Roll.from_dict(record)
        except DiceError as error:
            raise IllegalEvent(str(error), ("dice", side)) from None
        if rolled.expression != f"1d{self.die}":
            raise IllegalEvent(f"expected one d{self.die}, found {rolled.expression}",
                               ("dice", side))
        if rolled.total != e.rolls[side]:
            raise IllegalEvent(f"{e.rolls[side]}, but its die (dice.{side}) shows "
                               f"{rolled.total}", ("rolls", side))

    # -- initiative ----------------------------------------------------------------------

    def roll_initiative(self, fight: Fight, rng: random.Random) -> list[ev.Event]:
        rolls, dice = {}, {}
        for side in fight.encounter.sides:
            result = roll_dice(f"d{self.die}", rng)
            rolls[side.id] = result.total
            dice[side.id] = result.to_dict()
        return [di.Initiative(round=max(fight.round, 1), rolls=rolls, dice=dice)]

    def initiative_form(self, fight: Fight) -> Form:
        fields = tuple(Field(s.id, s.name, "int", minimum=1, required=True)
                       for s in fight.encounter.sides)
        return Form(f"Initiative from real dice: a d{self.die} per side", fields)

    def initiative_from(self, fight: Fight, values: Mapping[str, Any]) -> list[ev.Event]:
        return [di.Initiative(round=max(fight.round, 1), rolls=dict(values))]

    def status_parts(self, fight: Fight) -> list[str]:
        if fight.ended:  # the recovery turn (DI-20) rolls no dice: room for "over"
            return []
        initiative = fight.initiatives.get(max(fight.round, 1))
        rolls = getattr(initiative, "rolls", None)
        if not rolls:
            return []
        return ["dice " + ", ".join(f"{k} {v}" for k, v in rolls.items())]

    # -- the plan ------------------------------------------------------------------------

    def plan(self, fight: Fight, round_: int) -> Plan:
        from .order import build_plan

        return build_plan(self, fight, round_)

    def acts_in(self, fight: Fight, cid: str, beat: int) -> bool:
        """DI-21: all the actions of a beat resolve, even where they fell each other's
        actors: one who fell (slain, dying or down) in a beat still acts in it; one who
        fell earlier does not."""
        status = fight.status[cid]
        if not status.dead and status.hp > 0:
            return True
        fell = self.state(fight).fell.get(cid)
        if fell is None or fell[0] != fight.round:
            return False
        _, during, done = fell
        return beat <= (during if during is not None else self._beat_when(fight, cid, done))

    def _beat_when(self, fight: Fight, cid: str, done: frozenset[str]) -> int:
        """The beat `cid` fell in when the blow named none: the first of the round's plan
        not all resolved by `done`. Worked out once a plan (a big round asks it for every
        fallen action)."""
        key = (fight.plan_revision, cid, done)
        kept: dict[Any, int] = self.__dict__.setdefault("_fell_beats", {})
        found = kept.get(key)
        if found is None:
            if len(kept) > 4096:
                kept.clear()
            plan = self.plan(fight, fight.round)
            found = next((n for n in range(1, len(plan.beats) + 1)
                          if not set(plan.keys(n)) <= done), len(plan.beats) + 1)
            kept[key] = found
        return found

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        status = fight.status[cid]
        if self.acts_in(fight, cid, beat):
            return None  # standing, or fell in this very beat: it still acts (DI-21)
        if status.dead:
            return ("DI-21", "slain before this beat: does not act")
        if status.hp < 0:
            return ("DI-19", f"below 0 hit points ({status.hp}): dying, does not act")
        return ("DI-19", "at 0 hit points: down, does not act")

    @staticmethod
    def state(fight: Fight) -> State:
        return state_of(fight)

    def can_act(self, fight: Fight, cid: str) -> str:
        status = fight.status[cid]
        if status.dead:
            return "dead"
        if status.hp < 0:
            return "dying"
        return "down" if status.hp == 0 else ""

    # -- consequences --------------------------------------------------------------------

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        from .consequences import after

        return after(self, fight, event)

    def end_of_round(self, fight: Fight) -> list[ev.Event]:
        from .consequences import end_of_round

        return end_of_round(self, fight)

    # -- forms -----------------------------------------------------------------------------

    def damage_default(self, fight: Fight, source: str | None) -> str:
        """The acting action's own damage (hits.py): its weapon's, its routine's weapon's,
        its spell's, or nothing for a spell without damage, a device or turning; and a
        weapon set against a charge (F) does double damage: its dice twice."""
        damage = hits.offered(self, fight, source) if source in fight.roster else None
        if damage is None:  # no declaration this round: its own weapon's, as any ruleset
            damage = super().damage_default(fight, source)
        if damage and source is not None and self.set_against_charge(fight, source):
            return f"{damage}+{damage}"
        return damage

    def set_against_charge(self, fight: Fight, cid: str) -> bool:
        """Whether `cid` set a weapon (F) this round against a charge declared at it, or
        at the charger its F names."""
        declared = [d for _, d in fight.declared(max(fight.round, 1))
                    if isinstance(d, di.Declare) and d.segment is None]
        sets = [d for d in declared if d.actor == cid and self.role_of.get(d.action) == "set"]
        if not sets:
            return False
        named = {t for d in sets for t in fight.members(d.target)}
        return any(d.charge and self.role_of.get(d.action) == "move"
                   and fight.roster[d.actor].side != fight.roster[cid].side
                   and (d.actor in named or cid in fight.members(d.target))
                   for d in declared)

    def declare_form(self, fight: Fight, actor: str, action: str,
                     prefilled: Mapping[str, Any]) -> Form:
        from referee.engine.forms import declare_fields

        kind = self.kind(action)
        combatant = fight.roster[actor]
        needs = tuple(n for n in (kind.fields if kind else ())
                      if (n != "shots" or self._volleys(combatant))
                      and (n != "routines" or routines.several_weapons(combatant)))
        needs += ("prepared", "trigger")
        if "initiative" in prefilled or self._overrides(combatant):
            needs += ("initiative",)
        title = f"{combatant.name} declares {action} — {kind.name if kind else ''}"
        return Form(title, declare_fields(fight, actor, needs, prefilled, DECLARE_SPECS),
                    clock=DECLARATION_CLOCK)

    def prefill(self, fight: Fight, actor: str, action: str) -> dict[str, Any]:
        kind = self.kind(action)
        needs = kind.fields if kind else ()
        out = prefill(fight, actor, action, missile=self.role_of.get(action) == "discharge",
                      needs=needs)
        combatant = fight.roster[actor]
        if self.role_of.get(action) == "discharge":
            out = discharge.prefill(combatant, out)
        aimed = self._aimed_this_round(fight, actor)
        if aimed is not None and "target" in needs:
            out["target"] = aimed  # a G after an E strikes whom the E closed on
        weapon = combatant.weapon(out["weapon"]) if out.get("weapon") else None
        override = stats.hasted(combatant) or (
            "speed" if weapon is not None and stats.of_speed(weapon) else None)
        if override is not None:
            out["initiative"] = override
        last = last_declaration(fight, actor)
        if isinstance(last, di.Declare) and last.action == action and last.routines:
            out["routines"] = routines.text_of(last.routines)  # as last round
        return out

    @staticmethod
    def _volley(fight: Fight, values: Mapping[str, Any],
                shots: tuple[str, ...]) -> dict[str, Any]:
        """A volley split from the form: its shots, and as its target whom they aim at
        (the target field is the whole volley's when no shots are typed)."""
        out = {k: v for k, v in values.items() if k != "shots"}
        if shots:
            out["shots"], out["target"] = shots, volleys.targets(shots)
        return out

    @staticmethod
    def _aimed_this_round(fight: Fight, actor: str) -> str | None:
        """Whom `actor` already aims at this round (its E, before a further G or D; its
        own declaration, when it declares again), if that one still stands in the fight:
        this round's word beats last round's."""
        for _, decl in reversed(fight.declared(max(fight.round, 1))):
            if decl.actor == actor and getattr(decl, "segment", None) is None and decl.target:
                aimed = decl.target[0]
                return aimed if aimed in fight.roster and fight.alive(aimed) else None
        return None

    @staticmethod
    def _overrides(combatant: Any) -> bool:
        """The declaration form asks for an initiative override only of a combatant hasted,
        slowed or carrying a weapon of speed."""
        return stats.hasted(combatant) is not None or any(
            stats.of_speed(w) for w in combatant.weapons)

    @staticmethod
    def _volleys(combatant: Any) -> bool:
        """... and for a target per shot only of one with a missile of rate 2 or more."""
        return any(stats.discharged(w) and stats.rate(w) > 1 for w in combatant.weapons)

    def declaration(self, fight: Fight, actor: str, action: str,
                    values: Mapping[str, Any]) -> ev.Event:
        named = values.get("routines")
        if isinstance(named, str):  # the form's line: its routines name the weapons
            values = {k: v for k, v in values.items() if k != "routines"}
            if named.strip():
                values = {k: v for k, v in values.items() if k != "weapon"}
                values["routines"] = routines.parse(named)
        shots = values.get("shots")
        if isinstance(shots, str):  # the form's line: the shots name the volley's targets
            values = self._volley(fight, values, volleys.parse(fight, shots))
        elif isinstance(shots, (list, tuple)):
            values = {**values, "shots": tuple(shots)}
        where = values.get("indoors")
        if isinstance(where, str):  # the form's words: a choice cannot carry a false value
            values = {k: v for k, v in values.items() if k != "indoors"}
            event = super().declaration(fight, actor, action, values)
            return replace(event, indoors=where == "indoors")
        return super().declaration(fight, actor, action, values)

    # -- the tracker ---------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        return (Column("hp", "hp"),)

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        status = fight.status[cid]
        tone = "bad" if status.hp < 0 else "warn" if status.hp * 2 < status.max_hp else ""
        return {"hp": Cell(f"{status.hp}/{status.max_hp}", tone)}

    def state_word(self, fight: Fight, cid: str) -> str:
        word = self.can_act(fight, cid)
        if not word and (fight.round, cid) in self.state(fight).lost_spells:
            return "spell lost"
        return word

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        initiative = fight.initiatives.get(max(fight.round, 1))
        return {"dice": dict(getattr(initiative, "rolls", {}) or {})}

    def declared_text(self, fight: Fight, cid: str, decl: ev.Declare) -> str:
        from .views import declared

        return declared(self, fight, cid, decl)

    # -- acts ------------------------------------------------------------------------------

    def acts(self, fight: Fight) -> list[Act]:
        return list(acts.ACTS)
