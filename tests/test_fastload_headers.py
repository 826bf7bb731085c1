"""A long log's events go through the JSON reading (fastload's quick path: about half the
time and a third of the memory of the block reader) however its headers are spaced: a
save joined from pieces (as the save-cap benchmark joins its rounds), or edited by hand,
has `[[events]]` headers with no blank line before them; it is read as the parser reads
it (counted: the quick path taken, never timed)."""

from __future__ import annotations

import tomllib

import pytest

from referee.session import fastload

BLOCK = '"round" = {n}\n"type" = "note"\n"text" = "line {n}"\n'


def joined(blanks: list[str]) -> str:
    """A head and a log whose n-th header has `blanks[n]` before it."""
    text = 'format = "referee-save"\n'
    for n, blank in enumerate(blanks):
        text += blank + "[[events]]\n" + BLOCK.format(n=n + 1)
    return text


@pytest.mark.parametrize("blanks", [
    ["\n"] * 3,  # as the writer writes
    ["\n", "", "", "\n"],  # pieces joined: no blank line before some headers
])
def test_headers_however_spaced_are_read_quickly_as_the_parser_reads_them(
        blanks: list[str]) -> None:
    text = joined(blanks)
    head, _, rest = text.partition(fastload.HEADER)
    quick = fastload._events_json(rest)
    assert quick is not None  # the JSON reading took it
    assert quick == tomllib.loads(text)["events"]
