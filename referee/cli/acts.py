"""`referee act`: a ruleset's acts on the command line, rendered from the same specs the
app renders as keys and forms. The act's form fields become options (`--target gob1`),
checked as the form checks them, and so do the fields only the command line asks (the
act's `options`: sanctum's `--runs N`); its events go into the save as the app would put
them. What else an act offers here comes from its spec too (`Act`): `-o FILE [--force]`
for one that makes events (done on a copy), `--json` for one with a `summary`, its own
lines (`told`, `stream`), a progress bar for a report on a terminal.

`referee act SAVE` lists the acts; `referee act SAVE ACT --help` shows an act's options.
`referee ACT SAVE [options]` is the same as `referee act SAVE ACT [options]` (act_words.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.cli.common import (
    UsageError,
    claim_output,
    formatter,
    open_for_writing,
    opened,
    output_arguments,
    write_output,
)
from referee.engine.errors import IllegalEvent
from referee.engine.specs import Act, Field, Progress
from referee.engine.text import shown

# where the command line's own flags land among an act's values (a field's name is a word)
FLAG = "cli:"


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number, not {text!r}") from None


def run_act(args: argparse.Namespace) -> int:
    path = Path(args.save)
    save = opened(path)
    table = reading_table(save)
    fight = table.fight
    acts = table.acts()
    if args.act is None:
        print("\n".join(listing(table, acts, args.actor)))
        return 0
    act = table.act(args.act)
    early = argparse.ArgumentParser(prog=f"referee {act.id}", add_help=False,
                                    allow_abbrev=False)
    early.add_argument("--actor", default=args.actor)
    # given after ACT, as people type them
    found, rest = early.parse_known_args(args.rest)
    args.actor = found.actor
    if (act.needs_actor or args.actor is not None) and args.actor not in fight.roster:
        ids = ", ".join(fight.roster)
        raise IllegalEvent(f"{act.label} is done by a combatant: --actor ID (one of {ids})")
    why = act.allowed(fight, args.actor) if act.gated else ""
    if why and not {"-h", "--help"} & set(rest):  # refused before its options are read
        raise IllegalEvent(f"{act.label}: {why}")
    fields = asked(act, fight, args.actor)
    try:
        args.seed, rest = seed_of(act, fields, args.seed, rest)
        values = form_values(act, fields, [args.save, *rest],
                             following(act, fight, args.actor))
    except SystemExit as stop:  # its --help (0), or an option it refused (2): printed
        return stop.code if isinstance(stop.code, int) else 0
    flags = {name[len(FLAG):]: values.pop(name) for name in list(values)
             if name.startswith(FLAG)}
    if why:
        raise IllegalEvent(f"{act.label}: {why}")
    if act.report is not None:
        return reported(act, fight, values, args.save, bool(flags.get("json")))
    if act.form(fight, args.actor) is None:  # told of the moment, as the app's key is
        values = {**table.moment(), **values}
    if asks_sure(act, fight, args.actor):
        values[SURE] = True
    return done(act, args, values, table, flags, save)


# A form's yes/no question (roll with some undeclared? end the fight?): the command,
# typed, is the answer.
SURE = "sure"


def asks_sure(act: Act, fight: Any, actor: str | None) -> bool:
    forms = (act.first(fight, actor), act.form(fight, actor))
    return any(f.name == SURE for form in forms if form is not None for f in form.fields)


def reading_table(save: Any) -> Any:
    """The table over a save read (not locked): its acts, their forms and defaults."""
    from referee.session.store import Session
    from referee.session.table import Table

    return Table(Session(save))


def asked(act: Act, fight: Any, actor: str | None) -> tuple[Field, ...]:
    """What the act asks, as options: the form it asks first, then its own, then the
    options only the command line asks; a yes/no `sure` is not asked (the command is the
    yes)."""
    fields: tuple[Field, ...] = ()
    for form in (act.first(fight, actor), act.form(fight, actor)):
        if form is not None:
            fields += tuple(f for f in form.fields if f.name != SURE)
    return fields + own_options(act, fight, actor)


def own_options(act: Act, fight: Any, actor: str | None) -> tuple[Field, ...]:
    """The fields only the command line asks: the act's, then those from the fight."""
    more = act.options_from(fight, actor) if act.options_from is not None else ()
    return act.options + more


def takes_dice(act: Act, fields: Sequence[Field]) -> bool:
    """Whether the command line's `--seed X` (the program's dice) is offered: to an act
    that makes events and has no `seed` of its own."""
    return act.run is not None and all(f.name != "seed" for f in fields)


