"""The command line: the app (`referee`, `referee play`) and the headless commands (plan,
check, replay, export, roll, act, demo ...), as argparse subcommands. Any other word names
an act of the save's ruleset: `referee WORD SAVE [options]` is `referee act SAVE WORD
[options]` (acts.py renders it from the act's spec), so a ruleset's own commands (sanctum's
fight and odds) are its acts, found through the save like every act.

This module assembles the parser and dispatches; each command lives in the module of its
group (common.CORE names it), which imports only common.py and its siblings, never this one.

Start-up is part of the interface (`referee plan SAVE --json` is run from scripts), so no
module here imports the engine, the files layer or Textual at the top: each command imports
what it needs, a core command builds its own parser only (not the whole tree, and only its
own module is imported), and the acts are rendered (acts.py imported) only for `act` or a
word that is not a core command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from referee.cli.common import CORE, Command, Handler, UsageError, formatter, whole
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

    # what add_subparsers returns: argparse's own (private) class, generic in typeshed
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    from referee.hints import Any


DESCRIPTION = "A referee assistant for tabletop combat."
EPILOG = """\
With no command, referee opens the app on a fresh copy of the bundled demo
(written to ./saves/demo-<time>.toml in a campaign directory, one that holds saves/;
elsewhere to the platform's data directory, ~/.local/share/referee/saves on Linux;
the bundled file is never changed). `referee completion bash` prints the shell's
completion script; `referee config` says where files go.
`referee COMMAND --help` shows a command's arguments and options.
Any other word names an act of the save's ruleset: `referee ACT SAVE [options]` does it,
as `referee act SAVE ACT [options]` does; `referee act SAVE` lists them."""


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
        plain = plain_arguments(word, argv[1:])
        if plain is not None:
            return plain, run_of(word)
        parser = command_parser(None, word, CORE[word])
        if word == "act":  # its ACT's options follow it: in order, after SAVE and ACT
            from referee.cli.act_words import act_order

            args = parser.parse_args(act_order(argv[1:], 2))
        elif word == "party":  # its ruleset's questions follow SAVE, read once it is open
            from referee.cli.party import party_order

            args = parser.parse_args(party_order(argv[1:]))
        else:  # options and positionals in any order
            args = parser.parse_intermixed_args(argv[1:])
        args.command = word
        return args, run_of(word)
    if word is not None and not word.startswith("-") and len(argv) > 1:
        from referee.cli.act_words import act_word, run_act

        return act_word(word, argv[1:]), run_act
    parser, _ = full_parser()
    if word is not None and not word.startswith("-"):  # a word alone: no save to ask
        choices = ", ".join(repr(name) for name in CORE)
        parser.error(f"argument COMMAND: invalid choice: {word!r} (choose from {choices}; "
                     f"an act of a save's ruleset takes the save: referee {word} SAVE)")
    args = parser.parse_args(argv)
    if getattr(args, "seed", None) is None:  # `referee --seed N play NEW` as `play --seed N`
        args.seed = args.top_seed
    return args, None if args.command is None else run_of(args.command)


# The commands scripts run, read without argparse when their arguments are plain: the
# positional (its name), the flags (store_true) and the options of a whole number, each
# `--NAME` as its dest. Importing argparse (with gettext and locale) and building the
# parser was a fifth of `plan --json`'s start-up. Anything else (--help, a mistake, `--`,
# a dash-led value, a second positional) goes to the command's own parser, which reads it
# or says what is wrong as before; tests/test_cli_order.py holds the two to the same result.
PLAIN: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "plan": ("save", ("json",), ("round",)),
    "replay": ("save", ("json",), ("to",)),
    "check": ("file", (), ()),
}


def plain_arguments(word: str, argv: list[str]) -> Any:
    """`word`'s arguments (an argparse.Namespace's attributes) when `argv` is plain
    (PLAIN), read without argparse; None for anything its parser must read."""
    if word not in PLAIN:
        return None
    positional, flags, wholes = PLAIN[word]
    found: dict[str, Any] = dict.fromkeys(flags, False) | dict.fromkeys(wholes)
    found[positional] = None
    rest = iter(argv)
    for arg in rest:
        if not arg.startswith("-"):
            if found[positional] is not None:
                return None
            found[positional] = arg
            continue
        name, equals, value = arg[2:].partition("=")
        if arg.startswith("--") and name in flags and not equals:
            found[name] = True
            continue
        if not (arg.startswith("--") and name in wholes):
            return None
        if not equals:
            value = next(rest, "-")
            if value.startswith("-"):
                return None
        try:
            found[name] = int(value)  # as common.whole reads it
        except ValueError:
            return None
    if found[positional] is None:
        return None
    from types import SimpleNamespace

    return SimpleNamespace(**found, command=word)


def full_parser() -> tuple[argparse.ArgumentParser, Subparsers]:
    import argparse

    parser = argparse.ArgumentParser(prog="referee",
                                     usage="%(prog)s [-h] [--version] [--seed N] "
                                           "[COMMAND ...]",
                                     description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=formatter(), allow_abbrev=False)
    parser.add_argument("--seed", dest="top_seed", type=whole, metavar="N",
                        help="the seed of a new save's dice, on purpose (default: a fresh "
                             "one of its own); with no command, the fresh demo's")
    parser.add_argument("--version", action="version", version=f"referee {version()}")
    parser.add_argument("--help-man", action=man_action(), nargs=0,
                        help="print the manual page (roff: `referee --help-man | man -l -`)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                                       prog="referee")
    for name, command in CORE.items():
        command_parser(subparsers, name, command)
    return parser, subparsers


def version() -> str:
    """The installed package's version (its metadata), or the source's in a bare checkout."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("referee")
    except PackageNotFoundError:
        from referee import __version__

        return __version__


