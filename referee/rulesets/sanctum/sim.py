"""The combat pipeline as a pure simulator: plain ints and lists, one `random.Random`.

`run_turn` fights a turn's pairs in the listed order (SA-2) and returns each combat's
result. There is one pipeline, `Combat`, each step of a combat one of its methods, and
what it does goes to a sink: given a list as `log`, the logging sink (`Log`) appends one
plain dict per step (a combat begins, a round begins, a victim is chosen, an attack, a
forfeit, a combat ends), which the ruleset turns into events; without one (the odds) the
quiet sink (`Quiet`) records nothing. The sink only describes: it never draws nor changes
the fight, so a logged turn and a quiet one draw exactly the same. Where the pipeline is
hot (an attack, a wise choice, a pairing, a further victim) it calls the sink only when it
logs (`Combat.log`: the sink's `on`, read once a combat), so a quiet run builds no step,
no words, no draw's description; what the log says beyond what the pipeline did (which
tiebreaker settled a choice, a draw's place) the logging sink works out itself.

Random draws, in this fixed order (all from the one generator of the turn):
1. SA-6, rounds 2-10, pairing bashers: for each idle basher of the group with precedence,
   in its order, while an idle enemy basher is left: `rng.choice(idle enemy bashers)`.
2. SA-8, the last tiebreak: `rng.choice(tied)` when two or more victims are still tied
   (never for a single candidate).
3. SA-7, each further attack of a minion in a round: `rng.choice(living enemies)`.
The draws happen where the pipeline reaches them, so they interleave in pipeline order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import compress, repeat
from operator import add, itemgetter, lshift, sub
from typing import Any

# SA-4: misses "infinite" in round 1: far above any level (ranges.LEVEL), and a small int
# (below 2**30: the interpreter's fast path for sums and comparisons)
INF = 1 << 24
ROUNDS = 10  # SA-3

STANDING_WORDS = {0: "initiative player's", 1: "neutral player's", 2: "other player's"}
TIEBREAKERS = ("not (quasi-)immune", "can kill this round", "highest maximum armor",
               "lowest current HP", "highest single-attack damage")


class Roster:
    """The minions and groups of a save, as plain lists indexed by minion number."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.level: list[int] = []
        self.armor: list[int] = []
        self.hand_n: list[int] = []
        self.hand_d: list[int] = []
        self.mis_n: list[int] = []
        self.mis_d: list[int] = []
        self.magical: list[bool] = []
        self.quasi: list[bool] = []
        self.noatk: list[bool] = []
        self.nodeal: list[bool] = []
        self.must: list[str | None] = []
        self.maxdmg: list[int] = []
        self.group_of: list[str] = []
        self.members: dict[str, list[int]] = {}
        self.side: dict[str, str] = {}  # group -> side
        self.rank: dict[str, tuple[int, int]] = {}  # group -> (standing, created): SA-1
        self.standing: dict[str, int] = {}
        self.rounds = ROUNDS  # SA-3, house-rulable
        self.penalty = 1  # SA-4: round 1 missiles at -1
        # per-attack damage, worked out by `prepare`: round 1 missiles, missiles, hand
        self.dm1: list[int] = []
        self.dm: list[int] = []
        self.dh: list[int] = []
        self.damage_cap: list[int] = []
        self.keyed: dict[int, tuple[list[int], int, int]] = {}  # see `ranking`
        self.info: list[tuple[int, tuple[int, ...]]] = []
        self.info1: list[tuple[int, tuple[int, ...]]] = []
        self.start1: list[int] = []
        self.start: list[int] = []
        self.steers: list[bool] = []
        self.plain: list[bool] = []
        self.whole1: list[int] = []
        self.whole: list[int] = []
        # per group: whether any of its minions is (quasi-)immune (SA-10), whether any
        # must attack someone (a compulsion): the same every run of the odds
        self.any_quasi: dict[str, bool] = {}
        self.any_must: dict[str, bool] = {}
        self.prepared = (-1, 0, 0)  # the minions, penalty and groups `prepare` worked on

    def prepare(self) -> None:
        """SA-9's damage per attack with its modifiers (0 under "does not deal"), and the
        per-minion numbers the pipeline reads (`Combat`); worked out once."""
        if self.prepared == (len(self.ids), self.penalty, len(self.members)):
            return
        self.prepared = (len(self.ids), self.penalty, len(self.members))
        n = range(len(self.ids))
        self.dm1 = [0 if self.nodeal[i] else max(0, self.mis_d[i] - self.penalty) for i in n]
        self.dm = [0 if self.nodeal[i] else max(0, self.mis_d[i]) for i in n]
        self.dh = [0 if self.nodeal[i] else max(0, self.hand_d[i]) for i in n]
        # SA-8's tiebreaker 5 (its highest damage, capped: a higher one ties)
        self.damage_cap = [min(self.maxdmg[i], (1 << 20) - 1) for i in n]
        self.keyed = {}
        # attacks at the start of a round: round 1 (missiles only, SA-4), later rounds
        self.start1 = [0 if self.noatk[i] else self.mis_n[i] for i in n]
        self.start = [0 if self.noatk[i] else self.mis_n[i] + self.hand_n[i] for i in n]
        # per minion: (level, the damage of its attack with `left` attacks left, by
        # `left`: missiles first, then hand), in round 1 the round's missile damage (SA-4:
        # missiles only, at the round's penalty)
        self.info = [(self.level[i], tuple(self.dm[i] if left > self.hand_n[i] else
                                           self.dh[i] for left in range(self.start[i] + 1)))
                     for i in n]
        self.info1 = [(self.level[i], (self.dm1[i],) * (self.start1[i] + 1)) for i in n]
        # the bits `random.Random.choice` draws for a list of each length (`strike`)
        self.widths: tuple[int, ...] = tuple(k.bit_length() for k in range(len(self.ids) + 1))
        # SA-10: whether the minion's damage is steered away from the (quasi-)immune
        self.steers = [not self.magical[i] for i in n]
        self.plain = [not self.quasi[i] for i in n]  # not (quasi-)immune
        self.quasis: list[int] = [i for i in n if self.quasi[i]]  # (quasi-)immune
        # SA-8's estimate of what a whole round's attacks deal: round 1, later rounds
        self.whole1 = [damage_left(self, i, self.start1[i], 1) for i in n]
        self.whole = [damage_left(self, i, self.start[i], 2) for i in n]
        self.any_quasi = {g: any(self.quasi[i] for i in m) for g, m in self.members.items()}
        self.any_must = {g: any(self.must[i] is not None for i in m)
                         for g, m in self.members.items()}
        # the last numbers `numbers` worked out: (for these hit points, the numbers, the
        # ranking's top, shift and bit)
        self.last: tuple[list[int], list[int], list[int], int, int] | None = None

    def ranking(self, most_hp: int) -> tuple[list[int], int, int]:
        """SA-8's tiebreakers 3-5 in one number, higher better, for hit points up to
        `most_hp`: (per minion its armor and damage, from which `hp << shift` is taken;
        the shift; tiebreaker 2's bit, above them all). Armor, room for the hit points
        and damage are fields each as wide as the roster needs, so the numbers stay small
        (below 2**30 for a usual roster: the interpreter's fast path compares and adds
        those) and order as (armor, fewer hit points, damage) would."""
        found = self.keyed.get(most_hp)
        if found is None:
            shift = max(self.damage_cap, default=0).bit_length()
            high = shift + most_hp.bit_length()
            room = (1 << high) - (1 << shift)  # less `hp << shift`: 0 and up
            top = [(a << high) + room + d for a, d in zip(self.armor, self.damage_cap,
                                                          strict=True)]
            bit = 1 << (max(self.armor, default=0).bit_length() + high)
            found = self.keyed[most_hp] = (top, shift, bit)
        return found

    def numbers(self, hp: list[int]) -> tuple[list[int], list[int], int, int]:
        """Every minion's number for `hp` (its top in `ranking` less `hp << shift`), the
        top, shift and bit: the last ones kept, and a copy of them given for the same hit
        points (every run of the odds starts its first combat from the same)."""
        last = self.last
        if last is not None and last[0] == hp:
            return last[1].copy(), last[2], last[3], last[4]
        top, shift, bit = self.ranking(max(hp, default=0))
        key = list(map(sub, top, map(lshift, hp, repeat(shift, len(hp)))))
        self.last = (hp.copy(), key.copy(), top, shift, bit)
        return key, top, shift, bit

    def add(self, cid: str, group: str, level: int, armor: int, hand: tuple[int, int],
            missile: tuple[int, int, bool], quasi: bool, noatk: bool, nodeal: bool,
            must: str | None) -> None:
        self.ids.append(cid)
        self.level.append(level)
        self.armor.append(armor)
        self.hand_n.append(hand[0])
        self.hand_d.append(hand[1])
        self.mis_n.append(missile[0])
        self.mis_d.append(missile[1])
        self.magical.append(missile[2])
        self.quasi.append(quasi)
        self.noatk.append(noatk)
        self.nodeal.append(nodeal)
        self.must.append(must)
        self.maxdmg.append(max(hand[1] if hand[0] else 0, missile[1] if missile[0] else 0))
        self.group_of.append(group)
        self.members.setdefault(group, []).append(len(self.ids) - 1)

    def add_group(self, gid: str, side: str, standing: int, created: int) -> None:
        self.side[gid] = side
        self.rank[gid] = (standing, created)
        self.standing[gid] = standing
        self.members.setdefault(gid, [])


