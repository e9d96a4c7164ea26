"""Resolve each checklist rule to its Russian original.

A citation with a locator (a clause number of 000, source lines of 001) names its
paragraphs outright. Otherwise the original is found by content: the paragraph that
holds the citation's quote, or the table row that holds a rule's verbatim Russian cells.

A quote can occur more than once (002 repeats «…следующий крит. провал его сломает…»
for artifacts and for tools). Checklists follow their document's order, so the
:class:`Locator` keeps a cursor at the previous rule's paragraph and prefers, in turn: a
paragraph that opens with the quote, then the occurrence nearest the cursor.
"""

from __future__ import annotations

import re

from lazaretto.rules_text.checklist import RuleDraft
from lazaretto.rules_text.citation import parse_citation
from lazaretto.rules_text.model import Rule
from lazaretto.rules_text.paragraphs import Paragraph
from lazaretto.rules_text.source import SourceText
from lazaretto.rules_text.text import fold, quote_pieces

#: How far (in paragraphs) a table row's extra Russian cells may be from its anchor.
NEAR = 12
_MARKER = re.compile(r"^(?:[•*-]\s+|\d+[.)]\s+)")


class Locator:
    """Finds the originals of one checklist's rules in its document, in checklist order."""

    def __init__(self, src: SourceText) -> None:
        self.src = src
        self.cursor: int | None = None

    def rule(self, draft: RuleDraft, document: str) -> Rule:
        """The catalogue's :class:`Rule` for a checklist draft.

        When no paragraph is found, ``original_ru`` falls back to the quote (or the
        verbatim cells) and ``original_located`` is False.
        """
        cit = parse_citation(draft.citation)
        paragraphs = self.paragraphs(draft)
        quote = cit.quote_ru or " / ".join(draft.ru_cells)
        source = cit.source or ("table row" if draft.ru_cells else "")
        original = "\n".join(p.text for p in paragraphs) if paragraphs else quote
        return Rule(
            id=draft.id,
            document=document,
            section=draft.section,
            tags=draft.tags,
            text_en=draft.text_en,
            source=source,
            quote_ru=quote,
            original_ru=original,
            original_located=bool(paragraphs),
        )

    def paragraphs(self, draft: RuleDraft) -> list[Paragraph]:
        """The paragraphs a rule's citation points at, in document order; [] when none."""
        cit = parse_citation(draft.citation)
        found: list[Paragraph] = []
        for ref in cit.sections:
            found += self.src.clause(ref.number, ref.part, ref.qualifier)
        for first, last in cit.lines:
            found += self.src.line_range(first, last)
        if not found and draft.ru_cells and (row := self.src.table_row(list(draft.ru_cells))):
            found = [row]
        if found:
            self.cursor = self._index_of(found[-1])
        else:
            pieces = [p for q in cit.quotes for p in quote_pieces(q)]
            found = [self.src.paragraphs[i] for i in self._by_content(pieces, draft.ru_cells)]
        unique = {(p.start, p.end): p for p in found}
        return [unique[k] for k in sorted(unique)]

    def _index_of(self, paragraph: Paragraph) -> int | None:
        for i, p in enumerate(self.src.paragraphs):
            if p.start <= paragraph.start <= p.end:
                return i
        return self.cursor

    def _pick(self, options: list[int], snippet: str, near: int | None) -> int:
        """The best of several paragraphs holding ``snippet`` (see the module docstring)."""
        needle = fold(snippet).strip(" ,;:.")
        opening = [
            i for i in options if _MARKER.sub("", self.src.paragraphs[i].folded).startswith(needle)
        ]
        pool = opening or options
        if near is None:
            return pool[0]
        return min(pool, key=lambda i: abs(i - near))

    def _by_content(self, quotes: list[str], cells: tuple[str, ...]) -> list[int]:
        """Paragraphs holding the quotes; verbatim cells add the nearest holder of each."""
        chosen: list[int] = []
        for piece in quotes:
            options = self.src.candidates(piece)
            if options and chosen:
                chosen += self.src.hit(min(options, key=lambda i: abs(i - chosen[0])), piece)
            elif options:
                chosen += self.src.hit(self._pick(options, piece, self.cursor), piece)
        cell_options = [(c, o) for c in cells if len(c) >= 4 and (o := self.src.candidates(c))]
        if not chosen and cell_options:
            cell, options = min(cell_options, key=lambda co: (len(co[1]), -len(co[0])))
            chosen.append(self._pick(options, cell, self.cursor))
        for _, options in cell_options:
            nearest = min(options, key=lambda i: abs(i - chosen[0]))
            if abs(nearest - chosen[0]) <= NEAR:
                chosen.append(nearest)
        if chosen:
            self.cursor = chosen[0]
        return sorted({j for i in chosen for j in self.src.with_context(i)})
