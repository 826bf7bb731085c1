"""The headless command line: plan, check, roll (and, without a command, the demo)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="referee", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    plan = commands.add_parser("plan", help="the resolution order for the current round")
    plan.add_argument("save")
    plan.add_argument("--json", action="store_true", help="one JSON object (see FORMAT.md)")
    plan.add_argument("--round", type=int, help="plan this round instead of the latest")
    check = commands.add_parser("check", help="validate a save or a ruleset file")
    check.add_argument("file")
    replay = commands.add_parser("replay", help="print the whole log, or the state after N")
    replay.add_argument("save")
    replay.add_argument("--to", type=int, metavar="N", help="the state after event N")
    replay.add_argument("--json", action="store_true")
    export = commands.add_parser("export", help="a recap for campaign notes")
    export.add_argument("save")
    export.add_argument("--markdown", action="store_true", required=True)
    export.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
    dice = commands.add_parser("roll", help="roll dice: 3d6+2, d%%, 4d6kh3")
    dice.add_argument("expr")
    dice.add_argument("--seed", type=int, help="seed the dice for a repeatable roll")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return run(args)
    except (LoadError, UsageError, DiceError) as error:
        print(f"referee: {error}", file=sys.stderr)
        return 1
    except RefereeError as error:
        where = getattr(args, "save", None) or getattr(args, "file", None) or ""
        print(f"referee: {where}: {error}" if where else f"referee: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def run(args: argparse.Namespace) -> int:
    if args.command == "plan":
        return cmd_plan(Path(args.save), args.json, args.round)
    if args.command == "check":
        return cmd_check(Path(args.file))
    if args.command == "replay":
        return cmd_replay(Path(args.save), args.to, args.json)
    if args.command == "export":
        return cmd_export(Path(args.save), args.output)
    if args.command == "roll":
        return cmd_roll(args.expr, args.seed)
    return cmd_demo(demo_path())


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