def ordered(roster: Roster, a: str, b: str) -> tuple[str, str]:
    """SA-1: (the group with precedence, the other): standing, then created."""
    return (a, b) if roster.rank[a] <= roster.rank[b] else (b, a)


def precedence(roster: Roster, a: str, b: str) -> tuple[str, str, str]:
    """SA-1: (first, second, why)."""
    first, second = ordered(roster, a, b)
    r1, r2 = roster.rank[first], roster.rank[second]
    if r1[0] != r2[0]:
        why = (f"{first} is the {STANDING_WORDS[r1[0]]} group, {second} the "
               f"{STANDING_WORDS[r2[0]]}")
    else:
        why = (f"both {STANDING_WORDS[r1[0]]}: {first} is older (created {r1[1]} before "
               f"{r2[1]})")
    return first, second, why


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def run_turn(roster: Roster, hp: list[int], pairs: list[tuple[str, str]], rng: random.Random,
             log: list[dict[str, Any]] | None = None,
             fought: set[tuple[str, str]] | None = None) -> tuple[list[Any], set[int]]:
    """Fight `pairs` in order (SA-2); `hp` falls in place, and `log`, when given, gets
    every step. Returns (one result per pair: None when skipped, else (first, second,
    rounds, ended, survivors of first, of second)), the minions that earned a level
    (SA-9))."""
    sink = QUIET if log is None else Log(log)
    roster.prepare()
    done = set() if fought is None else set(fought)
    results: list[Any] = []
    promoted: set[int] = set()
    for a, b in pairs:
        key = pair_key(a, b)
        if key in done:
            results.append(None)
            sink.skipped(a, b)
            continue
        done.add(key)
        first, second = ordered(roster, a, b)
        sink.combat(roster, a, b)
        result = Combat(roster, hp, first, second, rng, sink, promoted).fight()
        sink.combat_end(roster, a, b, result)
        results.append(result)
    return results, promoted


