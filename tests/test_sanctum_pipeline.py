"""sanctum's one combat pipeline and its two sinks (issue 21).

`sim.run_turn` fights through one pipeline (`sim.Combat`) whatever the sink: the logging
sink (`fight`, the app) describes every step, the quiet sink (the odds) nothing. These
tests hold the two to the same fight, draw for draw, and hold the logged steps to the ones
the pipeline gave before it was one (a digest of them, worked out then).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rulesets.sanctum import sim

Spec = tuple[list[list[tuple[Any, ...]]], int, int, list[str], list[int]]
PAIRS = [("g1", "g0"), ("g2", "g1"), ("g0", "g1")]


def build(spec: Spec) -> tuple[sim.Roster, list[int]]:
    """A roster and its hit points from plain data: per group a list of minions, each
    (hp, level, armor, hand, missile, quasi, noatk, nodeal, must); the combat's rounds and
    missile penalty; each group's side and standing."""
    groups, rounds, penalty, sides, standing = spec
    roster = sim.Roster()
    roster.rounds, roster.penalty = rounds, penalty
    for g, side in enumerate(sides):
        roster.add_group(f"g{g}", side, standing[g], g)
    for g, minions in enumerate(groups):
        for n, m in enumerate(minions):
            roster.add(f"m{g}-{n}", f"g{g}", *m[1:])
    return roster, [m[0] for g in groups for m in g]


def fought(spec: Spec, pairs: list[tuple[str, str]], seed: int, logged: bool,
           done: set[tuple[str, str]] | None = None) -> dict[str, Any]:
    """One turn through the pipeline, with the logging sink or the quiet one."""
    roster, hp = build(spec)
    rng = random.Random(seed)
    log: list[dict[str, Any]] | None = [] if logged else None
    results, promoted = sim.run_turn(roster, hp, pairs, rng, log, done)
    return {"results": results, "hp": hp, "promoted": promoted, "draws": rng.getstate(),
            "log": log, "roster": roster}


def outcome(turn: dict[str, Any]) -> list[Any]:
    """What the odds keep of a turn: per combat its winner (0 first, 1 second, 2 neither,
    None skipped), rounds and survivors; and every minion's hit points left."""
    combats = []
    for result in turn["results"]:
        if result is None:
            combats.append(None)
            continue
        _, _, rounds, ended, s1, s2 = result
        winner = 0 if s1 and not s2 else 1 if s2 and not s1 else 2
        combats.append((winner, rounds, ended, len(s1), len(s2)))
    return [combats, turn["hp"]]


def agree(spec: Spec, pairs: list[tuple[str, str]], seed: int,
          done: set[tuple[str, str]] | None = None,
          loud: dict[str, Any] | None = None) -> None:
    """The quiet sink's turn is the logging sink's: the same outcome, results, hit points,
    levels earned and draws (not one more or less), and the log says that outcome
    (`loud`: the logging sink's turn, if fought already)."""
    if loud is None:
        loud = fought(spec, pairs, seed, True, done)
    quiet = fought(spec, pairs, seed, False, done)
    assert outcome(quiet) == outcome(loud)
    for key in ("results", "hp", "promoted", "draws"):
        assert quiet[key] == loud[key], key
    told(loud)


def told(turn: dict[str, Any]) -> None:
    """The log's own account of the turn agrees with the results: each combat's end
    (rounds, how, survivors), each victim's last hit points logged."""
    ids = turn["roster"].ids
    ends = [s for s in turn["log"] if s["type"] == "combat-end"]
    fought_ = [r for r in turn["results"] if r is not None]
    assert len(ends) == len(fought_)
    for end, (first, second, rounds, ended, s1, s2) in zip(ends, fought_, strict=True):
        assert (end["rounds"], end["ended"]) == (rounds, ended)
        assert end["survivors"] == {first: [ids[i] for i in s1], second: [ids[i] for i in s2]}
    last = {s["victim"]: s["hp"] for s in turn["log"] if s["type"] == "attack"}
    hp = dict(zip(ids, turn["hp"], strict=True))
    assert all(hp[victim] == left for victim, left in last.items())


