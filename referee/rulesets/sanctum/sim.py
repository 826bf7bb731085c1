"""The combat pipeline as a pure simulator: plain ints and lists, one `random.Random`.

`run_turn` fights a turn's pairs in the listed order (SA-2) and returns each combat's
result; given a list as `log`, it also appends one plain dict per step (a combat begins,
a round begins, a victim is chosen, an attack, a forfeit, a combat ends), which the
ruleset turns into events. Without a log (the odds) no step is described at all: the
turn goes through `quiet_turn`, the same pipeline written for speed (see there), which
draws exactly what the logged one draws.

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
from typing import Any

INF = 1 << 40  # SA-4: misses "infinite" in round 1
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
        self.skey: list[int] = []
        self.kill_bit = 1 << 62
        self.info: list[tuple[int, int, int, int, int]] = []
        self.start1: list[int] = []
        self.start: list[int] = []
        self.steers: list[bool] = []
        self.prepared = (-1, 0)  # the minions and penalty `prepare` worked on

    def prepare(self) -> None:
        """SA-9's damage per attack with its modifiers (0 under "does not deal"), and the
        per-minion tuples of the quiet pipeline (`quiet_turn`); worked out once."""
        if self.prepared == (len(self.ids), self.penalty):
            return
        self.prepared = (len(self.ids), self.penalty)
        n = range(len(self.ids))
        self.dm1 = [0 if self.nodeal[i] else max(0, self.mis_d[i] - self.penalty) for i in n]
        self.dm = [0 if self.nodeal[i] else max(0, self.mis_d[i]) for i in n]
        self.dh = [0 if self.nodeal[i] else max(0, self.hand_d[i]) for i in n]
        # SA-8's tiebreakers 3 and 5 in one number: armor first, then damage (HP between)
        self.skey = [(self.armor[i] << 40) + min(self.maxdmg[i], (1 << 20) - 1) for i in n]
        # tiebreaker 2 above them all (SA-8): a bit above the highest armor
        self.kill_bit = 1 << max(62, max(self.armor, default=0).bit_length() + 42)
        # per minion: (level, hand attacks, round 1 damage, missile damage, hand damage)
        self.info = [(self.level[i], self.hand_n[i], self.dm1[i], self.dm[i], self.dh[i])
                     for i in n]
        # attacks at the start of a round: round 1 (missiles only, SA-4), later rounds
        self.start1 = [0 if self.noatk[i] else self.mis_n[i] for i in n]
        self.start = [0 if self.noatk[i] else self.mis_n[i] + self.hand_n[i] for i in n]
        # SA-10: whether the minion's damage is steered away from the (quasi-)immune
        self.steers = [not self.magical[i] for i in n]

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


def precedence(roster: Roster, a: str, b: str) -> tuple[str, str, str]:
    """SA-1: (first, second, why)."""
    ra, rb = roster.rank[a], roster.rank[b]
    first, second = (a, b) if ra <= rb else (b, a)
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
    """Fight `pairs` in order (SA-2); `hp` falls in place. Returns (one result per pair:
    None when skipped, else (first, second, rounds, ended, survivors of first, of
    second)), the minions that earned a level (SA-9))."""
    if log is None:
        return quiet_turn(roster, hp, pairs, rng, fought)
    roster.prepare()
    done = set() if fought is None else set(fought)
    results: list[Any] = []
    promoted: set[int] = set()
    for a, b in pairs:
        key = pair_key(a, b)
        if key in done:
            results.append(None)
            if log is not None:
                log.append({"type": "combat", "groups": (a, b), "skipped": True,
                            "rules": ("SA-2",),
                            "why": f"{a} and {b} have fought this turn: skipped"})
            continue
        done.add(key)
        first, second, why = precedence(roster, a, b)
        if log is not None:
            log.append({"type": "combat", "groups": (a, b), "first": first,
                        "rules": ("SA-1",), "why": why})
        results.append(combat(roster, hp, first, second, rng, log, promoted))
        if log is not None:
            _, _, rounds, ended, s1, s2 = results[-1]
            ids = roster.ids
            log.append({"type": "combat-end", "groups": (a, b), "rounds": rounds,
                        "ended": ended, "survivors": {first: [ids[i] for i in s1],
                                                      second: [ids[i] for i in s2]}})
    return results, promoted


def combat(R: Roster, hp: list[int], ga: str, gb: str, rng: random.Random,
           log: list[dict[str, Any]] | None, promoted: set[int]) -> tuple[Any, ...]:
    """One combat (SA-3 .. SA-10); `ga` has precedence."""
    a, b = R.members[ga], R.members[gb]
    n = len(hp)
    victim = [-1] * n
    misses = [0] * n
    cur = [0] * n
    rem = [0] * n
    armor, hand_n, mis_n, noatk = R.armor, R.hand_n, R.mis_n, R.noatk
    ids = R.ids
    rounds = 0
    ended = "10 rounds"
    for r in range(1, R.rounds + 1):
        la = [i for i in a if hp[i] > 0]
        lb = [i for i in b if hp[i] > 0]
        if not la or not lb:
            ended = "no minions"
            break
        rounds = r
        # SA-5: the start of the round
        for i in la + lb:
            cur[i] = armor[i]
            if noatk[i]:
                rem[i] = 0
            elif r == 1:
                rem[i] = mis_n[i]  # SA-4: hand attacks forfeited, bashers skip
            else:
                rem[i] = mis_n[i] + hand_n[i]
            if mis_n[i]:
                victim[i] = -1  # shooters go idle
            if r == 1:
                misses[i] = INF  # SA-4
            v = victim[i]
            if v >= 0 and hp[v] <= 0:
                victim[i] = -1
        if log is not None:
            log.append({"type": "combat-round", "combat_round": r,
                        "rules": ("SA-5", "SA-4") if r == 1 else ("SA-5",)})
        if r > 1:
            # SA-6: bashers pair up, then compulsions, then wise choices
            pool = [j for j in lb if victim[j] < 0 and rem[j] > 0 and not mis_n[j]]
            if pool:
                for i in la:
                    if victim[i] < 0 and rem[i] > 0 and not mis_n[i]:
                        count = len(pool)
                        j = rng.choice(pool)
                        drawn = pool.index(j) + 1
                        pool.remove(j)
                        victim[i] = j
                        victim[j] = i
                        if log is not None:
                            log.append({"type": "victim", "combat_round": r, "actor": ids[i],
                                        "victim": ids[j], "how": "paired",
                                        "draw": f"{drawn} of {count}",
                                        "rules": ("SA-6",),
                                        "why": f"idle bashers pair up at random "
                                               f"({count} idle enemy bashers): a duel"})
                        if not pool:
                            break
            for group, foes in ((la, lb), (lb, la)):
                for i in group:
                    if victim[i] < 0 and rem[i] > 0:
                        compel(R, hp, i, foes, victim, r, log, "SA-6")
            for group, foes in ((la, lb), (lb, la)):
                pend = pending(R, hp, group, victim, rem, r)
                for i in group:
                    if victim[i] < 0 and rem[i] > 0:
                        choose_wisely(R, hp, i, group, foes, victim, cur, rem, r, rng, log,
                                      "SA-6", pend)
        # SA-7: the attacks, the group with precedence first
        over = False
        left = [len(la), len(lb)]
        for k, group, foes in ((0, la, lb), (1, lb, la)):
            for i in group:
                if hp[i] <= 0 or rem[i] <= 0:
                    continue
                if not left[1 - k]:
                    over = True
                    break
                v = victim[i]
                if v >= 0 and hp[v] <= 0:
                    victim[i] = v = -1
                if v < 0:
                    compel(R, hp, i, foes, victim, r, log, "SA-7")
                    v = victim[i]
                if v < 0:
                    if mis_n[i]:
                        choose_wisely(R, hp, i, group, foes, victim, cur, rem, r, rng, log,
                                      "SA-7")
                    else:
                        for j in foes:
                            if hp[j] > 0 and victim[j] == i:
                                victim[i] = j
                                if log is not None:
                                    log.append({"type": "victim", "combat_round": r,
                                                "actor": ids[i], "victim": ids[j],
                                                "how": "retaliates", "rules": ("SA-7",),
                                                "why": f"{ids[j]} attacks it: the first "
                                                       "such enemy"})
                                break
                    v = victim[i]
                if v < 0:
                    if log is not None:
                        log.append({"type": "forfeit", "combat_round": r, "actor": ids[i],
                                    "attacks": rem[i], "rules": ("SA-7",),
                                    "why": "a basher with no victim that no enemy attacks"})
                    rem[i] = 0
                    continue
                if attack(R, hp, i, v, r, cur, rem, misses, log, promoted, ()):
                    left[1 - k] -= 1
                while rem[i] > 0 and left[1 - k]:
                    alive = [j for j in foes if hp[j] > 0]
                    v = rng.choice(alive)
                    victim[i] = v
                    if log is not None:
                        log.append({"type": "victim", "combat_round": r, "actor": ids[i],
                                    "victim": ids[v], "how": "random",
                                    "draw": f"{alive.index(v) + 1} of {len(alive)}",
                                    "rules": ("SA-7",),
                                    "why": "a further attack: an enemy minion at random"})
                    if attack(R, hp, i, v, r, cur, rem, misses, log, promoted, ("SA-7",)):
                        left[1 - k] -= 1
            if over:
                break
        if not left[0] or not left[1]:
            ended = "no minions"
            break
    s1 = [i for i in a if hp[i] > 0]
    s2 = [i for i in b if hp[i] > 0]
    return (ga, gb, rounds, ended, s1, s2)


def compel(R: Roster, hp: list[int], i: int, foes: list[int], victim: list[int], r: int,
           log: list[dict[str, Any]] | None, rule: str) -> None:
    """A "must attack" effect: the minion it names, if a living enemy here (a bare one:
    the first living enemy, our reading)."""
    must = R.must[i]
    if must is None:
        return
    ids = R.ids
    for j in foes:
        if hp[j] > 0 and (must == "" or ids[j] == must):
            victim[i] = j
            if log is not None:
                log.append({"type": "victim", "combat_round": r, "actor": ids[i],
                            "victim": ids[j], "how": "compelled", "rules": (rule,),
                            "why": "a \"must attack\" effect"})
            return


def per_attack(R: Roster, i: int, missile: bool, r: int) -> int:
    """SA-9: the damage of one attack of that kind with this round's modifiers."""
    if missile:
        return R.dm1[i] if r == 1 else R.dm[i]
    return R.dh[i]