class Combat:
    """One combat (SA-3 .. SA-10), `ga` with precedence: each step a method. Per minion
    (indexed by number): its victim (-1: none), its misses (SA-4: "infinite" in round 1,
    reset by a hit), its armor and attacks left this round; `hp` is the turn's. A round
    works on the living of each group as lists (`la`, `lb`): a kill takes the victim out
    of its list, so each is always the living enemies of the other, in roster order."""

    def __init__(self, R: Roster, hp: list[int], ga: str, gb: str, rng: random.Random,
                 sink: Quiet, promoted: set[int]) -> None:
        n = len(hp)
        self.R, self.hp, self.ga, self.gb = R, hp, ga, gb
        self.a, self.b = R.members[ga], R.members[gb]
        self.victim = [-1] * n
        self.misses = [INF] * n
        self.cur = [0] * n
        self.rem = [0] * n
        # SA-8's numbers of each minion, kept up to date as hits land (read far more often
        # than they change): tiebreakers 3-5 in one number (`ranking`), and what killing
        # it this round takes (hit points and armor)
        self.key, self.top, shift, self.bit = R.numbers(hp)
        self.shift = shift
        self.need = [0] * n
        self.choice = rng.choice
        self.bits = rng.getrandbits  # a further attack's draw (`strike`)
        self.sink, self.log = sink, sink.on
        self.promoted = promoted
        self.level, self.info = R.level, R.info  # the round's (`start_round`)
        self.quasi_a = R.any_quasi[ga]  # SA-10: whether any can steer
        self.quasi_b = R.any_quasi[gb]
        self.compels = R.any_must[ga] or R.any_must[gb]
        self.known: list[int] | None = None  # a group's attacks' (`pending_of`)
        self.kept: tuple[int, list[int]] | None = None  # and theirs (`choose`)
        # what `strike` reads, in one attribute (its lists change in place, never anew)
        self.struck = (hp, self.cur, R.level, self.need, self.key, self.top, shift,
                       self.bits, R.widths, self.log)

    def fight(self) -> tuple[Any, ...]:
        """SA-3: rounds until one group has no minions left, at most `R.rounds`."""
        hp, rounds = self.hp, 0
        # the living of each group: a kill takes the victim out (`strike`), so from one
        # round to the next these stay the living, in roster order
        la = [i for i in self.a if hp[i] > 0]
        lb = [i for i in self.b if hp[i] > 0]
        for r in range(1, self.R.rounds + 1):
            if not la or not lb:
                break
            rounds = r
            self.fight_round(r, la, lb)
        return (self.ga, self.gb, rounds, "10 rounds" if la and lb else "no minions", la, lb)

    def fight_round(self, r: int, la: list[int], lb: list[int]) -> None:
        """A round: its start (SA-5), the victims (SA-6, from round 2: bashers pair up,
        then compulsions, then wise choices), the attacks, precedence first (SA-7)."""
        self.start_round(r, la, lb)
        if self.log:
            self.sink.round(r)
        if r > 1:
            self.pair_bashers(r, la, lb)
            if self.compels:
                self.compel_idle(r, la, lb)
            self.choose_idle(r, la, lb, self.quasi_b)
            self.choose_idle(r, lb, la, self.quasi_a)
            self.attack_group(r, la, lb, self.quasi_b)
            self.attack_group(r, lb, la, self.quasi_a)
        else:
            self.first_attacks(la, lb, self.quasi_b)
            self.first_attacks(lb, la, self.quasi_a)

    def first_attacks(self, group: list[int], foes: list[int], fq: bool) -> None:
        """`attack_group` in round 1 (SA-4): only shooters attack, none has a victim yet
        and nothing of the others' attacks is known (`pending_of`): each, in order, is
        compelled or chooses wisely among the living `foes` (`choose`, its round-1 part
        written out: most choices are round 1's), then strikes."""
        R, rem, victim, key, need, bit = self.R, self.rem, self.victim, self.key, self.need, \
            self.bit
        steers, whole1, log = R.steers, R.whole1, self.log
        self.forget()
        for i in group:
            if rem[i] <= 0:  # (no missiles, or "does not attack")
                continue
            if not foes:
                return
            v = self.compel(1, i, foes, "SA-7") if self.compels else -1
            if v < 0:
                cands = foes  # SA-10, SA-8's tiebreaker 1: as `choose` steers (and keeps)
                if fq and steers[i] and len(foes) > 1:
                    kept = self.kept
                    if kept is None or kept[0] != len(foes):
                        kept = self.kept = (len(foes), steered(R, foes))
                    cands = kept[1]
                tied = cands if len(cands) == 1 else best_alone(key, need, bit, cands,
                                                                whole1[i])
                v = tied[0] if len(tied) == 1 else self.choice(tied)  # 6. at random
                if log:
                    self.sink.wise(self, 1, i, v, foes, None, "SA-7", tied)
                victim[i] = v
            self.strike(1, i, v, foes)

    def start_round(self, r: int, la: list[int], lb: list[int]) -> None:
        """SA-5: armor whole again, the round's attacks (SA-4: round 1 missiles only; none
        under "does not attack"), shooters idle, a basher's fallen victim let go."""
        R, hp, victim, need = self.R, self.hp, self.victim, self.need
        armor, mis_n = R.armor, R.mis_n
        # every minion's, the fallen's too (never read): copied whole, not one by one
        self.cur[:] = armor
        self.rem[:] = R.start1 if r == 1 else R.start
        self.info = R.info1 if r == 1 else R.info
        need[:] = map(add, hp, armor)  # (the fallen's too: never read)
        if r == 1:  # every victim is -1 yet (a combat's own)
            return
        for i in la + lb:
            v = victim[i]
            if v >= 0 and (mis_n[i] or hp[v] <= 0):
                victim[i] = -1

    def pair_bashers(self, r: int, la: list[int], lb: list[int]) -> None:
        """SA-6: each idle basher of the group with precedence, in order, draws one of the
        idle enemy bashers left: a duel, each the other's victim."""
        victim, rem, mis_n = self.victim, self.rem, self.R.mis_n
        bits, widths = self.bits, self.R.widths
        pool = [j for j in lb if victim[j] < 0 and rem[j] > 0 and not mis_n[j]]
        for i in la:
            if not pool:
                return
            if victim[i] >= 0 or rem[i] <= 0 or mis_n[i]:
                continue
            n = len(pool)  # rng.choice(pool) as `random.Random` draws it (as `strike`
            x = bits(k := widths[n])  # does: the same draws, without its two calls)
            while x >= n:
                x = bits(k)
            j = pool[x]
            if self.log:
                self.sink.paired(self, r, i, j, pool)
            pool.remove(j)
            victim[i] = j
            victim[j] = i

    def compel_idle(self, r: int, la: list[int], lb: list[int]) -> None:
        """SA-6: the compulsions of the idle, the group with precedence first."""
        victim, rem = self.victim, self.rem
        for group, foes in ((la, lb), (lb, la)):
            for i in group:
                if victim[i] < 0 and rem[i] > 0:
                    self.compel(r, i, foes, "SA-6")

    def compel(self, r: int, i: int, foes: list[int], rule: str) -> int:
        """A "must attack" effect: the minion it names, if a living enemy here (a bare one:
        the first living enemy, our reading). The victim, or -1."""
        must = self.R.must[i]
        if must is None:
            return -1
        hp, ids = self.hp, self.R.ids
        for j in foes:
            if hp[j] > 0 and (must == "" or ids[j] == must):
                self.victim[i] = j
                if self.log:
                    self.sink.compelled(self, r, i, j, rule)
                return j
        return -1

    def choose_idle(self, r: int, own: list[int], foes: list[int], fq: bool) -> None:
        """SA-6's wise choices (SA-8) of `own`'s idle minions, in order, each counting the
        damage of those chosen before it (`pending`). Nobody has attacked yet: every enemy
        is alive with its HP and armor of the round's start, so they are ranked once."""
        R, victim, rem = self.R, self.victim, self.rem
        idle, pend = idle_pending(len(self.hp), own, victim, rem, R.whole)
        if not idle:
            return
        if len(foes) == 1:
            self.only_foe(r, idle, foes)
            return
        hand_n, missiles, whole, log = R.hand_n, R.steers, R.whole, self.log
        every, aimed = self.rankings(foes, fq)
        most = max(pend)
        for i in idle:
            mine = whole[i]  # nobody has attacked yet
            if rem[i] > hand_n[i] and missiles[i]:  # `steering`
                line, keys, need, tied, least = aimed
            else:  # (all of them ranked, made when first asked)
                every = every or ranked(self.key, self.need, foes)
                line, keys, need, tied, least = every
            # 2. one the group can kill this round, if any (`killable`; the commonest: the
            # one best on 3-5, alone there, is: then it, as `killable` would find)
            if mine + most >= least and (len(tied) > 1 or mine + pend[line[0]] < need[0]):
                tied = killable(line, keys, need, mine, pend) or tied
            j = tied[0] if len(tied) == 1 else self.choice(tied)  # 6. at random
            if log:
                self.sink.wise(self, r, i, j, foes, pend, "SA-6", tied)
            victim[i] = j
            if mine:
                total = pend[j] = pend[j] + mine
                if total > most:
                    most = total

    def only_foe(self, r: int, idle: list[int], foes: list[int]) -> None:
        """SA-6: a wise choice with one enemy left."""
        for i in idle:
            self.victim[i] = foes[0]
            if self.log:
                self.sink.wise(self, r, i, foes[0], foes, None, "SA-6", foes)

    def rankings(self, foes: list[int], fq: bool) -> tuple[Ranking | None, Ranking]:
        """`foes` ranked by SA-8's tiebreakers 3-5 (`ranked`): all of them, and those a
        shooter's missiles steer to (1., SA-10: the not (quasi-)immune, if any). When
        those are fewer, the first is None: made only if a minion that does not steer
        asks for it (`choose_idle`; most often none does)."""
        if fq:
            kept = steered(self.R, foes)
            if len(kept) < len(foes):
                return None, ranked(self.key, self.need, kept)
        every = ranked(self.key, self.need, foes)
        return every, every

    def attack_group(self, r: int, group: list[int], foes: list[int], fq: bool) -> None:
        """SA-7: `group`'s minions attack in order, each with its attacks left, while
        `foes` (its living enemies) has any; `fq`: whether any of them is quasi-immune."""
        R, hp, rem, victim = self.R, self.hp, self.rem, self.victim
        mis_n, whole, start = R.mis_n, R.whole, R.start
        self.forget()
        for i in group:
            left = rem[i]
            if left <= 0:  # (`group` is the living: none of them falls in their attacks)
                continue
            if not foes:
                return
            v = victim[i]
            known = self.known
            if known is not None and v >= 0:  # `i` comes to attack: what `known`
                # (`pending_of`) counts it to deal to its victim is no longer pending: its
                # attacks left (SA-8's estimate; a whole round's while it has not attacked)
                known[v] -= whole[i] if r > 1 and left == start[i] else \
                    damage_left(R, i, left, r)
            if v < 0 or hp[v] <= 0:  # a victim: a compulsion, else a wise choice for a
                victim[i] = -1  # shooter, else retaliation for a basher
                v = self.compel(r, i, foes, "SA-7") if self.compels else -1
                if v < 0:
                    v = self.choose(r, i, group, foes, fq) if mis_n[i] else \
                        self.retaliate(r, i, foes)
            if v >= 0:
                self.strike(r, i, v, foes)

    def forget(self) -> None:
        """A group's attacks begin: nothing of another's kept (a method, so that the type
        checker reads `known` and `kept` as they may be after a call, not as set here)."""
        self.known = None
        self.kept = None

    def retaliate(self, r: int, i: int, foes: list[int]) -> int:
        """SA-7: a basher without a victim attacks the first enemy attacking it; without
        one it forfeits its attacks (-1)."""
        for j in foes:
            if self.victim[j] == i:
                self.victim[i] = j
                if self.log:
                    self.sink.retaliates(self, r, i, j)
                return j
        if self.log:
            self.sink.forfeit(self, r, i)
        self.rem[i] = 0
        return -1

    def choose(self, r: int, i: int, own: list[int], foes: list[int], fq: bool) -> int:
        """SA-8 (and SA-10) in SA-7, from round 2 (round 1's: `first_attacks`): a shooter's
        wise choice among the living `foes`, the tiebreakers in one pass (`best`)."""
        R = self.R
        cands = foes
        n = len(foes)
        if fq and n > 1 and self.rem[i] > R.hand_n[i] and R.steers[i]:  # (`steering`,
            kept = self.kept  # written out: this is hot) `steered`, kept while `foes`
            if kept is None or kept[0] != n:  # loses nobody (it only shrinks, by a kill,
                kept = self.kept = (n, steered(R, foes))  # in one group's attacks):
            cands = kept[1]  # shooter after shooter steers among the same enemies
            n = len(cands)
        known = self.known
        if n == 1:
            tied = cands
        else:  # the others' pending damage (`pending_of`, kept) and its own (not yet
            if known is None:  # attacked): SA-8's tiebreakers 2-5
                known = self.pending_of(r, i, own)
            tied = best(self.key, self.need, self.bit, cands, R.whole[i], known)
        j = tied[0] if len(tied) == 1 else self.choice(tied)  # 6. at random
        if self.log:
            self.sink.wise(self, r, i, j, foes, known, "SA-7", tied)
        self.victim[i] = j
        return j

    def pending_of(self, r: int, i: int, own: list[int]) -> list[int]:
        """`pending` for `i`'s wise choice in `own`'s attacks: worked out at the first
        choice of the round's attacks, then kept (`known`), each minion's share taken out
        as it comes to attack (`attack_group`). It stays exact: in its own attacks no minion of
        `own` falls, and only the one attacking changes its victim or attacks left."""
        if self.known is None:
            self.known = pending(self.R, self.hp, own, self.victim, self.rem, r, i)
        return self.known

    def strike(self, r: int, i: int, v: int, foes: list[int]) -> None:
        """SA-9: `i`'s attacks, missiles first, the first on `v`, each further one on a living
        enemy at random (SA-7): a hit at most `i`'s level plus misses; armor soaks first."""
        hp, cur, level, need, key, top, shift, bits, widths, log = self.struck
        lvi, damage = self.info[i]  # the round's damage by attacks left (`start_round`)
        left, kills = self.rem[i], 0
        reach = lvi + self.misses[i]  # the highest level it hits: its own plus its misses
        while True:
            if level[v] > reach:
                if log:
                    self.sink.miss(self, r, i, v, left, reach - lvi)
                reach += 1
            else:
                dmg = damage[left]
                soak = cur[v]
                if soak >= dmg:  # (in twos too)
                    cur[v], need[v] = soak - dmg, need[v] - dmg
                else:
                    cur[v] = 0
                    h = need[v] = hp[v] = hp[v] - dmg + soak
                    key[v] = top[v] - (h << shift)
                    if h <= 0:  # killed: out of the living
                        foes.remove(v)
                        kills += 1
                if log:
                    self.sink.hit(self, r, i, v, left, reach - lvi, dmg, soak)
                reach = lvi
            left -= 1
            if not left or not foes:  # (never below 0: it attacks with 1 or more)
                break
            n = len(foes)  # rng.choice(foes) as `random.Random` draws it: bits of the
            x = bits(k := widths[n])  # length's width until below it (the same
            while x >= n:  # draws)
                x = bits(k)
            v = foes[x]
            if log:
                self.sink.drawn(self, r, i, v, foes)
        self.victim[i], self.rem[i], self.misses[i] = v, left, reach - lvi
        if kills and not lvi:  # SA-9: a recruit's kill earns it a level
            self.promoted.add(i)


