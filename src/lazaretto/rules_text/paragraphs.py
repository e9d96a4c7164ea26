"""How each Russian rules document is cut into paragraphs a citation can point at.

Each bundled document is laid out differently, so each has a :class:`Layout`:

* ``numbered`` (000): clauses start with their number (``2.2.1 – …``, ``5.1. …``) and
  run to the next number. Numbering restarts with a new part ("Правила по медицине"
  after the Looting fragment), so clauses carry a part index; a clause number may also
  repeat inside a part (000 has two §5.3.2), told apart by ``qualifiers``.
* ``lines`` (001): the checklist cites source lines (``L36``); a paragraph is a line.
* ``wrapped-lines`` (002): one paragraph per line, except that a line ending in a space
  was hard-wrapped and continues on the next one.
* ``blocks`` (003, 004): paragraphs are separated by blank lines; a list introduced by
  a line ending in ``:`` belongs with it; every tab-separated table row is a paragraph
  of its own, rendered ``Header: cell; …`` with blank leading cells filled from above.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from lazaretto.rules_text.text import fold

LayoutKind = Literal["numbered", "lines", "wrapped-lines", "blocks"]

_CLAUSE = re.compile(r"^(\d+(?:\.\d+)*)(?:\.\s+|\s+[–—-]\s+|\s+(?=\S))")
_STAT_START = re.compile(r"^[A-Z]{2,}\b")
_PIPE_SEPARATOR = re.compile(r"^\|[\s:|-]+\|?\s*$")


@dataclass(frozen=True)
class Layout:
    """How one document is cut into paragraphs.

    Attributes:
        kind: see the module docstring.
        parts: citation prefix (lower case) → part index, e.g. ``{"looting": 0}``; a
            citation without a prefix means the last part.
        qualifiers: citation qualifier (lower case) → the Russian word that opens the
            clause it means, for clause numbers used twice (``"course": "Курс лечения"``).
    """

    kind: LayoutKind = "blocks"
    parts: dict[str, int] = field(default_factory=dict)
    qualifiers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of a Russian document: 1-based first and last line, and its text."""

    start: int
    end: int
    text: str
    number: str = ""
    part: int = 0
    is_row: bool = False
    search: str = ""

    @cached_property
    def folded(self) -> str:
        """The text (and ``search``, a row's bare cells) in
        :func:`~lazaretto.rules_text.text.fold` form, for matching."""
        return fold(f"{self.search} \n {self.text}" if self.search else self.text)


def _nonblank(lines: list[str], start: int, end: int) -> str:
    """Lines ``start..end`` (0-based, inclusive) without blank ones, joined by newlines."""
    return "\n".join(s.strip() for s in lines[start : end + 1] if s.strip())


def _numbered(lines: list[str]) -> list[Paragraph]:
    starts = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _CLAUSE.match(line))]
    out: list[Paragraph] = []
    if starts and starts[0][0] > 0 and _nonblank(lines, 0, starts[0][0] - 1):
        out.append(Paragraph(1, starts[0][0], _nonblank(lines, 0, starts[0][0] - 1)))
    part, previous_top = 0, None
    for k, (i, number) in enumerate(starts):
        end = (starts[k + 1][0] if k + 1 < len(starts) else len(lines)) - 1
        top = int(number.split(".")[0])
        if previous_top is not None and top < previous_top:
            part += 1
        previous_top = top
        if k + 1 < len(starts) and int(starts[k + 1][1].split(".")[0]) < top:
            # the next part's title ("Правила по медицине") is not this clause's text
            blanks = [j for j in range(i + 1, end + 1) if not lines[j].strip()]
            tail = [j for j in blanks if _nonblank(lines, j, end)]
            if tail:
                end = tail[-1]
        out.append(Paragraph(i + 1, end + 1, _nonblank(lines, i, end), number, part))
    return out


def _wrapped(line: str, following: str) -> bool:
    """Whether ``line`` was hard-wrapped into ``following`` (002 breaks before stat names:
    "бросок на" / "REF при наличии…", and leaves a trailing space elsewhere)."""
    if not line.strip() or line.lstrip().startswith("¶") or following.startswith(("¶", "|")):
        return False
    return line.endswith((" ", "\t")) or bool(
        _STAT_START.match(following) and line.rstrip()[-1] not in ".:;!?"
    )


def _pipe_cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _lines(lines: list[str], *, join_wrapped: bool) -> list[Paragraph]:
    out: list[Paragraph] = []
    header: list[str] = []
    i = 0
    while i < len(lines):
        start = i
        if lines[i].startswith("|"):
            # a markdown table (002): the header row precedes a |---| row
            if i + 1 < len(lines) and _PIPE_SEPARATOR.match(lines[i + 1]):
                header = _pipe_cells(lines[i])
                i += 2
                continue
            cells = _pipe_cells(lines[i])
            out.append(
                Paragraph(
                    i + 1, i + 1, _row_text(header, cells), is_row=True, search=" ".join(cells)
                )
            )
            i += 1
            continue
        while join_wrapped and i + 1 < len(lines) and _wrapped(lines[i], lines[i + 1]):
            i += 1
        text = " ".join(s.strip() for s in lines[start : i + 1] if s.strip())
        if text and text not in ("-", "---"):
            out.append(Paragraph(start + 1, i + 1, text))
        i += 1
    return out


def _row_text(header: list[str], cells: list[str]) -> str:
    pairs = [f"{h}: {c}" if h else c for h, c in zip(header, cells, strict=False) if c]
    return "; ".join(pairs)


def _blocks(lines: list[str]) -> list[Paragraph]:
    out: list[Paragraph] = []
    header: list[str] = []
    filled: list[str] = []
    start: int | None = None
    for i, line in enumerate([*lines, ""]):
        if "\t" in line:
            if start is not None:
                out.append(Paragraph(start + 1, i, _nonblank(lines, start, i - 1)))
                start = None
            cells = [c.strip() for c in line.split("\t")]
            if i == 0 or "\t" not in lines[i - 1]:
                header, filled = cells, []
                continue
            filled = [c or (filled[j] if j < len(filled) else "") for j, c in enumerate(cells)]
            out.append(
                Paragraph(
                    i + 1,
                    i + 1,
                    _row_text(header, filled),
                    is_row=True,
                    search=" ".join(c for c in cells if c),
                )
            )
        elif line.strip():
            start = i if start is None else start
        elif start is not None:
            out.append(Paragraph(start + 1, i, _nonblank(lines, start, i - 1)))
            start = None
    return out


def cut(text: str, layout: Layout) -> list[Paragraph]:
    """Cut a document's text into paragraphs the way its ``layout`` says."""
    lines = text.splitlines()
    if layout.kind == "numbered":
        return _numbered(lines)
    if layout.kind == "blocks":
        return _blocks(lines)
    return _lines(lines, join_wrapped=layout.kind == "wrapped-lines")