def damage_left(R: Roster, i: int, rem: list[int], r: int) -> int:
    """What `i`'s remaining attacks this round deal, missiles first (SA-8's estimate)."""
    left = rem[i]
    if r == 1:
        return left * R.dm1[i]
    missiles = left - R.hand_n[i]
    if missiles <= 0:
        return left * R.dh[i]
    return missiles * R.dm[i] + R.hand_n[i] * R.dh[i]


def pending(R: Roster, hp: list[int], own: list[int], victim: list[int], rem: list[int],
            r: int, skip: int = -1) -> dict[int, int]:
    """SA-8's estimate: what the remaining attacks of `own`'s minions deal to each of
    their victims this round."""
    dm1, dm, dh, hand_n = R.dm1, R.dm, R.dh, R.hand_n
    pend: dict[int, int] = {}
    for m in own:
        v = victim[m]
        left = rem[m]
        if v >= 0 and left > 0 and m != skip and hp[m] > 0:
            if r == 1:
                d = left * dm1[m]
            else:
                ms = left - hand_n[m]
                d = left * dh[m] if ms <= 0 else ms * dm[m] + hand_n[m] * dh[m]
            if d:
                pend[v] = pend.get(v, 0) + d
    return pend


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


def choose_wisely(R: Roster, hp: list[int], i: int, own: list[int], foes: list[int],
                  victim: list[int], cur: list[int], rem: list[int], r: int,
                  rng: random.Random, log: list[dict[str, Any]] | None, rule: str,
                  pend: dict[int, int] | None = None) -> None:
    """SA-8 (and SA-10): the tiebreakers in order, each narrowing the candidates left
    by the ones before it; the last one at random. `pend`: what the group's attacks on
    each victim will deal (`pending`), kept up to date here when given."""
    cands = [j for j in foes if hp[j] > 0]
    if not cands:
        return
    stage = -1 if len(cands) > 1 else 5
    steer = (r == 1 or rem[i] > R.hand_n[i]) and not R.magical[i]
    quasi = R.quasi
    if stage < 0 and steer:  # 1. not (quasi-)immune to my damage type (SA-10)
        kept = [j for j in cands if not quasi[j]]
        if kept:
            cands = kept
            if len(cands) == 1:
                stage = 0
    mine = damage_left(R, i, rem, r)
    if stage < 0:  # 2. one my group and I can kill this round
        if pend is None:
            pend = pending(R, hp, own, victim, rem, r, i)
        if pend:
            kept = [j for j in cands if mine + pend.get(j, 0) >= hp[j] + cur[j]]
        elif mine:
            kept = [j for j in cands if mine >= hp[j] + cur[j]]
        else:
            kept = []
        if kept:
            cands = kept
            if len(cands) == 1:
                stage = 1
    if stage < 0:  # 3.-5. the highest maximum armor, the lowest HP, the highest damage
        skey = R.skey  # armor and damage in one number, then the HP: one comparison
        keys = [skey[j] - (hp[j] << 20) for j in cands]
        top = max(keys)
        if log is not None:
            stage = settled(R, hp, cands)
        cands = [j for j, key in zip(cands, keys, strict=True) if key == top]
        if len(cands) == 1 and log is None:
            stage = 2
    draw = ""
    if stage < 0:  # 6. at random
        j = rng.choice(cands)
        draw = f"{cands.index(j) + 1} of {len(cands)}"
    else:
        j = cands[0]
    victim[i] = j
    if pend is not None and mine:
        pend[j] = pend.get(j, 0) + mine
    if log is None:
        return
    if stage == 5:
        why = "the only enemy left"
    elif stage >= 0:
        why = f"chosen wisely: {TIEBREAKERS[stage]}"
    else:
        why = f"chosen wisely: {len(cands)} tied on every tiebreaker, one at random ({draw})"
    foes_alive = [f for f in foes if hp[f] > 0]
    rules = (rule, "SA-8", "SA-10") if steer and any(quasi[c] for c in foes_alive) \
        else (rule, "SA-8")
    entry: dict[str, Any] = {"type": "victim", "combat_round": r, "actor": R.ids[i],
                             "victim": R.ids[j], "how": "wise", "rules": rules, "why": why}
    if draw:
        entry["draw"] = draw
    log.append(entry)