# -- SA-8's numbers --------------------------------------------------------------------------

# enemies ranked by tiebreakers 3-5: (the order, their keys, what killing each this round
# takes, the top ones, the least of those needs)
Ranking = tuple[list[int], Sequence[int], Sequence[int], list[int], int]


def damage_left(R: Roster, i: int, left: int, r: int) -> int:
    """What `left` remaining attacks of `i` deal this round, missiles first (SA-8's
    estimate)."""
    if r == 1:
        return left * R.dm1[i]
    missiles = left - R.hand_n[i]
    if missiles <= 0:
        return left * R.dh[i]
    return missiles * R.dm[i] + R.hand_n[i] * R.dh[i]


def pending(R: Roster, hp: list[int], own: list[int], victim: list[int], rem: list[int],
            r: int, skip: int = -1) -> list[int]:
    """SA-8's estimate: what the remaining attacks of `own`'s minions deal to each of
    their victims this round, per minion (a list read by index: cheaper than a dict's
    `get` in the tiebreakers' loops)."""
    dm1, dm, dh, hand_n, start, whole = R.dm1, R.dm, R.dh, R.hand_n, R.start, R.whole
    pend = [0] * len(hp)
    for m in own:
        v = victim[m]
        left = rem[m]
        if v < 0 or left <= 0 or m == skip:  # (`own` is the living)
            continue
        if r == 1:  # as `damage_left`, written out: this loop is hot
            d = left * dm1[m]
        elif left == start[m]:  # (not attacked yet: a whole round's, made once)
            d = whole[m]
        else:
            ms = left - hand_n[m]
            d = left * dh[m] if ms <= 0 else ms * dm[m] + hand_n[m] * dh[m]
        pend[v] += d
    return pend


