"""Shell completion (argcomplete, from the argument parser): `referee completion bash|zsh|
fish` prints the script a shell sources once; the shell then runs `referee` itself at each
Tab, with argcomplete's variables set, and `main` hands the line here before anything else
is read.

What is offered: the core commands and their options, every act's word (`hit`, `declare-G`,
`fight` ...: the acts of the bundled rulesets, listed once and kept in the cache directory
by version), a save (`*.toml` files and folders) wherever a command takes one, and after
`referee act SAVE` the acts of that save's own ruleset, read from it.

Only this module imports argcomplete, and only `completion` and a Tab import this module.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.common import CORE

if TYPE_CHECKING:
    import argparse

SHELLS = ("bash", "zsh", "fish")
ENABLE = {
    "bash": "source <(referee completion bash)      # in ~/.bashrc",
    "zsh": "source <(referee completion zsh)       # in ~/.zshrc",
    "fish": "referee completion fish | source      # in ~/.config/fish/config.fish",
}
SAVE_METAVARS = ("SAVE", "FILE", "F", "RUN.toml")


def completion_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=SHELLS, metavar="SHELL",
                        help="bash, zsh or fish. To enable it, one line in the shell's "
                             "start-up file: " + "; ".join(ENABLE.values()))


def run_completion(args: argparse.Namespace) -> int:
    from argcomplete.shell_integration import shellcode

    print(shellcode(["referee"], shell=args.shell), end="")
    return 0


def complete() -> None:
    """Answer the shell's Tab (argcomplete's variables are set) and exit."""
    import argcomplete

    argcomplete.autocomplete(completion_parser(), always_complete_options=False)


def completion_parser() -> argparse.ArgumentParser:
    """The full tree of core commands, with a subcommand for each act's word (its SAVE), a
    save's files offered wherever a command takes one, and `act SAVE ACT` the save's acts."""
    import argcomplete

    from referee.cli import full_parser

    parser, subparsers = full_parser()
    for word in act_words():
        if word not in CORE:
            sub = subparsers.add_parser(word, help=f"an act: referee act SAVE {word}")
            sub.add_argument("save", metavar="SAVE")
            sub.add_argument("--actor", metavar="ID")
    saves = argcomplete.completers.FilesCompleter(("toml",), directories=True)
    for sub in [parser, *subparsers.choices.values()]:
        for action in sub._actions:
            if action.metavar in SAVE_METAVARS or action.dest in ("save", "file", "output"):
                action.completer = saves  # type: ignore[attr-defined]
            if action.dest == "act" and sub.prog.endswith(" act"):
                action.completer = acts_of_the_save  # type: ignore[attr-defined]
    return parser


def acts_of_the_save(prefix: str, parsed_args: argparse.Namespace, **_: Any) -> list[str]:
    """The acts of the save typed before ACT (none when it does not read)."""
    try:
        from referee.cli.acts import reading_table
        from referee.session.files import load_save

        table = reading_table(load_save(Path(parsed_args.save)))
        return [act.id for act in table.acts() if act.id.startswith(prefix)]
    except Exception:  # a Tab never prints a traceback into the line being typed
        return []


def act_words() -> list[str]:
    """Every act's word of the bundled rulesets, from the cache (this version's) or, once,
    from the bundled demos."""
    from referee.cli import version
    from referee.session.places import cache_dir

    cache = cache_dir() / f"acts-{version()}.txt"
    try:
        return cache.read_text(encoding="utf-8").split()
    except (OSError, UnicodeDecodeError):
        pass
    words = bundled_act_words()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temp = cache.with_name(f".{cache.name}.{os.getpid()}")
        temp.write_text("\n".join(words) + "\n", encoding="utf-8")
        temp.replace(cache)
    except OSError:
        pass
    return words


def bundled_act_words() -> list[str]:
    from referee.cli.acts import reading_table
    from referee.session.demos import demos
    from referee.session.files import load_save

    words: set[str] = set()
    for path in demos().values():
        try:
            words |= {act.id for act in reading_table(load_save(path)).acts()}
        except Exception:  # a demo that does not read offers nothing; the rest still do
            continue
    return sorted(words)
