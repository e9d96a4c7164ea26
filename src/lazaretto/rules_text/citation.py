"""Read a checklist citation: where in the Russian document a rule comes from.

The checklists cite in three ways:

* by clause number, checklist 000: ``§2.2.2``, ``Looting §5.1`` (the army-rules
  fragment), ``§5.3.2 (Course)`` (000 numbers two clauses 5.3.2), ``§6.2, §6.3.1``,
  ``§3.5; number: §5.3.9``;
* by source line, checklist 001: ``L36``, ``L2–L3``, ``L16, L18``,
  ``L13; exception L14, L15``;
* by quote only, checklists 002–004: ``«…»``; table rows give a "Locating quote"
  column or verbatim Russian cells instead.

Any of them may carry quotes in guillemets (nested ones too) and elisions (``…``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lazaretto.rules_text.text import quotes_in, without_quotes

_SECTION = re.compile(r"(?:\b([A-Z][A-Za-z]+)\s+)?§\s*(\d+(?:\.\d+)*)(?:\s*\(([A-Za-z]+)\))?")
_LINES = re.compile(r"\bL(\d+)(?:\s*[–—-]\s*L?(\d+))?\b")


@dataclass(frozen=True)
class SectionRef:
    """A clause reference: ``part`` is the citation's prefix word ("Looting") or ""."""

    number: str
    part: str = ""
    qualifier: str = ""


@dataclass(frozen=True)
class Citation:
    """A parsed citation.

    Attributes:
        locator: the citation without its quotes (``"§2.2.2"``), "" when it is only quotes.
        quotes: the quoted Russian text, outer guillemets removed.
        sections: clause references, in citation order.
        lines: inclusive source-line ranges, in citation order.
    """

    locator: str
    quotes: tuple[str, ...]
    sections: tuple[SectionRef, ...]
    lines: tuple[tuple[int, int], ...]

    @property
    def source(self) -> str:
        """What to show as the rule's source: the locator, else the quotes in guillemets."""
        return self.locator or " ".join(f"«{q}»" for q in self.quotes)

    @property
    def quote_ru(self) -> str:
        """The quotes as one string (several joined by " … ")."""
        return " … ".join(self.quotes)


def _clean_locator(text: str) -> str:
    text = re.sub(r"×\s*\d+", "", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s*([,;])(?:\s*[,;])*", r"\1", text)
    text = re.sub(r"([,;])(?=\S)", r"\1 ", text)
    return text.strip(" ,;:—-")


def parse_citation(text: str) -> Citation:
    """Parse a checklist citation such as ``"§2.2.2, «по истечении 30 минут»"``."""
    quotes = tuple(q for q in quotes_in(text) if q)
    rest = without_quotes(text)
    sections = tuple(
        SectionRef(m.group(2), m.group(1) or "", m.group(3) or "") for m in _SECTION.finditer(rest)
    )
    lines = tuple((int(m.group(1)), int(m.group(2) or m.group(1))) for m in _LINES.finditer(rest))
    return Citation(_clean_locator(rest), quotes, sections, lines)