def idle_pending(n: int, own: list[int], victim: list[int], rem: list[int],
                 whole: list[int]) -> tuple[list[int], list[int]]:
    """SA-6's choosers among `own` (the living) and `pending` before any of them attacks,
    in one pass: (the idle, those without a victim and with attacks, in order; what those
    with a victim deal each of the `n` minions this round, a whole round's attacks each:
    `Roster.whole`, 0 for one without any, which `pending` passes over, adding nothing)."""
    pend = [0] * n
    idle: list[int] = []
    for m in own:
        v = victim[m]
        if v >= 0:
            pend[v] += whole[m]
        elif rem[m] > 0:
            idle.append(m)
    return idle, pend


def steering(R: Roster, i: int, left: int, r: int) -> bool:
    """SA-10: whether `i`'s next attacks (`left` of them) are missiles that steer away from
    the (quasi-)immune (SA-8's tiebreaker 1)."""
    return (r == 1 or left > R.hand_n[i]) and R.steers[i]


def steered(R: Roster, foes: list[int]) -> list[int]:
    """SA-8's tiebreaker 1 (SA-10): those of `foes` not (quasi-)immune, if any (else all).
    With few (quasi-)immune in the roster, `foes` copied and those taken out (each at most
    once in `foes`: the rest keep their order), cheaper than a pass over every foe."""
    quasis = R.quasis
    if len(quasis) > 4:
        return list(compress(foes, map(R.plain.__getitem__, foes))) or foes
    kept = foes.copy()
    for q in quasis:
        if q in kept:
            kept.remove(q)
    return kept or foes


