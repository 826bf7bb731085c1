import re
import tomllib
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import pytest
import tomli
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.session import tomlpos
from referee.session.tomlpos import locate, parse_error_line

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("**/*.toml"))
SCENARIOS += sorted((Path(__file__).parent.parent / "saves").glob("demo.toml"))


@lru_cache(maxsize=8)
def lines_of(text):
    """The text's lines (split once for a text whose every leaf is looked up: only read)."""
    # tomllib counts lines by "\n" only, so str.splitlines would disagree on "\r" or "\x0c".
    return tuple(text.split("\n"))


def line_with(text, fragment):
    """1-based number of the only line containing `fragment`."""
    found = [n for n, line in enumerate(lines_of(text), 1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


SAVE = """\
# A save written by hand.
format = "referee-save"
title = "Ambush at the ford"

[[combatants]]
id = "brann"
hp = 10

[[combatants]]
id = "gob1"
hp = 4

[[combatants]]
id = "gob2"
hp = 5
speed = 3
"""


def test_top_level_keys():
    assert locate(SAVE, ("title",)) == 3
    assert locate(SAVE, ("format",)) == 2


def test_array_of_tables_elements_and_keys():
    assert locate(SAVE, ("combatants",)) == 5
    assert locate(SAVE, ("combatants", 0)) == 5
    assert locate(SAVE, ("combatants", 1)) == 9
    assert locate(SAVE, ("combatants", 2)) == 13
    assert locate(SAVE, ("combatants", 1, "hp")) == 11
    assert locate(SAVE, ("combatants", 2, "speed")) == 16


def test_falls_back_to_nearest_enclosing_part():
    assert locate(SAVE, ("combatants", 2, "missing", 0, "deeper")) == 13
    assert locate(SAVE, ("combatants", 7, "hp")) == 5
    assert locate(SAVE, ("nothing", "here")) is None


def test_nothing_found():
    assert locate("", ("title",)) is None
    assert locate("title = 'x'\n", ()) is None
    assert locate("# only a comment\n\n", ("title",)) is None


EVENTS = """\
[[events]]
type = "initiative"
[events.rolls]
party = 1

[[events]]
type = "declare"

[[events]]
type = "declare"

[[events]]
type = "declare"

[[events]]
type = "declare"

[[events]]
type = "initiative"

[events.rolls]
goblins = 2
party = 5

[[events]]
type = "end"
"""


def test_sub_table_of_latest_array_element():
    assert locate(EVENTS, ("events", 5)) == 18
    assert locate(EVENTS, ("events", 5, "rolls")) == 21
    assert locate(EVENTS, ("events", 5, "rolls", "party")) == 23
    assert locate(EVENTS, ("events", 5, "rolls", "goblins")) == 22
    assert locate(EVENTS, ("events", 0, "rolls", "party")) == 4
    assert locate(EVENTS, ("events", 6, "rolls", "party")) == 25
    assert locate(EVENTS, ("events", 6, "type")) == 26


def test_nested_array_of_tables():
    text = """\
[[combatants]]
id = "a"
[[combatants.weapons]]
name = "sword"
[[combatants]]
id = "b"
[[combatants.weapons]]
name = "club"
[[combatants.weapons]]
name = "claw"
speed_factor = 2
"""
    assert locate(text, ("combatants", 0, "weapons", 0, "name")) == 4
    assert locate(text, ("combatants", 1, "weapons", 0, "name")) == 8
    assert locate(text, ("combatants", 1, "weapons", 1, "speed_factor")) == 11
    assert locate(text, ("combatants", 1, "weapons", 2)) == 7


def test_dotted_keys():
    text = """\
[[events]]
type = "initiative"
rolls.party = 5
rolls.goblins = 2
"""
    assert locate(text, ("events", 0, "rolls", "party")) == 3
    assert locate(text, ("events", 0, "rolls", "goblins")) == 4
    assert locate(text, ("events", 0, "rolls")) == 3


def test_inline_tables():
    text = """\
[[events]]
type = "initiative"
rolls = { party = 5, goblins = 2 }
note = "after"
"""
    assert locate(text, ("events", 0, "rolls", "goblins")) == 3
    assert locate(text, ("events", 0, "rolls", "nobody")) == 3
    assert locate(text, ("events", 0, "note")) == 4


SIDES = """\
title = "Sides"
sides = [
    { id = "party", name = "The party" },
    { id = "goblins", name = "Goblins" },
]

[[combatants]]
id = "brann"
weapons = [ { name = "long sword", speed_factor = 5 }, { name = "claw" } ]
armour = [
    { name = "leather" }, { name = "shield" },
    { name = "helm" },
    { name = "boots",
      worn = true },
]
"""


def test_array_of_inline_tables_one_per_line():
    assert locate(SIDES, ("sides",)) == 2
    assert locate(SIDES, ("sides", 0, "id")) == 3
    assert locate(SIDES, ("sides", 1)) == 4
    assert locate(SIDES, ("sides", 1, "name")) == 4
    assert locate(SIDES, ("sides", 2, "name")) == 2


def test_array_of_inline_tables_on_one_line():
    weapons = ("combatants", 0, "weapons")
    assert locate(SIDES, (*weapons, 1, "name")) == 9
    assert locate(SIDES, (*weapons, 0, "speed_factor")) == 9
    assert locate(SIDES, ("combatants", 0, "id")) == 8


def test_array_of_inline_tables_spanning_lines():
    armour = ("combatants", 0, "armour")
    assert locate(SIDES, armour) == 10
    assert locate(SIDES, (*armour, 1, "name")) == 11
    assert locate(SIDES, (*armour, 2)) == 12
    assert locate(SIDES, (*armour, 3)) == 13
    assert locate(SIDES, (*armour, 3, "worn")) == 14
    assert locate(SIDES, (*armour, 4, "name")) == 10


TRICKY = '''\
# title = "commented out"
"odd key" = 1   # a comment with = and [brackets]
'dotted.literal' = 2
hash = "not # a comment"
brackets = "[[combatants]] { a = 1 } [x]"
quote = "she said \\"hi = [\\" "
literal = 'C:\\path\\[x]'
notes = """
[[combatants]]
id = "fake" # still inside the string
"""
quotes_at_end = """a "quoted" word""""
after = 3
lines = [ # comment inside the array ]
    "a ] b", # ]
    'c } d',
    """e
f"""", 4, 5,
    6,
]

[[combatants]]
"name with spaces" = "x"
"\\u0041scaped" = 1
'''


def test_comments_strings_and_quoted_keys():
    text = TRICKY
    tomllib.loads(text)  # the snippet must be valid TOML for the test to mean anything
    assert locate(text, ("title",)) is None
    assert locate(text, ("odd key",)) == 2
    assert locate(text, ("dotted.literal",)) == 3
    assert locate(text, ("hash",)) == 4
    assert locate(text, ("brackets",)) == 5
    assert locate(text, ("quote",)) == 6
    assert locate(text, ("literal",)) == 7
    assert locate(text, ("notes",)) == 8
    assert locate(text, ("quotes_at_end",)) == 12
    assert locate(text, ("after",)) == 13
    assert locate(text, ("lines", 0)) == 15
    assert locate(text, ("lines", 1)) == 16
    assert locate(text, ("lines", 2)) == 17
    assert locate(text, ("lines", 3)) == 18
    assert locate(text, ("lines", 4)) == 18
    assert locate(text, ("lines", 5)) == 19
    assert locate(text, ("combatants", 0)) == 22
    assert locate(text, ("combatants", 1)) == 22
    assert locate(text, ("combatants", 0, "name with spaces")) == 23
    assert locate(text, ("combatants", 0, "Ascaped")) == 24
    assert locate(text, ("combatants", 0, "id")) == 22


def test_broken_text_does_not_swallow_later_lines():
    text = """\
a = "unterminated
b = 1
c = "bad \\
d = 2
"\\UFFFFFFFF" = 3
e = [1, }
f = 4
"""
    assert locate(text, ("b",)) == 2
    assert locate(text, ("d",)) == 4
    assert locate(text, ("\\UFFFFFFFF",)) == 5
    assert locate(text, ("f",)) == 7


def test_crlf_line_endings():
    text = SAVE.replace("\n", "\r\n")
    assert locate(text, ("combatants", 2, "speed")) == 16


def test_parse_error_line_from_message():
    with pytest.raises(tomllib.TOMLDecodeError) as caught:
        tomllib.loads('title = "x"\n\n[[combatants]]\nhp = = 3\n')
    assert parse_error_line(caught.value) == 4


def test_parse_error_line_without_a_line():
    assert parse_error_line(tomllib.TOMLDecodeError("Broken (at end of document)")) is None
    assert parse_error_line(tomllib.TOMLDecodeError("no position")) is None


def test_parse_error_line_prefers_lineno_attribute():
    exc = tomllib.TOMLDecodeError("Invalid value (at line 2, column 1)")
    exc.lineno = 9
    assert parse_error_line(exc) == 9


@contextmanager
def scanned_once():
    """`locate` as it is, asked of one text for many paths: its scanner reads each text
    once, not once a path (the scan is the same for the same text, and locate's own walk
    up the path still runs for each). A scenario's 30 leaves were 30 scans of the file."""
    scanner = tomlpos._Scanner
    scans: dict[str, dict] = {}

    class Once:
        def __init__(self, text):
            self.text = text

        def scan(self):
            if self.text not in scans:
                scans[self.text] = scanner(self.text).scan()
            return scans[self.text]

    tomlpos._Scanner = Once
    try:
        yield
    finally:
        tomlpos._Scanner = scanner


@pytest.mark.parametrize("save", SCENARIOS, ids=lambda p: p.name)
def test_every_key_of_real_scenarios_is_found_on_its_line(save):
    text = save.read_text(encoding="utf-8")
    # every scenario is valid TOML (the broken ones live apart), read by tomli: tomllib's
    # parser compiled, the same data
    data = tomli.loads(text)
    with scanned_once():
        for path, _ in leaves(data):
            check_leaf_line(text, path)


# -- generated documents -------------------------------------------------------

KEY = st.text(alphabet="abcXZ09_- .#=[]{}'é", min_size=1, max_size=6)
SCALAR = st.one_of(
    st.integers(-1000, 1000),
    st.booleans(),
    st.text(alphabet="ab \"'#=[]{}\\\n\t,é", max_size=12),
)


def nested_data(scalar):
    return st.recursive(
        scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(KEY, inner, max_size=3),
        ),
        max_leaves=12,
    )


DOCUMENT = st.dictionaries(KEY, nested_data(SCALAR), max_size=4)


def leaves(data, path=()):
    """Yield (path, value) for every scalar and every empty container."""
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in items:
        if isinstance(value, dict | list) and value:
            yield from leaves(value, (*path, key))
        else:
            yield (*path, key), value


def written_key(key):
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"'


def check_leaf_line(text, path):
    line = locate(text, path)
    assert line is not None and 1 <= line <= len(lines_of(text)), (path, line)
    if isinstance(path[-1], str):
        assert written_key(path[-1]) in lines_of(text)[line - 1], (path, line)
    return line


def literal(value, multiline):
    """How tomli_w writes `value`, up to the end of its first line."""
    return tomli_w.dumps({"k": value}, multiline_strings=multiline).split("\n")[0][4:]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT, st.booleans())
