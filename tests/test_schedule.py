"""tests/schedule.py names the longest tests to hand out first; a name that no longer
matches moves nothing, silently. Each one names a test file that exists and, where it
names a test, a test function defined there (a renamed test is caught here, not in a
slower run)."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from tests.schedule import LONGEST, dealt, rank


def test_every_name_the_schedule_lists_is_a_test_file_or_function() -> None:
    for name in LONGEST:
        path, _, test = name.partition("::")
        file = ROOT / path
        assert file.is_file(), name
        if test:
            function = test.split("[")[0]
            assert re.search(rf"^(async )?def {re.escape(function)}\(", file.read_text(),
                             re.MULTILINE), name


def test_the_order_changes_but_no_test_is_lost_or_doubled() -> None:
    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid = nodeid

    names = [f"tests/test_{n}.py::test_{n}" for n in range(40)] + list(LONGEST)
    items = [Item(name) for name in names]
    order = dealt(items, 4)  # type: ignore[arg-type]
    assert sorted(item.nodeid for item in order) == sorted(names)
    assert rank(LONGEST[0]) == 0 and rank("tests/test_none.py::test_none") == len(LONGEST)
    # each of the four shares (as worksteal first cuts them: 79 items, 19 then 20 each)
    # starts with one of the longest
    starts, left = [], len(items)
    for worker in range(4):
        starts.append(len(items) - left)
        left -= left // (4 - worker)
    assert all(rank(order[start].nodeid) < len(LONGEST) for start in starts)