big_minion = st.tuples(
    st.integers(1, 12), st.integers(0, 4), st.integers(0, 3),
    st.tuples(st.integers(0, 3), st.integers(0, 5)),
    st.tuples(st.integers(0, 3), st.integers(0, 4), st.booleans()),
    st.sampled_from([False] * 4 + [True]), st.sampled_from([False] * 8 + [True]),
    st.sampled_from([False] * 8 + [True]),
    st.sampled_from([None] * 12 + ["", "m1-0", "m0-2", "m2-1"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(big_minion, min_size=1, max_size=12), min_size=3, max_size=3),
       st.integers(0, 2**32 - 1), st.integers(1, 10), st.integers(0, 2))
def test_the_quiet_sink_fights_the_logged_fight(groups: list[list[tuple[Any, ...]]],
                                                seed: int, rounds: int, penalty: int) -> None:
    """Random rosters of three groups (two sides), every effect, house-ruled rounds and
    penalties, a pair fought twice: the odds' runs are `fight`'s, minus the words."""
    agree((groups, rounds, penalty, ["s0", "s1", "s0"], [0, 2, 0]), PAIRS, seed)


def generated(k: int) -> tuple[Spec, list[tuple[str, str]], int, set[tuple[str, str]] | None]:
    """Case `k` of a fixed family of rosters: two to four groups of one to twenty minions
    of every kind, random pairs (some fought already), rounds and penalties, and a seed."""
    rng = random.Random(k)
    count = rng.randint(2, 4)

    def minion() -> tuple[Any, ...]:
        big = rng.random() < 0.3
        return (rng.randint(1, 30 if big else 10), rng.randint(0, 4),
                rng.randint(0, 4 if big else 3), (rng.randint(0, 3), rng.randint(0, 6)),
                (rng.randint(0, 3), rng.randint(0, 5), rng.random() < 0.3),
                rng.random() < 0.2, rng.random() < 0.1, rng.random() < 0.1,
                rng.choice([None] * 10 + ["", f"m{rng.randrange(count)}-{rng.randrange(6)}"]))

    groups = [[minion() for _ in range(rng.randint(1, rng.choice([3, 8, 20])))]
              for _ in range(count)]
    sides = ["s0", "s1"] + [f"s{rng.randrange(2)}" for _ in range(count - 2)]
    standing = [rng.randint(0, 2) for _ in range(count)]
    pairs = [(f"g{a}", f"g{b}") for a, b in
             (rng.sample(range(count), 2) for _ in range(rng.randint(1, 4)))]
    done = {sim.pair_key(*pairs[0])} if rng.random() < 0.2 else None
    spec: Spec = (groups, rng.randint(1, 12), rng.randint(0, 2), sides, standing)
    return spec, pairs, rng.getrandbits(64), done


@functools.cache
def logged_generated(k: int) -> dict[str, Any]:
    """Case `k`'s turn through the logging sink, fought once (two tests read it; neither
    changes it)."""
    spec, pairs, seed, done = generated(k)
    return fought(spec, pairs, seed, True, done)


@functools.cache
def logged_twenty(roster_seed: int, seed: int) -> dict[str, Any]:
    """A twenty-against-twenty turn through the logging sink, fought once (read only)."""
    return fought(twenty_against_twenty(roster_seed), [("g0", "g1")], seed, True)


def test_the_quiet_sink_fights_the_logged_fight_on_a_family_of_rosters() -> None:
    for k in range(150):
        spec, pairs, seed, done = generated(k)
        agree(spec, pairs, seed, done, logged_generated(k))


def twenty_against_twenty(seed: int) -> Spec:
    """The odds' benchmark (benchmarks/sanctum_bench.py): two groups of twenty minions,
    levels 1-4, shooters, bashers and both, one of each (quasi-)immune."""
    rng = random.Random(seed)
    groups = []
    for _ in range(2):
        minions = []
        for n in range(20):
            kind = n % 3
            hand = (rng.randint(1, 2), rng.randint(1, 4)) if kind in (0, 2) else (0, 0)
            missile = (rng.randint(1, 2), rng.randint(1, 3), False) if kind else (0, 0, False)
            minions.append((rng.randint(4, 10), rng.randint(1, 4), rng.randint(0, 2), hand,
                            missile, n == 7, False, False, None))
        groups.append(minions)
    return groups, sim.ROUNDS, 1, ["red", "blue"], [0, 2]


def test_the_odds_runs_are_the_logged_fights_twenty_against_twenty() -> None:
    """Several rosters and seeds of the odds' own benchmark: the winner, the hit points
    left and the rounds of the quiet sink are the logging sink's."""
    for roster_seed in (1, 2, 3):
        spec = twenty_against_twenty(roster_seed)
        for seed in (0, 1, 7, 42, 2**31 - 1, 2**63 - 1):
            agree(spec, [("g0", "g1")], seed, loud=logged_twenty(roster_seed, seed))


# worked out with the logged pipeline of before the one (`combat`, logging every step)
GENERATED = "85574b7840250772bde6d6c03a0360fb70c5a99eeefbec6193dc2972b6540284"
TWENTY = "cd02d4790763d144ee5991aaaa3b0f374eec9bb1eddeee0a22c626315dcb4e41"


def digest(turns: list[dict[str, Any]]) -> str:
    text = repr([(t["results"], t["hp"], sorted(t["promoted"]), t["log"]) for t in turns])
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_steps_are_the_ones_the_two_pipelines_gave() -> None:
    """Every step, in order, with every value (the words and the draws too), and every
    result, of the logged pipeline before it was one with the quiet one: a digest of 150
    generated turns and of 20-against-20 fights, worked out with that pipeline."""
    turns = [logged_generated(k) for k in range(150)]
    assert digest(turns) == GENERATED
    turns = [logged_twenty(s, seed) for s in (1, 2) for seed in range(10)]
    assert digest(turns) == TWENTY


def test_the_pipeline_is_small_steps() -> None:
    """Issue 21: each function of the simulator is short and nests at most four blocks
    deep (the pipeline was two functions of over a hundred lines, nine deep)."""
    blocks = (ast.For, ast.While, ast.If, ast.With, ast.Try, ast.Match)

    def depth(node: ast.AST, level: int = 0) -> int:
        deepest = level
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.ClassDef | ast.Lambda):
                continue
            chained = (isinstance(node, ast.If) and isinstance(child, ast.If)
                       and node.orelse == [child])  # an elif is no deeper
            inner = level + 1 if isinstance(child, blocks) and not chained else level
            deepest = max(deepest, depth(child, inner))
        return deepest

    tree = ast.parse(inspect.getsource(sim))
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            assert depth(node) <= 4, node.name
            assert node.end_lineno is not None
            assert node.end_lineno - node.lineno < 40, node.name