def attack(R: Roster, hp: list[int], i: int, v: int, r: int, cur: list[int], rem: list[int],
           misses: list[int], log: list[dict[str, Any]] | None, promoted: set[int],
           rules: tuple[str, ...]) -> bool:
    """SA-9: one attack; True when it killed."""
    missile = r == 1 or rem[i] > R.hand_n[i]
    rem[i] -= 1
    if R.level[v] > R.level[i] + misses[i]:
        misses[i] += 1
        if log is not None:
            log.append({"type": "attack", "combat_round": r, "attacker": R.ids[i],
                        "victim": R.ids[v], "kind": "missile" if missile else "hand",
                        "hit": False, "hp": hp[v],
                        "rules": rules + (("SA-4", "SA-9") if r == 1 else ("SA-9",)),
                        "why": f"level {R.level[v]} > {R.level[i]} + {misses[i] - 1} misses"})
        return False
    had = misses[i]
    first_hit = had >= INF
    misses[i] = 0
    dmg = per_attack(R, i, missile, r)
    soak = cur[v] if cur[v] < dmg else dmg
    cur[v] -= soak
    loss = dmg - soak
    if loss == 0:
        result = "bounced"
    else:
        hp[v] -= loss
        if hp[v] <= 0:
            result = "killed"
            if R.level[i] == 0:
                promoted.add(i)
        else:
            result = "damaged"
    if log is None:
        return result == "killed"
    cited = rules + (("SA-4", "SA-9") if r == 1 else ("SA-9",))
    if missile and not R.magical[i] and R.quasi[v]:
        cited += ("SA-10",)
    why = ("misses infinite: the first attack hits" if first_hit else
           f"level {R.level[v]} <= {R.level[i]} + {had} misses")
    if R.nodeal[i]:
        why += "; deals nothing (\"does not deal\")"
    elif missile and r == 1 and R.penalty:
        why += f"; missile round -{R.penalty} damage"
    if result == "killed" and R.level[i] == 0:
        why += "; a recruit's kill: it earns a level next turn"
    log.append({"type": "attack", "combat_round": r, "attacker": R.ids[i],
                "victim": R.ids[v], "kind": "missile" if missile else "hand", "hit": True,
                "damage": dmg, "soaked": soak, "result": result, "hp": hp[v],
                "rules": cited, "why": why})
    return result == "killed"


