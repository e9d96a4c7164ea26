"""The rule-text catalogue: every checklist rule with its English text and Russian original.

Built once from the documents bundled in ``lazaretto/rules_text/docs`` (the five
Russian rules texts and the English checklists written from them) and cached.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from lazaretto.core.errors import DataFileError, NotFound
from lazaretto.rules_text.checklist import parse_checklist
from lazaretto.rules_text.locate import Locator
from lazaretto.rules_text.model import Ambiguity, Document, Rule
from lazaretto.rules_text.paragraphs import Layout
from lazaretto.rules_text.source import SourceText


def _docs() -> Traversable:
    """The folder of bundled documents (package data)."""
    return resources.files("lazaretto.rules_text").joinpath("docs")


#: How each bundled Russian document numbers its paragraphs (see ``paragraphs.py``).
LAYOUTS: dict[str, Layout] = {
    "000": Layout(
        "numbered",
        parts={"looting": 0},
        qualifiers={"diagnosis": "Диагноз", "course": "Курс лечения"},
    ),
    "001": Layout("lines"),
    "002": Layout("wrapped-lines"),
    "003": Layout("blocks"),
    "004": Layout("blocks"),
}


def _norm_id(text: str) -> str:
    return text.strip().upper()


class Catalogue:
    """Every rule and ambiguity of the bundled checklists, looked up by ID."""

    def __init__(
        self, documents: list[Document], rules: list[Rule], ambiguities: list[Ambiguity]
    ) -> None:
        self._documents = documents
        self._rules = {r.id.upper(): r for r in rules}
        self._ambiguities = {a.id.upper(): a for a in ambiguities}

    def documents(self) -> list[Document]:
        """The bundled documents, in number order."""
        return list(self._documents)

    def rules(self, prefix: str | None = None, document: str | None = None) -> list[Rule]:
        """Rules in checklist order, optionally only IDs starting with ``prefix``
        (case-insensitive, e.g. ``"w-wnd"``) and only from ``document`` (``"000"``).

        Raises:
            NotFound: ``document`` is not a bundled document.
        """
        if document is not None:
            self._document(document)
        start = (prefix or "").strip().upper()
        return [
            r
            for r in self._rules.values()
            if r.id.upper().startswith(start) and document in (None, r.document)
        ]

    def rule(self, rule_id: str) -> Rule:
        """The rule with this ID (case-insensitive).

        Raises:
            NotFound: no such rule; the message suggests close IDs.
        """
        found = self._rules.get(_norm_id(rule_id))
        if found is not None:
            return found
        amb = self._ambiguities.get(_norm_id(rule_id))
        if amb is not None:
            raise NotFound(
                f"{amb.id} is an ambiguity, not a rule",
                ru=f"{amb.id} — неоднозначность, а не правило",
                tip=f"Look it up with ambiguity({amb.id!r}) or find({amb.id!r}).",
            )
        raise self._not_found("rule", rule_id, [r.id for r in self._rules.values()])

    def ambiguities(self, document: str | None = None) -> list[Ambiguity]:
        """Ambiguities in checklist order, optionally only from ``document``."""
        if document is not None:
            self._document(document)
        return [a for a in self._ambiguities.values() if document in (None, a.document)]

    def ambiguity(self, ambiguity_id: str) -> Ambiguity:
        """The ambiguity with this ID, e.g. ``"A-W-06"`` (case-insensitive).

        Raises:
            NotFound: no such ambiguity; the message suggests close IDs.
        """
        found = self._ambiguities.get(_norm_id(ambiguity_id))
        if found is None:
            ids = [a.id for a in self._ambiguities.values()]
            raise self._not_found("ambiguity", ambiguity_id, ids)
        return found

    def find(self, any_id: str) -> Rule | Ambiguity:
        """A rule or an ambiguity, whichever the ID names (for ``rules show ID``)."""
        key = _norm_id(any_id)
        if key in self._ambiguities:
            return self._ambiguities[key]
        if key in self._rules:
            return self._rules[key]
        ids = [r.id for r in self._rules.values()] + [a.id for a in self._ambiguities.values()]
        raise self._not_found("rule", any_id, ids)

    def _document(self, document: str) -> Document:
        for doc in self._documents:
            if doc.id == document.strip():
                return doc
        known = ", ".join(d.id for d in self._documents)
        raise NotFound(
            f"No rules document {document!r} in the rule catalogue",
            ru=f"Документа правил {document!r} нет в каталоге",
            tip=f"Known documents: {known}.",
            tip_ru=f"Известные документы: {known}.",
        )

    @staticmethod
    def _not_found(kind: str, wanted: str, known: Collection[str]) -> NotFound:
        """NotFound for ``wanted``, suggesting the closest of the ``known`` IDs."""
        by_key = {k.upper(): k for k in known}
        key = _norm_id(wanted)
        close = difflib.get_close_matches(key, list(by_key), n=3, cutoff=0.6)
        if not close:
            stem = re.sub(r"-?\d+[A-Z]?$", "", key)
            close = [k for k in by_key if stem and k.startswith(stem)][:3]
        names = ", ".join(by_key[k] for k in close)
        kind_ru = "Правило" if kind == "rule" else "Неоднозначность"
        if names:
            tip, tip_ru = f"Did you mean {names}?", f"Возможно, имелось в виду {names}?"
        else:
            tip = "Run `lazaretto rules list` to see every ID."
            tip_ru = "Список всех ID: `lazaretto rules list`."
        return NotFound(
            f"No {kind} {wanted.strip()!r} in the rule catalogue",
            ru=f"{kind_ru} {wanted.strip()!r} не найдено в каталоге",
            tip=tip,
            tip_ru=tip_ru,
        )


def _read(name: str) -> str:
    try:
        return _docs().joinpath(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataFileError(name, "(file)", f"cannot read bundled document: {exc}") from exc


def load_catalogue() -> Catalogue:
    """Parse every bundled checklist and resolve its rules (uncached; see :func:`catalogue`).

    Raises:
        DataFileError: a bundled file is missing, unreadable, or defines a rule twice or
            with no text.
    """
    names = sorted(p.name for p in _docs().iterdir() if p.is_file())
    documents: list[Document] = []
    rules: list[Rule] = []
    ambiguities: list[Ambiguity] = []
    seen: dict[str, str] = {}
    for checklist in (n for n in names if re.fullmatch(r"checklist-\d+\.md", n)):
        number = checklist.removeprefix("checklist-").removesuffix(".md")
        sources = [n for n in names if n.startswith(f"{number}_") and n.endswith(".txt")]
        if len(sources) != 1:
            raise DataFileError(
                checklist,
                "(source document)",
                f"expected one {number}_*.txt next to it, found {len(sources)}",
            )
        entries = parse_checklist(_read(checklist), number)
        locator = Locator(SourceText(_read(sources[0]), LAYOUTS.get(number, Layout())))
        documents.append(Document(number, entries.title, sources[0], checklist))
        for draft in entries.rules:
            if draft.id in seen:
                raise DataFileError(
                    checklist, draft.id, f"line {draft.line}: already defined in {seen[draft.id]}"
                )
            if not draft.text_en:
                raise DataFileError(checklist, draft.id, f"line {draft.line}: rule has no text")
            seen[draft.id] = checklist
            rules.append(locator.rule(draft, number))
        ambiguities += entries.ambiguities
    return Catalogue(documents, rules, ambiguities)


@cache
def catalogue() -> Catalogue:
    """The catalogue of the bundled documents, built on first use and then reused."""
    return load_catalogue()
