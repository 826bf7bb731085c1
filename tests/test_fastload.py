"""The fast reader of [[events]] blocks always gives what the TOML parser gives."""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.session import fastload
from referee.session.fastload import loads
from referee.session.writer import save_text
from tests.conftest import ROOT
from tests.test_writer import demo_encounter, events


@pytest.fixture(autouse=True)
def fast_paths_for_short_texts(monkeypatch):
    """The fast paths are taken for long texts only; here, for every text."""
    monkeypatch.setattr(fastload, "FAST_FROM", 0)


HEAD = (ROOT / "tests" / "scenarios" / "demon-idol" / "di-01-won-initiative.toml").read_text()
HEAD = HEAD.split("[[events]]")[0]


def same(text: str, parsed: tuple[str, Any] | None = None) -> None:
    """`loads` gives what tomllib gives, or its fault (`parsed`: tomllib's outcome for
    `text`, when already known: ("value", its _types) or ("fault", the error's type))."""
    if parsed is None:
        parsed = tomllib_outcome(text)
    kind, want = parsed
    if kind == "fault":  # nested past the reader, or not TOML
        with pytest.raises(want):
            loads(text, tomllib.loads)
        return
    assert _types(loads(text, tomllib.loads)) == want  # nan is nan


def tomllib_outcome(text: str) -> tuple[str, Any]:
    try:
        return "value", _types(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        return "fault", type(error)


@settings(max_examples=200, deadline=None)
@given(st.lists(events, min_size=1, max_size=6))
def test_written_saves(log):
    same(save_text(demo_encounter(), log))


lines = st.sampled_from([
    'type = "note"', "round = 1", 'text = "a # b"', "text = 'literal'", "round = 01",
    "round = +1", "x = 1_000", 'text = "esc\\"aped"', "rolls = { a = 1, a = 2 }",
    "dice = [1, 2, 3]", "dice = [1,2]", "dice = []", "flag = true", "flag = True", "",
    "# a comment", "   ", "[events.rolls]", "a = 1", "round = 1 # trailing", "round = 2",
    "[[events]]", "[[sides]]", 'text = """', "x = 1.5", "x = -0", "bad line", "x =",
    "rolls = { a = 1, b = -2 }", 'k = { a = "x" }', "round = 99999999999999999999",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(lines, max_size=12))
def test_any_event_lines(body):
    same(HEAD + "\n[[events]]\n" + "\n".join(body) + "\n")


quoted = st.sampled_from([
    '"type" = "note"', '"round" = 1', '"a" = 1, "b" = 2', '"x" = null', '"x" = NaN',
    '"x" = Infinity', '"t" = "a\\/b"', '"t" = "\\ud800"', '"t" = "tab\there"',
    '"k" = { "a" = 1, "a" = 2 }', '"k" = { "a" = 1, "b" = [1, 2] }', '"k" = 1', '"k" = 2',
    '"d" = [1,', "2]", '"s" = "x = y"', '"s" = "\x7f"', '"f" = 1.5', '"f" = 1e400',
    '"e" = -0', '"q" = "\\""', '"m" = """', "[[events]]", "", "# note", '"n" = [null]',
    '"u" = "\\u00e9"', '"w" = true', '"w2" = True', 'k = 1', '"z" = "a" "b"',
])


@settings(max_examples=300, deadline=None)
@given(st.lists(quoted, min_size=1, max_size=12))
def test_quoted_event_lines(body):
    same(HEAD + "\n[[events]]\n" + "\n".join(body) + "\n")


well_written = st.builds(lambda text, n: ['"type" = "note"', f'"text" = "{text}"',
                                          f'"round" = {n}'],
                         st.sampled_from(["a", "b = c", "[[events]]", "{ }"]),
                         st.integers(1, 9))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.lists(quoted, min_size=1, max_size=5), well_written),
                min_size=1, max_size=8), st.integers(1, 120))
