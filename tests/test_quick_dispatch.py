"""A long log's tables are given to their quick reader by their type and number of keys
(no tuple of the keys made for each): a table of another shape with as many keys still
goes to its own shape's reader, never wrongly read, and each shape is made one reader
(counted, never timed)."""

from __future__ import annotations

import pytest

from referee.engine import events as ev
from referee.engine.events import EventReader


def reader() -> EventReader:
    """A reader that reads every log with its quick readers, however short (as a long
    log's: `EventReader.quick_from`)."""
    made = EventReader(ev.event_types())
    made.quick_from = 0
    return made


def test_a_table_of_another_shape_with_as_many_keys_is_read_by_its_own():
    made: list[tuple[str, ...]] = []
    reading = reader()
    quick = reading._quick

    def counted(known, kind, keys):
        made.append(keys)
        return quick(known, kind, keys)

    reading._quick = counted  # type: ignore[method-assign]
    strict: list[object] = []
    strictly = reading.strictly
    reading.strictly = lambda d, p: strict.append(d) or strictly(d, p)  # type: ignore[method-assign]
    first = {"type": "damage", "target": "gob1", "amount": 2, "critical": True, "round": 1}
    other = {"type": "damage", "target": "gob1", "amount": 1, "source": "brann", "round": 1}
    again = {"type": "damage", "round": 1, "critical": False, "amount": 3, "target": "gob2"}
    tables = [first, other, dict(first), other | {}, again]
    events = list(reading.each(list(tables), [0]))
    assert events == [reader().strictly(table, ("events", n)) for n, table in enumerate(tables)]
    assert events[1].source == "brann" and not events[1].critical
    assert strict == []  # every one read by a quick reader
    # the second shape is made once; the reordered one is read by the first's (as many keys)
    assert made == [tuple(first), tuple(other)]


def fault(read, *args):
    try:
        read(*args)
    except ev.FormatError as error:
        return error.reason, error.path
    raise AssertionError(f"read: {args}")


def test_a_table_missing_a_key_of_its_length_reader_is_read_strictly_with_its_fault():
    reading = reader()
    good = {"type": "damage", "target": "gob2", "amount": 2, "round": 1}
    list(reading.each([dict(good)], [0]))  # its length's reader made
    for bad in ({"type": "damage", "target": "gob1", "amount": -1, "round": 1},
                {"type": "damage", "target": "gob1", "zzz": 1, "round": 1},
                {"type": "damage", "target": "gob1", "amount": 1, "zzz": 1}):
        found = fault(lambda tables: list(reading.each(tables, [0])), [dict(good), dict(bad)])
        assert found == fault(reader().strictly, dict(bad), ("events", 1)), bad


def test_ids_and_strings_read_before_are_looked_up_not_checked_again(monkeypatch):
    from referee.engine import record

    calls: list[object] = []
    quick_ids = record._quick_ids
    monkeypatch.setattr(record, "_quick_ids",
                        lambda value, keep: calls.append(value) or quick_ids(value, keep))
    reading = reader()
    tables = [{"type": "resolve", "actions": ["gob1:B", "ogre:E"], "round": n}
              for n in range(1, 6)]
    tables += [{"type": "resolve", "actions": ["gob1:B", 3], "round": 6},
               {"type": "resolve", "actions": ["gob1:B", ["x"]], "round": 6}]
    events = []
    for n, table in enumerate(tables):
        try:
            events.append(reading.read(dict(table), ("events", n)))
        except ev.FormatError as error:
            events.append((error.reason, error.path))
    strict = []
    for n, table in enumerate(tables):
        try:
            strict.append(reader().strictly(dict(table), ("events", n)))
        except ev.FormatError as error:
            strict.append((error.reason, error.path))
    assert events == strict
    assert len({id(e.actions) for e in events[:5]}) == 1  # one tuple kept for them all
    # the first list checked; the others equal to it looked up; an odd one checked (and
    # left to the strict reader), one holding a list not looked up at all
    assert calls == [["gob1:B", "ogre:E"], ["gob1:B", 3]]


def test_a_quick_reader_is_compiled_once_a_process(monkeypatch):
    import builtins

    from referee.engine import record

    compiled: list[str] = []
    real = builtins.exec
    monkeypatch.setattr(record, "_QUICK_CODE", {})
    monkeypatch.setattr(record, "exec", lambda source, *rest: compiled.append(source) or
                        real(source, *rest), raising=False)
    table = {"type": "damage", "target": "gob1", "amount": 2, "round": 1}
    first, second = reader(), reader()  # (each log's reader makes its own)
    assert first.read(dict(table), ("events", 0)) == second.read(dict(table), ("events", 0))
    assert len(compiled) == 1
    # each its own function, over its own reader's kept values
    assert first.quick["damage"][4] is not second.quick["damage"][4]
    assert first.kept and second.kept and first.kept is not second.kept



@pytest.mark.parametrize(("count", "made_readers"),
                         [(ev.QUICK_FROM - 1, False), (ev.QUICK_FROM, True)])
def test_a_short_log_is_read_strictly_and_a_long_one_by_quick_readers(count, made_readers):
    """A short log's shapes are given no reader (one costs more to make than it saves over
    a few hundred tables: a small save's `plan`); a log of `quick_from` tables is read by
    them. The events are the same either way."""
    table = {"type": "damage", "target": "gob1", "amount": 2, "round": 1}
    reading = EventReader(ev.event_types())
    strict: list[object] = []
    strictly = reading.strictly
    reading.strictly = lambda d, p: strict.append(d) or strictly(d, p)  # type: ignore[method-assign]
    events = list(reading.each([dict(table) for _ in range(count)], [0]))
    assert events == [reader().strictly(dict(table), ("events", 0))] * count
    assert bool(reading.quick["damage"]) is made_readers
    assert len(strict) == (0 if made_readers else count)
