"""The order of a round under `simple`: scores from the rolls, ranked, ties dealt with as
the file says. Pure functions of the settings and plain data; the ruleset feeds them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from referee.engine.record import record

from .settings import Settings


@record(frozen=True)
class Score:
    """One side's (or combatant's) initiative: the die, the roster key added, the sum."""

    who: str
    roll: int
    added: int
    label: str  # the roster key added ("" none)

    @property
    def total(self) -> int:
        return self.roll + self.added

    def told(self) -> str:
        """How the sum was made, for a beat's why: "14 + dex 3"."""
        if not self.label:
            return str(self.roll)
        sign = "+" if self.added >= 0 else "-"
        return f"{self.roll} {sign} {self.label} {abs(self.added)}"


@record(frozen=True)
class Place:
    """One beat's worth of the order: who acts together, and how the tie (if any) was
    settled or is still open."""

    who: tuple[str, ...]
    total: int
    rules: tuple[str, ...]
    why: tuple[str, ...]
    open_tie: bool = False  # tied, and a re-roll is still to come (SI-6)


Rerolls = Mapping[str, Sequence[int]]


def ranked(settings: Settings, scores: Sequence[Score], rerolls: Rerolls,
           tie_order: Callable[[str], tuple[int, ...]]) -> list[Place]:
    """Every side or combatant in acting order (SI-3): the best score first, equal scores
    as the file's tie rule says (SI-5, SI-6, SI-7). `tie_order(who)` is the tie key's
    sort key (SI-7)."""
    sign = -1 if settings.order == "high" else 1
    places: list[Place] = []
    for total in sorted({s.total for s in scores}, key=lambda t: sign * t):
        tied = [s.who for s in scores if s.total == total]
        places += split(settings, tied, total, rerolls, tie_order)
    return places


def split(settings: Settings, tied: list[str], total: int, rerolls: Rerolls,
          tie_order: Callable[[str], tuple[int, ...]]) -> list[Place]:
    rules = ("SI-2", "SI-3")
    if len(tied) == 1:
        return [Place(tuple(tied), total, rules, ())]
    if settings.ties == "simultaneous":
        return [Place(tuple(tied), total, rules + ("SI-5",), (f"tied on {total}: together",))]
    if settings.ties == "key":
        return by_key(settings, tied, total, rules + ("SI-7",), tie_order)
    return untied(settings, tied, total, rerolls, 0)


def by_key(settings: Settings, tied: list[str], total: int, rules: tuple[str, ...],
           tie_order: Callable[[str], tuple[int, ...]]) -> list[Place]:
    """SI-7: the tie key, higher first, then the players' side; still equal: together."""
    orders = {w: tie_order(w) for w in tied}
    places = []
    for order in sorted(set(orders.values())):
        together = tuple(w for w in tied if orders[w] == order)
        why = f"tied on {total}: {settings.tie_key} {-order[0]}"
        if any(o[0] == order[0] and o != order for o in orders.values()):
            why += ", the players' side first" if order[1] == 0 else ", after the players"
        if len(together) > 1:
            why += ", still tied: together"
        places.append(Place(together, total, rules, (why,)))
    return places


def untied(settings: Settings, tied: list[str], total: int, rerolls: Rerolls,
           depth: int) -> list[Place]:
    """SI-6: the tied roll again, as often as they tie; a re-roll not yet made leaves
    them together, waiting for it."""
    rules = ("SI-2", "SI-3", "SI-6")
    if len(tied) == 1:
        return [Place(tuple(tied), total, rules, (f"tie on {total} broken by a re-roll",))]
    if any(len(rerolls.get(w, ())) <= depth for w in tied):
        return [Place(tuple(tied), total, rules, (f"tied on {total}: to re-roll",), True)]
    sign = -1 if settings.order == "high" else 1
    places: list[Place] = []
    for value in sorted({rerolls[w][depth] for w in tied}, key=lambda v: sign * v):
        again = [w for w in tied if rerolls[w][depth] == value]
        places += untied(settings, again, total, rerolls, depth + 1)
    return places


def open_ties(places: Sequence[Place]) -> list[tuple[str, ...]]:
    """The groups still tied and waiting for a re-roll (SI-6)."""
    return [p.who for p in places if p.open_tie]
