"""Find, in a Russian rules document, the paragraph(s) a checklist citation points at.

By locator (a clause number of 000, a line range of 001) or by content: the paragraph
holding a quote, or the table row holding a rule's verbatim Russian cells. A hit is
widened to what it needs to be read (see :meth:`SourceText.with_context`). How each
document is cut into paragraphs is in ``paragraphs.py``.
"""

from __future__ import annotations

import re

from lazaretto.rules_text.paragraphs import Layout, Paragraph, cut
from lazaretto.rules_text.text import fold

_LIST_ITEM = re.compile(r"^(?:[•*-]\s+|\d+[.)]\s+)")
_WORD = re.compile(r"\w+")


class SourceText:
    """One Russian document, cut into paragraphs by its :class:`Layout`."""

    def __init__(self, text: str, layout: Layout) -> None:
        self.layout = layout
        self.lines = text.splitlines()
        self.paragraphs = cut(text, layout)
        self.last_part = max((p.part for p in self.paragraphs), default=0)

    # -- by locator ------------------------------------------------------------------

    def clause(self, number: str, part: str = "", qualifier: str = "") -> list[Paragraph]:
        """The clause(s) numbered ``number`` (``"2.2.2"``) in the named part.

        Falls back to other parts, then to the clause's children (``6.3`` → ``6.3.1``…).
        """
        index = self.layout.parts.get(part.lower(), self.last_part)
        numbered = [p for p in self.paragraphs if p.number]
        found = [p for p in numbered if p.number == number and p.part == index]
        found = found or [p for p in numbered if p.number == number]
        found = found or [
            p for p in numbered if p.number.startswith(number + ".") and p.part == index
        ]
        word = self.layout.qualifiers.get(qualifier.lower())
        if word and len(found) > 1:
            opening = fold(word)
            found = [p for p in found if opening in p.folded[:60]] or found
        return found

    def line_range(self, first: int, last: int) -> list[Paragraph]:
        """Source lines ``first..last`` (1-based, inclusive) as paragraphs; blanks skipped."""
        out: list[Paragraph] = []
        for n in range(max(first, 1), min(last, len(self.lines)) + 1):
            text = self.lines[n - 1].strip()
            if text and text != "---":
                out.append(Paragraph(n, n, text))
        return out

    # -- by content ------------------------------------------------------------------

    def candidates(self, snippet: str) -> list[int]:
        """Indices of paragraphs containing ``snippet`` (folded), or where it starts and runs
        into the next paragraph; else the fuzzy best match (see :meth:`hit`)."""
        needle = fold(snippet)
        if not needle:
            return []
        exact = [i for i, p in enumerate(self.paragraphs) if needle in p.folded]
        trimmed = needle.strip(" ,;:.")
        if not exact and trimmed != needle:
            exact = [i for i, p in enumerate(self.paragraphs) if trimmed in p.folded]
            needle = trimmed
        if exact:
            return exact
        spanning = [i for i in range(len(self.paragraphs) - 1) if self._spans(i, needle)]
        return spanning or self._fuzzy(needle)

    def _spans(self, index: int, needle: str) -> bool:
        """Whether folded ``needle`` runs from paragraph ``index`` into the next one."""
        pair = f"{self.paragraphs[index].folded} {self.paragraphs[index + 1].folded}"
        return needle in pair and needle not in self.paragraphs[index].folded

    def hit(self, index: int, snippet: str) -> list[int]:
        """The paragraph a candidate points at, and the next one if ``snippet`` runs on."""
        needle = fold(snippet)
        if index + 1 < len(self.paragraphs) and self._spans(index, needle):
            return [index, index + 1]
        return [index]

    def _fuzzy(self, needle: str) -> list[int]:
        """The paragraph holding most of the snippet's word stems (at least 80%)."""
        stems = {w[:5] for w in _WORD.findall(needle)}
        if len(stems) < 3:
            return []
        best, best_score = -1, 0.0
        for i, p in enumerate(self.paragraphs):
            have = {w[:5] for w in _WORD.findall(p.folded)}
            score = len(stems & have) / len(stems)
            if score > best_score:
                best, best_score = i, score
        return [best] if best_score >= 0.8 else []

    def table_row(self, cells: list[str]) -> Paragraph | None:
        """The table row holding every verbatim cell (``" / "``-joined cells are split)."""
        pieces = [fold(p) for c in cells for p in c.split(" / ") if fold(p)]
        if not pieces:
            return None
        rows = [p for p in self.paragraphs if p.is_row and all(x in p.folded for x in pieces)]
        if not rows:
            return None

        def exact_cells(row: Paragraph) -> int:
            values = {fold(v.split(": ", 1)[-1]) for v in row.text.split("; ")}
            return sum(x in values for x in pieces)

        return max(rows, key=exact_cells)

    def _is_item(self, index: int) -> bool:
        p = self.paragraphs[index]
        return p.is_row or bool(_LIST_ITEM.match(p.text))

    def _label(self, index: int) -> bool:
        """A short heading line of a block document that labels the list after it
        ("−2 очка", "Быстрая справка")."""
        text = self.paragraphs[index].text
        return (
            self.layout.kind == "blocks"
            and "\n" not in text
            and len(text) < 60
            and not text.endswith((".", "!", "?", ";"))
        )

    def with_context(self, index: int) -> list[int]:
        """``index`` with what it needs to be read: the line introducing it (ending in
        ``:``, or a short label above a list), the rest of a list it introduces, and the
        next paragraphs while a sentence runs on ("…(09)," / "по усмотрению мастера.")."""
        ps = self.paragraphs
        j = index
        if self._is_item(index) and self.layout.kind != "blocks":
            while j > 0 and self._is_item(j - 1):
                j -= 1
        first = index
        if j > 0 and (
            ps[j - 1].text.endswith(":") or (self._is_item(index) and self._label(j - 1))
        ):
            first = j - 1
        last = index
        if ps[first].text.endswith(":"):
            if self.layout.kind == "blocks" and first + 1 < len(ps):
                last = max(last, first + 1)  # a block ending in ":" introduces the next one
            k = first + 1
            while k < len(ps) and self._is_item(k):
                last = max(last, k)
                k += 1
                if self.layout.kind == "blocks" and not ps[k - 1].is_row:
                    break
        for _ in range(3):
            if last + 1 < len(ps) and (
                ps[last].text.endswith(",") or ps[last + 1].text[:1].islower()
            ):
                last += 1
        return list(range(first, last + 1))
