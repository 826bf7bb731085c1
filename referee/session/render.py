"""Text, Markdown and JSON views of plans, the tracker and the log."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from referee.engine import Fight
from referee.engine import events as ev
from referee.engine.plan import Plan
from referee.engine.text import markdown_text

from . import view
from .replay import Chronicle


def table(rows: list[tuple[str, ...]], indent: str = "") -> list[str]:
    """The rows in columns two spaces apart, each as wide as its widest cell (the last
    column as it is)."""
    widths = [max(map(len, column)) for column in list(zip(*rows, strict=True))[:-1]]
    ljust = str.ljust
    return [indent + "  ".join(map(ljust, row[:-1], widths)) + "  " + row[-1]
            for row in rows]


def plan_lines(plan: Plan, indent: str = "", resolved: set[str] | None = None,
               current: bool = True) -> list[str]:
    """The plan as a text table; without `current`, no beat is marked as the one to act
    now (a past round's order, told in a replay)."""
    rows: list[tuple[str, ...]] = [("", "beat", "actions", "rules", "why")]
    found = view.plan_rows(plan, resolved or set(), kept=current)
    rows += [(r.mark if current or r.mark != "▶" else "", r.label, r.actions, r.rules, r.why)
             for r in found if r.label != "note"]
    lines = table(rows, indent) if len(rows) > 1 else [indent + "(no beats yet)"]
    lines += [f"{indent}note: {r.why}" for r in found if r.label == "note"]
    return lines


def render_plan(plan: Plan, resolved: set[str] | None = None) -> str:
    return "\n".join([f"round {plan.round}"] + plan_lines(plan, resolved=resolved))


# -- the tracker ------------------------------------------------------------------------


def tracker_rows(fight: Fight) -> list[dict[str, Any]]:
    """Each combatant as plain data: who, and what its ruleset says of it."""
    decls = view.declarations(fight)
    rows = []
    for cid, c in fight.roster.items():
        decl = decls.get(cid)
        row: dict[str, Any] = {"id": cid, "name": c.name, "side": c.side}
        row.update(fight.ruleset.tracker.facts(fight, cid))
        row["declared"] = view.declared_text(fight, cid, decl)
        rows.append(row)
    return rows


def tracker_lines(fight: Fight) -> list[str]:
    every = view.columns(fight)
    cols = [c for c in every if c.key != "mark"]
    rows = [tuple(c.label for c in cols)]
    for row in view.tracker(fight, None, set()):
        cells = dict(zip([c.key for c in every], row.cells, strict=True))
        rows.append(tuple(cells[c.key].text or "-" for c in cols))
    return table(rows)


def state_header(fight: Fight) -> str:
    return view.status_text(fight, "").lstrip(" ·")


# -- replay -------------------------------------------------------------------------------


def replay_text(story: Chronicle) -> str:
    """The log line by line, undo and redo included, under round headings: the round the
    fight was in when each event was entered (`== Back to round N ==` after an undo into
    an earlier round, `== Round N again ==` for a round begun anew). Each round's order
    appears once, where the order still in effect became known (its first resolved beat
    still in effect, or the round's end)."""
    return "".join(replay_pieces(story))


def replay_pieces(story: Chronicle, size: int = 4096) -> Iterator[str]:
    """`replay_text` in pieces of whole lines, about `size` lines each: a long log's
    text written as it is made (`referee replay`), never held whole."""
    lines = [f"{story.title} — {story.ruleset}"]
    orders: dict[int, list[Any]] = {}
    for r in story.rounds:
        if r.plan is not None:
            orders.setdefault(r.plan_at, []).append(r)
    current, seen = 0, set[int]()
    for r in orders.get(0, []):
        lines += order_lines(r)
    append = lines.append
    for number, round_, text in story.lines:
        if round_ != current and round_ >= 1:
            lines += ["", round_heading(round_, current, seen)]
            current = round_
            seen.add(round_)
        append(f"{number:>5}. {text}")
        if number in orders:
            for r in orders[number]:
                lines += order_lines(r)
        if len(lines) >= size:
            append("")  # each line of a piece ends with its newline
            yield "\n".join(lines)
            lines = []
            append = lines.append
    if lines:
        lines.append("")
        yield "\n".join(lines)


def round_heading(number: int, before: int, seen: set[int]) -> str:
    if number < before:
        return f"== Back to round {number} =="
    return f"== Round {number} again ==" if number in seen else f"== Round {number} =="


def order_lines(r: Any) -> list[str]:
    return [f"       order of round {r.number}:"] + plan_lines(r.plan, indent="         ",
                                                                current=False)


def state_text(story: Chronicle, upto: int) -> str:
    fight = story.fight
    assert fight is not None
    return "\n".join([f"{story.title} — after event {upto} of the log", state_header(fight), ""]
                     + tracker_lines(fight)) + "\n"


def replay_json(story: Chronicle, save_log: list[Any]) -> dict[str, Any]:
    return {
        "title": story.title,
        "ruleset": story.ruleset,
        "events": [{"n": n, "round": r, "text": text, "event": save_log[n - 1].to_dict()}
                   for n, r, text in story.lines],
        "rounds": [{"round": r.number, "plan": r.plan.to_json() if r.plan else None,
                    "fell": r.fell} for r in story.rounds],
    }


def replay_json_pieces(story: Chronicle, save_log: list[Any],
                       size: int = 2048) -> Iterator[str]:
    """`json.dumps(replay_json(story, save_log), indent=2) + "\n"`, the same text, in
    pieces of about `size` events or rounds each (`referee replay --json`): a long log's
    JSON written as it is made, never held whole, neither as data nor as text."""
    from json.encoder import encode_basestring_ascii as string

    yield (f'{{\n  "title": {indented(story.title, "  ")},\n  "ruleset": '
           f'{indented(story.ruleset, "  ")},\n  "events": ')
    item, at = _indented, "      "  # an event's keys are written at six spaces
    yield from _listed((f'{{\n      "n": {item(n, at, string)},\n      "round": '
                        f'{item(r, at, string)},\n      "text": {item(text, at, string)},'
                        f'\n      "event": {item(save_log[n - 1].to_dict(), at, string)}'
                        '\n    }' for n, r, text in story.lines), size)
    yield ',\n  "rounds": '
    yield from _listed((indented({"round": r.number,
                                  "plan": r.plan.to_json() if r.plan else None,
                                  "fell": r.fell}, "    ") for r in story.rounds), size)
    yield "\n}\n"


def _listed(items: Iterator[str], size: int) -> Iterator[str]:
    """A list under the top level's keys, its items written (`indented` at four spaces),
    as `json.dumps(..., indent=2)` writes it there, `size` items a piece."""
    first, done = True, []
    for item in items:
        done.append(item)
        if len(done) >= size:
            yield ("[\n    " if first else ",\n    ") + ",\n    ".join(done)
            first, done = False, []
    if done:
        yield ("[\n    " if first else ",\n    ") + ",\n    ".join(done)
        first = False
    yield "[]" if first else "\n  ]"


def indented(value: Any, indent: str) -> str:
    """`json.dumps(value, indent=2)` of a value written at `indent` (its lines after the
    first start with it), the same text: plain data written directly (the standard
    encoder writes an indented document in Python, a generator a value); anything else
    (a float, a subclass, a key that is not a string) by `json.dumps` itself."""
    from json.encoder import encode_basestring_ascii

    return _indented(value, indent, encode_basestring_ascii)


def _indented(value: Any, indent: str, string: Callable[[str], str]) -> str:
    kind = type(value)
    if kind is str:
        return string(value)
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = indent + "  "
        return ("[\n" + inner
                + (",\n" + inner).join([_indented(v, inner, string) for v in value])
                + "\n" + indent + "]")
    if kind is dict:
        if not value:
            return "{}"
        inner = indent + "  "
        parts = []
        for key, v in value.items():
            if type(key) is not str:  # written by json.dumps, as a whole
                break
            kind = type(v)  # a string or a number in line: most of a log's values
            parts.append(string(key) + ": " + (string(v) if kind is str else int.__repr__(v)
                                               if kind is int else _indented(v, inner, string)))
        else:
            return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "}"
    import json

    return json.dumps(value, indent=2).replace("\n", "\n" + indent)


def state_json(story: Chronicle, upto: int) -> dict[str, Any]:
    fight = story.fight
    assert fight is not None
    return {"after": upto, "round": fight.round, "phase": fight.phase, "ended": fight.ended,
            **fight.ruleset.tracker.fight_facts(fight), "combatants": tracker_rows(fight)}


# -- export --------------------------------------------------------------------------------


def markdown(story: Chronicle) -> str:
    """The fight as Markdown: every piece of text in it (names, titles, notes, the
    program's own lines that carry them) escaped by `markdown_text`, so nothing a file
    holds can make a heading, a link, a tag or an escape sequence."""
    md = markdown_text
    out = [f"# {md(story.title)}", "", f"*{md(story.ruleset)}*", ""]
    for r in story.rounds:
        out += [f"## Round {r.number}", ""]
        initiative, declarations, happened, fell = r.initiative, r.declarations, \
            r.happened, r.fell  # each a pass over the round's events: once
        if initiative:
            out += [f"**Initiative:** {md(initiative.split(': ', 1)[-1])}", ""]
        if declarations:
            out += ["**Declarations**", ""] + [f"- {md(d)}" for d in declarations] + [""]
        if r.plan is not None and r.plan.beats:
            out += ["**Order**", ""]
            for row in view.plan_rows(r.plan, set(), kept=False):
                if row.label != "note":
                    out.append(f"{md(row.label)}. {md(row.actions)} — {md(row.why)} "
                               f"({md(row.rules)})")
            out.append("")
        if happened:
            out += ["**What happened**", ""] + [f"- {md(h)}" for h in happened] + [""]
        out += [f"**Fell:** {', '.join(md(name) for name in fell) if fell else 'nobody'}", ""]
    fight = story.fight
    if fight is not None and fight.ended:
        end = next((e for e in reversed(fight.events) if isinstance(e, ev.End)), None)
        how = f": {md(end.note)}" if end is not None and end.note else "."
        out += [f"**The fight is over{how}**", ""]
    return "\n".join(out).rstrip("\n") + "\n"