def man_page() -> str:
    """The manual page, roff, made from the full parser by argparse-manpage, with the
    files and the environment it reads."""
    from argparse_manpage.manpage import Manpage  # type: ignore[import-untyped]

    parser, _ = full_parser()
    page = Manpage(parser)
    page.source, page.manual = f"referee {version()}", "User Commands"
    page.description = DESCRIPTION.rstrip(".").lower()
    page.add_section("files", "=", MAN_FILES)
    page.add_section("environment", "=", MAN_ENVIRONMENT)
    return str(page).replace("%%", "%")  # a help text's % as argparse doubles it


MAN_FILES = """\
.TP
.B ~/.config/referee/config.toml
the settings (theme, campaign, ruleset, view_host, view_port); `referee config` prints
where it is and what it holds
.TP
.B ~/.local/share/referee/saves/
new saves and demo copies made without a path, unless the current directory holds
.B saves/
(a campaign directory) or the config names a campaign
.TP
.B ~/.local/state/referee/recent
the saves the app opened, most recent first (ctrl+o lists them)
"""

MAN_ENVIRONMENT = """\
.TP
.B NO_COLOR
the app and the players' view draw without colour
.TP
.B TEXTUAL_THEME
the app's theme, over the config file's
.TP
.B XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME
where the config, the saves and the recent list go
"""


def man_action() -> type[argparse.Action]:
    """`--help-man`: the page printed, then exit (as --help does)."""
    import argparse

    class ManPageAction(argparse.Action):
        def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                     values: Any, option_string: str | None = None) -> None:
            sys.stdout.write(man_page())
            parser.exit()

    return ManPageAction


def command_parser(subparsers: Subparsers | None, name: str,
                   command: Command) -> argparse.ArgumentParser:
    """A core command's parser: a subcommand of the full tree, or (no `subparsers`) alone."""
    import argparse

    options: dict[str, Any] = {"description": command.help, "formatter_class": formatter(),
                               "allow_abbrev": False}
    if subparsers is None:
        parser = argparse.ArgumentParser(prog=f"referee {name}", **options)
    else:
        parser = subparsers.add_parser(name, help=command.help.replace("%", "%%"), **options)
    getattr(command_module(name), f"{name}_arguments")(parser)
    return parser


def command_module(name: str) -> Any:
    """The module of this package that holds the core command `name` (CORE), imported now:
    a core command imports its own module only (importlib is loaded by then: the files
    layer finds a ruleset's package with it)."""
    from importlib import import_module

    return import_module(f"referee.cli.{CORE[name].module}")


def run_of(name: str) -> Handler:
    """What the core command `name` does: its module's `run_NAME`."""
    handler: Handler = getattr(command_module(name), f"run_{name}")
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None and "_ARGCOMPLETE" in os.environ:  # the shell asks for a Tab's words
        from referee.cli.completion import complete

        complete()  # answers and exits
    program = argv is None  # the process ends when this returns (not a test's call)
    argv = list(sys.argv[1:] if argv is None else argv)
    if program and argv[:1] and argv[0] in PLAIN:
        import gc

        # A reading command runs without the cyclic collector (it makes no cycles worth
        # collecting): from its first import on, not only once the save is read.
        gc.disable()
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
        if handler is None:
            from referee.cli.play import cmd_app

            return cmd_app(args.seed)
        status = handler(args)
        if program and args.command in PLAIN:
            import gc

            # A reading command's objects are left to the process's end, not walked by the
            # collector once more as the interpreter shuts down (a tenth of `plan --json`).
            gc.freeze()
        return status
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
