"""Dice expressions: parse them, roll them with a given generator, or enter real dice.

Grammar (case-insensitive, spaces allowed around ``+`` and ``-``)::

    expression := [sign] term (sign term)*
    term       := number | [count] "d" (sides | "%") [("kh" | "kl" | "k") keep]

``d%`` is ``d100``; ``k3`` is ``kh3``. A roll records every die, so a program roll
and dice a person rolled at the table (``from_values``) are the same kind of record.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from referee.hints import TYPE_CHECKING

from .record import record

if TYPE_CHECKING:
    import random
    from typing import Any
else:
    from referee.hints import Any

MAX_LENGTH = 1000  # also keeps digit runs far below int()'s 4300-digit limit
MAX_TERMS = 50
MAX_DICE = 1000
MAX_SIDES = 1000
MAX_CONSTANT = 1_000_000

# str.lower() may change a string's length on some non-ASCII text, which would
# shift the positions quoted in errors; lowering ASCII only keeps them exact.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_DIGITS = frozenset("0123456789")  # (the string module's: not imported, start-up)
_SPACES = frozenset(" \t")


class DiceError(ValueError):
    """A dice expression, a set of entered dice or a roll record is wrong."""


@record(frozen=True)
class Constant:
    sign: int  # +1 or -1
    value: int

    def __str__(self) -> str:
        """The term without its sign."""
        return str(self.value)


@record(frozen=True)
class Dice:
    sign: int  # +1 or -1
    count: int
    sides: int
    highest: int | None = None  # keep this many of the highest dice
    lowest: int | None = None  # keep this many of the lowest dice

    def __str__(self) -> str:
        """The term without its sign, e.g. ``4d6kh3``."""
        text = f"{self.count}d{self.sides}"
        if self.highest is not None:
            text += f"kh{self.highest}"
        if self.lowest is not None:
            text += f"kl{self.lowest}"
        return text

    def keep(self, rolls: tuple[int, ...]) -> tuple[int, ...]:
        """Indices of the kept dice, ascending; ties keep the die rolled first."""
        order = range(len(rolls))
        if self.highest is not None:
            chosen = sorted(order, key=lambda i: (-rolls[i], i))[: self.highest]
        elif self.lowest is not None:
            chosen = sorted(order, key=lambda i: (rolls[i], i))[: self.lowest]
        else:
            chosen = list(order)
        return tuple(sorted(chosen))


Term = Constant | Dice


@record(frozen=True)
class Expression:
    terms: tuple[Term, ...]

    def __str__(self) -> str:
        return "".join(
            _signed(str(term), term.sign, first=i == 0) for i, term in enumerate(self.terms)
        )

    @property
    def dice(self) -> tuple[Dice, ...]:
        return tuple(term for term in self.terms if isinstance(term, Dice))


def _signed(text: str, sign: int, first: bool) -> str:
    if sign < 0:
        return "-" + text
    return text if first else "+" + text


@record(frozen=True)
class TermResult:
    term: Term
    rolls: tuple[int, ...]  # every die, in the order rolled; empty for a constant
    kept: tuple[int, ...]  # indices into rolls of the dice that count
    subtotal: int  # signed

    @property
    def sign(self) -> int:
        return self.term.sign

    @property
    def dropped(self) -> tuple[int, ...]:
        kept = set(self.kept)
        return tuple(i for i in range(len(self.rolls)) if i not in kept)

    def shown(self) -> str:
        """Dice as ``[6, 5, ~1~]`` (dropped dice between tildes); a constant as its value."""
        if isinstance(self.term, Constant):
            return str(self.term.value)
        dropped = set(self.dropped)
        faces = [f"~{v}~" if i in dropped else str(v) for i, v in enumerate(self.rolls)]
        return "[" + ", ".join(faces) + "]"

    def to_dict(self) -> dict[str, Any]:
        return {
            "term": str(self.term),
            "sign": self.sign,
            "rolls": list(self.rolls),
            "kept": list(self.kept),
            "subtotal": self.subtotal,
        }


@record(frozen=True)
class Roll:
    expression: str  # normalised
    total: int
    terms: tuple[TermResult, ...]

    @property
    def rolls(self) -> tuple[int, ...]:
        """Every die rolled, in order: what ``from_values`` takes back."""
        return tuple(v for term in self.terms for v in term.rolls)

    def detail(self) -> str:
        """One line, e.g. ``4d6kh3+2: [6, 3, ~1~, 5] + 2 = 16``."""
        parts = []
        for i, term in enumerate(self.terms):
            if i == 0:
                parts.append(("-" if term.sign < 0 else "") + term.shown())
            else:
                parts.append(("- " if term.sign < 0 else "+ ") + term.shown())
        return f"{self.expression}: {' '.join(parts)} = {self.total}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "expression": self.expression,
            "total": self.total,
            "terms": [term.to_dict() for term in self.terms],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Roll:
        """Rebuild a roll from ``to_dict`` output; refuse a record its dice do not explain."""
        try:
            expression = data["expression"]
            values = [v for term in data["terms"] for v in term["rolls"]]
        except KeyError as error:
            raise DiceError(f"bad roll record: no {error} field") from None
        except (TypeError, IndexError):
            raise DiceError(
                "bad roll record: expected a table with 'expression' and 'terms'"
            ) from None
        if not isinstance(expression, str):
            raise DiceError(f"bad roll record: expression must be text, got {expression!r}")
        rebuilt = from_values(expression, values)
        if rebuilt.to_dict() != data:
            raise DiceError(f"bad roll record: it does not match its dice {list(rebuilt.rolls)}")
        return rebuilt


def parse(expr: str) -> Expression:
    """Read a dice expression; raise DiceError saying what is wrong and where."""
    if not isinstance(expr, str):
        raise TypeError(f"a dice expression is text, not {type(expr).__name__}")
    if len(expr) > MAX_LENGTH:
        raise DiceError(f"bad dice expression: {len(expr)} characters, at most {MAX_LENGTH}")
    scanner = _Scanner(expr)
    scanner.skip_spaces()
    if scanner.at_end():
        raise DiceError(f"bad dice expression {expr!r}: it is empty")
    terms = [_term(scanner, _sign(scanner, default=1))]
    while not scanner.skip_spaces():
        start = scanner.pos
        sign = _sign(scanner, default=0)
        if not sign:
            raise scanner.fail("expected '+' or '-'")
        if len(terms) == MAX_TERMS:
            raise scanner.fail(f"more than {MAX_TERMS} terms", start)
        terms.append(_term(scanner, sign))
    return Expression(tuple(terms))


class _Scanner:
    def __init__(self, source: str) -> None:
        self.source = source
        self.text = source.translate(_ASCII_LOWER)
        self.pos = 0

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def skip_spaces(self) -> bool:
        """Skip spaces; say whether the text is used up."""
        while not self.at_end() and self.text[self.pos] in _SPACES:
            self.pos += 1
        return self.at_end()

    def take(self, char: str) -> bool:
        if self.text.startswith(char, self.pos):
            self.pos += len(char)
            return True
        return False

    def digits(self) -> str:
        start = self.pos
        while not self.at_end() and self.text[self.pos] in _DIGITS:
            self.pos += 1
        return self.text[start : self.pos]

    def fail(self, message: str, pos: int | None = None) -> DiceError:
        where = self.pos if pos is None else pos
        quoted = _shorten(self.source, 60)
        return DiceError(f"bad dice expression {quoted!r}: {message} at position {where}")


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sign(scanner: _Scanner, default: int) -> int:
    sign = -1 if scanner.take("-") else 1 if scanner.take("+") else default
    if sign:
        scanner.skip_spaces()
    return sign


def _term(scanner: _Scanner, sign: int) -> Term:
    start = scanner.pos
    count_text = scanner.digits()
    if not scanner.take("d"):
        if not count_text:
            raise scanner.fail("expected a number or dice such as 'd6'")
        return Constant(sign, _number(scanner, count_text, start, 0, MAX_CONSTANT, "a constant"))
    count = 1
    if count_text:
        count = _number(scanner, count_text, start, 1, MAX_DICE, "the number of dice")
    sides = 100 if scanner.take("%") else _sides(scanner)
    highest, lowest = _keep(scanner, count)
    return Dice(sign, count, sides, highest, lowest)


def _sides(scanner: _Scanner) -> int:
    start = scanner.pos
    text = scanner.digits()
    if not text:
        raise scanner.fail("expected a number of sides after 'd'")
    return _number(scanner, text, start, 1, MAX_SIDES, "the number of sides")


def _keep(scanner: _Scanner, count: int) -> tuple[int | None, int | None]:
    start = scanner.pos
    if not scanner.take("k"):
        return None, None
    low = scanner.take("l")
    if not low:
        scanner.take("h")
    marker = scanner.source[start : scanner.pos]
    number_at = scanner.pos
    text = scanner.digits()
    if not text:
        raise scanner.fail(f"expected how many dice to keep after {marker!r}")
    keep = _number(scanner, text, number_at, 1, count, "the number of dice to keep")
    if scanner.text.startswith("k", scanner.pos):
        raise scanner.fail("a term can keep dice only once")
    return (None, keep) if low else (keep, None)


def _number(scanner: _Scanner, text: str, start: int, low: int, high: int, what: str) -> int:
    value = int(text)
    if not low <= value <= high:
        raise scanner.fail(f"{what} must be {low} to {high}, got {_shorten(text, 12)}", start)
    return value


def roll(expr: str | Expression, rng: random.Random) -> Roll:
    """Roll every die with ``rng.randint(1, sides)``, term by term, left to right."""
    expression = _expression(expr)
    values = [rng.randint(1, dice.sides) for dice in expression.dice for _ in range(dice.count)]
    return _build(expression, values)


def from_values(expr: str | Expression, values: list[int]) -> Roll:
    """The roll made of dice rolled at the table, given in the order ``roll`` would roll them."""
    expression = _expression(expr)
    values = list(values)
    needed = sum(dice.count for dice in expression.dice)
    if len(values) != needed:
        raise DiceError(f"'{expression}' needs {needed} values (one per die), got {len(values)}")
    owners = [dice for dice in expression.dice for _ in range(dice.count)]
    for number, (value, dice) in enumerate(zip(values, owners, strict=True), start=1):
        _check_die(number, value, dice)
    return _build(expression, values)


@lru_cache(maxsize=512)
def parsed(expr: str) -> Expression:
    """`parse`, kept: a long log rolls the same few expressions thousands of times."""
    return parse(expr)


def total_of(expr: str, values: tuple[int, ...]) -> int:
    """What dice rolled at the table make of `expr` (see `_total_of`). Kept by its dice,
    but only for whole numbers: True would find 1's answer among the kept."""
    if all(type(value) is int for value in values):
        return _kept_total(expr, values)
    return _total_of(expr, values)


