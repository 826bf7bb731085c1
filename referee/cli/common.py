"""What the command modules share: the table of core commands (`CORE`), the usage error,
the arguments several commands take (SAVE, a whole number, `-o FILE --force`,
`--max-viewers`), writing an output file, opening a save for reading or writing, and the help
layout. Nothing here imports the engine, the files layer or Textual at the top.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from functools import cache

from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any

    from referee.session.config import Config
    from referee.session.files import Save
else:
    from referee.hints import Any

Handler = Callable[["argparse.Namespace"], int]


class UsageError(Exception):
    pass


class Command:
    """A core command: its help, and the module of this package that holds its arguments
    (`NAME_arguments`) and what it does (`run_NAME`), imported only when it is parsed.
    (A plain class: a NamedTuple's is built with exec at start-up.)"""

    __slots__ = ("help", "module")

    def __init__(self, help: str, module: str) -> None:
        self.help, self.module = help, module


CORE: dict[str, Command] = {
    "plan": Command("the order of resolution for the latest round (--round N for another)",
                    "reading"),
    "check": Command("validate a save, a ruleset or a catalogue file", "reading"),
    "party": Command("write the players' sides as the fight left them (hit points, "
                     "conditions, spells lost) to a roster: -o party.toml", "party"),
    "add": Command("add monsters from the bestiary to a save's set-up: goblin --count 6 "
                   "--side goblins", "catalogue"),
    "catalogue": Command("list a ruleset's catalogues (weapons, spells, monsters), or show "
                         "one entry", "catalogue"),
    "replay": Command("print the whole log, or (--to N) the tracker after event N", "reading"),
    "export": Command("a Markdown recap for campaign notes (-o FILE to write it)", "reading"),
    "roll": Command("roll dice: 3d6+2, d%, 4d6kh3, 2d20kl1", "roll"),
    "act": Command("do one of the ruleset's acts (morale, attack, tie rolls ...): its form's "
                   "fields as options; without ACT, the list", "act_words"),
    "play": Command("open the app on a save (a new one is created and set up first, or "
                    "--demo: a copy of a bundled demo)", "play"),
    "demo": Command("print a bundled demo's roster and plan", "demo"),
    "watch": Command("the players' view of a save, read-only, following it live", "views"),
    "serve": Command("serve the players' view of a save to web browsers (--host, --port; "
                     "--players: each player's own page too)", "views"),
    "links": Command("each player's own link to their page, one line a player (--revoke "
                     "makes new ones)", "views"),
    "config": Command("where files go: the settings file and what it holds, the saves "
                      "folder, the recent list", "config"),
    "completion": Command("print the shell's completion script: bash, zsh or fish "
                          "(source <(referee completion bash) in ~/.bashrc)", "completion"),
}


def whole(text: str) -> int:
    import argparse

    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"takes a whole number, not {text!r}") from None


def save_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a save file (.toml)")


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
    from pathlib import Path

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
    from pathlib import Path

    from referee.session.output import claim
    from referee.session.store import SaveError

    try:
        claim(Path(output), inputs, force)
    except SaveError as error:
        raise UsageError(str(error)) from None


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


def opened(path: Path, watch: Any = None) -> Save:
    """A save for reading; a torn last event is dropped with the warning on stderr.
    `watch`: as `load_save`'s."""
    from referee.session.files import load_save

    save = load_save(path, watch=watch)
    if save.warning:
        print(f"referee: warning: {save.warning}", file=sys.stderr)
    return save


def open_for_writing(path: Path, read: Save | None = None) -> Any:
    """The save's session, locked (another referee's: a UsageError); `read`: the save as
    this command read it before (not loaded again if the file is as it was)."""
    from referee.session.lock import SaveLocked
    from referee.session.store import Session

    try:
        return Session.open(path, lock=True, read=read)
    except SaveLocked as error:
        raise UsageError(str(error)) from None


def settings() -> Config:
    """The referee's settings file, read strictly (a bad key: a LoadError naming the file,
    its line and the key). Only the commands that use a setting read it."""
    from referee.session.config import load_config

    return load_config()


def demo_path() -> Path:
    from referee.session.demos import default_demo

    return default_demo()


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
