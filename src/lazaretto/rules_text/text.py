"""Small text helpers shared by the checklist parser and the Russian-source lookup.

Checklists quote the Russian rules in guillemets, sometimes nested
(«проверка навыка «Отвага»»), and the quotes do not always match the source byte for
byte: the source mixes ё/е, straight and curly quotes, dashes and hard line breaks.
:func:`fold` maps both sides to one comparable form.
"""

from __future__ import annotations

import re

_QUOTE_CHARS = str.maketrans("", "", "«»“”„\"'‘’`")
_DASHES = str.maketrans({"–": "-", "—": "-", "‑": "-", "−": "-", "\u00a0": " ", "ё": "е"})
_SPACE = re.compile(r"\s+")
_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LETTER = re.compile(r"[^\W\d_]")
_ELLIPSIS = re.compile(r"\s*(?:…|\.\.\.)\s*")


def fold(text: str) -> str:
    """A comparable form of ``text``: lower case, ё→е, no quote marks, one kind of dash,
    single spaces."""
    text = text.lower().translate(_DASHES).translate(_QUOTE_CHARS)
    return _SPACE.sub(" ", text).strip()


def unwrap(text: str) -> str:
    """Collapse every run of whitespace (hard wraps included) to one space."""
    return _SPACE.sub(" ", text).strip()


def quote_pieces(quote: str) -> list[str]:
    """The parts of a quote between elisions: «в радиусе 3м … не более 5 наклеек» → 2 parts."""
    return [p for p in (piece.strip() for piece in _ELLIPSIS.split(quote)) if p]


def guillemet_spans(text: str) -> list[tuple[int, int]]:
    """Start/end offsets of every top-level «…» in ``text``, nesting respected.

    The end offset is just past the closing guillemet. An unclosed quote runs to the end.
    """
    spans: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "«":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "»" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    if depth:
        spans.append((start, len(text)))
    return spans


def quotes_in(text: str) -> list[str]:
    """The contents of every top-level «…» in ``text``, without the outer guillemets."""
    return [
        text[a + 1 : b - 1 if text[b - 1] == "»" else b].strip() for a, b in guillemet_spans(text)
    ]


def without_quotes(text: str) -> str:
    """``text`` with every top-level «…» removed."""
    out: list[str] = []
    pos = 0
    for a, b in guillemet_spans(text):
        out.append(text[pos:a])
        pos = b
    out.append(text[pos:])
    return "".join(out)


def is_russian(text: str) -> bool:
    """True when most letters of ``text`` are Cyrillic (a verbatim Russian table cell)."""
    letters = _LETTER.findall(text)
    if not letters:
        return False
    return len(_CYRILLIC.findall(text)) / len(letters) >= 0.8


def strip_markdown(text: str) -> str:
    """Remove bold/italic markers (``**``/``__``) from checklist text; code spans stay."""
    return text.replace("**", "").replace("__", "")
