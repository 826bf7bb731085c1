"""`referee act`: a ruleset's acts on the command line, rendered from the same specs the
app renders as keys and forms. The act's form fields become options (`--target gob1`),
checked as the form checks them; its events go into the save as the app would put them.

`referee act SAVE` lists the acts; `referee act SAVE ACT --help` shows an act's options.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.engine.errors import IllegalEvent
from referee.engine.specs import Act, Field, Form


def act_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("save", metavar="SAVE", help="a save (.toml)")
    parser.add_argument("act", metavar="ACT", nargs="?",
                        help="the act to do (without it: the list of acts)")
    parser.add_argument("--actor", metavar="ID", help="the combatant who acts")
    parser.add_argument("--seed", type=whole, metavar="X",
                        help="the program's dice from random.Random(X) (default: from the "
                             "save's seed and its log, as the app rolls)")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None


def run_act(args: argparse.Namespace, opened: Callable[[Path], Any],
            open_for_writing: Callable[[Path], Any]) -> int:
    path = Path(args.save)
    save = opened(path)
    fight = save.fight
    acts = save.ruleset.acts(fight)
    if args.act is None:
        print("\n".join(listing(acts, fight, args.actor)) or "this ruleset has no acts")
        return 0
    act = next((a for a in acts if a.id == args.act), None)
    if act is None:
        known = ", ".join(a.id for a in acts) or "none"
        raise IllegalEvent(f"{save.ruleset.name} has no act {args.act!r} (acts: {known})")
    early = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    early.add_argument("--actor", default=args.actor)
    early.add_argument("--seed", type=whole, default=args.seed)
    # given after ACT, as people type them
    found, rest = early.parse_known_args(args.rest)
    args.actor, args.seed = found.actor, found.seed
    if act.needs_actor and args.actor not in fight.roster:
        ids = ", ".join(fight.roster)
        raise IllegalEvent(f"{act.label} is done by a combatant: --actor ID (one of {ids})")
    try:
        values = form_values(act, act.form(fight, args.actor), rest)
    except SystemExit as stop:  # its --help (0), or an option it refused (2): printed
        return stop.code if isinstance(stop.code, int) else 0
    why = act.allowed(fight, args.actor)
    if why:
        raise IllegalEvent(f"{act.label}: {why}")
    if act.report is not None:
        report = act.report(fight, values, None)
        print("\n".join([report.title, *report.lines]))
        return 0
    return done(act, args, values, open_for_writing(path))


def listing(acts: Sequence[Act], fight: Any, actor: str | None) -> list[str]:
    lines = []
    for act in acts:
        why = act.allowed(fight, actor)
        kind = "report" if act.reports else "act"
        line = f"{act.id:<12} {act.key or '-':<2} {act.label} ({kind})"
        if act.help:
            line += f": {act.help}"
        if act.needs_actor and actor is None:
            why = "needs --actor ID"
        lines.append(line + (f"  [not now: {why}]" if why else ""))
    return lines


def form_values(act: Act, form: Form | None, rest: Sequence[str]) -> dict[str, Any]:
    """The form's fields as options: its defaults, then what was given."""
    parser = argparse.ArgumentParser(prog=f"referee act SAVE {act.id}"
                                     + (" --actor ID" if act.needs_actor else ""),
                                     description=f"{act.label}: {act.help}" if act.help
                                     else act.label, allow_abbrev=False)
    fields = form.fields if form is not None else ()
    for field in fields:
        option(parser, field)
    given = vars(parser.parse_args(list(rest)))
    values = {f.name: f.default for f in fields}
    values.update({name: value for name, value in given.items() if value is not None})
    missing = [f"--{dashed(f.name)}" for f in fields
               if f.required and values.get(f.name) in (None, "")]
    if missing:
        parser.error(f"{act.label} needs {', '.join(missing)}")
    return values


def option(parser: argparse.ArgumentParser, field: Field) -> None:
    name = f"--{dashed(field.name)}"
    help_text = (field.help or field.title).replace("%", "%%")
    if field.kind in ("choice", "bool"):
        options = field.options if field.kind == "choice" else (("no", False), ("yes", True))
        by_label = {str(label): value for label, value in options}
        by_label.update({value: value for _, value in options if isinstance(value, str) and value})
        shown = [str(v) if isinstance(v, str) and v else str(label) for label, v in options]
        parser.add_argument(name, dest=field.name, metavar="|".join(shown) or "X",
                            type=lambda text: chosen(text, by_label), help=help_text)
        return
    kinds: dict[str, Callable[[str], Any]] = {"int": int_of(field), "number": float}
    kind = kinds.get(field.kind, str)
    parser.add_argument(name, dest=field.name, type=kind, metavar=field.kind.upper(),
                        help=help_text)


def chosen(text: str, options: dict[str, Any]) -> Any:
    if text not in options:
        raise argparse.ArgumentTypeError(f"one of {', '.join(options)}, not {text!r}")
    return options[text]


def int_of(field: Field) -> Callable[[str], int]:
    def read(text: str) -> int:
        value = whole(text)
        if field.minimum is not None and value < field.minimum:
            raise argparse.ArgumentTypeError(f"at least {field.minimum}, not {value}")
        if field.maximum is not None and value > field.maximum:
            raise argparse.ArgumentTypeError(f"at most {field.maximum}, not {value}")
        return value

    return read


def dashed(name: str) -> str:
    return name.replace("_", "-")


def done(act: Act, args: argparse.Namespace, values: dict[str, Any], session: Any) -> int:
    from referee.session.table import Table

    try:
        rng = random.Random(args.seed) if args.seed is not None else None
        table = Table(session, rng)
        table.told()  # what was already in the log is not news
        table.do(act, args.actor, values)
        for line in table.told():
            print(f"{line.number:>4}. {line.text}")
    finally:
        session.close()
    sys.stdout.flush()
    return 0