# -- the quiet pipeline: the odds' runs (no log) ------------------------------------------
#
# The same pipeline as `combat`, draw for draw, without a log: the living minions kept as
# lists (a kill takes the victim out of its side's list, so the list is always the living
# enemies in roster order), a minion's numbers read from one tuple when it attacks, one
# attack a few integer operations, SA-8's tiebreakers in one pass (SA-6's wise choices
# from the enemies sorted once a round: nobody has attacked yet). `run_turn` uses it
# whenever there is no log; tests/test_sanctum_rules.py checks that both give the same
# results, hit points and draws on random rosters.


def quiet_turn(roster: Roster, hp: list[int], pairs: list[tuple[str, str]],
               rng: random.Random, fought: set[tuple[str, str]] | None = None
               ) -> tuple[list[Any], set[int]]:
    """`run_turn` without a log."""
    roster.prepare()
    done = set() if fought is None else set(fought)
    results: list[Any] = []
    promoted: set[int] = set()
    rank = roster.rank
    for a, b in pairs:
        key = (a, b) if a <= b else (b, a)
        if key in done:
            results.append(None)
            continue
        done.add(key)
        first, second = (a, b) if rank[a] <= rank[b] else (b, a)  # SA-1, as `precedence`
        results.append(quiet_combat(roster, hp, first, second, rng, promoted))
    return results, promoted