def best(key: list[int], need: list[int], bit: int, cands: list[int], mine: int,
         known: list[int]) -> list[int]:
    """SA-8's tiebreakers 2-5 in one pass, the tied ones in roster order: the highest of
    armor, HP and damage in one number (`key`), `bit` above them all for a victim the
    group can kill this round (`mine` and what `known` says the others deal)."""
    tied: list[int] = []
    top = -1  # below every key
    for j in cands:
        k = key[j]
        if need[j] <= mine + known[j]:
            k += bit
        if k >= top:  # (most are below: one comparison for those)
            if k > top:
                top = k
                tied = [j]
            else:
                tied.append(j)
    return tied


def best_alone(key: list[int], need: list[int], bit: int, cands: list[int],
               mine: int) -> list[int]:
    """`best` when nothing is known of the others' attacks: a kill is `mine` alone (the
    same loop without its look-ups: round 1's choices are the most; without `need`'s when
    `mine` is 0: every living enemy needs 1 or more, none can be killed)."""
    tied: list[int] = []
    top = -1  # below every key
    if not mine:
        for j in cands:
            k = key[j]
            if k >= top:
                if k > top:
                    top = k
                    tied = [j]
                else:
                    tied.append(j)
        return tied
    for j in cands:
        k = key[j]
        if need[j] <= mine:
            k += bit
        if k >= top:  # (most are below: one comparison for those)
            if k > top:
                top = k
                tied = [j]
            else:
                tied.append(j)
    return tied


