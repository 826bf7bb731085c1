"""Text, Markdown and JSON views of plans, the tracker and the log."""

from __future__ import annotations

from typing import Any

from referee.engine import Fight
from referee.engine.plan import Plan

from .replay import Chronicle


def table(rows: list[tuple[str, ...]], indent: str = "") -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return [indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:-1]))
            + "  " + row[-1] for row in rows]


def beat_label(number: int, beat: Any) -> str:
    if beat.segment is not None:
        return f"s{beat.segment}.{number}"
    if beat.count is not None:
        return f"{number} @{beat.count}"
    return str(number)


def plan_lines(plan: Plan, indent: str = "") -> list[str]:
    rows = [("beat", "actions", "rules", "why")]
    for number, beat in enumerate(plan.beats, start=1):
        flags = " (ready)" if beat.ready else " (every segment)" if beat.repeats else ""
        actions = ", ".join(a.label() + (" [lost]" if dict(a.extra).get("lost") else "")
                            for a in beat.actions)
        rows.append((beat_label(number, beat), actions + flags, " ".join(beat.rules),
                     "; ".join(beat.why)))
    lines = table(rows, indent) if plan.beats else [indent + "(no beats yet)"]
    lines += [f"{indent}skipped: {s['actor']} {s['action']}: {s['why']}" for s in plan.skipped]
    lines += [f"{indent}note: {note}" for note in plan.notes]
    return lines


def render_plan(plan: Plan) -> str:
    return "\n".join([f"round {plan.round}"] + plan_lines(plan))


# -- the tracker ------------------------------------------------------------------------


def tracker_rows(fight: Fight) -> list[dict[str, Any]]:
    rows = []
    declared = {d.actor: d for _, d in fight.declared(fight.round) if d.segment is None}
    count_up = fight.ruleset.id == "count-up"
    for cid, c in fight.roster.items():
        status = fight.status[cid]
        row: dict[str, Any] = {"id": cid, "name": c.name, "side": c.side, "hp": status.hp,
                               "max_hp": status.max_hp}
        if count_up:
            row.update(stress=status.stress, wounds=status.wounds,
                       condition=fight.ruleset.condition(c, status))
        else:
            row["condition"] = "dead" if status.dead else "dying" if status.hp < 0 else "fine"
        if status.dead:
            row["condition"] = "dead"
        row["conditions"] = dict(status.conditions)
        decl = declared.get(cid)
        row["declared"] = decl.action + (f" {decl.weapon or decl.spell or ''}".rstrip()
                                         if decl else "") if decl else ""
        row["spell_lost"] = (fight.round, cid) in fight.lost_spells
        rows.append(row)
    return rows


def tracker_lines(fight: Fight) -> list[str]:
    count_up = fight.ruleset.id == "count-up"
    head = ("combatant", "side", "stress/wounds" if count_up else "hp", "conditions",
            "declared", "state")
    rows = [head]
    for row in tracker_rows(fight):
        points = (f"{row['stress']}/{row['wounds']}" if count_up
                  else f"{row['hp']}/{row['max_hp']}")
        conditions = ", ".join(f"{k} ({v})" if v else k for k, v in row["conditions"].items())
        state = row["condition"] + (", spell lost" if row["spell_lost"] else "")
        rows.append((row["name"], row["side"], points, conditions or "-",
                     row["declared"] or "-", state))
    return table(rows)


def state_header(fight: Fight) -> str:
    dice = fight.initiatives.get(fight.round)
    rolled = ""
    if dice is not None and dice.rolls:
        rolled = "; initiative " + ", ".join(f"{k} {v}" for k, v in dice.rolls.items())
    ended = "; the fight is over" if fight.ended else ""
    return f"round {fight.round}, phase {fight.phase}{rolled}{ended}"


# -- replay -------------------------------------------------------------------------------


def replay_text(story: Chronicle) -> str:
    """The log line by line under round headings; each round's order appears where it
    became known (its first resolved beat, or the round's end)."""
    lines = [f"{story.title} — {story.ruleset}"]
    orders = {r.plan_at: r for r in story.rounds if r.plan is not None}
    current = None
    if 0 in orders:
        lines += order_lines(orders[0])
    for number, round_, text in story.lines:
        if round_ != current and round_ >= 1:
            current = round_
            lines += ["", f"== Round {round_} =="]
        lines.append(f"{number:>5}. {text}")
        if number in orders:
            lines += order_lines(orders[number])
    return "\n".join(lines) + "\n"


def order_lines(r: Any) -> list[str]:
    return [f"       order of round {r.number}:"] + plan_lines(r.plan, indent="         ")


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


def state_json(story: Chronicle, upto: int) -> dict[str, Any]:
    fight = story.fight
    assert fight is not None
    return {"after": upto, "round": fight.round, "phase": fight.phase, "ended": fight.ended,
            "combatants": tracker_rows(fight)}


# -- export --------------------------------------------------------------------------------


def markdown(story: Chronicle) -> str:
    out = [f"# {story.title}", "", f"*{story.ruleset}*", ""]
    for r in story.rounds:
        out += [f"## Round {r.number}", ""]
        if r.initiative:
            out += [f"**Initiative:** {r.initiative.split(': ', 1)[-1]}", ""]
        if r.declarations:
            out += ["**Declarations**", ""] + [f"- {d}" for d in r.declarations] + [""]
        if r.plan is not None and r.plan.beats:
            out += ["**Order**", ""]
            for number, beat in enumerate(r.plan.beats, start=1):
                who = ", ".join(a.label() for a in beat.actions)
                out.append(f"{number}. {who} — {'; '.join(beat.why)} ({', '.join(beat.rules)})")
            out.append("")
        if r.happened:
            out += ["**What happened**", ""] + [f"- {h}" for h in r.happened] + [""]
        out += [f"**Fell:** {', '.join(r.fell) if r.fell else 'nobody'}", ""]
    return "\n".join(out).rstrip("\n") + "\n"
