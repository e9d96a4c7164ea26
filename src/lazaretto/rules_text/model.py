"""The values the rule-text catalogue hands out: rules, ambiguities, documents.

All are frozen: a rule's text is data read from the bundled checklists, never edited
at run time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Document:
    """One bundled rules document (правила) and the English checklist written from it.

    Attributes:
        id: the three-digit number both files start with, e.g. ``"000"``.
        title: the checklist's first heading, e.g. ``"Rule checklist — ... (Medicine rules...)"``.
        source_file: the Russian text's file name, e.g. ``"000_1d6235af9b536ffb.txt"``.
        checklist_file: the checklist's file name, e.g. ``"checklist-000.md"``.
    """

    id: str
    title: str
    source_file: str
    checklist_file: str


@dataclass(frozen=True)
class Rule:
    """One rule of a checklist, in English, with the Russian text it was written from.

    Attributes:
        id: the stable rule ID, e.g. ``"W-WND-08"``.
        document: the document number, e.g. ``"000"``.
        section: the checklist's ``###`` heading the rule sits under.
        tags: the checklist's tags without brackets, e.g. ``("sw", "vis")``.
        text_en: the rule's English text, unwrapped, without its ID, tags and citation.
            For a rule defined by a table row: ``"Column: value; ..."`` of its English cells.
        source: the citation's locator, e.g. ``"§2.2.2"``, ``"Looting §5.1"``, ``"L2–L3"``;
            where the checklist cites by quote only, the quote in guillemets.
        quote_ru: the Russian quote of the citation (several joined by " … "), or "".
        original_ru: the paragraph(s) of the Russian document the citation points at; the
            quote itself when no paragraph could be found (see ``original_located``).
        original_located: True when ``original_ru`` is text found in the Russian document,
            False when it fell back to the checklist's quote (or is empty).
    """

    id: str
    document: str
    section: str
    tags: tuple[str, ...]
    text_en: str
    source: str
    quote_ru: str
    original_ru: str
    original_located: bool = False


@dataclass(frozen=True)
class Ambiguity:
    """An ambiguity or gap a checklist found in its document, with the chosen default.

    Attributes:
        id: e.g. ``"A-W-06"``.
        title: the short title (``"What a bandage does to the timers."``).
        text_en: the description: what the texts say and why it is unclear.
        default: the recommended default ("" when the entry gives none).
        config: the configurable parameters ("" when none are named).
        document: the document number, e.g. ``"000"``.
    """

    id: str
    title: str
    text_en: str
    default: str
    config: str
    document: str = ""
