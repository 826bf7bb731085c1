"""The headless command line: plan, check, replay, export, roll (and the demo)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.engine import RefereeError
from referee.engine.dice import DiceError, roll
from referee.engine.plan import Plan
from referee.session.files import (
    LoadError,
    Save,
    fault,
    load_ruleset,
    load_save,
    parse_toml,
    read_text,
)
from referee.session.render import render_plan

DEMO = "demo.toml"


class UsageError(Exception):
    pass


def demo_path() -> Path:
    here = Path(__file__).resolve().parent
    for folder in (here / "_saves", here.parent / "saves"):
        if (folder / DEMO).is_file():
            return folder / DEMO
    raise UsageError("the bundled demo save is missing")


# A small parser of our own: argparse alone costs a fifth of a `referee plan` run.
COMMANDS: dict[str, tuple[tuple[str, ...], dict[str, tuple[str, Any]], str]] = {
    "plan": (("save",), {"--json": ("json", None), "--round": ("round", int)},
             "the order of resolution for the latest round (--round N for another)"),
    "check": (("file",), {}, "validate a save or a ruleset file"),
    "replay": (("save",), {"--to": ("to", int), "--json": ("json", None)},
               "print the whole log, or (--to N) the tracker after event N"),
    "export": (("save",), {"--markdown": ("markdown", None), "-o": ("output", str),
                           "--output": ("output", str)},
               "a Markdown recap for campaign notes (-o FILE to write it)"),
    "roll": (("expr",), {"--seed": ("seed", int)}, "roll dice: 3d6+2, d%, 4d6kh3, 2d20kl1"),
    "play": (("save",), {"--ruleset": ("ruleset", str)},
             "open the app on a save (created, then set up, if it is missing)"),
    "demo": ((), {}, "print the bundled demo's roster and plan"),
}

USAGE = """usage: referee [COMMAND ...]

  referee                                  the app, on a fresh copy of the bundled demo
  referee play SAVE.toml [--ruleset ID]    the app on a save (a new one is set up first)
  referee demo                             the bundled demo's roster and plan, printed
  referee plan SAVE.toml [--json] [--round N]
  referee check SAVE.toml|RULESET.toml
  referee replay SAVE.toml [--to N] [--json]
  referee export SAVE.toml --markdown [-o FILE]
  referee roll EXPR [--seed N]