def quiet_combat(R: Roster, hp: list[int], ga: str, gb: str, rng: random.Random,
                 promoted: set[int]) -> tuple[Any, ...]:
    """`combat` without a log (SA-3 .. SA-10); `ga` has precedence."""
    a, b = R.members[ga], R.members[gb]
    n = len(hp)
    victim = [-1] * n
    misses = [INF] * n  # SA-4: "infinite" in round 1, reset by the first hit
    cur = [0] * n
    rem = [0] * n
    armor, mis_n, must, quasi = R.armor, R.mis_n, R.must, R.quasi
    info, level = R.info, R.level
    choice = rng.choice
    quasi_a = any(quasi[i] for i in a)
    quasi_b = any(quasi[i] for i in b)
    compels = any(must[i] is not None for i in a) or any(must[i] is not None for i in b)
    rounds = 0
    ended = "10 rounds"
    for r in range(1, R.rounds + 1):
        la = [i for i in a if hp[i] > 0]
        lb = [i for i in b if hp[i] > 0]
        if not la or not lb:
            ended = "no minions"
            break
        rounds = r
        first = r == 1
        counts = R.start1 if first else R.start
        # SA-5: the start of the round
        for group in (la, lb):
            for i in group:
                cur[i] = armor[i]
                rem[i] = counts[i]
                if mis_n[i]:
                    victim[i] = -1  # shooters go idle
                else:
                    v = victim[i]
                    if v >= 0 and hp[v] <= 0:
                        victim[i] = -1
        if not first:
            # SA-6: bashers pair up, then compulsions, then wise choices
            pool = [j for j in lb if victim[j] < 0 and rem[j] > 0 and not mis_n[j]]
            if pool:
                for i in la:
                    if victim[i] < 0 and rem[i] > 0 and not mis_n[i]:
                        j = choice(pool)
                        pool.remove(j)
                        victim[i] = j
                        victim[j] = i
                        if not pool:
                            break
            if compels:
                for group, foes in ((la, lb), (lb, la)):
                    for i in group:
                        if victim[i] < 0 and rem[i] > 0:
                            compel(R, hp, i, foes, victim, r, None, "SA-6")
            quiet_wise(R, hp, la, lb, quasi_b, victim, cur, rem, r, choice)
            quiet_wise(R, hp, lb, la, quasi_a, victim, cur, rem, r, choice)
        # SA-7: the attacks, the group with precedence first; `foes` is the living enemies
        for group, foes, fq in ((la, lb, quasi_b), (lb, la, quasi_a)):
            for i in group:
                if hp[i] <= 0 or rem[i] <= 0:
                    continue
                if not foes:
                    break
                v = victim[i]
                if v >= 0 and hp[v] <= 0:
                    victim[i] = v = -1
                if v < 0 and compels:
                    compel(R, hp, i, foes, victim, r, None, "SA-7")
                    v = victim[i]
                if v < 0:
                    if mis_n[i]:
                        quiet_choice(R, hp, i, group, foes, fq, victim, cur, rem, r, choice,
                                     None)
                        v = victim[i]
                    else:  # retaliation: the first enemy attacking it
                        for j in foes:
                            if victim[j] == i:
                                victim[i] = v = j
                                break
                if v < 0:
                    rem[i] = 0  # a forfeit
                    continue
                # SA-9: the attacks, the first on its victim, the rest at random (SA-7)
                lvi, hand, dm1, dm, dh = info[i]
                left = rem[i]
                missed = misses[i]
                while True:
                    if level[v] > lvi + missed:
                        missed += 1
                        left -= 1
                    else:
                        missed = 0
                        dmg = dm1 if first else dm if left > hand else dh
                        left -= 1
                        if dmg:
                            soak = cur[v]
                            if soak >= dmg:
                                cur[v] = soak - dmg
                            else:
                                cur[v] = 0
                                h = hp[v] = hp[v] - dmg + soak
                                if h <= 0:
                                    foes.remove(v)
                                    if not lvi:
                                        promoted.add(i)
                    if left <= 0 or not foes:
                        break
                    v = choice(foes)
                victim[i] = v
                rem[i] = left
                misses[i] = missed
        if not la or not lb:
            ended = "no minions"
            break
    s1 = [i for i in a if hp[i] > 0]
    s2 = [i for i in b if hp[i] > 0]
    return (ga, gb, rounds, ended, s1, s2)