def ranked(key: list[int], need: list[int], cands: list[int]) -> Ranking:
    """`cands` by tiebreakers 3-5 (`key`), best first (ties in roster order: the sort is
    stable): (the order, their keys, what killing each this round takes, the top ones,
    the least of those needs)."""
    order = sorted(cands, key=key.__getitem__, reverse=True)
    if len(order) > 1:  # their numbers read in one call each (a tuple), not one by one
        get = itemgetter(*order)
        keys: Sequence[int] = get(key)
        needs: Sequence[int] = get(need)
    else:
        keys, needs = [key[order[0]]], [need[order[0]]]
    return order, keys, needs, order[:keys.count(keys[0])], min(needs)


def killable(line: list[int], keys: Sequence[int], need: Sequence[int], mine: int,
             known: list[int]) -> list[int]:
    """Tiebreaker 2 on a ranking, then 3-5: the first enemy the group can kill this round
    (`mine` and what `known` says the others deal), with those tied with it on 3-5 that it
    can kill too, in roster order; [] when it can kill none."""
    n = len(line)
    k = 0
    while k < n and mine + known[line[k]] < need[k]:
        k += 1
    if k == n:
        return []
    tied = [line[k]]
    for m in range(k + 1, n):
        if keys[m] != keys[k]:
            break
        if mine + known[line[m]] >= need[m]:
            tied.append(line[m])
    return tied


# -- the sinks -------------------------------------------------------------------------------


class Quiet:
    """The quiet sink (the odds): records nothing. Its steps are no-ops, and where the
    pipeline is hot it reads `on` and calls none at all."""

    on = False

    def skipped(self, a: str, b: str) -> None:
        pass

    def combat(self, R: Roster, a: str, b: str) -> None:
        pass

    def combat_end(self, R: Roster, a: str, b: str, result: tuple[Any, ...]) -> None:
        pass

    def round(self, r: int) -> None:
        pass

    def paired(self, c: Combat, r: int, i: int, j: int, pool: list[int]) -> None:
        pass

    def compelled(self, c: Combat, r: int, i: int, j: int, rule: str) -> None:
        pass

    def wise(self, c: Combat, r: int, i: int, j: int, foes: list[int],
             pend: list[int] | None, rule: str, tied: list[int]) -> None:
        pass

    def retaliates(self, c: Combat, r: int, i: int, j: int) -> None:
        pass

    def forfeit(self, c: Combat, r: int, i: int) -> None:
        pass

    def drawn(self, c: Combat, r: int, i: int, v: int, foes: list[int]) -> None:
        pass

    def miss(self, c: Combat, r: int, i: int, v: int, left: int, missed: int) -> None:
        pass

    def hit(self, c: Combat, r: int, i: int, v: int, left: int, had: int, dmg: int,
            armor: int) -> None:
        pass


QUIET = Quiet()


