"""`referee act SAVE [ACT]` and `referee WORD SAVE` read as far as the save: the acts
themselves are rendered (acts.py imported) only once the command runs, so the full tree of
commands (the top-level help) never imports them; and the order an act's options, or a
party's questions, are typed in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.cli.common import formatter, save_argument, whole

if TYPE_CHECKING:
    import argparse


def act_arguments(parser: argparse.ArgumentParser, word: str | None = None) -> None:
    """`SAVE [ACT]`, or (`word`: `referee WORD SAVE`) the save alone; the act's own options
    after it are read once the save says which act it is (acts.py)."""
    import argparse

    save_argument(parser)
    if word is None:
        parser.add_argument("act", metavar="ACT", nargs="?",
                            help="the act to do (without it: the list of acts)")
    else:
        parser.set_defaults(act=word)
    parser.add_argument("--actor", metavar="ID", help="the combatant who acts")
    parser.add_argument("--seed", type=whole, metavar="X",
                        help="the program's dice from random.Random(X) (default: from the "
                             "save's seed and its log, as the app rolls)")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)


def run_act(args: argparse.Namespace) -> int:
    from referee.cli.acts import run_act as act

    return act(args)


def act_word(word: str, rest: list[str]) -> argparse.Namespace:
    """`referee WORD SAVE [options]`, read as `referee act SAVE WORD [options]`."""
    import argparse

    parser = argparse.ArgumentParser(
        prog=f"referee {word}", formatter_class=formatter(), allow_abbrev=False,
        description=f"Do {word}, an act of the save's ruleset, as `referee act SAVE {word}` "
                    f"does (`referee act SAVE` lists them); `referee {word} SAVE --help` "
                    "shows its options.")
    act_arguments(parser, word)
    args = parser.parse_args(act_order(rest, 1))
    args.command = "act"
    return args


ALONE = ("-h", "--help", "--json", "--force")  # the options an act's parser has that take none


def act_order(argv: list[str], words: int) -> list[str]:
    """`referee act`'s arguments, typed in any order, as its parser reads them: its
    `words` words (SAVE, ACT) first, then every option as typed, read once the save says
    which act it is (`--actor` and `--seed` too: an act may take `--seed` itself, a report
    refuses it). Every option but those of ALONE takes a value, the next word (or
    `--name=value`); a word that looks like a negative number or a dice expression (-2,
    -2+d8) is a word. With no ACT, the options are the command's own, before SAVE."""
    bare: list[str] = []
    options: list[str] = []
    at = 0
    while at < len(argv):
        arg = argv[at]
        if arg == "--":
            options.extend(argv[at:])
            break
        if not arg.startswith("-") or len(arg) == 1 or negative(arg):
            (bare if len(bare) < words else options).append(arg)
            at += 1
            continue
        takes = 0 if "=" in arg or arg in ALONE else 1
        options.extend(argv[at:at + 1 + takes])
        at += 1 + takes
    return bare + options if len(bare) == words else options + bare


def negative(arg: str) -> bool:
    """-2, -.5, -d8, -2+d8: a value, not an option."""
    return len(arg) > 1 and (arg[1].isdigit() or arg[1] == "." or arg[1] in "dD")
