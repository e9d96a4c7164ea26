"""The CLI's tables and lines drawn without Rich (issue 17: ``timers`` and ``character
show`` need not import it) are the characters Rich draws: :meth:`Env.table` against a
Rich ``Table`` printed by the CLI's console, :meth:`Env.show` against
``console.print(text, markup=False)``, on any text and terminal width; whatever the
plain drawing cannot match (a table to crop, a wide character, a tab) goes to Rich."""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.table import Table

from lazaretto.cli import env as cli_env
from lazaretto.cli.env import Env
from lazaretto.cli.render import safe_console

#: Letters a table holds (Latin, Cyrillic, the punctuation printed), and what the plain
#: drawing must leave to Rich: a tab, a line break, wide and zero-width characters, an
#: escape, and text Rich reads as an emoji code.
SIMPLE = "aZ09 ()/.,:-–—…•→№ЖжЁё"
TRICKY = ["\t", "\n", "漢", "😀", "e\u0301", "\x1b[2J", "\u200b", ":smile:", ":100:"]
TEXT = st.lists(st.sampled_from([*SIMPLE, *TRICKY]), max_size=12).map("".join)
SHORT = st.lists(st.sampled_from(SIMPLE), max_size=30).map("".join)


@contextlib.contextmanager
def columns(value: str | None) -> Iterator[None]:
    """``COLUMNS`` set to ``value`` (None: unset) while inside."""
    before = os.environ.get("COLUMNS")
    if value is None:
        os.environ.pop("COLUMNS", None)
    else:
        os.environ["COLUMNS"] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = before


def printed(draw: object) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        draw()  # type: ignore[operator]
    return out.getvalue()


def by_rich(headers: list[str], rows: list[list[str]], title: str | None) -> str:
    def draw() -> None:
        table = Table(*headers, title=title)
        for row in rows:
            table.add_row(*row)
        safe_console().print(table)

    return printed(draw)


def tables(cell: st.SearchStrategy[str]) -> st.SearchStrategy[tuple[list[str], list[list[str]]]]:
    return st.integers(1, 5).flatmap(
        lambda n: st.tuples(
            st.lists(cell, min_size=n, max_size=n),
            st.lists(st.lists(cell, min_size=n, max_size=n), max_size=4),
        )
    )


@pytest.mark.parametrize("width", [None, "20", "45", "200", "wide"])
@settings(max_examples=60, deadline=None)
@given(table=tables(st.one_of(SHORT, TEXT)), title=st.one_of(st.none(), SHORT, TEXT))
def test_a_table_is_drawn_as_rich_draws_it(
    width: str | None, table: tuple[list[str], list[list[str]]], title: str | None
) -> None:
    headers, rows = table
    env = Env()
    with columns(width):
        plain = printed(lambda: env.table(headers, rows, title=title))
        assert plain == by_rich(headers, rows, title)
    event("drawn by Rich" if env._console is not None else "drawn without Rich")


def test_the_countdown_table_is_drawn_without_rich_when_it_fits() -> None:
    headers = ["at", "in", "what", "who"]
    rows = [["12:20:00", "30m00s", "light wound turns heavy", "Rustam (R)"]]
    env = Env()
    with columns(None):
        plain = printed(lambda: env.table(headers, rows, title="Countdowns at 11:50:00"))
    assert env._console is None  # Rich's console was never made
    assert plain == by_rich(headers, rows, "Countdowns at 11:50:00")
    assert plain.splitlines()[0] == "Countdowns at 11:50:00"  # Rich's title, not centred
    assert plain.splitlines()[4] == "│ 12:20:00 │ 30m00s │ light wound turns heavy │ Rustam (R) │"


@settings(max_examples=200, deadline=None)
@given(text=TEXT)
def test_a_line_is_printed_as_the_console_prints_it(text: str) -> None:
    env = Env()
    assert printed(lambda: env.show(text)) == printed(
        lambda: safe_console().print(text, markup=False)
    )
    event("printed by Rich" if env._console is not None else "printed without Rich")


def test_a_time_is_no_emoji_but_an_emoji_code_is_one() -> None:
    line = "  • light wound since 11:50:00 → 12:20:00 :thumbs_up: :100:"
    assert printed(lambda: Env().show(line)) == "  • light wound since 11:50:00 → 12:20:00 👍 💯\n"


def test_what_the_plain_drawing_knows_of_rich_holds() -> None:
    """Of Rich's emoji names made of digits alone, only 100 and 1234 are; every
    character the plain table accepts is one column wide for Rich."""
    from rich._emoji_codes import EMOJI

    assert sorted(name for name in EMOJI if name.isdigit()) == ["100", "1234"]
    accepted = [chr(c) for c in range(0x20, 0x3000) if cli_env._ONE_COLUMN_EACH.fullmatch(chr(c))]
    assert len(accepted) > 1000 and "Ж" in accepted and "—" in accepted
    assert [c for c in accepted if cell_len(c) != 1] == []
    assert not any(re.fullmatch(cli_env._ONE_COLUMN_EACH, c) for c in "\t\n\u200b\u0301漢😀")
