"""The catalogues on the command line: `catalogue` lists a ruleset's (or shows an entry),
`add` puts monsters of its bestiary into a save's set-up."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cli.common import UsageError, open_for_writing, save_argument, whole

if TYPE_CHECKING:
    import argparse


def catalogue_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", metavar="RULESET", nargs="?",
                        help="a ruleset id (without it: the bundled catalogues)")
    parser.add_argument("name", metavar="NAME", nargs="?", help="one entry, shown whole")
    parser.add_argument("--kind", choices=("weapons", "spells", "devices", "monsters"),
                        help="only this kind")
    parser.add_argument("--file", dest="own", action="append", default=[], metavar="F",
                        help="a catalogue of your own, merged over the bundled one by name "
                             "(again for more)")


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


def run_catalogue(args: argparse.Namespace) -> int:
    return cmd_catalogue(args.ruleset, args.kind, args.name, [Path(f) for f in args.own])


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