def test_blocks_read_in_pieces_as_the_parser_reads_them(blocks, piece):
    """A long log's blocks are read as JSON a piece at a time, split at their headers:
    what the pieces give is what the parser gives, and the pieces take the JSON path
    wherever the blocks read as one document would."""
    text = HEAD + "".join("\n[[events]]\n" + "\n".join(body) for body in blocks) + "\n"
    rest = text.partition(fastload.HEADER)[2]
    whole = fastload._events_json(rest, len(rest) + 1)
    pieces = fastload._events_json(rest, piece)
    if pieces is not None:
        assert pieces == tomllib.loads(text)["events"]
    if whole is not None:
        assert pieces == whole


def test_a_long_log_is_read_in_pieces(monkeypatch):
    """The saves the writer writes, split where each piece ends: the same events."""
    log = [ev_note(n) for n in range(300)]
    rest = save_text(demo_encounter(), log).partition(fastload.HEADER)[2]
    read: list[int] = []
    real = fastload._piece_json
    monkeypatch.setattr(fastload, "_piece_json", lambda r: read.append(len(r)) or real(r))
    assert fastload._events_json(rest, 1000) == [e.to_dict() for e in log]
    assert len(read) > 5 and all(size < 1200 for size in read)


def ev_note(n: int) -> Any:
    from referee.engine import events as ev

    return ev.Note(round=1 + n // 50, text=f"note {n}")


def test_crlf_and_files_without_events_go_to_the_parser():
    same(HEAD.replace("\n", "\r\n") + "\r\n[[events]]\r\ntype = \"note\"\r\nround = 1\r\n")
    same(HEAD)


# -- plain TOML: long hand-written and tomli_w-written files -----------------------------

import tomli  # noqa: E402
import tomli_w  # noqa: E402

PARSERS = (tomllib.loads, tomli.loads)  # the standard one (TOML 1.0) and the one we use


def same_plain(text: str) -> tuple[str, Any]:
    """Through the plain reader, then through `loads`: what each parser gives (the
    standard one and the one the program uses), or its fault. Gives tomllib's outcome
    (as `same` takes it)."""
    outcome: tuple[str, Any] = ("fault", Exception)
    for parse in PARSERS:
        try:
            want = parse(text)
        except Exception as error:
            fault = type(error)
            with pytest.raises(fault):
                loads(text, parse)
            try:
                fastload.plain(text, parse)
            except fastload._Unusual:
                pass
            else:
                raise AssertionError(f"plain read what {parse.__module__} refuses")
            if parse is tomllib.loads:
                outcome = ("fault", fault)
            continue
        shape = _types(want)
        try:
            got = fastload.plain(text, parse)
        except fastload._Unusual:
            pass
        else:
            assert _types(got) == shape
        got = loads(text, parse)
        assert _types(got) == shape
        if parse is tomllib.loads:
            outcome = ("value", shape)
    return outcome


def _types(value):
    """The value's shape with its types: 1, 1.0 and True are equal, but not the same."""
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return (type(value).__name__, repr(value))


def utf8(path) -> bool:
    """Text the file reader reads at all (it refuses other bytes before any parsing)."""
    try:
        path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return False
    return True


@cache
def every_toml():
    """Every TOML file of the project that is UTF-8 (the reader's first check), listed once
    a worker: each file is read to know."""
    found = sorted([*(ROOT / "tests").rglob("*.toml"), *(ROOT / "saves").rglob("*.toml"),
                    *(ROOT / "referee").rglob("*.toml")])
    return [p for p in found if "__snapshots__" not in p.parts and utf8(p)]


@pytest.mark.parametrize("path", every_toml(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_toml_file_reads_the_same(path):
    """`same_plain`, and with it `same`: its tomllib pass is `same`'s check (`loads` gives
    tomllib's shape, or raises tomllib's fault), not made a second time; a fault of
    tomllib's that `same` does not expect is raised."""
    text = path.read_text(encoding="utf-8")
    parsed = same_plain(text)
    if parsed[0] == "fault" and parsed[1] not in (tomllib.TOMLDecodeError, RecursionError):
        tomllib_outcome(text)  # a fault `same` does not expect: raised there


def test_the_files_in_the_tests_are_mostly_plain():
    """The plain reader is not just falling back: it reads the hand-written scenarios."""
    read = 0
    for path in every_toml():
        try:
            fastload.plain(path.read_text(encoding="utf-8"), tomllib.loads)
            read += 1
        except (fastload._Unusual, tomllib.TOMLDecodeError, UnicodeDecodeError):
            pass
    assert read > len(every_toml()) // 2


def test_a_long_plain_file_takes_the_plain_path(monkeypatch):
    import sys

    monkeypatch.undo()  # the length the program uses

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import plan_bench
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    text = tomli_w.dumps(plan_bench.big_save(combatants=300, surprise=True))
    assert len(text) > fastload.FAST_FROM
    taken = []
    real = fastload.plain
    monkeypatch.setattr(fastload, "plain", lambda t, p: taken.append(len(t)) or real(t, p))
    for parse in PARSERS:
        assert loads(text, parse) == parse(text)
    assert taken


keys = st.sampled_from(["id", "name", "hp", "x", "a-b", "a_b", "1", "side", "ü", "a b", ""])
scalars = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8),
    st.sampled_from(["", "a = b", "x, y = 1", "{ a = 1 }", "[1]", "#", "'", "\\", "]"]),
    st.integers(-10**20, 10**20), st.booleans(),
    st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 1e300, 3.5, 1e-7, 100.0]),
)
inline_tables = st.dictionaries(keys, scalars, max_size=4)
values = st.one_of(
    scalars,
    st.lists(scalars, max_size=4),
    st.lists(inline_tables, max_size=3),
    inline_tables,
    st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=2),
)
tables = st.dictionaries(keys, values, max_size=5)
documents = st.fixed_dictionaries(
    {},
    optional={
        "format": st.just("referee-save"), "version": st.integers(0, 2),
        "sides": st.lists(tables, max_size=3),
        "combatants": st.lists(tables, max_size=4),
        "events": st.lists(st.dictionaries(keys, values | st.dictionaries(keys, scalars),
                                           max_size=5), max_size=4),
        "note": scalars,
    },
)