def seed_of(act: Act, fields: Sequence[Field], given: int | None,
            rest: list[str]) -> tuple[int | None, list[str]]:
    """The program's dice seed, and the act's options left: an act's own `seed` takes
    `--seed X` wherever it was given."""
    if not takes_dice(act, fields):
        mine = any(f.name == "seed" for f in fields)
        return None, (["--seed", str(given)] + rest if mine and given is not None else rest)
    early = argparse.ArgumentParser(prog=f"referee {act.id}", add_help=False,
                                    allow_abbrev=False)
    early.add_argument("--seed", type=whole, default=given)
    found, rest = early.parse_known_args(rest)
    return found.seed, rest


# the app's keys as a referee types them
KEYS = {"plus": "+", "exclamation_mark": "!", "question_mark": "?"}


def listing(table: Any, acts: Sequence[Act], actor: str | None) -> list[str]:
    """Every act, with its key in the app and, where it cannot be done now, why."""
    lines = []
    for act in acts:
        why = act.allowed(table.fight, actor)
        kind = "report" if act.reports else "act"
        key = KEYS.get(act.key, act.key) or "-"
        line = f"{act.id:<12} {key:<6} {act.label} ({kind})"
        if act.help:
            line += f": {act.help}"
        if act.needs_actor and actor is None:
            why = "needs --actor ID"
        lines.append(line + (f"  [not now: {why}]" if why else ""))
    return lines


def act_parser(act: Act, fields: Sequence[Field]) -> argparse.ArgumentParser:
    """The act's own options: `fields` (its form's, then its `options`), then the flags its
    spec asks for. `--actor ID` and the program's `--seed X` are read before (`run_act`):
    shown here."""
    parser = argparse.ArgumentParser(prog=f"referee {act.id}",
                                     description=f"{act.label}: {act.help}" if act.help
                                     else act.label, formatter_class=formatter(),
                                     allow_abbrev=False)
    parser.add_argument(f"{FLAG}save", metavar="SAVE", help="a save (.toml)")
    parser.add_argument("--actor", dest=f"{FLAG}actor", metavar="ID",
                        help="the combatant who acts (required)" if act.needs_actor else
                        "the combatant selected, as under the app's cursor (who acts, "
                        "or is healed …)")
    form = len(fields) - len(act.options)
    for number, field in enumerate(fields):
        option(parser, field, own=number >= form)
    if takes_dice(act, fields):
        parser.add_argument("--seed", dest=f"{FLAG}seed", type=whole, metavar="X",
                            help="the program's dice from random.Random(X) (default: from "
                                 "the save's seed and its log, as the app rolls)")
    if act.summary is not None or act.run is not None:
        parser.add_argument("--json", dest=f"{FLAG}json", action="store_true",
                            help="print the result as JSON" if act.summary is not None
                            else "print the events it made as JSON")
    if act.run is not None:
        output_arguments(parser, "do it on a copy written to FILE (the save is not changed)",
                         prefix=FLAG)
    return parser


Follow = Callable[[dict[str, Any], str], Any]  # (values, the field given) -> Followed


def following(act: Act, fight: Any, actor: str | None) -> Follow | None:
    """What a field given brings to the others, as the form in the app follows it."""
    follow = act.follow
    if follow is None:
        return None
    return lambda values, changed: follow(fight, actor, values, changed)


def form_values(act: Act, fields: Sequence[Field], argv: Sequence[str],
                follow: Follow | None = None) -> dict[str, Any]:
    """The fields as options: their defaults, then what was given, each given field
    bringing what it brings in the app's form (another attacker: its target and damage,
    unless given too); the command line's own flags under FLAG + their names."""
    parser = act_parser(act, fields)
    given = vars(parser.parse_intermixed_args(list(argv)))
    values = {f.name: f.initial for f in fields}
    typed = {name: value for name, value in given.items()
             if value is not None and not name.startswith(FLAG)}
    for name, value in typed.items():
        values[name] = value
        if follow is not None:
            followed = follow(values, name)
            values.update({k: v for k, v in followed.defaults.items() if k not in typed})
            values.update(followed.values)
    values.update(typed)
    missing = [f"--{dashed(f.name)}" for f in fields
               if f.required and values.get(f.name) in (None, "")]
    if missing:
        parser.error(f"{act.label} needs {', '.join(missing)}")
    values.update({name: value for name, value in given.items()
                   if name.startswith(FLAG) and name not in (f"{FLAG}save", f"{FLAG}actor",
                                                             f"{FLAG}seed")})
    return values