class Log(Quiet):
    """The logging sink: one plain dict per step, appended to `steps`. Each is called
    as its step is done, so it reads the combat's state of that moment."""

    on = True

    def __init__(self, steps: list[dict[str, Any]]) -> None:
        self.steps = steps

    def skipped(self, a: str, b: str) -> None:
        self.steps.append({"type": "combat", "groups": (a, b), "skipped": True,
                           "rules": ("SA-2",),
                           "why": f"{a} and {b} have fought this turn: skipped"})

    def combat(self, R: Roster, a: str, b: str) -> None:
        first, _, why = precedence(R, a, b)
        self.steps.append({"type": "combat", "groups": (a, b), "first": first,
                           "rules": ("SA-1",), "why": why})

    def combat_end(self, R: Roster, a: str, b: str, result: tuple[Any, ...]) -> None:
        first, second, rounds, ended, s1, s2 = result
        ids = R.ids
        self.steps.append({"type": "combat-end", "groups": (a, b), "rounds": rounds,
                           "ended": ended, "survivors": {first: [ids[i] for i in s1],
                                                         second: [ids[i] for i in s2]}})

    def round(self, r: int) -> None:
        self.steps.append({"type": "combat-round", "combat_round": r,
                           "rules": ("SA-5", "SA-4") if r == 1 else ("SA-5",)})

    def victim(self, c: Combat, r: int, i: int, j: int, how: str, rules: tuple[str, ...],
               why: str, draw: str = "") -> None:
        step = {"type": "victim", "combat_round": r, "actor": c.R.ids[i],
                "victim": c.R.ids[j], "how": how, "draw": draw, "rules": rules, "why": why}
        if not draw:
            del step["draw"]
        self.steps.append(step)

    def paired(self, c: Combat, r: int, i: int, j: int, pool: list[int]) -> None:
        count = len(pool)
        self.victim(c, r, i, j, "paired", ("SA-6",),
                    f"idle bashers pair up at random ({count} idle enemy bashers): a duel",
                    f"{pool.index(j) + 1} of {count}")

    def compelled(self, c: Combat, r: int, i: int, j: int, rule: str) -> None:
        self.victim(c, r, i, j, "compelled", (rule,), "a \"must attack\" effect")

    def wise(self, c: Combat, r: int, i: int, j: int, foes: list[int],
             pend: list[int] | None, rule: str, tied: list[int]) -> None:
        R = c.R
        stage = settled_by(c, r, i, foes, pend)
        draw = ""
        if stage == 5:
            why = "the only enemy left"
        elif stage >= 0:
            why = f"chosen wisely: {TIEBREAKERS[stage]}"
        else:
            draw = f"{tied.index(j) + 1} of {len(tied)}"
            why = f"chosen wisely: {len(tied)} tied on every tiebreaker, one at random ({draw})"
        quasi = steering(R, i, c.rem[i], r) and any(R.quasi[f] for f in foes)
        rules = (rule, "SA-8", "SA-10") if quasi else (rule, "SA-8")
        self.victim(c, r, i, j, "wise", rules, why)
        if draw:
            self.steps[-1]["draw"] = draw  # last, as it always was

    def retaliates(self, c: Combat, r: int, i: int, j: int) -> None:
        self.victim(c, r, i, j, "retaliates", ("SA-7",),
                    f"{c.R.ids[j]} attacks it: the first such enemy")

    def forfeit(self, c: Combat, r: int, i: int) -> None:
        self.steps.append({"type": "forfeit", "combat_round": r, "actor": c.R.ids[i],
                           "attacks": c.rem[i], "rules": ("SA-7",),
                           "why": "a basher with no victim that no enemy attacks"})

    def drawn(self, c: Combat, r: int, i: int, v: int, foes: list[int]) -> None:
        self.victim(c, r, i, v, "random", ("SA-7",),
                    "a further attack: an enemy minion at random",
                    f"{foes.index(v) + 1} of {len(foes)}")

    def attack(self, c: Combat, r: int, i: int, v: int, left: int, **result: Any) -> None:
        """An attack of `i` on `v` with `left` attacks left before it: the first of the
        step cites nothing more, a further one SA-7 (its victim drawn)."""
        R = c.R
        missile = r == 1 or left > R.hand_n[i]
        further: tuple[str, ...] = ("SA-7",) if left < c.rem[i] else ()
        rules = further + (("SA-4", "SA-9") if r == 1 else ("SA-9",))
        if result["hit"] and missile and not R.magical[i] and R.quasi[v]:
            rules += ("SA-10",)
        why = result.pop("why")
        self.steps.append({"type": "attack", "combat_round": r, "attacker": R.ids[i],
                           "victim": R.ids[v], "kind": "missile" if missile else "hand",
                           **result, "rules": rules, "why": why})

    def miss(self, c: Combat, r: int, i: int, v: int, left: int, missed: int) -> None:
        level = c.R.level
        self.attack(c, r, i, v, left, hit=False, hp=c.hp[v],
                    why=f"level {level[v]} > {level[i]} + {missed} misses")

    def hit(self, c: Combat, r: int, i: int, v: int, left: int, had: int, dmg: int,
            armor: int) -> None:
        """`armor`: the victim's before the hit."""
        R, hp = c.R, c.hp[v]
        soaked = min(armor, dmg)
        result = "bounced" if soaked == dmg else "killed" if hp <= 0 else "damaged"
        why = ("misses infinite: the first attack hits" if had >= INF else
               f"level {R.level[v]} <= {R.level[i]} + {had} misses")
        if R.nodeal[i]:
            why += "; deals nothing (\"does not deal\")"
        elif r == 1 and R.penalty:  # round 1: missiles only (SA-4)
            why += f"; missile round -{R.penalty} damage"
        if result == "killed" and R.level[i] == 0:
            why += "; a recruit's kill: it earns a level next turn"
        self.attack(c, r, i, v, left, hit=True, damage=dmg, soaked=soaked, result=result,
                    hp=hp, why=why)


def settled_by(c: Combat, r: int, i: int, foes: list[int], pend: list[int] | None) -> int:
    """For the log: which of SA-8's tiebreakers settled `i`'s choice among the living
    `foes` (`pend`: what the rest of its group deals to each this round), narrowing the
    candidates one tiebreaker at a time as SA-8 reads: 5 when there was no choice, 0-4
    tiebreakers 1-5, -1 none (drawn at random). It draws nothing."""
    if len(foes) == 1:
        return 5
    R, hp, cur = c.R, c.hp, c.cur
    left = c.rem[i]
    cands = steered(R, foes) if steering(R, i, left, r) else foes
    if len(cands) == 1:
        return 0
    mine = damage_left(R, i, left, r)
    known = pend or [0] * len(hp)  # None: nothing known
    kept = [j for j in cands if mine + known[j] >= hp[j] + cur[j]]
    if len(kept) == 1:
        return 1
    return settled(R, hp, kept or cands)


def settled(R: Roster, hp: list[int], cands: list[int]) -> int:
    """Which of tiebreakers 3-5 leaves one victim (-1: none does), for the log."""
    armor, maxdmg = R.armor, R.maxdmg
    top = max(armor[j] for j in cands)
    cands = [j for j in cands if armor[j] == top]
    if len(cands) == 1:
        return 2
    low = min(hp[j] for j in cands)
    cands = [j for j in cands if hp[j] == low]
    if len(cands) == 1:
        return 3
    best = max(maxdmg[j] for j in cands)
    return 4 if sum(1 for j in cands if maxdmg[j] == best) == 1 else -1