@settings(max_examples=300, deadline=None)
@given(documents, st.booleans())
def test_tomli_w_documents(document, multiline):
    same_plain(tomli_w.dumps(document, multiline_strings=multiline))


plain_lines = st.sampled_from([
    'id = "c0"', "hp = 10", "hp = +10", "hp = -0", "hp = 01", "hp = 1_0", "x = 3.5",
    "x = 1e5", "x = 1.5E-3", "x = .5", "x = 5.", "x = inf", "x = nan", "x = 1979-05-27",
    "flag = true", "flag = false", "flag = True", "  indented = 1", "spaced   =   2",
    "tabbed\t=\t3", 'name = "a # b" # c', "name = 'lit'", "name = 'a\"b'",
    'name = "esc\\"aped"', 'name = "tab\there"', '"quoted key" = 1', '"" = 2',
    '"hp" = 3', "a.b = 1", "x =", "bad line", "x = 1 2", 'x = "a" "b"',
    "weapons = [", "    { name = \"sword\", speed_factor = 2, length = 3.5 },",
    "    { name = \"bow\", missile = true },", "    1,", '    "horde",', "]", "],",
    "    # inside", "", "# comment", "   # indented comment", "x = 1 # \x7f",
    "arr = [1, 2, 3]", "arr = [1, 2, 3,]", "arr = []", "arr = [ ]", "arr = [,]",
    "arr = [[1], [2]]", "arr = [1, [2]]", "arr = [1,2", "arr = [{a = 1}, {b = 2}]",
    "t = { a = 1, b = \"x\" }", "t = { a = 1, }", "t = { a = 1, a = 2 }", "t = {}",
    "t = { }", "t = { a = { b = 1 } }", "t = { a.b = 1 }", "t = {a=1}",
    "[[combatants]]", "[[combatants.gear]]", "[combatants.extra]", "[[events]]",
    "[events.rolls]", "[events]", "[table]", "[table.sub]", "[ table ]", "[[ spaced ]]",
    "[a.b.c]", "[[sides]]", "[sides]", "x = 1", "x = 2", "rolls = { party = 3 }",
    "dates = [1979-05-27]", "s = \"\"\"", "s = \"\"\"multi\"\"\"", "s = '''lit'''",
    'sides = [{ id = "a" }]', "arr = [{ a = 1 }]", "t = { x = 1 }", "[[arr]]", "[arr.x]",
    "[[t]]", "[t.sub]", "[[t.sub]]", "[[table.sub]]", "[[x]]", "[x]", "[x.y]", "[[x.y]]",
    "y = 1",
])