def option(parser: argparse.ArgumentParser, field: Field, own: bool = False) -> None:
    """A field as an option. `own`: one of the act's `options`, which only the command
    line asks: its label names its value, and a required one must be given."""
    name = f"--{dashed(field.name)}"
    help_text = (field.help or field.title).replace("%", "%%")
    if field.kind in ("choice", "bool"):
        options = field.options if field.kind == "choice" else (("no", False), ("yes", True))
        by_label = {str(label): value for label, value in options}
        by_label.update({value: value for _, value in options if isinstance(value, str) and value})
        shown = [str(v) if isinstance(v, str) and v else str(label) for label, v in options]
        parser.add_argument(name, dest=field.name, metavar="|".join(shown) or "X",
                            type=lambda text: chosen(text, by_label), help=help_text,
                            required=own and field.required)
        return
    kinds: dict[str, Callable[[str], Any]] = {"int": int_of(field), "number": float}
    kind = kinds.get(field.kind, str)
    parser.add_argument(name, dest=field.name, type=kind, help=help_text,
                        metavar=field.label if own and field.label else field.kind.upper(),
                        required=own and field.required)


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


# -- a report -------------------------------------------------------------------------------


def reported(act: Act, fight: Any, values: dict[str, Any], save: str, as_json: bool) -> int:
    """The report worked out (a progress bar on a terminal) and printed: its `told` lines,
    or its title and lines, or (--json) its summary."""
    assert act.report is not None
    bar = progress_bar(act.id) if sys.stderr.isatty() else None
    report = act.report(fight, values, bar)
    if bar:
        sys.stderr.write("\r\x1b[K")
    if as_json and act.summary is not None:
        print_json(act.summary(fight, report))
    else:
        lines = act.told(fight, report, save) if act.told else [report.title, *report.lines]
        print("\n".join(lines))
    return 0


def progress_bar(name: str) -> Progress:
    def bar(done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r{name} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        sys.stderr.flush()

    return bar


def print_json(data: Any) -> None:
    # indented for a person at a terminal; one line for a script
    print(json.dumps(data, indent=2 if sys.stdout.isatty() else None))


# -- events ---------------------------------------------------------------------------------


def done(act: Act, args: argparse.Namespace, values: dict[str, Any], table: Any,
         flags: dict[str, Any], save: Any) -> int:
    """The act's events into the save, or (-o FILE) into a copy of it written to FILE.
    `save`: the save `table` was read from, whose fight (as the app's) the act's forms
    only read: the locked session takes it as it is if the file has not changed since."""
    path = Path(args.save)
    output = flags.get("output")
    if output:
        claim_output(output, [path], bool(flags.get("force")))
        start = act.copy_from(table.fight) if act.copy_from else table.fight
        assert act.run is not None
        act.run(start, args.actor, values, random.Random(args.seed))  # refused before writing
        path = copy(output, table.session, start, bool(flags.get("force")))
    session = open_for_writing(path, None if output else save)
    try:
        written(act.id, args, values, session, bool(flags.get("json")))
    finally:
        session.close()
    sys.stdout.flush()
    if output:
        print(f"wrote {path}", file=sys.stderr)
    return 0


def copy(output: str, save: Any, start: Any, force: bool) -> Path:
    """A save of `save`'s encounter with the log of `start`, written as `-o` writes."""
    from referee.session.writer import save_text

    return write_output(output, save_text(save.encounter, list(start.log)), [save.path], force)


def written(act_id: str, args: argparse.Namespace, values: dict[str, Any], session: Any,
            as_json: bool) -> None:
    """The events made on the session's fight, `told` first, then written: one at a time
    and each printed once on disk (`stream`), or in one write and printed as the log
    numbers them; --json prints the `summary`, or the events made."""
    from referee.session.store import SaveError
    from referee.session.table import Table

    table = Table(session, random.Random(args.seed) if args.seed is not None else None)
    act = table.act(act_id)  # the locked session's own: its acts work on its fight
    assert act.run is not None
    table.told()  # what was already in the log is not news
    notices = act.notices(table.fight) if act.notices is not None else []
    events = act.run(table.fight, args.actor, values, table.rng)
    heading = act.told(table.fight, events, args.save) if act.told and not as_json else []
    if heading:
        print("\n".join(heading))
    stream = act.stream
    try:
        if stream is None:
            made = table.append(events)
        else:
            made = []
            for event in events:  # on disk before it is shown; undone whole, as in the app
                made += table.append([event], follows=bool(made))
                if not as_json:
                    print(stream(table.fight, event), flush=True)
    except SaveError as error:
        raise UsageError(str(error)) from None
    if as_json:
        print_json(act.summary(table.fight, events) if act.summary is not None
                   else [event.to_dict() for event in made])
    elif stream is None:
        for line in table.told():
            print(f"{line.number:>4}. {line.text}")
    if not as_json:  # what the rules say once it is done (a new round's checks)
        for title, text in notices:  # a side's name from the file among them
            print(shown(f"{title}: {text}"))
