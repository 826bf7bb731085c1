"""The command line: the app (`referee`, `referee play`) and the headless commands (plan,
check, replay, export, roll, act, demo), as argparse subcommands. Any other word names an
act of the save's ruleset: `referee WORD SAVE [options]` is `referee act SAVE WORD
[options]` (cli_acts.py renders it from the act's spec), so a ruleset's own commands
(sanctum's fight and odds) are its acts, found through the save like every act.

Start-up is part of the interface (`referee plan SAVE --json` is run from scripts), so this
module imports neither the engine nor the files layer nor Textual at the top: each command
imports what it needs, a core command builds its own parser only (not the whole tree), and
the acts are rendered (cli_acts.py imported) only for `act` or a word that is not a core
command.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import argparse

    from referee.engine.plan import Plan
    from referee.engine.specs import Field
    from referee.session.files import Save

Handler = Callable[["argparse.Namespace"], int]

DESCRIPTION = "A referee assistant for tabletop combat."
EPILOG = """\
With no command, referee opens the app on a fresh copy of the bundled demo
(written to ./saves/demo-<time>.toml; the bundled file is never changed).
`referee COMMAND --help` shows a command's arguments and options.
Any other word names an act of the save's ruleset: `referee ACT SAVE [options]` does it,
as `referee act SAVE ACT [options]` does; `referee act SAVE` lists them."""


class UsageError(Exception):
    pass


# -- arguments -------------------------------------------------------------------------


def whole(text: str) -> int:
    import argparse

    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number, not {text!r}") from None


def save_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a save file (.toml)")


def plan_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    parser.add_argument("--round", type=whole, metavar="N",
                        help="the plan of round N instead of the latest")


def check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a save, a ruleset or a catalogue file (.toml)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("name", metavar="NAME", help="a monster of the save's ruleset's "
                        "bestiary (referee catalogue RULESET --kind monsters)")
    parser.add_argument("--count", type=whole, default=1, metavar="N", help="how many (1)")
    parser.add_argument("--side", required=True, metavar="SIDE",
                        help="their side's id (made when new)")
    parser.add_argument("--seed", type=whole, metavar="N",
                        help="seed the hit-point dice: a repeatable roll")
    parser.add_argument("--hp", metavar="N,N,...",
                        help="hit points from real dice, one a monster, instead of rolling")
    parser.add_argument("--file", dest="own", action="append", default=[], metavar="F",
                        help="a bestiary of your own, merged over the bundled one by name")


def catalogue_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET", nargs="?",
                        help="a ruleset id (without it: the bundled catalogues)")
    parser.add_argument("name", metavar="NAME", nargs="?", help="one entry, shown whole")
    parser.add_argument("--kind", choices=("weapons", "spells", "devices", "monsters"),
                        help="only this kind")
    parser.add_argument("--file", dest="own", action="append", default=[], metavar="F",
                        help="a catalogue of your own, merged over the bundled one by name "
                             "(again for more)")


def replay_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--to", type=whole, metavar="N",
                        help="the tracker after event N, instead of the whole log")
    parser.add_argument("--json", action="store_true", help="print it as JSON")


def output_arguments(parser: argparse.ArgumentParser, what: str, metavar: str = "FILE",
                     prefix: str = "") -> None:
    """`-o FILE` and `--force`: every command that writes a file takes both, and writes
    through `write_output` (never over its input; over another file only with --force).
    `prefix`: before their names in the parsed arguments (an act's fields have the rest)."""
    parser.add_argument("-o", "--output", dest=f"{prefix}output", metavar=metavar, help=what)
    parser.add_argument("--force", dest=f"{prefix}force", action="store_true",
                        help="replace the output file if it exists (never the input)")


def write_output(output: str, text: str, inputs: Sequence[Path], force: bool) -> Path:
    """`text` written to `output` as `output_arguments` promise; a refusal is a UsageError."""
    from referee.session.output import write_output as write
    from referee.session.store import SaveError

    path = Path(output)
    try:
        write(path, text, inputs, force)
    except SaveError as error:
        raise UsageError(str(error)) from None
    return path


def claim_output(output: str, inputs: Sequence[Path], force: bool) -> None:
    """Refuse an output path before any work is done (the write checks again)."""
    from referee.session.output import claim
    from referee.session.store import SaveError

    try:
        claim(Path(output), inputs, force)
    except SaveError as error:
        raise UsageError(str(error)) from None


def export_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--markdown", action="store_true",
                        help="a Markdown recap (the one format so far; required)")
    output_arguments(parser, "write it to FILE instead of printing it")