@lru_cache(maxsize=4096)
def _kept_total(expr: str, values: tuple[int, ...]) -> int:
    return _total_of(expr, values)


def _total_of(expr: str, values: tuple[int, ...]) -> int:
    """What dice rolled at the table make of `expr` (DiceError as `from_values` says it),
    worked out without building the roll, and kept: a load checks every roll of the log,
    and a log's rolls are mostly the same few dice showing the same few faces."""
    expression = parsed(expr)
    needed = sum(dice.count for dice in expression.dice)
    if len(values) != needed:
        raise DiceError(f"'{expression}' needs {needed} values (one per die), got {len(values)}")
    total, at = 0, 0
    for term in expression.terms:
        if isinstance(term, Constant):
            total += term.sign * term.value
            continue
        rolls = values[at:at + term.count]
        for number, value in enumerate(rolls, start=at + 1):
            if type(value) is not int or not 1 <= value <= term.sides:
                _check_die(number, value, term)
        at += term.count
        if term.highest is None and term.lowest is None:
            total += term.sign * sum(rolls)
        else:
            total += term.sign * sum(rolls[i] for i in term.keep(rolls))
    return total


def _check_die(number: int, value: Any, dice: Dice) -> None:
    # bool is an int subclass, but True is no die face.
    if not isinstance(value, int) or isinstance(value, bool):
        raise DiceError(f"die {number} (for {dice}) must be a whole number, got {value!r}")
    if not 1 <= value <= dice.sides:
        raise DiceError(f"die {number} (for {dice}) must be 1 to {dice.sides}, got {value}")


def _expression(expr: str | Expression) -> Expression:
    if isinstance(expr, Expression):
        return expr
    if type(expr) is str:  # (an expression is frozen: the one parsed before serves)
        return parsed(expr)
    return parse(expr)  # what else is given is refused as parse says


def _build(expression: Expression, values: list[int]) -> Roll:
    remaining = iter(values)
    results = tuple(_result(term, remaining) for term in expression.terms)
    return Roll(str(expression), sum(result.subtotal for result in results), results)


def _result(term: Term, remaining: Iterator[int]) -> TermResult:
    if isinstance(term, Constant):
        return TermResult(term, (), (), term.sign * term.value)
    rolls = tuple(next(remaining) for _ in range(term.count))
    kept = term.keep(rolls)
    return TermResult(term, rolls, kept, term.sign * sum(rolls[i] for i in kept))
