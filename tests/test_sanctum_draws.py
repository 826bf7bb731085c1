"""sanctum's simulator draws a further attack's target as `random.Random.choice` does,
written out (referee/rulesets/sanctum/sim.py, `strike`): bits of the length's width until
the number is below the length. Same seed, same draws holds only while Python's `choice`
draws that way; this test says so if a Python release changes it."""

from __future__ import annotations

import random


def written_out(rng: random.Random, n: int) -> int:
    x = rng.getrandbits(k := n.bit_length())
    while x >= n:
        x = rng.getrandbits(k)
    return x


def test_the_written_out_draw_is_pythons_choice() -> None:
    for seed in range(200):
        ours, pythons = random.Random(seed), random.Random(seed)
        for n in list(range(1, 70)) + [127, 128, 129, 1000]:
            assert written_out(ours, n) == pythons.choice(range(n)), (seed, n)
        assert ours.random() == pythons.random()  # the generators are in step after