def roll_arguments(parser: argparse.ArgumentParser) -> None:
    import re

    parser.add_argument("expr", metavar="EXPR", help="a dice expression: 3d6+2, d%%, 4d6kh3, "
                        "2d20kl1, -2+d8")
    parser.add_argument("--seed", type=whole, metavar="N", help="seed the dice: a repeatable roll")
    # An expression may start with a minus (-2+d8): argparse takes it as an expression, as
    # it would a negative number, when it looks like one. (3.13's own matcher does so.)
    if hasattr(parser, "_negative_number_matcher"):
        parser._negative_number_matcher = re.compile(r"^-(\d|\.\d|d[\d%])", re.IGNORECASE)


def play_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--ruleset", metavar="ID",
                        help="for a new save: its ruleset (default: the bundled demo's); "
                             "a bundled id or a path to a ruleset .toml")
    parser.add_argument("--demo", action="store_true",
                        help="for a new save: a copy of the ruleset's bundled demo, "
                             "instead of an empty encounter to set up")
    parser.add_argument("--party", metavar="FILE",
                        help="a party written by `referee party`: its sides and "
                             "combatants join the save's set-up first")
    parser.add_argument("--catalogue", dest="own", action="append", default=[],
                        metavar="F", help="a catalogue of your own for set-up, merged over "
                        "the bundled one by name (again for more)")
    parser.add_argument("--seed", type=whole, metavar="N",
                        help="for a new save: the seed of the program's dice, on purpose "
                             "(a test, a tournament); default: a fresh one of its own")
    viewers_argument(parser)


def viewers_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-viewers", type=viewers, metavar="N",
                        help="the players' view takes at most N browsers at once (1-64; "
                             "default 8); more are turned away with a page that says so")


def viewers(text: str) -> int:
    import argparse

    number = whole(text)
    if not 0 < number <= 64:
        raise argparse.ArgumentTypeError(f"takes a number from 1 to 64, not {number}")
    return number


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

    from referee.cli_acts import option
    from referee.engine.options import carry_questions

    fields = carry_questions(save.ruleset, save.fight)
    parser = argparse.ArgumentParser(prog="referee party", description=CORE["party"].help,
                                     formatter_class=formatter(), allow_abbrev=False)
    save_argument(parser)
    output_arguments(parser, "the party's roster file (.toml)")
    for field in fields:
        option(parser, field)
    return parser, fields


def watch_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)


def serve_arguments(parser: argparse.ArgumentParser) -> None:
    import argparse

    save_argument(parser)
    parser.add_argument("--host", metavar="H", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine "
                             "only; 0.0.0.0 puts the view on the network, on purpose)")
    parser.add_argument("--port", type=whole, metavar="P", default=8000,
                        help="the port to listen on (default 8000)")
    parser.add_argument("--token", metavar="T",
                        help="only the address with ?token=T opens the view (default: a "
                             "random token when the host is not this machine only)")
    viewers_argument(parser)
    parser.add_argument("--idle-timeout", type=whole, metavar="S", default=None,
                        help="close a browser's view when it has sent nothing for S seconds "
                             "(default 14400: an evening)")
    # the app's own serve: it stops when the app that started it is gone (a closed terminal)
    parser.add_argument("--exit-with", type=whole, metavar="PID", help=argparse.SUPPRESS)


def demo_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", metavar="ID",
                        help="that ruleset's bundled demo (default: the bundled demo)")


# -- the core commands -------------------------------------------------------------------


def run_plan(args: argparse.Namespace) -> int:
    return cmd_plan(Path(args.save), args.json, args.round)


def run_check(args: argparse.Namespace) -> int:
    return cmd_check(Path(args.file))


def run_add(args: argparse.Namespace) -> int:
    return cmd_add(Path(args.save), args.name, args.count, args.side, args.seed,
                   typed_hp(args.hp), [Path(f) for f in args.own])


