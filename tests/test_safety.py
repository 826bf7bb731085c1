"""Nothing in a save or a ruleset is ever executed: no eval, pickle, shell or imports of
names taken from files; `exec` appears only where record.py compiles its own field names."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT

FORBIDDEN = re.compile(
    r"\b(eval|pickle|marshal|shelve|os\.system|subprocess|__import__|shell=True)\b")


def sources():
    return sorted((ROOT / "referee").rglob("*.py"))


def test_no_dangerous_calls_in_the_package():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sources()
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if FORBIDDEN.search(line.split("#")[0])]
    assert found == []


def test_exec_only_compiles_record_field_names():
    users = [p.name for p in sources() if re.search(r"\bexec\(", p.read_text())]
    assert users == ["record.py"]


@pytest.mark.parametrize("logic", ["os", "../os", "demon_idol.order", "demon-idol.order",
                                   "Demon-Idol", "sys", "", "referee"])
def test_ruleset_logic_names_only_a_package_we_ship(logic):
    """A ruleset file's `logic` is looked up as a package folder in the fixed directory:
    nothing else is ever imported for it."""
    from referee.engine.errors import FormatError
    from referee.rulesets import make_ruleset

    with pytest.raises(FormatError, match="unknown ruleset logic"):
        make_ruleset({"id": "x", "logic": logic})
