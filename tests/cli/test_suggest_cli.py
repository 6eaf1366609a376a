"""The moves a refusal suggests, written by the console (``referee.cli.suggest``, E240): the
same text as the GM has always read, and a name with a space quoted as it is typed (it was
written bare in `sit`, `hand show`, `soul buyout` and a few more)."""

from __future__ import annotations

from tests.cli.conftest import GM


def _table(gm: GM) -> None:
    gm("new", "--fool", "Max", "--seat", "Lord Ashby:XVI:red", "--seat", "Cy:III:blue",
       "--seat", "Ed:V:green")


def test_e240_a_name_with_a_space_is_suggested_in_quotes(gm: GM) -> None:
    _table(gm)
    gm("rise", "Lord Ashby")
    assert gm.fails("rise", "Lord Ashby") == (
        'error: Lord Ashby has already risen from the table; `referee sit "Lord Ashby"` seats '
        "them again")


def test_e240_a_hint_inside_a_hint_reads_as_before(gm: GM) -> None:
    _table(gm)
    gm("hand", "start")
    assert gm.fails("hand", "showdown") == (
        "error: betting is not over, and the showdown comes after the last betting round: "
        "round 1's up cards are not all given (Cy has 0 of 2, Ed 0 of 2, Lord Ashby 0 of 2, "
        "Max 0 of 4); give them with `referee hand show Cy CARDS` before any bet (R9)")
    assert gm.fails("hand", "show", "Lord Ashby: +") == (
        'error: no cards given for Lord Ashby; write `hand show "Lord Ashby" CARDS` (all up '
        'cards so far) or `hand show "Lord Ashby" +CARDS` (the new ones)')