def typed_hp(text: str | None) -> list[int]:
    if text is None:
        return []
    try:
        return [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise UsageError(f"--hp takes whole numbers, one a monster: {text!r}") from None


def run_catalogue(args: argparse.Namespace) -> int:
    return cmd_catalogue(args.ruleset, args.kind, args.name, [Path(f) for f in args.own])


def run_replay(args: argparse.Namespace) -> int:
    return cmd_replay(Path(args.save), args.to, args.json)


def run_export(args: argparse.Namespace) -> int:
    if not args.markdown:
        raise UsageError("export needs --markdown (the one format so far)")
    return cmd_export(Path(args.save), args.output, args.force)


def run_roll(args: argparse.Namespace) -> int:
    return cmd_roll(args.expr, args.seed)


def run_play(args: argparse.Namespace) -> int:
    if args.max_viewers is not None:  # the players' view that V serves
        from referee.app import RefereeApp

        RefereeApp.max_viewers = args.max_viewers
    party = Path(args.party) if args.party else None
    return cmd_play(Path(args.save), args.ruleset, args.demo, party,
                    [Path(f) for f in args.own], args.seed)


def run_party(args: argparse.Namespace) -> int:
    return cmd_party(Path(args.save), args.output, args.force, args.rest)


def run_demo(args: argparse.Namespace) -> int:
    from referee.session import demos

    return cmd_demo(demos.demo_for(args.ruleset) if args.ruleset else demo_path())


def run_watch(args: argparse.Namespace) -> int:
    return cmd_watch(Path(args.save))


def run_serve(args: argparse.Namespace) -> int:
    return cmd_serve(Path(args.save), args.host, args.port, args.token, args.max_viewers,
                     args.idle_timeout, args.exit_with)


def act_arguments(parser: argparse.ArgumentParser, word: str | None = None) -> None:
    """`SAVE [ACT]`, or (`word`: `referee WORD SAVE`) the save alone; the act's own options
    after it are read once the save says which act it is (cli_acts.py)."""
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
    from referee.cli_acts import run_act as act

    return act(args)


class Command(NamedTuple):
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Handler


CORE: dict[str, Command] = {
    "plan": Command("the order of resolution for the latest round (--round N for another)",
                    plan_arguments, run_plan),
    "check": Command("validate a save, a ruleset or a catalogue file", check_arguments,
                     run_check),
    "party": Command("write the players' sides as the fight left them (hit points, "
                     "conditions, spells lost) to a roster: -o party.toml",
                     party_arguments, run_party),
    "add": Command("add monsters from the bestiary to a save's set-up: goblin --count 6 "
                   "--side goblins", add_arguments, run_add),
    "catalogue": Command("list a ruleset's catalogues (weapons, spells, monsters), or show "
                         "one entry", catalogue_arguments, run_catalogue),
    "replay": Command("print the whole log, or (--to N) the tracker after event N",
                      replay_arguments, run_replay),
    "export": Command("a Markdown recap for campaign notes (-o FILE to write it)",
                      export_arguments, run_export),
    "roll": Command("roll dice: 3d6+2, d%, 4d6kh3, 2d20kl1", roll_arguments, run_roll),
    "act": Command("do one of the ruleset's acts (morale, attack, tie rolls ...): its form's "
                   "fields as options; without ACT, the list", act_arguments, run_act),
    "play": Command("open the app on a save (a new one is created and set up first, or "
                    "--demo: a copy of a bundled demo)", play_arguments, run_play),
    "demo": Command("print a bundled demo's roster and plan", demo_arguments, run_demo),
    "watch": Command("the players' view of a save, read-only, following it live",
                     watch_arguments, run_watch),
    "serve": Command("serve the players' view of a save to web browsers (--host, --port)",
                     serve_arguments, run_serve),
}


# -- the entry point ---------------------------------------------------------------------


def parse(argv: list[str]) -> tuple[argparse.Namespace, Handler | None]:
    """The arguments and the chosen command's handler (None: the app).

    A core command (the common case, and the one scripts time) gets its own parser only,
    `referee plan` exactly as the subcommand of the full tree would be. Any other word
    followed by more is an act of the save's ruleset (`referee fight SAVE` is `referee act
    SAVE fight`), its options read once the save says which act it is. The full tree of
    core commands is built for anything else: the top-level help, a mistake, or no command.
    """
    word = argv[0] if argv else None
    if word in CORE:
        command = CORE[word]
        parser = command_parser(None, word, command)
        if word == "act":  # its ACT's options follow it: in order, after SAVE and ACT
            args = parser.parse_args(act_order(argv[1:], 2))
        elif word == "party":  # its ruleset's questions follow SAVE, read once it is open
            args = parser.parse_args(party_order(argv[1:]))
        else:  # options and positionals in any order
            args = parser.parse_intermixed_args(argv[1:])
        args.command = word
        return args, command.run
    if word is not None and not word.startswith("-") and len(argv) > 1:
        return act_word(word, argv[1:]), run_act
    parser, _ = full_parser()
    if word is not None and not word.startswith("-"):  # a word alone: no save to ask
        choices = ", ".join(repr(name) for name in CORE)
        parser.error(f"argument COMMAND: invalid choice: {word!r} (choose from {choices}; "
                     f"an act of a save's ruleset takes the save: referee {word} SAVE)")
    args = parser.parse_args(argv)
    if getattr(args, "seed", None) is None:  # `referee --seed N play NEW` as `play --seed N`
        args.seed = args.top_seed
    return args, None if args.command is None else CORE[args.command].run


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


def negative(arg: str) -> bool:
    """-2, -.5, -d8, -2+d8: a value, not an option."""
    return len(arg) > 1 and (arg[1].isdigit() or arg[1] == "." or arg[1] in "dD")


def full_parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    import argparse

    parser = argparse.ArgumentParser(prog="referee",
                                     usage="%(prog)s [-h] [--seed N] [COMMAND ...]",
                                     description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=formatter(), allow_abbrev=False)
    parser.add_argument("--seed", dest="top_seed", type=whole, metavar="N",
                        help="the seed of a new save's dice, on purpose (default: a fresh "
                             "one of its own); with no command, the fresh demo's")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                                       prog="referee")
    for name, command in CORE.items():
        command_parser(subparsers, name, command)
    return parser, subparsers


