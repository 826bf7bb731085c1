"""`referee party SAVE -o FILE`: the players' sides as the fight left them, written to a
roster, with the questions the save's ruleset asks as options."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from referee.cli.act_words import act_order
from referee.cli.common import (
    CORE,
    UsageError,
    claim_output,
    formatter,
    opened,
    output_arguments,
    save_argument,
    write_output,
)

if TYPE_CHECKING:
    import argparse

    from referee.engine.specs import Field
    from referee.session.files import Save


def party_arguments(parser: argparse.ArgumentParser) -> None:
    """SAVE, then `-o FILE`, `--force` and the questions the save's ruleset asks as the
    party is written (`--carry-stress`, say), read once the save says which ruleset
    it is (`party_parser`): `referee party SAVE --help` lists them."""
    import argparse

    save_argument(parser)
    output_arguments(parser, "the party's roster file (.toml)")
    parser.epilog = ("What the save's ruleset leaves open is asked as options too, each "
                     "with its default: `referee party SAVE --help` lists them.")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)


def party_parser(save: Save) -> tuple[argparse.ArgumentParser, tuple[Field, ...]]:
    """`referee party SAVE`'s own options: `-o FILE`, `--force`, and the ruleset's
    questions (`Carrying.questions`) as options, rendered as an act's fields are, with
    their defaults (the answer when one is not given)."""
    import argparse

    from referee.cli.acts import option
    from referee.engine.options import carry_questions

    fields = carry_questions(save.ruleset, save.fight)
    parser = argparse.ArgumentParser(prog="referee party", description=CORE["party"].help,
                                     formatter_class=formatter(), allow_abbrev=False)
    save_argument(parser)
    output_arguments(parser, "the party's roster file (.toml)")
    for field in fields:
        option(parser, field)
    return parser, fields


def run_party(args: argparse.Namespace) -> int:
    return cmd_party(Path(args.save), args.output, args.force, args.rest)


def cmd_party(path: Path, output: str | None, force: bool, rest: Sequence[str] = ()) -> int:
    """The party of the save at `path` written to `output`; `rest`: the options of the
    save's ruleset's questions as typed (`party_parser`), a question not given taking its
    default."""
    from referee.session.party import party_file

    save = opened(path)
    parser, fields = party_parser(save)
    try:
        given = vars(parser.parse_intermixed_args([str(path), *rest]))
    except SystemExit as stop:  # its --help (0), or an option it refused (2): printed
        return stop.code if isinstance(stop.code, int) else 0
    output, force = output or given["output"], force or given["force"]
    if not output:
        raise UsageError("-o FILE: where to write the party")
    answers = {f.name: given[f.name] for f in fields if given.get(f.name) is not None}
    claim_output(output, [path], force)
    text, said = party_file(save.fight, answers)
    written = write_output(output, text, [path], force)
    print(f"wrote {written}: {said}", file=sys.stderr)
    return 0


def party_order(argv: list[str]) -> list[str]:
    """`referee party`'s arguments, typed in any order, as its parser reads them: `-o
    FILE` and `--force` first, then SAVE, then every other option as typed (the
    questions of the save's ruleset, `--help`), read once the save is open (`cmd_party`).
    Without SAVE, as typed: the command's own help, or its error."""
    ordered = act_order(argv, 1)
    if not ordered or ordered[0].startswith("-"):
        return ordered
    own: list[str] = []
    rest: list[str] = []
    at = 1
    while at < len(ordered):
        arg = ordered[at]
        if arg == "--":
            rest.extend(ordered[at:])
            break
        takes = 1 if arg in ("-o", "--output") else 0
        if takes or arg == "--force" or arg.startswith("--output=") or \
                (arg.startswith("-o") and not arg.startswith("--")):
            own.extend(ordered[at:at + 1 + takes])
        else:
            rest.extend(ordered[at:at + 1 + takes])
        at += 1 + takes
    return [*own, ordered[0], *rest]