"""


class Help(Exception):
    pass


def parse_args(argv: Sequence[str]) -> dict[str, Any]:
    args = list(argv)
    if any(a in ("-h", "--help") for a in args):
        raise Help
    if not args:
        return {"command": None}
    command = args.pop(0)
    if command not in COMMANDS:
        raise UsageError(f"unknown command {command!r} (commands: {', '.join(COMMANDS)})")
    names, options, _ = COMMANDS[command]
    parsed: dict[str, Any] = {"command": command}
    positional = []
    while args:
        word = args.pop(0)
        if word not in options:
            positional.append(word)
            continue
        dest, kind = options[word]
        parsed[dest] = True if kind is None else option_value(word, kind, args)
    if len(positional) != len(names):
        raise UsageError(f"{command} takes {' '.join(n.upper() for n in names)}"
                         + (f", not {' '.join(positional)}" if positional else ""))
    parsed.update(zip(names, positional, strict=True))
    return parsed


def option_value(flag: str, kind: Any, args: list[str]) -> Any:
    if not args:
        raise UsageError(f"{flag} needs a value")
    word = args.pop(0)
    try:
        return kind(word)
    except ValueError:
        raise UsageError(f"{flag} takes a whole number, not {word!r}") from None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse_args(sys.argv[1:] if argv is None else argv)
    except Help:
        print(USAGE, end="")
        return 0
    except UsageError as error:
        print(f"referee: {error}\n{USAGE}", file=sys.stderr, end="")
        return 2
    try:
        return run(args)
    except (LoadError, UsageError, DiceError) as error:
        print(f"referee: {error}", file=sys.stderr)
        return 1
    except RefereeError as error:
        where = args.get("save") or args.get("file") or ""
        print(f"referee: {where}: {error}" if where else f"referee: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as error:  # the saves folder cannot be made, a file cannot be read...
        name = f" {error.filename}" if error.filename else ""
        print(f"referee:{name}: {error.strerror or error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def run(args: dict[str, Any]) -> int:
    command = args["command"]
    if command == "plan":
        return cmd_plan(Path(args["save"]), args.get("json", False), args.get("round"))
    if command == "check":
        return cmd_check(Path(args["file"]))
    if command == "replay":
        return cmd_replay(Path(args["save"]), args.get("to"), args.get("json", False))
    if command == "export":
        if not args.get("markdown"):
            raise UsageError("export needs --markdown (the one format so far)")
        return cmd_export(Path(args["save"]), args.get("output"))
    if command == "roll":
        return cmd_roll(args["expr"], args.get("seed"))
    if command == "demo":
        return cmd_demo(demo_path())
    if command == "play":
        return cmd_play(Path(args["save"]), args.get("ruleset") or "demon-idol")
    return cmd_app()


def saves_folder() -> Path:
    return Path.cwd() / "saves"


def cmd_app() -> int:
    from referee.app import fresh_demo

    return open_app(fresh_demo(saves_folder(), demo_path()), setup=False)


def cmd_play(path: Path, ruleset: str) -> int:
    setup = not path.exists()
    if setup:
        create_save(path, ruleset)
    else:
        opened(path)  # a broken save is refused here, with its message, before any screen
    return open_app(path, setup)


def create_save(path: Path, ruleset: str) -> None:
    from referee.app.files import new_save
    from referee.session.store import SaveError

    load_ruleset(ruleset, path.parent)  # an unknown ruleset is refused before anything
    try:
        new_save(path, path.stem.replace("-", " ").replace("_", " "), ruleset)
    except SaveError as error:
        raise UsageError(str(error)) from None


def open_app(path: Path, setup: bool) -> int:
    from referee.app import RefereeApp

    app = RefereeApp(path, path.parent, start_in_setup=setup)
    app.run()
    return 0


def cmd_demo(path: Path) -> int:
    save = load_save(path)
    print(f"{save.encounter.title} — {save.ruleset.name} (the bundled demo, {path.name})")
    print(render_roster(save))
    print(render_plan(plan_of(save, None)))
    return 0


def render_roster(save: Save) -> str:
    sides = {s.id: s.name for s in save.encounter.sides}
    lines = []
    for cid, c in save.fight.roster.items():
        status = save.fight.status[cid]
        weapons = ", ".join(w.name for w in c.weapons)
        spells = ", ".join(s.name for s in c.spells)
        gear = weapons + (f"; spells: {spells}" if spells else "")
        routines = f", {c.attacks} attacks" if c.attacks > 1 else ""
        lines.append(f"  {sides[c.side]:<10} {c.name:<20} hp {status.hp}/{status.max_hp}"
                     f"{routines}  {gear}")
    return "\n".join(lines)


def opened(path: Path) -> Save:
    """A save for reading; a torn last event is dropped with the warning on stderr."""
    save = load_save(path)
    if save.warning:
        print(f"referee: warning: {save.warning}", file=sys.stderr)
    return save


def cmd_plan(path: Path, as_json: bool, round_: int | None) -> int:
    save = opened(path)
    plan = plan_of(save, round_)
    if as_json:
        print(json.dumps(plan.to_json(), indent=2))
    else:
        print(f"{save.encounter.title} — {save.ruleset.name}")
        print(render_plan(plan))
    return 0


def plan_of(save: Save, round_: int | None) -> Plan:
    """The plan, with a fault found only while ordering reported at its file line."""
    try:
        return save.fight.plan(round_)
    except RefereeError as error:
        raise fault(str(save.path), save.text, error) from None


def cmd_check(path: Path) -> int:
    text = read_text(path)
    data = parse_toml(text, str(path))
    if data.get("format") == "referee-ruleset" or ("letters" in data or "actions" in data):
        ruleset = load_ruleset(str(path))
        print(f"{path}: ok (ruleset {ruleset.id}, {len(ruleset.actions())} actions)")
        return 0
    save = load_save(path, recover=False)
    fight = save.fight
    plan_of(save, None)
    print(f"{path}: ok ({save.ruleset.id}, {len(fight.roster)} combatants, "
          f"{len(fight.events)} events, round {fight.round})")
    return 0


def cmd_replay(path: Path, upto: int | None, as_json: bool) -> int:
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


def cmd_export(path: Path, output: str | None) -> int:
    from referee.session.render import markdown
    from referee.session.replay import chronicle
    from referee.session.store import SaveError, write_atomic

    text = markdown(chronicle(opened(path)))
    if output is None:
        sys.stdout.write(text)
        return 0
    try:
        write_atomic(Path(output), text)
    except SaveError as error:
        raise UsageError(str(error)) from None
    print(f"wrote {output}")
    return 0


def cmd_roll(expr: str, seed: int | None) -> int:
    import random

    rng = random.Random(seed)
    print(roll(expr, rng).detail())
    return 0


if __name__ == "__main__":
    sys.exit(main())
