"""Appended blocks and full rewrites parse as exactly the same events (FORMAT round trip)."""

from __future__ import annotations

import functools
import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import events as ev
from referee.engine.model import Combatant, Weapon
from referee.rulesets.demon_idol import events as di
from referee.session.files import load_ruleset, load_save
from referee.session.writer import event_block, save_text, string
from tests.conftest import ROOT

text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
ids = st.text("abcdefgh-_1", min_size=1, max_size=6)
small = st.integers(-1000, 1000)
words = text.filter(str.strip)
maybe = st.none() | words

READER = load_ruleset("demon-idol").schema.reader


@functools.cache
def demo_encounter():
    """The bundled demo's encounter, read once (it is frozen)."""
    return load_save(ROOT / "saves" / "demo.toml").encounter


def read_event(data, path):
    return READER.read(data, path)


events = st.one_of(
    st.builds(di.Declare, round=st.integers(1, 50), actor=ids, action=st.sampled_from("PABCDEFG"),
              target=st.lists(ids, max_size=3).map(tuple), weapon=maybe,
              spell=maybe, delay=st.integers(0, 5), prepared=st.booleans(),
              trigger=maybe, closing=st.none() | st.integers(0, 9),
              follows=st.booleans()),
    st.builds(di.Initiative, round=st.integers(1, 9),
              rolls=st.dictionaries(ids, st.integers(1, 6), max_size=3)),
    st.builds(ev.Damage, round=st.integers(0, 9), target=ids, amount=st.integers(0, 99),
              note=maybe, critical=st.booleans(), beat=st.none() | st.integers(1, 9)),
    st.builds(ev.Roll, round=st.integers(0, 9), expr=words,
              dice=st.lists(st.integers(1, 100), max_size=5).map(tuple), total=small,
              purpose=maybe),
    st.builds(ev.Note, round=st.integers(0, 9), text=words),
    st.builds(ev.Join, round=st.integers(1, 9),
              combatant=st.builds(Combatant, id=ids, name=words, side=ids,
                                  hp=small, max_hp=small,
                                  weapons=st.lists(st.builds(
                                      lambda name, length: Weapon(name, stats={} if length is None
                                                                  else {"length": length}),
                                      words, st.none() | st.floats(0, 30, allow_nan=False)),
                                      max_size=2, unique_by=lambda w: w.name).map(tuple))),
    st.builds(ev.Undo, round=st.integers(0, 9)),
)


@settings(max_examples=300, deadline=None)
@given(events)
def test_one_block_parses_back_to_the_same_event(event):
    data = tomllib.loads(event_block(event))["events"][0]
    assert read_event(data, ("events", 0)) == event


@settings(max_examples=100, deadline=None)
@given(st.lists(events, max_size=8))
def test_appended_blocks_equal_a_full_rewrite(log):
    encounter = demo_encounter()
    whole = tomllib.loads(save_text(encounter, log))
    appended = tomllib.loads(save_text(encounter, []) + "".join("\n" + event_block(e)
                                                               for e in log))
    assert whole == appended
    assert [read_event(d, ()) for d in whole.get("events", [])] == log


@given(text)
def test_strings_survive_any_character(value):
    assert tomllib.loads(f"v = {string(value)}")["v"] == value


# A full save of every scenario loading back identical (its encounter and its log) is
# test_contract.py's round trip (test_stats_and_events_round_trip_through_the_writer_and_
# the_fast_reader), run for every scenario and every demo: not made a second time here.
