"""DI-17: the surprise segments' beats, in letter order, before the round proper."""

from __future__ import annotations

from referee.engine.plan import Beat
from referee.hints import TYPE_CHECKING

from .items import Item, by_place
from .wording import segments

if TYPE_CHECKING:
    from .settings import Settings


def surprise_beats(s: Settings, items: list[Item], segment: int, total: int) -> list[Beat]:
    """Segment `segment`'s beats, from its items (`collect_segments`)."""
    beats = []
    left = total - segment + 1
    by_letter: dict[str, list[Item]] = {}
    for item in items:
        found = by_letter.get(item.letter)
        if found is None:
            by_letter[item.letter] = [item]
        else:
            found.append(item)
    for letter, _, _ in s.letters:
        step = by_letter.get(letter)
        if not step:
            continue
        step.sort(key=by_place)
        why = [f"surprise segment {segment} of {total}: {letter} for the surprising side"]
        actions = []
        for item in step:
            action = item.action or item.to_action()  # (made once an item)
            note = surprise_note(item, left)
            if note:
                why.append(note)
                if item.casting and item.cast_time() > left:
                    action = action.with_extra(completes="after surprise")
            actions.append(action)
        beats.append(Beat(actions, ["DI-17"], why, {"segment": segment}, f"s{segment}"))
    return beats


def surprise_note(item: Item, left: int) -> str:
    if item.role in ("strike", "set") or (item.role == "discharge" and not item.casting):
        return f"{item.actor.id}: a whole attack routine in this segment" if item.first else ""
    if item.casting and item.cast_time() > left:
        return (f"{item.actor.id}: {segments(item.cast_time())} to cast, {left} left: "
                "starts now, completes after surprise")
    if item.role == "move":
        return f"{item.actor.id}: moves a tenth of its movement rate"
    if item.role == "avoid":
        return f"{item.actor.id}: may avoid even from melee"
    return ""
