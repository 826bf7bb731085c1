"""sanctum: group combats that resolve themselves (spec: sanctum.md).

The referee lists a turn's pairs (a `combats` event); the program runs the pipeline
(sim.py) and logs every step as an event. The fold reads the logged results — an attack
event says what it did — so a replay never draws again.
"""

from __future__ import annotations

from typing import Any

from referee.engine import events as ev
from referee.engine.errors import FormatError, IllegalEvent
from referee.engine.fight import Fight
from referee.engine.model import Combatant, Encounter
from referee.engine.plan import Beat, Plan, PlannedAction
from referee.engine.port import Runs
from referee.engine.reading import Fields
from referee.engine.record import field, record, replace
from referee.engine.specs import Act, Cell, Column, Field

from . import events as se
from . import ranges, sim, stats
from .rules import RULES
from .seeded import Opening, check_step

# the source says nothing of ending a whole fight: once ended, no combat is fought
OVER = "the fight is over: no combat is fought now (an undo takes the end back)"


@record(frozen=True)
class State:
    """sanctum's part of the fold."""

    pairs: dict[int, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # turn ->
    started: dict[int, int] = field(default_factory=dict)  # turn -> pairs begun (or skipped)
    seeds: dict[int, int] = field(default_factory=dict)  # turn -> the seed of its draws
    current: tuple[str, ...] = ()  # the combat under way: (first, second)
    promoted: dict[str, int] = field(default_factory=dict)  # recruit -> turn of its kill
    ends: dict[int, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    # The turn's start as the fold last saw it, before its first step (SA-11): its steps
    # are worked out from it once, and every step logged is held to them. Taken again at
    # each event until the turn's first step (cheap: no simulation), kept from then on.
    # Not compared: it is worked out from the fight, a cache of what the log already says.
    opening: Opening | None = field(default=None, compare=False)
    logged: int = 0  # the steps of the opening's turn logged so far


class Sanctum(Runs[State]):
    id = "sanctum"
    _acts: tuple[Act, ...] = ()  # made once, when first asked (`acts`)
    GEAR = ()  # its minions carry no weapons or spells: their attacks are roster keys
    RULES = RULES

    # -- house rules -----------------------------------------------------------------

    def read(self, f: Fields) -> None:
        # within the ranges the rules make sense in, so that no file makes a combat run
        # its rounds, or the odds their runs, without end
        self.rounds: int = f.int("rounds", sim.ROUNDS, minimum=1, maximum=ranges.ROUNDS)
        self.penalty: int = f.int("missile_round_penalty", 1, minimum=0,
                                  maximum=ranges.DAMAGE)
        self.odds_runs: int = f.int("odds_runs", 1000, minimum=1, maximum=ranges.RUNS)

    def switches(self) -> list[str]:
        return [f"a combat lasts up to {self.rounds} rounds (SA-3)",
                f"round 1: missiles only, at -{self.penalty} damage (SA-4)",
                f"odds in the app: {self.odds_runs} runs (SA-11)"]

    # -- the roster --------------------------------------------------------------------

    def combatant_fields(self) -> tuple[Field, ...]:
        return stats.COMBATANT

    def side_fields(self) -> tuple[Field, ...]:
        return stats.SIDE

    def encounter_fields(self) -> tuple[Field, ...]:
        return stats.ENCOUNTER

    def check_encounter(self, encounter: Any) -> None:
        enc: Encounter = encounter
        ranges.check_encounter(enc)
        sides = {s.id for s in enc.sides}
        leaders = [s.id for s in enc.sides if stats.standing(s) == "initiative"]
        if len(leaders) > 1:
            index = next(i for i, s in enumerate(enc.sides) if s.id == leaders[1])
            raise FormatError(f"only one player has initiative ({leaders[0]} and "
                              f"{leaders[1]} both do) (SA-1)", ("sides", index, "initiative"))
        groups: dict[str, str] = {}
        for index, group in enumerate(stats.groups(enc)):
            gid, side = str(group["id"]), str(group["side"])
            if gid in groups:
                raise FormatError(f"duplicate group {gid!r}", ("groups", index, "id"))
            if side not in sides:
                raise FormatError(f"unknown side {side!r} (sides: {', '.join(sorted(sides))})",
                                  ("groups", index, "side"))
            groups[gid] = side
        used: set[str] = set()
        for index, c in enumerate(enc.combatants):
            gid = stats.group(c)
            if gid not in groups:
                known = ", ".join(groups) or "none: add [[groups]]"
                raise FormatError(f"unknown group {gid!r} (groups: {known})",
                                  ("combatants", index, "group"))
            if groups[gid] != c.side:
                raise FormatError(f"{c.id} is on side {c.side} but in group {gid} of side "
                                  f"{groups[gid]}: a minion must be in a group of its own side",
                                  ("combatants", index, "group"))
            used.add(gid)
        for index, group in enumerate(stats.groups(enc)):
            if group["id"] not in used:
                raise FormatError(f"group {group['id']!r} has no minions",
                                  ("groups", index, "id"))

    def new_item(self, encounter: Any, key: str, item_id: str,
                 combatant: Combatant) -> dict[str, Any] | None:
        """Set-up: a minion naming a group not there yet makes it, on the minion's side
        and the youngest (SA-1), so a roster can be set up from nothing."""
        if key != "groups":
            return None
        created = [int(g["created"]) for g in stats.groups(encounter)]
        return {"id": item_id, "side": combatant.side, "created": max(created, default=0) + 1}

    # -- events and the fold ----------------------------------------------------------

    def events(self) -> tuple[type[ev.Event], ...]:
        return se.EVENTS

    @property
    def reader(self) -> ev.EventReader:
        if self._reader is None:
            from referee.engine.model import read_combatant

            schemas = self.schemas
            self._reader = se.Reader(ev.event_types(self.events()),
                                     lambda data, path: read_combatant(data, path, schemas))
        return self._reader

    def tell(self, fight: Fight, event: ev.Event) -> str | None:
        from .views import tell

        return tell(fight, event)

    def start(self, fight: Fight) -> State:
        return State()

    def marks(self, combatant: Combatant) -> dict[str, Any]:
        return {}

    def apply(self, fight: Fight, state: State, event: ev.Event) -> State:
        return self.opened(fight, state, self.folded(fight, state, event), event)

    def folded(self, fight: Fight, state: State, event: ev.Event) -> State:
        if isinstance(event, se.Combats):
            return replace(state, pairs={**state.pairs, event.round: event.pairs})
        if isinstance(event, se.Combat):
            turn = event.round
            seeds = state.seeds if event.seed is None else {**state.seeds, turn: event.seed}
            current = () if event.skipped else (event.first or "", other(event))
            return replace(state, started={**state.started,
                                           turn: state.started.get(turn, 0) + 1},
                           seeds=seeds, current=current)
        if isinstance(event, se.Attack):
            if event.hit:
                status = fight.status[event.victim]
                status.hp -= event.damage - event.soaked  # the fold's own copy
                if event.result == "killed":
                    status.dead = True
                    if self.level(fight, event.attacker, state) == 0:
                        return replace(state, promoted={**state.promoted,
                                                        event.attacker: event.round})
            return state
        if isinstance(event, se.CombatEnd):
            done = state.ends.get(event.round, ())
            entry = {"groups": list(event.groups), "rounds": event.rounds,
                     "ended": event.ended}
            self.fought_out(fight, event, state.started.get(event.round, 0))
            return replace(state, current=(), ends={**state.ends, event.round: done + (entry,)})
        return state

    @staticmethod
    def fought_out(fight: Fight, event: se.CombatEnd, number: int) -> None:
        """A combat over is its pair's beat done, as `n` would have marked it: every
        minion of the two groups (the fold's own copy of what is resolved)."""
        keys = {f"{cid}:combat#{number}" for cid, c in fight.roster.items()
                if stats.group(c) in event.groups}
        fight.resolved.setdefault(event.round, set()).update(keys)

    def opened(self, fight: Fight, before: State, after: State, event: ev.Event) -> State:
        """The turn's opening kept up to date (SA-11): a step keeps it (taking it now if
        none was), any other event before the turn's first step takes it again."""
        same = before.opening is not None and before.opening.turn == fight.round
        if event.TYPE in se.STEPS:
            if same:
                return counted(after, before.logged + 1)
            return replace(after, opening=self.opening_of(fight, before), logged=1)
        if same and before.logged:
            return after  # the turn has begun: its opening stays
        return replace(after, opening=self.opening_of(fight, after), logged=0)

    def opening_of(self, fight: Fight, state: State) -> Opening:
        """The turn's start as `fight` stands now (no simulation yet)."""
        turn = fight.round
        return Opening(turn, self.roster(fight, state), self.hit_points(fight),
                       list(state.pairs.get(turn, ())), self.reader.types)

    def opening(self, fight: Fight) -> tuple[Opening, int]:
        """The opening of the fight's turn and the steps logged since."""
        state = self.state(fight)
        if state.opening is not None and state.opening.turn == fight.round:
            return state.opening, state.logged
        return self.opening_of(fight, state), 0

    def shapes_plan(self, event: ev.Event) -> bool:
        return event.TYPE in ("combats", "combat", "combat-end", "undo", "redo", "resolve",
                              "death", "damage", "end")  # an end: no combat to come

    def level(self, fight: Fight, cid: str, state: State | None = None) -> int:
        """SA-9: a recruit that killed earns its level at the start of the next turn."""
        state = self.state(fight) if state is None else state
        base = stats.level(fight.roster[cid])
        earned = state.promoted.get(cid)
        return 1 if base == 0 and earned is not None and earned < fight.round else base

    # -- checks ---------------------------------------------------------------------

    def check_event(self, fight: Fight, event: ev.Event) -> None:
        super().check_event(fight, event)
        ranges.check_event(event, fight.round)
        if isinstance(event, se.Combats):
            self.check_pairs(fight, event)
        elif isinstance(event, se.Combat):
            self._check_groups(fight, event.groups, "groups")
        elif isinstance(event, se.Attack):
            self._check_attack(fight, event)
        elif isinstance(event, (se.Victim, se.Forfeit)):
            if event.actor not in fight.roster:
                raise IllegalEvent(f"unknown minion {event.actor!r}", ("actor",))
            if isinstance(event, se.Victim) and event.victim not in fight.roster:
                raise IllegalEvent(f"unknown minion {event.victim!r}", ("victim",))
        if fight.ended and (event.TYPE in se.STEPS or isinstance(event, se.Combats)):
            raise IllegalEvent(OVER, ("type",))  # an ended fight fights no more combats
        if event.TYPE in se.STEPS:
            self._check_step(fight, event)

    def _check_step(self, fight: Fight, event: ev.Event) -> None:
        """A step of a combat is the one the turn's seed gives there (SA-11): its draws
        and every outcome they decide (seeded.py)."""
        turn = fight.round
        if event.round < turn:
            raise IllegalEvent(f"turn {event.round} is over: the fight is in turn {turn}",
                               ("round",))
        if not self.state(fight).pairs.get(event.round):
            raise IllegalEvent(f"turn {event.round} lists no combats: a {event.TYPE!r} step "
                               "has no combat to belong to (SA-2)", ("type",))
        opening, done = self.opening(fight)
        check_step(opening, done, self.turn_seed(fight, None if done else event), event)

    def turn_seed(self, fight: Fight, first: ev.Event | None = None) -> int:
        """The seed of the turn's draws: its first step's (a `combat` event carries it),
        else the save's. `first`: the turn's first step, as it is logged."""
        if first is None:
            return self.state(fight).seeds.get(fight.round, fight.encounter.seed)
        seed = getattr(first, "seed", None)
        return fight.encounter.seed if seed is None else int(seed)

    def check_pairs(self, fight: Fight, event: se.Combats) -> None:
        if not event.pairs:
            raise IllegalEvent("a turn's combats list at least one pair of groups",
                               ("pairs",))
        if event.round < fight.round:
            raise IllegalEvent(f"turn {event.round} is over: the fight is in turn "
                               f"{fight.round}", ("round",))
        if event.round in self.state(fight).pairs:
            raise IllegalEvent(f"turn {event.round} already lists its combats", ("round",))
        for index, pair in enumerate(event.pairs):
            self._check_groups(fight, pair, "pairs", index)

    def _check_groups(self, fight: Fight, pair: tuple[str, ...], name: str,
                      index: int | None = None) -> None:
        where: tuple[str | int, ...] = (name,) if index is None else (name, index)
        sides = {str(g["id"]): str(g["side"]) for g in stats.groups(fight.encounter)}
        if len(pair) != 2:
            raise IllegalEvent("a combat is between two groups", where)
        for gid in pair:
            if gid not in sides:
                raise IllegalEvent(f"unknown group {gid!r} (groups: {', '.join(sides)})",
                                   where)
        a, b = pair
        if sides[a] == sides[b]:
            raise IllegalEvent(f"{a} and {b} are not hostile: both are {sides[a]}'s groups "
                               "(SA-2)", where)

    def _check_attack(self, fight: Fight, event: se.Attack) -> None:
        for name in ("attacker", "victim"):
            cid = getattr(event, name)
            if cid not in fight.roster:
                raise IllegalEvent(f"unknown minion {cid!r}", (name,))
        if fight.status[event.victim].dead:
            raise IllegalEvent(f"{event.victim} is dead: it cannot be attacked", ("victim",))
        if fight.status[event.attacker].dead:
            raise IllegalEvent(f"{event.attacker} is dead: it cannot attack", ("attacker",))
        # hit or miss, damage, armor soaked, result and hit points: what the turn's seed
        # gives (_check_step), never what a hand wrote

    # -- the simulator's view of the fight --------------------------------------------

    def roster(self, fight: Fight, state: State | None = None) -> sim.Roster:
        """The minions and groups as the simulator reads them, at the fight's turn."""
        r = sim.Roster()
        r.rounds, r.penalty = self.rounds, self.penalty
        enc = fight.encounter
        standing = {s.id: stats.STANDINGS.index(stats.standing(s)) for s in enc.sides}
        for g in stats.groups(enc):
            r.add_group(str(g["id"]), str(g["side"]), standing[str(g["side"])],
                        int(g["created"]))
        for cid, c in fight.roster.items():
            hand, missile = stats.attack(c, "hand"), stats.attack(c, "missile")
            r.add(cid, stats.group(c), self.level(fight, cid, state), stats.armor(c),
                  (hand[0], hand[1]), missile, stats.quasi_immune(c), stats.no_attack(c),
                  stats.no_deal(c), stats.must_attack(c))
        return r

    @staticmethod
    def hit_points(fight: Fight) -> list[int]:
        return [0 if s.dead or s.hp <= 0 else s.hp for s in fight.status.values()]

    def pairs(self, fight: Fight, turn: int | None = None) -> list[tuple[str, str]]:
        turn = fight.round if turn is None else turn
        return list(self.state(fight).pairs.get(turn, ()))

    def turn_start(self, fight: Fight) -> tuple[Fight, list[ev.Event], int | None]:
        """The fight as its turn's combats began, the steps logged since, and the seed
        they were drawn from (None: nothing fought yet)."""
        turn = fight.round
        steps = [(n, e) for n, e in enumerate(fight.events)
                 if e.round == turn and e.TYPE in se.STEPS]
        if not steps:
            return fight, [], None
        first = steps[0][1]
        seed = first.seed if isinstance(first, se.Combat) else None
        return fight.at(fight.positions[steps[0][0]]), [e for _, e in steps], seed

    def pending(self, fight: Fight, seed: int | None = None) -> tuple[list[ev.Event], int]:
        """The steps still to log for the turn's combats (SA-2), and the seed. A turn half
        fought (a fight cut short) goes on from its own seed: the steps logged are the
        first ones it gives (every step is checked as it is logged)."""
        turn = fight.round
        if fight.ended:
            raise IllegalEvent(OVER)
        if not self.pairs(fight):
            raise IllegalEvent(f"turn {max(turn, 1)} lists no combats: add a `combats` event "
                               "(SA-2)")
        opening, done = self.opening(fight)
        if done:
            used = self.turn_seed(fight)
            if seed is not None and seed != used:
                raise IllegalEvent(f"turn {turn} was begun with seed {used}: it goes on with "
                                   f"it (fight a copy of the save made before it with seed "
                                   f"{seed})")
            seed = used
        elif seed is None:
            seed = fight.encounter.seed
        return opening.steps(seed)[done:], seed

    def steps(self, fight: Fight, seed: int) -> list[ev.Event]:
        """The whole of the fight's turn from where `fight` stands, drawn from `seed`."""
        return self.opening_of(fight, self.state(fight)).steps(seed)

    # -- the plan -----------------------------------------------------------------------

    def plan_round(self, fight: Fight) -> int:
        return max(fight.round, 1)

    def plan(self, fight: Fight, round_: int) -> Plan:
        plan = Plan(self.id, round_, [])
        pairs = self.pairs(fight, round_)
        if not pairs:
            plan.notes.append(f"turn {round_} lists no combats (SA-2)")
            return plan
        roster = self.roster(fight)
        seen: set[tuple[str, str]] = set()
        now = round_ == fight.round
        started = self.state(fight).started.get(round_, 0) if now else 0
        fought = 0
        ends = self.state(fight).ends.get(round_, ())
        fallen = self.fallen(fight) if now else set()
        left_out: set[str] = set()
        for number, (a, b) in enumerate(pairs, start=1):
            first, second, why = sim.precedence(roster, a, b)
            key = sim.pair_key(a, b)
            # SA-7's attack order: the minions of the group with precedence, then the other's
            minions = {g: [roster.ids[i] for i in roster.members[g]] for g in (first, second)}
            if number > started:  # a combat to come: the fallen no longer fight (SA-3)
                left_out.update(cid for ids in minions.values() for cid in ids
                                if cid in fallen)
                minions = {g: [cid for cid in ids if cid not in fallen]
                           for g, ids in minions.items()}
            actions = [PlannedAction(cid, "combat", routine=number)
                       for ids in minions.values() for cid in ids]
            extra: dict[str, Any] = {"pair": number, "groups": [a, b], "first": first}
            if key in seen:
                actions = [x.with_extra(skipped="this pair has fought this turn (SA-2)")
                           for x in actions]
                beat = Beat(actions, ["SA-2"], [f"{a} and {b} have fought: skipped"],
                            {**extra, "skipped": True}, tag=f"#{number}",
                            note=f"{a} vs {b}: skipped")
            else:
                beat = Beat(actions, ["SA-1", "SA-2"],
                            [f"pair {number} of the listed order", why], extra,
                            tag=f"#{number}", note=f"{first} vs {second}")
                for group in (g for g, ids in minions.items() if not ids):
                    beat.cite("SA-3", f"{group} has no minions left: the combat ends at once")
                if number <= started:  # fought already (F, n or `referee fight`)
                    fought += 1
                    self.fought_beat(beat, ends[fought - 1] if fought <= len(ends) else None)
                elif fight.ended and now:  # never fought: the fight ended first
                    over = "the fight is over: never fought"
                    beat.actions = [x.with_extra(skipped=over) for x in actions]
                    beat.note += f" — {over}"
            seen.add(key)
            plan.beats.append(beat)
        if any("never fought" in beat.note for beat in plan.beats):
            plan.notes.append("the fight is over: its combats not fought never will be")
        plan.skipped.extend({"actor": cid, "action": "combat", "rule": "SA-3",
                             "why": "dead: no longer fights"}
                            for cid in fight.roster if cid in left_out)
        return plan

    @staticmethod
    def fought_beat(beat: Beat, end: dict[str, Any] | None) -> None:
        """A pair's beat once its combat has begun: over, it is done (the fold marks its
        actions resolved) and says how it ended; under way (a fight cut short), it is
        passed over by `n`, which would not go on with it: F does."""
        beat.extra["fought"] = True
        if end is not None:
            beat.note += f" — fought: {end['ended']}, {end['rounds']} rounds"
            return
        beat.actions = [x.with_extra(skipped="being fought: F goes on with it")
                        for x in beat.actions]
        beat.note += " — being fought"

    @staticmethod
    def fallen(fight: Fight) -> set[str]:
        """The minions out of the fight: killed, or brought to 0 hit points (the
        simulator counts them out, SA-3)."""
        return {cid for cid, s in fight.status.items() if s.dead or s.hp <= 0}

    def unable(self, fight: Fight, cid: str, beat: int) -> tuple[str, str] | None:
        if fight.status[cid].dead:
            return ("SA-3", "dead: no longer fights")
        return None

    def after(self, fight: Fight, event: ev.Event) -> list[ev.Event]:
        """`n` on a pair's beat fights that pair (and logs any skipped pair before it)."""
        if not isinstance(event, ev.Resolve) or not self.pairs(fight):
            return []
        wanted = 0
        for key in event.actions:
            head = key.split("#", 1)
            if len(head) == 2 and head[0].endswith(":combat") and head[1].isdigit():
                wanted = max(wanted, int(head[1]))
        started = self.state(fight).started.get(fight.round, 0)
        if wanted <= started or self.state(fight).current:
            return []
        events, _ = self.pending(fight)
        out: list[ev.Event] = []
        reached = started
        for step in events:
            out.append(step)
            if isinstance(step, se.CombatEnd) or (isinstance(step, se.Combat)
                                                  and step.skipped):
                reached += 1
                if reached >= wanted:
                    break
        return out

    # -- the tracker --------------------------------------------------------------------

    def columns(self) -> tuple[Column, ...]:
        return (Column("group", "group", 10), Column("hp", "hp"), Column("lvl", "lvl"),
                Column("armor", "arm"), Column("attacks", "attacks", 14, fold=2),
                Column("effects", "effects", 14, fold=3))

    def cells(self, fight: Fight, cid: str) -> dict[str, Cell]:
        c, status = fight.roster[cid], fight.status[cid]
        hand, missile = stats.attack(c, "hand"), stats.attack(c, "missile")
        parts = []
        if missile[0]:
            parts.append(f"M{missile[0]}x{missile[1]}" + ("*" if missile[2] else ""))
        if hand[0]:
            parts.append(f"H{hand[0]}x{hand[1]}")
        tone = "bad" if status.dead else "warn" if status.hp < status.max_hp else ""
        lvl = self.level(fight, cid)
        earned = cid in self.state(fight).promoted
        return {"group": Cell(stats.group(c), "dim"),
                "hp": Cell(f"{max(status.hp, 0)}/{status.max_hp}", tone),
                "lvl": Cell(f"{lvl}" + ("+" if earned and lvl == 0 else ""),
                            "good" if earned else ""),
                "armor": Cell(str(stats.armor(c))),
                "attacks": Cell(" ".join(parts) or "none", "" if parts else "dim"),
                "effects": Cell(", ".join(stats.effects(c)), "warn")}

    def state_word(self, fight: Fight, cid: str) -> str:
        return "dead" if fight.status[cid].dead else ""

    def facts(self, fight: Fight, cid: str) -> dict[str, Any]:
        out = super().facts(fight, cid)
        out.update(level=self.level(fight, cid), group=stats.group(fight.roster[cid]),
                   earned_level=cid in self.state(fight).promoted)
        return out

    def fight_facts(self, fight: Fight) -> dict[str, Any]:
        state = self.state(fight)
        turn = fight.round
        return {"turn": turn, "pairs": [list(p) for p in state.pairs.get(turn, ())],
                "started": state.started.get(turn, 0),
                "combats": [dict(e) for e in state.ends.get(turn, ())],
                "promoted": dict(state.promoted)}

    def round_text(self, fight: Fight) -> str:
        """How the status line names where the fight is: its turn."""
        return f"turn {max(fight.round, 1)}"

    def phase_word(self, fight: Fight) -> str:
        return "over" if fight.ended else ""  # the turn's pairs say where it stands

    def status_parts(self, fight: Fight) -> list[str]:
        """The turn's pairs fought, and the key that goes on: the turn itself is named
        once, by the status line."""
        state = self.state(fight)
        turn = max(fight.round, 1)
        pairs = state.pairs.get(turn, ())
        done = min(state.started.get(turn, 0), len(pairs))
        if fight.ended:
            return [f"{done}/{len(pairs)} pairs fought"] if pairs else []
        if not pairs:
            return ["no combats listed · P lists them"]
        return [f"{done}/{len(pairs)} pairs fought" + self.next_step(fight, done < len(pairs))]

    def next_step(self, fight: Fight, pending: bool) -> str:
        """The key that goes on: F for the turn's combats, P for the next turn's, E when
        no two hostile groups have minions standing."""
        if pending:
            return " · F fights the turn, O the odds"
        if max(fight.round, 1) + 1 in self.state(fight).pairs:
            return ""
        if not self.hostile_pairs(fight):
            return " · no hostile groups standing: E ends the fight"
        return f" · P lists turn {max(fight.round, 1) + 1}'s"

    # -- acts ---------------------------------------------------------------------------

    def acts(self, fight: Fight) -> list[Act]:
        """Fight the turn, the odds and a turn's pairs (acts.py): the same for every fight,
        so made once, and only when asked (`referee plan` never imports them)."""
        if not self._acts:
            from .acts import acts

            self._acts = tuple(acts(self))
        return list(self._acts)

    def fought(self, fight: Fight, turn: int) -> bool:
        """Whether every combat `turn` lists has been fought (or skipped)."""
        state = self.state(fight)
        pairs = state.pairs.get(turn, ())
        return bool(pairs) and state.started.get(turn, 0) >= len(pairs) and not state.current

    def pairs_turn(self, fight: Fight) -> int:
        """The turn `P` lists: this one, or the next when this one's combats are fought."""
        turn = max(fight.round, 1)
        return turn + 1 if self.fought(fight, turn) else turn

    def hostile_pairs(self, fight: Fight) -> list[tuple[str, str]]:
        """Every pair of hostile groups with a minion standing, in creation order."""
        standing = {stats.group(c) for cid, c in fight.roster.items()
                    if not fight.status[cid].dead and fight.status[cid].hp > 0}
        found = [g for g in stats.groups(fight.encounter) if str(g["id"]) in standing]
        ordered = sorted(found, key=lambda g: int(g["created"]))  # stable: file order next
        return [(str(a["id"]), str(b["id"])) for n, a in enumerate(ordered)
                for b in ordered[n + 1:] if a["side"] != b["side"]]

    @staticmethod
    def read_pairs(text: str) -> tuple[tuple[str, str], ...]:
        """`red-1 blue-1; blue-1 red-1` (or one pair a line) as pairs."""
        out = []
        for part in text.replace("\n", ";").split(";"):
            words = part.replace(",", " ").split()
            if not words:
                continue
            if len(words) != 2:
                raise IllegalEvent(f"a pair is two groups, not {part.strip()!r} (write "
                                   "'red-1 blue-1; blue-1 red-1')", ("pairs",))
            out.append((words[0], words[1]))
        return tuple(out)

    def replay_run(self, fight: Fight, seed: int) -> tuple[Fight, list[ev.Event]]:
        """Run `seed` of the odds: the turn from its start, as `referee fight --seed X -o`
        fights it."""
        base, _, _ = self.turn_start(fight)
        return base, self.pending(base, seed)[0]


def counted(state: State, logged: int) -> State:
    """`state` with one more step logged: its fields copied, not passed through a call
    (once a step, and a long turn logs hundreds)."""
    out: State = object.__new__(State)
    out.__dict__.update(state.__dict__, logged=logged)
    return out


def other(event: se.Combat) -> str:
    a, b = event.groups
    return b if event.first == a else a

