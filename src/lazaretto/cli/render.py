"""Human output of the CLI: :func:`clean`, which every line it prints for a person
passes through, events as JSON, the Rich console and plain tables. How an event, a
time or a countdown reads (shared with the API and the web) is
:mod:`lazaretto.reading.lines`; its names are imported here for the CLI's modules."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any

from lazaretto.reading.lines import CORE_TEXTS as CORE_TEXTS
from lazaretto.reading.lines import HIDDEN as HIDDEN
from lazaretto.reading.lines import event_line as event_line
from lazaretto.reading.lines import hhmm as hhmm
from lazaretto.reading.lines import reread as reread
from lazaretto.reading.lines import subject_name as subject_name
from lazaretto.reading.lines import timer_label as timer_label
from lazaretto.reading.lines import words as words

if TYPE_CHECKING:
    from lazaretto.core.events import Event

# Terminal control characters: C0 (but tab and newline), DEL, C1 (ESC and CSI start
# escape sequences that move the cursor, clear the screen, set the window title...), and
# the bidirectional overrides that make a name read backwards.
_CONTROL = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[{_CONTROL}]")
_UNSAFE_ONE_LINE = re.compile(f"[{_CONTROL}\t\n]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return {9: "\\t", 10: "\\n"}.get(code) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    )


def clean(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every terminal control character shown as an escape (``\\x1b``).

    Names, wound locations and journal corrections are typed by players and masters:
    printed raw, an escape sequence in one could clear a GM's screen or forge a line.
    ``keep_newlines=False`` escapes tabs and line breaks too, for one-line output.
    """
    return (_UNSAFE if keep_newlines else _UNSAFE_ONE_LINE).sub(_escape, text)


def event_dict(ev: Event) -> dict[str, Any]:
    """An event as JSON (with the record that produced it, when known)."""
    out = ev.model_dump(mode="json")
    if ev.record is not None:
        out["record"] = ev.record
    return out


def remaining(deadline: datetime, now: datetime) -> str:
    """``12m30s`` until ``deadline``."""
    secs = int((deadline - now).total_seconds())
    sign = "-" if secs < 0 else ""
    secs = abs(secs)
    h, rem = divmod(secs, 3600)
    m, s = divmod(rem, 60)
    return f"{sign}{h}h{m:02d}m{s:02d}s" if h else f"{sign}{m}m{s:02d}s"


def safe_console() -> Any:
    """A Rich console that prints nothing raw: strings are cleaned (:func:`clean`), and so
    are a table's title, headers and cells, which are shown as plain text, so a name like
    ``[blink]Boris`` is not read as Rich markup either. (A line break inside a cell only
    makes the cell taller: it cannot forge a line outside the table.)"""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    def plain(cell: Any) -> Any:
        return Text(clean(cell)) if isinstance(cell, str) else cell

    class SafeConsole(Console):
        def print(self, *objects: Any, **kwargs: Any) -> None:
            safe: list[Any] = []
            for obj in objects:
                if isinstance(obj, str):
                    obj = clean(obj)
                elif isinstance(obj, Table):
                    obj.title = plain(obj.title) if obj.title is not None else None
                    for column in obj.columns:
                        column.header = plain(column.header)
                        column._cells = [plain(c) for c in column._cells]
                safe.append(obj)
            super().print(*safe, **kwargs)

    return SafeConsole(highlight=False, soft_wrap=True)


def plain_table(headers: list[str], rows: list[list[str]], *, title: str | None = None) -> str:
    """A table drawn like Rich's default (heavy head), without importing Rich: for the
    commands that must start at once (``odds``). Cells are cleaned to one line each;
    numbers-looking columns are not re-aligned (the caller formats them)."""
    head = [clean(h, keep_newlines=False) for h in headers]
    body = [[clean(c, keep_newlines=False) for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(head)]

    def line(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def cells(bar: str, values: list[str]) -> str:
        return bar + bar.join(f" {v:<{w}} " for v, w in zip(values, widths, strict=True)) + bar

    out = []
    if title:
        total = sum(widths) + 3 * len(widths) + 1
        out.append(clean(title, keep_newlines=False).center(total).rstrip())
    out += [line("┏", "━", "┳", "┓"), cells("┃", head), line("┡", "━", "╇", "┩")]
    out += [cells("│", r) for r in body]
    out.append(line("└", "─", "┴", "┘"))
    return "\n".join(out)