def quiet_choice(R: Roster, hp: list[int], i: int, own: list[int], cands: list[int],
                 fq: bool, victim: list[int], cur: list[int], rem: list[int], r: int,
                 choice: Any, pend: dict[int, int] | None) -> None:
    """`choose_wisely` without a log: `cands` the living enemies (left unchanged), `fq`
    whether any of their group is (quasi-)immune. Tiebreakers 2-5 in one pass: the
    highest of armor, HP and damage in one number (`skey`), `kill_bit` above them all
    for a victim the group can kill this round."""
    left = rem[i]
    _, hand, dm1, dm, dh = R.info[i]
    if r == 1:
        mine = left * dm1
    else:
        ms = left - hand
        mine = left * dh if ms <= 0 else ms * dm + hand * dh
    if len(cands) > 1 and fq and (r == 1 or left > hand) and R.steers[i]:
        quasi = R.quasi  # 1. not (quasi-)immune to my damage (SA-10)
        kept = [j for j in cands if not quasi[j]]
        if kept:
            cands = kept
    if len(cands) == 1:
        j = cands[0]
    else:
        # in round 1 nobody else of the group has both a victim and attacks left
        known = pend if pend is not None else {} if r == 1 else \
            pending(R, hp, own, victim, rem, r, i)
        skey = R.skey
        tied: list[int] = []
        best = 0
        if known:
            bit = R.kill_bit
            get = known.get
            for j in cands:
                h = hp[j]
                key = skey[j] - (h << 20)
                if mine + get(j, 0) >= h + cur[j]:
                    key += bit
                if not tied or key > best:
                    best = key
                    tied = [j]
                elif key == best:
                    tied.append(j)
        elif mine:
            bit = R.kill_bit
            for j in cands:
                h = hp[j]
                key = skey[j] - (h << 20)
                if mine >= h + cur[j]:
                    key += bit
                if not tied or key > best:
                    best = key
                    tied = [j]
                elif key == best:
                    tied.append(j)
        else:
            for j in cands:
                key = skey[j] - (hp[j] << 20)
                if not tied or key > best:
                    best = key
                    tied = [j]
                elif key == best:
                    tied.append(j)
        j = tied[0] if len(tied) == 1 else choice(tied)  # 6. at random
    victim[i] = j
    if pend is not None and mine:
        pend[j] = pend.get(j, 0) + mine