def test_every_leaf_of_a_written_document_is_found(data, multiline):
    text = tomli_w.dumps(data, multiline_strings=multiline)
    with scanned_once():
        for path, value in leaves(data):
            line = check_leaf_line(text, path)
            row = lines_of(text)[line - 1]
            if isinstance(path[-1], str) and not isinstance(value, dict):
                # The key's own line, not just any line mentioning the name.
                assert f"{written_key(path[-1])} = {literal(value, multiline)}" in row, (
                    path, line)
            elif isinstance(path[-1], int):
                assert literal(value, multiline) in row, (path, line)


TOMLISH = st.text(alphabet="ab=.,#[]{}\"' \t\n\r\\1é", max_size=80)
PATHS = st.lists(st.one_of(st.text(max_size=3), st.integers(-2, 5)), max_size=5).map(tuple)


@settings(max_examples=250)
@given(st.one_of(st.text(max_size=80), TOMLISH), PATHS)
def test_never_raises_on_any_text(text, path):
    line = locate(text, path)
    assert line is None or 1 <= line <= text.count("\n") + 1


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT, st.data())
def test_never_raises_on_damaged_documents(data, draw):
    text = tomli_w.dumps(data, multiline_strings=True)
    start = draw.draw(st.integers(0, len(text)))
    end = draw.draw(st.integers(start, len(text)))
    damaged = text[:start] + draw.draw(TOMLISH) + text[end:]
    with scanned_once():
        for path, _ in leaves(data):
            line = locate(damaged, path)
            assert line is None or 1 <= line <= damaged.count("\n") + 1
