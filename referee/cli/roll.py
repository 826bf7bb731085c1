"""`referee roll EXPR`: dice rolled and shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.cli.common import whole

if TYPE_CHECKING:
    import argparse


def roll_arguments(parser: argparse.ArgumentParser) -> None:
    import re

    parser.add_argument("expr", metavar="EXPR", help="a dice expression: 3d6+2, d%%, 4d6kh3, "
                        "2d20kl1, -2+d8")
    parser.add_argument("--seed", type=whole, metavar="N", help="seed the dice: a repeatable roll")
    # An expression may start with a minus (-2+d8): argparse takes it as an expression, as
    # it would a negative number, when it looks like one. (3.13's own matcher does so.)
    if hasattr(parser, "_negative_number_matcher"):
        parser._negative_number_matcher = re.compile(r"^-(\d|\.\d|d[\d%])", re.IGNORECASE)


def run_roll(args: argparse.Namespace) -> int:
    return cmd_roll(args.expr, args.seed)


def cmd_roll(expr: str, seed: int | None) -> int:
    import random

    from referee.engine.dice import roll

    rng = random.Random(seed)
    print(roll(expr, rng).detail())
    return 0