def quiet_wise(R: Roster, hp: list[int], own: list[int], foes: list[int], fq: bool,
               victim: list[int], cur: list[int], rem: list[int], r: int,
               choice: Any) -> None:
    """SA-6's wise choices (round 2 on) of `own`'s idle minions, in order, as
    `choose_wisely` with `pending` makes them. Nobody has attacked yet: every enemy is
    alive with its HP and armor of the round's start, so the candidates are sorted once
    by tiebreakers 3-5 (stable: ties keep the roster order), and each choice takes the
    first one its group can kill this round (2.) with those tied with it, or the top ones.
    """
    idle = [i for i in own if victim[i] < 0 and rem[i] > 0]
    if not idle:
        return
    if len(foes) == 1:
        for i in idle:
            victim[i] = foes[0]
        return
    pend = pending(R, hp, own, victim, rem, r)
    info, steers = R.info, R.steers
    every = ranked(R, hp, cur, foes)
    steered = every
    if fq:  # 1. steered away from the (quasi-)immune (SA-10), when any other is left
        quasi = R.quasi
        kept = [j for j in foes if not quasi[j]]
        if kept and len(kept) < len(foes):
            steered = ranked(R, hp, cur, kept)
    most = max(pend.values(), default=0)
    get = pend.get
    for i in idle:
        _, hand, _, dm, dh = info[i]
        left = rem[i]
        ms = left - hand
        mine = left * dh if ms <= 0 else ms * dm + hand * dh
        order, keys, need, tied, least = steered if ms > 0 and steers[i] else every
        if mine + most >= least:
            for k in range(len(order)):
                j = order[k]
                if mine + get(j, 0) >= need[k]:
                    key = keys[k]
                    tied = [j]
                    for k2 in range(k + 1, len(order)):
                        if keys[k2] != key:
                            break
                        j2 = order[k2]
                        if mine + get(j2, 0) >= need[k2]:
                            tied.append(j2)
                    break
        j = tied[0] if len(tied) == 1 else choice(tied)  # 6. at random
        victim[i] = j
        if mine:
            total = pend[j] = get(j, 0) + mine
            if total > most:
                most = total


def ranked(R: Roster, hp: list[int], cur: list[int], cands: list[int]
           ) -> tuple[list[int], list[int], list[int], list[int], int]:
    """`cands` by tiebreakers 3-5, best first (ties in roster order): (the order, their
    keys, what killing each this round takes, the top ones, the least of those needs)."""
    skey = R.skey
    base = [skey[j] - (hp[j] << 20) for j in cands]
    places = sorted(range(len(cands)), key=base.__getitem__, reverse=True)
    order = [cands[k] for k in places]
    keys = [base[k] for k in places]
    need = [hp[j] + cur[j] for j in order]
    top = [j for j, key in zip(order, keys, strict=True) if key == keys[0]]
    return order, keys, need, top, min(need)
