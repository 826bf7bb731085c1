"""The fast reader of [[events]] blocks always gives what the TOML parser gives."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.session.fastload import loads
from referee.session.writer import save_text
from tests.conftest import ROOT
from tests.test_writer import events

HEAD = (ROOT / "tests" / "scenarios" / "demon-idol" / "di-01-won-initiative.toml").read_text()
HEAD = HEAD.split("[[events]]")[0]


def same(text: str) -> None:
    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(tomllib.TOMLDecodeError):
            loads(text, tomllib.loads)
        return
    assert loads(text, tomllib.loads) == want


@settings(max_examples=200, deadline=None)
@given(st.lists(events, min_size=1, max_size=6))
def test_written_saves(log):
    from referee.session.files import load_save

    encounter = load_save(ROOT / "saves" / "demo.toml").encounter
    same(save_text(encounter, log))


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


@settings(max_examples=600, deadline=None)
@given(st.lists(quoted, min_size=1, max_size=12))
def test_quoted_event_lines(body):
    same(HEAD + "\n[[events]]\n" + "\n".join(body) + "\n")


def test_crlf_and_files_without_events_go_to_the_parser():
    same(HEAD.replace("\n", "\r\n") + "\r\n[[events]]\r\ntype = \"note\"\r\nround = 1\r\n")
    same(HEAD)