def command_parser(subparsers: argparse._SubParsersAction | None, name: str,
                   command: Command) -> argparse.ArgumentParser:
    """A core command's parser: a subcommand of the full tree, or (no `subparsers`) alone."""
    import argparse

    options: dict[str, Any] = {"description": command.help, "formatter_class": formatter(),
                               "allow_abbrev": False}
    if subparsers is None:
        parser = argparse.ArgumentParser(prog=f"referee {name}", **options)
    else:
        parser = subparsers.add_parser(name, help=command.help.replace("%", "%%"), **options)
    command.arguments(parser)
    return parser


@cache
def formatter() -> type[argparse.HelpFormatter]:
    """argparse's help layout, with the terminal width read without importing `shutil`:
    argparse makes a formatter for every argument declared, and shutil (with the compression
    modules it imports) would add a few milliseconds to every run."""
    import argparse

    class Formatter(argparse.RawDescriptionHelpFormatter):
        def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
            if len(args) < 3 and kwargs.get("width") is None:
                kwargs["width"] = terminal_width() - 2  # as argparse does
            super().__init__(prog, *args, **kwargs)

    return Formatter


def terminal_width() -> int:
    """shutil.get_terminal_size().columns: $COLUMNS, else the terminal's, else 80."""
    import os

    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            # no __stdout__ (None) raises the AttributeError caught below
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from referee.engine.text import has_controls, shown

    for arg in argv:  # nothing typed on the command line reaches a terminal as a control
        if has_controls(arg):
            print(f"referee: {shown(arg)!r}: a control character (an escape, a C1 or bidi "
                  "control) is not allowed in an argument", file=sys.stderr)
            return 2
    try:
        args, handler = parse(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
    except UsageError as error:
        print(f"referee: {error}", file=sys.stderr)
        return 1
    try:
        return cmd_app(args.seed) if handler is None else handler(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        message = failure(error, args)
        if message is None:
            raise
        print(message, file=sys.stderr)
        return 1


def failure(error: Exception, args: argparse.Namespace) -> str | None:
    """The one-line message for an error a person can act on; None for a bug."""
    from referee.engine import RefereeError
    from referee.engine.dice import DiceError
    from referee.session.demos import NoDemo
    from referee.session.files import LoadError
    from referee.session.store import SaveError

    if isinstance(error, (LoadError, UsageError, DiceError, NoDemo, SaveError)):
        return f"referee: {error}"
    if isinstance(error, RefereeError):
        where = getattr(args, "save", None) or getattr(args, "file", None) or ""
        return f"referee: {where}: {error}" if where else f"referee: {error}"
    if isinstance(error, OSError):  # the saves folder cannot be made, a file cannot be read...
        name = f" {error.filename}" if error.filename else ""
        return f"referee:{name}: {error.strerror or error}"
    return None


def demo_path() -> Path:
    from referee.session.demos import default_demo

    return default_demo()


def saves_folder() -> Path:
    return Path.cwd() / "saves"


# -- the app -------------------------------------------------------------------------------


def cmd_app(seed: int | None = None) -> int:
    from referee.app import fresh_demo

    return open_app(fresh_demo(saves_folder(), demo_path(), seed), setup=False)


def cmd_play(path: Path, ruleset: str | None = None, demo: bool = False,
             party: Path | None = None, catalogues: Sequence[Path] = (),
             seed: int | None = None) -> int:
    """An existing save is opened (refused while another referee has it open); a missing
    one is created: an empty encounter to set up, or (`demo`) a copy of a bundled demo,
    with `seed` or a fresh seed of its own. A `party` (a roster file) joins its set-up
    first; `catalogues` are the referee's own, read now (a broken one is refused before
    any screen)."""
    if catalogues:
        from referee.session.catalogues import load_catalogue

        for own in catalogues:
            load_catalogue(own)
    if seed is not None and path.exists():
        raise UsageError(f"{path}: exists; --seed {seed} applies only to a new save (its "
                         "seed is in its file)")
    if party is not None:
        return play_with_party(path, ruleset, demo, party, catalogues, seed)
    if path.exists():
        refuse_if_open(path)
        if demo:
            raise UsageError(f"{path}: exists; --demo copies a demo to a new file only "
                             "(leave --demo out to open this one)")
        save = opened(path)  # a broken save is refused here, with its message, before any screen
        if ruleset is not None and ruleset not in (save.encounter.ruleset, save.ruleset.id):
            raise UsageError(f"{path}: is a {save.encounter.ruleset} save; --ruleset "
                             f"{ruleset} applies only to a new save (leave it out)")
        return open_app(path, False, catalogues)
    if demo:
        copy_demo(path, ruleset, seed)
        return open_app(path, False, catalogues)
    from referee.session.demos import default_ruleset

    create_save(path, ruleset or default_ruleset(), seed)
    return open_app(path, True, catalogues)


def play_with_party(path: Path, ruleset: str | None, demo: bool, party: Path,
                    catalogues: Sequence[Path] = (), seed: int | None = None) -> int:
    from referee.session.demos import default_ruleset
    from referee.session.party import roster_ruleset
    from referee.session.roster import RosterEditor

    made = False
    if not path.exists():
        ruleset = ruleset or roster_ruleset(party)  # a new save takes the party's ruleset
        if demo:
            copy_demo(path, ruleset, seed)
        else:
            create_save(path, ruleset or default_ruleset(), seed)
        made = True
    session = open_for_writing(path)
    try:
        count = RosterEditor(session).import_roster(party)
    except BaseException:
        session.close()
        if made:
            path.unlink()  # nothing of a new save is left when its party is refused
        raise
    session.close()
    print(f"{party}: {count} combatants joined {path}", file=sys.stderr)
    return open_app(path, made and not demo, catalogues)


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


def refuse_if_open(path: Path) -> None:
    from referee.session.lock import SaveLocked, ensure_free

    try:
        ensure_free(path)
    except SaveLocked as error:
        raise UsageError(str(error)) from None


def copy_demo(path: Path, ruleset: str | None, seed: int | None = None) -> None:
    """A copy of a bundled demo, with `seed` or a fresh seed of its own."""
    from referee.session.demos import demo_for, demo_text

    source = demo_for(ruleset) if ruleset else demo_path()
    write_output(str(path), demo_text(source, seed), [source], force=False)


def create_save(path: Path, ruleset: str, seed: int | None = None) -> None:
    from referee.app.files import new_save
    from referee.session.files import load_ruleset
    from referee.session.store import SaveError

    load_ruleset(ruleset, path.parent)  # an unknown ruleset is refused before anything
    try:
        new_save(path, path.stem.replace("-", " ").replace("_", " "), ruleset, seed=seed)
    except SaveError as error:
        raise UsageError(str(error)) from None


def open_app(path: Path, setup: bool, catalogues: Sequence[Path] = ()) -> int:
    from referee.app import RefereeApp
    from referee.session.store import SaveError

    try:
        app = RefereeApp(path, path.parent, start_in_setup=setup, catalogues=catalogues)
    except SaveError as error:  # opened by another referee since it was checked
        raise UsageError(str(error)) from None
    app.run()
    return 0


def players_save(path: Path) -> None:
    """A save the players' view can follow: it must exist and read now (later faults
    are shown in the view, which waits for the file to come back)."""
    from referee.session.files import load_save

    load_save(path)


def cmd_watch(path: Path) -> int:
    from referee.app.watch import WatchApp

    players_save(path)
    WatchApp(path).run()
    return 0


def cmd_serve(path: Path, host: str, port: int, token: str | None = None,
              max_viewers: int | None = None, idle: int | None = None,
              parent: int | None = None) -> int:
    import secrets

    from referee.app.watch import ServeError, loopback, serve

    if not 0 < port < 65536:
        raise UsageError(f"port {port}: takes a number from 1 to 65535")
    if idle is not None and idle <= 0:
        raise UsageError(f"--idle-timeout {idle}: takes a number of seconds above 0")
    if token is not None and not (0 < len(token) <= 64 and token.isascii()
                                  and token.replace("-", "").replace("_", "").isalnum()):
        raise UsageError("--token: 1 to 64 letters, digits, - or _")
    if token is None and not loopback(host):
        token = secrets.token_urlsafe(9)
    players_save(path)
    try:
        serve(path, host, port, token, max_viewers, idle, parent)
    except ServeError as error:
        raise UsageError(str(error)) from None
    return 0


# -- headless commands ---------------------------------------------------------------------


def cmd_demo(path: Path) -> int:
    from referee.session.files import load_save
    from referee.session.render import render_plan

    save = load_save(path)
    print(f"{save.encounter.title} — {save.ruleset.name} (the bundled demo, {path.name})")
    print(render_roster(save))
    print(render_plan(plan_of(save, None)))
    return 0


def render_roster(save: Save) -> str:
    """Each combatant with the ruleset's own columns and its gear."""

    fight = save.fight
    columns = list(fight.ruleset.tracker.columns())
    lines = []
    for cid, c in fight.roster.items():
        side = fight.encounter.side(c.side)
        cells = fight.ruleset.tracker.cells(fight, cid)
        own = "  ".join(f"{col.label} {cells[col.key].text}" for col in columns
                        if col.key in cells and cells[col.key].text)
        weapons = ", ".join(w.name for w in c.weapons)
        spells = ", ".join(s.name for s in c.spells)
        gear = weapons + (f"; spells: {spells}" if spells else "")
        lines.append(f"  {side.name if side else c.side:<10} {c.name:<20} {own}  {gear}"
                     .rstrip())
    return "\n".join(lines)


def opened(path: Path) -> Save:
    """A save for reading; a torn last event is dropped with the warning on stderr."""
    from referee.session.files import load_save

    save = load_save(path)
    if save.warning:
        print(f"referee: warning: {save.warning}", file=sys.stderr)
    return save


def open_for_writing(path: Path) -> Any:
    """The save's session, locked (another referee's: a UsageError)."""
    from referee.session.lock import SaveLocked
    from referee.session.store import Session

    try:
        return Session.open(path, lock=True)
    except SaveLocked as error:
        raise UsageError(str(error)) from None


def cmd_plan(path: Path, as_json: bool, round_: int | None) -> int:
    import gc

    gc.disable()  # a short run that makes no cycles worth collecting: planning a big round
    save = opened(path)
    plan = plan_of(save, round_)
    if as_json:
        import json

        # indented for a person at a terminal; one line (the C encoder, quick) for a script
        print(json.dumps(plan.to_json(), indent=2 if sys.stdout.isatty() else None))
    else:
        from referee.session.render import render_plan

        print(f"{save.encounter.title} — {save.ruleset.name}")
        print(render_plan(plan, save.fight.resolved.get(plan.round)))
    return 0


def plan_of(save: Save, round_: int | None) -> Plan:
    """The plan, with a fault found only while ordering reported at its file line."""
    from referee.engine import RefereeError
    from referee.session.files import fault

    try:
        return save.fight.plan(round_)
    except RefereeError as error:
        raise fault(str(save.path), save.text, error) from None


def cmd_check(path: Path) -> int:
    from referee.engine.words import counted
    from referee.session.files import (
        LoadError,
        load_ruleset,
        load_save,
        parse_toml,
        read_any,
        torn_tail,
    )

    text = read_any(path)  # capped by the kind the file says it is
    try:
        data = parse_toml(text, str(path))
    except LoadError as error:
        if torn_tail(text, error) is None:
            raise
        data = {}  # a save whose last event was cut short: load_save explains it
    if data.get("format") == "referee-roster":
        return check_roster_file(path, text, data)
    if data.get("format") == "referee-catalogue":
        from referee.session.catalogues import load_catalogue

        found = load_catalogue(path)
        print(f"{path}: ok ({found.ruleset} {found.kind}, "
              f"{counted(len(found.entries), 'entry', 'entries')})")
        return 0
    if data.get("format") == "referee-ruleset" or ("letters" in data or "actions" in data):
        ruleset = load_ruleset(str(path))
        from referee.engine.options import Declaring

        declaring = ruleset.role(Declaring)
        actions = counted(len(declaring.actions()), "action") if declaring else "acts only"
        print(f"{path}: ok (ruleset {ruleset.id}, {actions})")
        for line in ruleset.switches():
            print(f"  {line}")
        return 0
    save = load_save(path, recover=False)
    fight = save.fight
    plan_of(save, None)
    print(f"{path}: ok ({save.ruleset.id}, {counted(len(fight.roster), 'combatant')}, "
          f"{events_said(fight)}, round {fight.round})")
    return 0


def check_roster_file(path: Path, text: str, data: dict[str, Any]) -> int:
    """A roster (a party carried over) read as strictly as set-up's import reads it, by
    the ruleset it names."""
    from referee.engine.words import counted
    from referee.session.files import load_ruleset
    from referee.session.roster import read_roster

    rid = data.get("ruleset")
    if not isinstance(rid, str) or not rid:
        raise UsageError(f"{path}: a roster that names no ruleset (ruleset = \"ID\") is "
                         "checked as set-up imports it")
    ruleset = load_ruleset(rid, path.parent)
    sides, combatants = read_roster(data, str(path), text, ruleset)
    print(f"{path}: ok ({ruleset.file_id} roster, {counted(len(sides), 'side')}, "
          f"{counted(len(combatants), 'combatant')})")
    return 0


def cmd_catalogue(ruleset: str | None, kind: str | None, name: str | None,
                  own: list[Path]) -> int:
    """The entries of a ruleset's catalogues, a line each; with a name, that entry whole."""
    from referee.session import catalogues

    bundled = catalogues.bundled()
    if ruleset is None:
        for (rid, k), path in sorted(bundled.items()):
            if kind in (None, k):
                print(f"{rid:16} {k:9} {len(catalogues.load_catalogue(path).entries):4} "
                      f"entries  {path.name}")
        return 0
    filed = {k: catalogues.catalogue_id(ruleset, k) for k in catalogues.KINDS}
    kinds = [k for k in catalogues.KINDS if kind in (None, k)
             and ((filed[k], k) in bundled or own)]
    found = {k: catalogues.merged(filed[k], k, [p for p in own if catalogue_kind(p) == k])
             for k in kinds}
    if name is not None:
        return show_entry(ruleset, found, name)
    if not any(found.values()):
        known = ", ".join(sorted({rid for rid, _ in bundled})) or "none"
        raise UsageError(f"no catalogue for {ruleset!r}" + (f" of {kind}" if kind else "")
                         + f" (bundled: {known}; or --file F)")
    for k, entries in found.items():
        for entry_name, entry in entries.items():
            print(f"{k:9} {entry_name:28} {entry_summary(entry)}".rstrip())
    return 0


def cmd_add(path: Path, name: str, count: int, side: str, seed: int | None,
            real: list[int], own: list[Path]) -> int:
    import random

    from referee.session.catalogues import bestiary_said, entries_for
    from referee.session.roster import RosterEditor

    session = open_for_writing(path)
    try:
        ruleset = session.fight.ruleset
        bestiary = entries_for(ruleset, "monsters", own)
        entry = bestiary.get(name.strip().lower())
        if entry is None:
            close = sorted(n for n in bestiary if name.strip().lower() in n)[:5]
            hint = f" (close: {', '.join(close)})" if close else ""
            raise UsageError(f"no monster {name!r}{hint}: {bestiary_said(ruleset, own)}")
        made = RosterEditor(session).add_monsters(entry, count, side, random.Random(seed),
                                                  real)
    finally:
        session.close()
    for c in made:
        print(f"added {c.name} ({c.id}) to {side}, hp {c.hp}")
    return 0


def catalogue_kind(path: Path) -> str | None:
    from referee.session.catalogues import load_catalogue

    return load_catalogue(path).kind


def show_entry(ruleset: str, found: dict[str, Any], name: str) -> int:
    """The entry named `name`, whole; else every entry whose name holds it anywhere
    (`mace` finds the footman's and the horseman's), one whole or a line each."""
    wanted = " ".join(name.lower().split())
    exact = [(kind, entries[wanted]) for kind, entries in found.items() if wanted in entries]
    holding = exact or [(kind, entry) for kind, entries in found.items()
                        for entry_name, entry in entries.items() if wanted in entry_name]
    if len(holding) == 1:
        kind, entry = holding[0]
        print(f"{ruleset} {kind[:-1] if kind.endswith('s') else kind}: {entry['name']}")
        for key, value in entry.items():
            if key != "name":
                print(f"  {key} = {toml_value(value)}")
        return 0
    for kind, entry in holding:
        print(f"{kind:9} {entry['name']:28} {entry_summary(entry)}".rstrip())
    if holding:
        return 0
    close = sorted({n for entries in found.values() for n in entries
                    if any(word in n for word in wanted.split() if len(word) > 2)})
    hint = f" (close: {', '.join(close[:5])})" if close else ""
    raise UsageError(f"no entry {name!r} in {ruleset}'s catalogues{hint}")


def entry_summary(entry: Any) -> str:
    """A line of an entry's numbers: its keys but the name, as written."""
    parts = [f"{k}={toml_value(v)}" for k, v in entry.items()
             if k not in ("name", "notes", "weapons")]
    return " ".join(parts)


def toml_value(value: Any) -> str:
    """A value as the file writes it (true, "1d8", [...])."""
    import json

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def events_said(fight: Any) -> str:
    """How many events are in effect, and what the rest of the log is."""
    from referee.engine.words import counted

    log, kept = len(fight.log), len(fight.events)
    if log == kept:
        return counted(kept, "event")
    undos = sum(1 for e in fight.log if e.TYPE in ("undo", "redo"))
    return (f"{kept} events in effect of {log} in the log ({undos} undo/redo, "
            f"{log - kept - undos} taken back)")


def cmd_replay(path: Path, upto: int | None, as_json: bool) -> int:
    import json

    from referee.session import render
    from referee.session.replay import chronicle

    save = opened(path)
    total = len(save.fight.log)
    if upto is not None and not 0 <= upto <= total:
        raise UsageError(f"{path}: --to {upto}: the log has {total} events (0 to {total})")
    story = chronicle(save, upto)
    if upto is None:
        output = (json.dumps(render.replay_json(story, save.fight.log), indent=2) + "\n"
                  if as_json else render.replay_text(story))
    else:
        output = (json.dumps(render.state_json(story, upto), indent=2) + "\n"
                  if as_json else render.state_text(story, upto))
    sys.stdout.write(output)
    return 0


def cmd_export(path: Path, output: str | None, force: bool = False) -> int:
    from referee.session.render import markdown
    from referee.session.replay import chronicle

    if output is not None:  # refused before the save is read, let alone the file written
        claim_output(output, [path], force)
    text = markdown(chronicle(opened(path)))
    if output is None:
        sys.stdout.write(text)
        return 0
    write_output(output, text, [path], force)
    print(f"wrote {output}")
    return 0


def cmd_roll(expr: str, seed: int | None) -> int:
    import random

    from referee.engine.dice import roll

    rng = random.Random(seed)
    print(roll(expr, rng).detail())
    return 0


if __name__ == "__main__":
    sys.exit(main())