@settings(max_examples=600, deadline=None)
@given(st.lists(plain_lines, max_size=14))
def test_any_plain_lines(body):
    same_plain("\n".join(body) + "\n")
    same_plain("\n".join(body))


@pytest.mark.parametrize("text", [
    "t = { x = 1 }\n[t.sub]\n", "t = { x = 1 }\n[[t.sub]]\n", "a = [{ b = 1 }]\n[[a]]\n",
    "a = [{ b = 1 }]\n[a.c]\n", "a = 1\n[a]\n", "[a]\n[a]\n", "[a]\n[[a]]\n", "[[a]]\n[a]\n",
    "[a]\nb = 1\n[a.b]\n", "[a.b]\n[a]\n", "[a]\n[a.b]\nc = 1\n[a.b]\n",
    "[[a]]\n[a.b]\n[[a]]\n[a.b]\nx = 1\n", "[[a]]\n[[a.b]]\n[[a.b]]\n[[a]]\n[[a.b]]\n",
    "[[a]]\n[a.b]\n[[a.b]]\n", "[[a]]\nb = [1]\n[[a.b]]\n", "[[a]]\nb = { c = 1 }\n[a.b]\n",
    "[a]\n[[a.b]]\n[[a.b]]\n", "[a]\nb = 1\n[[a.b]]\n", '[a]\n"b" = 1\nb = 2\n',
    "x = [\n  1,\n\n  2,\n]\n", "x = [\n  1,\n  # c\n  2,\n]\n", "x = [\n  [1,\n  ],\n]\n",
    "x = [\n  1\n  2\n]\n", "x = [\n]\n", "x = [\n,\n]\n", "x = [ 1, 2 ] # ]\n",
    'x = [\n  { a = 1 },\n  { a = "]" },\n]\n', "x = [\n  1,\n] # done\ny = 2\n",
    "x = [1,\n2]\n", "x = {\n}\n", 'x = { a = 1, b = { c = 2 } }\n',
])
def test_tables_and_arrays_as_the_parser_has_them(text):
    same_plain(text)


def test_written_events_with_inline_tables_take_the_json_path():
    """Blocks with inline tables (initiative rolls, a joining combatant) after blocks
    without: read as one JSON document, not handed on to the slower readers."""
    from referee.engine import events as ev
    from referee.engine.model import Combatant, Weapon
    from referee.rulesets.demon_idol import events as di
    from referee.session.files import load_save

    encounter = load_save(ROOT / "saves" / "demo.toml").encounter
    log = [ev.Note(round=1, text="a"), di.Initiative(round=1, rolls={"party": 3, "goblins": 2}),
           ev.Note(round=1, text="b"), ev.Note(round=1, text="c"),
           ev.Join(round=1, combatant=Combatant("z", "Z", "party", 5, 5, (Weapon("axe"),))),
           di.Initiative(round=2, rolls={"party": 1, "goblins": 6})]
    text = save_text(encounter, log)
    rest = text.partition(fastload.HEADER)[2]
    assert fastload._events_json(rest) == tomllib.loads(text)["events"]
    twice = rest.replace('"goblins" = 6', '"party" = 6')
    assert fastload._events_json(twice) is None  # a key written twice in an inline table


@pytest.mark.parametrize("value", ['\n1', ' \n1', '\n"x"', '[1,\n2]', '{ "a" = 1,\n "b" = 2 }'])
def test_a_value_across_lines_is_read_as_the_parser_reads_it(value):
    """JSON takes a value on the line after its key, which TOML refuses: the JSON path
    leaves any line break that starts no key line, blank line or header to the others."""
    same(HEAD + '\n[[events]]\n"type" = "note"\n"text" = "a"\n"round" = 1\n'
         + '\n[[events]]\n"type" = "note"\n"x" =' + (value if value[0] in " \n" else " " + value)
         + '\n"round" = 1\n')

