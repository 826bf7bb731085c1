import functools
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.dice import (
    MAX_DICE,
    MAX_TERMS,
    Constant,
    Dice,
    DiceError,
    Expression,
    Roll,
    from_values,
    parse,
    roll,
)


class ScriptedRng:
    """Hands out chosen faces and records each call; it has no other method on purpose."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.calls = []

    def randint(self, low, high):
        self.calls.append((low, high))
        return self.faces.pop(0)


# --- parsing and normalisation ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("d6", "1d6"),
        ("3d6", "3d6"),
        ("3D6", "3d6"),
        ("d%", "1d100"),
        ("2D%", "2d100"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4D6KH3 + 2", "4d6kh3+2"),
        ("2d20kl1", "2d20kl1"),
        ("2d20KL1", "2d20kl1"),
        ("2d6+1d4-1", "2d6+1d4-1"),
        ("  2d6 +\t1d4 -  1 ", "2d6+1d4-1"),
        ("-2+d8", "-2+1d8"),
        ("- 2 + d8", "-2+1d8"),
        ("+3", "3"),
        ("-d4", "-1d4"),
        ("007d06+00", "7d6+0"),
        ("5", "5"),
    ],
)
def test_normalised_text(text, normal):
    assert str(parse(text)) == normal


def test_parse_builds_terms():
    assert parse("4d6kh3-2d20kl1+2-d%") == Expression(
        (
            Dice(1, 4, 6, highest=3),
            Dice(-1, 2, 20, lowest=1),
            Constant(1, 2),
            Dice(-1, 1, 100),
        )
    )


def test_k_alone_keeps_highest():
    assert parse("4d6k3") == parse("4d6kh3")


def test_normalised_text_parses_to_the_same_expression():
    expression = parse("3D8KH2 - 1")
    assert parse(str(expression)) == expression


def test_limits_are_inclusive():
    assert parse(f"{MAX_DICE}d6").terms[0].count == MAX_DICE
    assert parse("d1000").terms[0].sides == 1000
    assert parse("d1").terms[0].sides == 1
    assert parse("1000000").terms[0].value == 1_000_000
    assert len(parse("+".join(["1"] * MAX_TERMS)).terms) == MAX_TERMS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3d", "bad dice expression '3d': expected a number of sides after 'd' at position 2"),
        ("", "bad dice expression '': it is empty"),
        ("   ", "bad dice expression '   ': it is empty"),
        ("x", "bad dice expression 'x': expected a number or dice such as 'd6' at position 0"),
        ("3d6x", "bad dice expression '3d6x': expected '+' or '-' at position 3"),
        ("3d6 2", "bad dice expression '3d6 2': expected '+' or '-' at position 4"),
        ("3 d6", "bad dice expression '3 d6': expected '+' or '-' at position 2"),
        ("d6+", "bad dice expression 'd6+': expected a number or dice such as 'd6' at position 3"),
        ("--3", "bad dice expression '--3': expected a number or dice such as 'd6' at position 1"),
        ("2*d6", "bad dice expression '2*d6': expected '+' or '-' at position 1"),
        (
            "0d6",
            "bad dice expression '0d6': the number of dice must be 1 to 1000, got 0 at position 0",
        ),
        (
            "1001d6",
            "bad dice expression '1001d6': the number of dice must be 1 to 1000, got 1001"
            " at position 0",
        ),
        (
            "2d0",
            "bad dice expression '2d0': the number of sides must be 1 to 1000, got 0 at position 2",
        ),
        (
            "d1001",
            "bad dice expression 'd1001': the number of sides must be 1 to 1000, got 1001"
            " at position 1",
        ),
        (
            "4d6kh5",
            "bad dice expression '4d6kh5': the number of dice to keep must be 1 to 4, got 5"
            " at position 5",
        ),
        (
            "4d6kl0",
            "bad dice expression '4d6kl0': the number of dice to keep must be 1 to 4, got 0"
            " at position 5",
        ),
        (
            "4d6k",
            "bad dice expression '4d6k': expected how many dice to keep after 'k' at position 4",
        ),
        (
            "4d6KL",
            "bad dice expression '4d6KL': expected how many dice to keep after 'KL' at position 5",
        ),
        (
            "4d6kh3kl1",
            "bad dice expression '4d6kh3kl1': a term can keep dice only once at position 6",
        ),
        (
            "d%%",
            "bad dice expression 'd%%': expected '+' or '-' at position 2",
        ),
        (
            "1d6+1000001",
            "bad dice expression '1d6+1000001': a constant must be 0 to 1000000, got 1000001"
            " at position 4",
        ),
        (
            "1d６",
            "bad dice expression '1d６': expected a number of sides after 'd' at position 2",
        ),
    ],
)
def test_error_messages(text, message):
    with pytest.raises(DiceError) as caught:
        parse(text)
    assert str(caught.value) == message


def test_huge_numbers_are_refused_without_echoing_them_whole():
    with pytest.raises(DiceError) as caught:
        parse("9" * 900 + "d6")
    message = str(caught.value)
    assert "the number of dice must be 1 to 1000, got 999999999..." in message
    assert message.endswith("at position 0")
    assert len(message) < 200


def test_too_many_terms():
    text = "+".join(["1"] * (MAX_TERMS + 1))
    with pytest.raises(
        DiceError, match=rf"more than {MAX_TERMS} terms at position {2 * MAX_TERMS - 1}$"
    ):
        parse(text)


def test_too_long():
    with pytest.raises(DiceError, match="1001 characters, at most 1000"):
        parse("1" * 1001)


def test_dice_error_is_a_value_error():
    assert issubclass(DiceError, ValueError)


def test_text_is_required():
    with pytest.raises(TypeError, match="not int"):
        parse(6)


# --- rolling ----------------------------------------------------------------------------


def test_rolls_use_only_randint_one_to_sides_in_term_order():
    rng = ScriptedRng([1, 2, 3, 50, 4])
    roll("2d6+1d4-d%+1d8kh1", rng)
    assert rng.calls == [(1, 6), (1, 6), (1, 4), (1, 100), (1, 8)]


def test_plus_and_minus():
    result = roll("2d6+1d4-1", ScriptedRng([3, 4, 2]))
    assert result.total == 8
    assert [t.subtotal for t in result.terms] == [7, 2, -1]
    assert [t.sign for t in result.terms] == [1, 1, -1]


def test_minus_dice():
    result = roll("1d6-1d4", ScriptedRng([5, 3]))
    assert result.total == 2
    assert result.terms[1].subtotal == -3
    assert result.terms[1].rolls == (3,)


def test_leading_minus():
    assert roll("-2+d8", ScriptedRng([5])).total == 3
    assert roll("-d4", ScriptedRng([3])).total == -3


def test_constant_only_rolls_nothing():
    rng = ScriptedRng([])
    result = roll("7", rng)
    assert result.total == 7
    assert rng.calls == []
    assert result.terms[0].rolls == ()
    assert result.terms[0].kept == ()
    assert result.terms[0].term == Constant(1, 7)


def test_keep_highest():
    result = roll("4d6kh3+2", ScriptedRng([1, 6, 3, 5]))
    term = result.terms[0]
    assert term.rolls == (1, 6, 3, 5)
    assert term.kept == (1, 2, 3)
    assert term.dropped == (0,)
    assert term.subtotal == 14
    assert result.total == 16


def test_keep_lowest():
    result = roll("2d20kl1", ScriptedRng([17, 4]))
    assert result.terms[0].kept == (1,)
    assert result.total == 4


def test_ties_keep_the_die_rolled_first():
    assert roll("4d6kh1", ScriptedRng([2, 6, 6, 1])).terms[0].kept == (1,)
    assert roll("4d6kl2", ScriptedRng([4, 1, 1, 1])).terms[0].kept == (1, 2)


def test_percentile():
    rng = ScriptedRng([73])
    result = roll("d%", rng)
    assert rng.calls == [(1, 100)]
    assert result.expression == "1d100"
    assert result.total == 73


def test_roll_accepts_a_parsed_expression():
    expression = parse("3d6 + 1")
    assert roll(expression, ScriptedRng([1, 2, 3])) == roll("3d6+1", ScriptedRng([1, 2, 3]))


def test_roll_keeps_the_normalised_text():
    result = roll("4D6K3 + 2", ScriptedRng([1, 1, 1, 1]))
    assert result.expression == "4d6kh3+2"


def test_seeded_rolls_repeat():
    first = [roll("4d6kh3+1d20-2", random.Random(1234)) for _ in range(3)]
    again = [roll("4d6kh3+1d20-2", random.Random(1234)) for _ in range(3)]
    assert first == again
    assert len({r.rolls for r in first}) == 1


def test_one_generator_gives_a_sequence_that_repeats_with_its_seed():
    rng = random.Random(7)
    first = [roll("10d100", rng).rolls for _ in range(5)]
    rng = random.Random(7)
    again = [roll("10d100", rng).rolls for _ in range(5)]
    assert first == again
    assert len(set(first)) == 5  # the generator advances between rolls


def test_program_roll_draws_what_the_generator_draws():
    result = roll("3d8+1d4", random.Random(99))
    expected = random.Random(99)
    assert result.rolls == tuple(expected.randint(1, s) for s in (8, 8, 8, 4))


# --- detail -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "faces", "line"),
    [
        ("4d6kh3+2", [6, 5, 3, 1], "4d6kh3+2: [6, 5, 3, ~1~] + 2 = 16"),
        ("4d6k3+2", [1, 6, 3, 5], "4d6kh3+2: [~1~, 6, 3, 5] + 2 = 16"),
        ("2d20kl1", [17, 4], "2d20kl1: [~17~, 4] = 4"),
        ("-2+d8", [5], "-2+1d8: -2 + [5] = 3"),
        ("1d6-1d4-1", [5, 3], "1d6-1d4-1: [5] - [3] - 1 = 1"),
        ("-d4", [3], "-1d4: -[3] = -3"),
        ("3", [], "3: 3 = 3"),
    ],
)
def test_detail(text, faces, line):
    assert roll(text, ScriptedRng(faces)).detail() == line


# --- dice rolled at the table -----------------------------------------------------------


def test_table_dice_make_the_same_roll_as_the_program():
    program = roll("4d6kh3+1d4-2", ScriptedRng([2, 6, 4, 1, 3]))
    table = from_values("4d6kh3 + 1d4 - 2", [2, 6, 4, 1, 3])
    assert table == program
    assert table.total == 13


def test_table_dice_accept_a_parsed_expression():
    assert from_values(parse("2d6"), [1, 6]).total == 7


def test_table_dice_for_constants_only():
    assert from_values("4", []).total == 4


@pytest.mark.parametrize(
    ("text", "values", "message"),
    [
        ("4d6kh3+1d4", [1, 2, 3], "'4d6kh3+1d4' needs 5 values (one per die), got 3"),
        ("d6", [1, 2], "'1d6' needs 1 values (one per die), got 2"),
        ("3", [1], "'3' needs 0 values (one per die), got 1"),
        ("2d6+1d4", [1, 6, 5], "die 3 (for 1d4) must be 1 to 4, got 5"),
        ("2d6", [0, 1], "die 1 (for 2d6) must be 1 to 6, got 0"),
        ("d%", [101], "die 1 (for 1d100) must be 1 to 100, got 101"),
        ("2d6", [1, "3"], "die 2 (for 2d6) must be a whole number, got '3'"),
        ("2d6", [1, 2.0], "die 2 (for 2d6) must be a whole number, got 2.0"),
        ("2d6", [True, 2], "die 1 (for 2d6) must be a whole number, got True"),
    ],
)
def test_table_dice_are_checked(text, values, message):
    with pytest.raises(DiceError) as caught:
        from_values(text, values)
    assert str(caught.value) == message


def test_table_dice_with_a_bad_expression():
    with pytest.raises(DiceError, match="expected a number of sides after 'd' at position 2"):
        from_values("3d", [1, 2, 3])


# --- save-file records ------------------------------------------------------------------


def test_to_dict_shape():
    result = roll("4d6kh3-2", ScriptedRng([1, 6, 3, 5]))
    assert result.to_dict() == {
        "expression": "4d6kh3-2",
        "total": 12,
        "terms": [
            {"term": "4d6kh3", "sign": 1, "rolls": [1, 6, 3, 5], "kept": [1, 2, 3], "subtotal": 14},
            {"term": "2", "sign": -1, "rolls": [], "kept": [], "subtotal": -2},
        ],
    }


def test_from_dict_refuses_a_record_its_dice_do_not_explain():
    record = roll("4d6kh3", ScriptedRng([1, 6, 3, 5])).to_dict()
    record["total"] = 18
    with pytest.raises(DiceError, match=r"does not match its dice \[1, 6, 3, 5\]"):
        Roll.from_dict(record)


def test_from_dict_refuses_changed_kept_dice():
    record = roll("4d6kh3", ScriptedRng([1, 6, 3, 5])).to_dict()
    record["terms"][0]["kept"] = [0, 1, 2]
    with pytest.raises(DiceError, match="does not match"):
        Roll.from_dict(record)


def test_from_dict_checks_the_dice():
    record = roll("1d6", ScriptedRng([4])).to_dict()
    record["terms"][0]["rolls"] = [9]
    with pytest.raises(DiceError, match="die 1 \\(for 1d6\\) must be 1 to 6, got 9"):
        Roll.from_dict(record)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"total": 3, "terms": []}, "bad roll record: no 'expression' field"),
        ({"expression": "1d6", "total": 3}, "bad roll record: no 'terms' field"),
        ({"expression": "1d6", "terms": [{}]}, "bad roll record: no 'rolls' field"),
        ("1d6", "bad roll record: expected a table with 'expression' and 'terms'"),
        (None, "bad roll record: expected a table with 'expression' and 'terms'"),
        ({"expression": "1d6", "terms": 5}, "bad roll record: expected a table"),
        ({"expression": 6, "terms": []}, "bad roll record: expression must be text, got 6"),
    ],
)
def test_from_dict_refuses_malformed_records(record, message):
    with pytest.raises(DiceError) as caught:
        Roll.from_dict(record)
    assert str(caught.value).startswith(message)


# --- properties -------------------------------------------------------------------------


@st.composite
def dice_terms(draw):
    """A dice expression as text, with its normal form and its lowest and highest totals.
    (Its strategies are made once, not again at every draw: each new one is validated
    when first drawn from. The same draws, in the same order.)"""
    pieces, normal, low, high = [], [], 0, 0
    for index in range(draw(st.integers(1, 5))):
        sign = draw(SIGNS)
        text, plain, term_low, term_high = draw(TERMS)
        written_sign = "-" if sign < 0 else draw(FIRST_SIGN if index == 0 else LATER_SIGN)
        space = draw(SPACES)
        pieces.append(f"{space}{written_sign}{space}{text}")
        normal.append(("-" if sign < 0 else "" if index == 0 else "+") + plain)
        low += term_low if sign > 0 else -term_high
        high += term_high if sign > 0 else -term_low
    return "".join(pieces), "".join(normal), low, high


@st.composite
def constant_term(draw):
    value = draw(st.integers(0, 1000))
    return str(value), str(value), value, value


@functools.cache
def count_texts(count):
    """How a count of dice may be written (one die: with its 1 or without)."""
    return st.sampled_from([str(count), ""] if count == 1 else [str(count)])


@st.composite
def dice_term(draw):
    count = draw(st.integers(1, 12))
    percent = draw(st.booleans())
    sides = 100 if percent else draw(st.integers(1, 1000))
    keep = draw(KEEPS)
    kept = draw(st.integers(1, count)) if keep else count
    count_text = draw(count_texts(count))
    text = f"{count_text}d{'%' if percent else sides}" + (f"{keep}{kept}" if keep else "")
    text = "".join(c.upper() if draw(st.booleans()) else c for c in text)
    plain = f"{count}d{sides}" + (f"{'kl' if keep == 'kl' else 'kh'}{kept}" if keep else "")
    return text, plain, kept, kept * sides


SIGNS = st.sampled_from([1, -1])
TERMS = st.one_of(constant_term(), dice_term())
FIRST_SIGN, LATER_SIGN = st.sampled_from(["+", ""]), st.sampled_from(["+"])
SPACES = st.sampled_from(["", " ", "  "])
KEEPS = st.sampled_from(["", "kh", "kl", "k"])


@given(dice_terms(), st.integers(0, 2**32))
def test_totals_stay_within_bounds(case, seed):
    text, normal, low, high = case
    result = roll(text, random.Random(seed))
    assert low <= result.total <= high
    assert result.expression == normal
    assert result.total == sum(t.subtotal for t in result.terms)


@given(dice_terms(), st.integers(0, 2**32))
def test_record_round_trip(case, seed):
    result = roll(case[0], random.Random(seed))
    record = json.loads(json.dumps(result.to_dict()))
    assert record == result.to_dict()
    assert Roll.from_dict(record) == result


@given(dice_terms(), st.integers(0, 2**32))
def test_entering_the_program_dice_gives_the_same_roll(case, seed):
    result = roll(case[0], random.Random(seed))
    assert from_values(case[0], list(result.rolls)) == result


@given(st.integers(1, 30), st.integers(1, 20), st.data())
def test_kept_dice_are_the_best_ones(count, sides, data):
    keep = data.draw(st.integers(1, count))
    faces = data.draw(st.lists(st.integers(1, sides), min_size=count, max_size=count))
    high = from_values(f"{count}d{sides}kh{keep}", faces).terms[0]
    low = from_values(f"{count}d{sides}kl{keep}", faces).terms[0]
    assert sorted(faces[i] for i in high.kept) == sorted(faces)[count - keep :]
    assert sorted(faces[i] for i in low.kept) == sorted(faces)[:keep]
    assert len(high.kept) + len(high.dropped) == count


@given(dice_terms())
def test_normal_form_is_stable(case):
    text, normal, _, _ = case
    assert str(parse(text)) == normal
    assert parse(normal) == parse(text)


def _roll_or_error(text):
    try:
        return roll(text, random.Random(0))
    except DiceError as error:
        assert str(error).startswith("bad dice expression")
        return None


@given(st.text(max_size=60))
def test_any_text_rolls_or_raises_dice_error(text):
    result = _roll_or_error(text)
    if result is not None:
        assert result.total == sum(t.subtotal for t in result.terms)


@given(st.text(alphabet="0123456789dDkKhHlL%+- \t", max_size=40))
def test_dice_like_text_rolls_or_raises_dice_error(text):
    result = _roll_or_error(text)
    if result is not None:
        assert parse(result.expression) == parse(text)


@given(st.lists(st.integers() | st.text(max_size=3) | st.none(), max_size=6))
def test_any_values_make_a_roll_or_raise_dice_error(values):
    try:
        result = from_values("2d6+1d4", values)
    except DiceError:
        return
    assert values == list(result.rolls)


@given(dice_terms(), st.integers(0, 2**32))
def test_a_quick_total_is_the_rolls_total(case, seed):
    """`total_of` (a load checks every roll with it) agrees with the roll it stands for."""
    from referee.engine.dice import total_of

    result = roll(case[0], random.Random(seed))
    assert total_of(case[0], tuple(result.rolls)) == result.total


def test_a_quick_total_refuses_what_from_values_refuses():
    from referee.engine.dice import DiceError, total_of

    for expr, values in (("1d6", (7,)), ("2d6", (3,)), ("1d6", (0,)), ("1d4", (True,))):
        with pytest.raises(DiceError):
            from_values(expr, list(values))
        with pytest.raises(DiceError):
            total_of(expr, values)
