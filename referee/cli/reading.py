"""The commands that read a file and print what it holds: `plan`, `check`, `replay` and
`export` (a Markdown recap, printed or written with -o)."""

from __future__ import annotations

import sys
from pathlib import Path

from referee.cli.common import (
    UsageError,
    claim_output,
    opened,
    output_arguments,
    save_argument,
    whole,
    write_output,
)
from referee.hints import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from referee.engine.plan import Plan
    from referee.session.files import Save
else:
    from referee.hints import Any


def plan_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    parser.add_argument("--round", type=whole, metavar="N",
                        help="the plan of round N instead of the latest")


def check_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a save, a ruleset or a catalogue file (.toml)")


def replay_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--to", type=whole, metavar="N",
                        help="the tracker after event N, instead of the whole log")
    parser.add_argument("--json", action="store_true", help="print it as JSON")


def export_arguments(parser: argparse.ArgumentParser) -> None:
    save_argument(parser)
    parser.add_argument("--markdown", action="store_true",
                        help="a Markdown recap (the one format so far; required)")
    output_arguments(parser, "write it to FILE instead of printing it")


def run_plan(args: argparse.Namespace) -> int:
    return cmd_plan(Path(args.save), args.json, args.round)


def run_check(args: argparse.Namespace) -> int:
    return cmd_check(Path(args.file))


def run_replay(args: argparse.Namespace) -> int:
    return cmd_replay(Path(args.save), args.to, args.json)


def run_export(args: argparse.Namespace) -> int:
    if not args.markdown:
        raise UsageError("export needs --markdown (the one format so far)")
    return cmd_export(Path(args.save), args.output, args.force)


def cmd_plan(path: Path, as_json: bool, round_: int | None) -> int:
    import gc

    gc.disable()  # a short run that makes no cycles worth collecting: planning a big round
    save = opened(path)
    plan = plan_of(save, round_)
    if as_json:
        # indented for a person at a terminal; one line (the C encoder, quick) for a script
        print(json_text(plan.to_json(), indent=2 if sys.stdout.isatty() else None))
    else:
        from referee.session.render import render_plan

        print(f"{save.encounter.title} — {save.ruleset.name}")
        print(render_plan(plan, save.fight.resolved.get(plan.round)))
    return 0


def json_text(data: Any, indent: int | None = None) -> str:
    """`json.dumps(data, indent=indent)`. On one line, made as json.dumps makes it (its C
    encoder, with the same arguments) without importing `json`, whose decoder and encoder
    compile six patterns at import (a fortieth of `plan --json`'s start-up); json.dumps
    itself wherever that encoder is not there as this Python's json calls it."""
    if indent is None:
        try:
            from _json import encode_basestring_ascii, make_encoder

            chunks = make_encoder({}, _unserializable, encode_basestring_ascii, None, ": ",
                                  ", ", False, False, True)(data, 0)
        except (ImportError, TypeError):
            pass
        else:
            return "".join(chunks)
    import json

    return json.dumps(data, indent=indent)


def _unserializable(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def plan_of(save: Save, round_: int | None) -> Plan:
    """The plan, with a fault found only while ordering reported at its file line."""
    from referee.engine import RefereeError
    from referee.session.files import fault

    try:
        return save.fight.plan(round_)
    except RefereeError as error:
        raise fault(str(save.path), save.text, error) from None


def cmd_check(path: Path) -> int:
    import gc

    from referee.engine.words import counted
    from referee.session.files import (
        LoadError,
        load_ruleset,
        load_save,
        parse_toml,
        read_any,
        torn_tail,
    )

    gc.disable()  # a short run that makes no cycles worth collecting: reading a long log
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
    save = load_save(path, recover=False, read=(text, data) if data else None)
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
    import gc
    import json

    from referee.session import render
    from referee.session.replay import chronicle, told

    gc.disable()  # a short run that makes no cycles worth collecting: telling a long log
    if upto is None:  # told as the load folds the log: one fold
        save, story = told(path, falls=as_json)  # (the text has no recap)
        if save.warning:
            print(f"referee: warning: {save.warning}", file=sys.stderr)
    else:
        save = opened(path)
        total = len(save.fight.log)
        if not 0 <= upto <= total:
            raise UsageError(f"{path}: --to {upto}: the log has {total} events (0 to {total})")
        story = chronicle(save, upto)
    if upto is None and not as_json:  # written as it is made: a long log's text is
        for piece in render.replay_pieces(story):  # never held whole
            sys.stdout.write(piece)
        return 0
    if upto is None:  # the same, written as it is made
        for piece in render.replay_json_pieces(story, save.fight.log):
            sys.stdout.write(piece)
        return 0
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
