"""Parse an English rule checklist (``checklist-NNN.md``) into rule and ambiguity drafts.

A checklist defines a rule in one of two ways, exactly as ``tools/rule_coverage.py``
counts them:

* a list item opening with a bold ID, possibly wrapped over several lines and with
  nested sub-bullets: ``- **W-WND-08** [sw] If ... (source: §2.2.2, «...»)`` or
  ``- **S-ART-01** A character ... — «...»``;
* a table row opening with an ID: ``| D-TAB-01 | Head (Голова) | ... |``.

Ambiguities are list items opening with a bold ``A-…`` ID, in two styles:
``- **A-W-06 — Title.** text **Default:** ... **Config:** ...`` and
``- **A-S-01** Title. Quote: «...». text Default: ... Parameters: ...``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lazaretto.rules_text.model import Ambiguity
from lazaretto.rules_text.text import is_russian, strip_markdown, unwrap, without_quotes

RULE_ID = r"[WZSDI]-[A-Z0-9]+-\d+[a-z]?"
BULLET_RULE = re.compile(rf"^(\s*)[-*]\s+\*\*({RULE_ID})\*\*(.*)$")
ROW_RULE = re.compile(rf"^\|\s*\**({RULE_ID})")
BULLET_AMBIGUITY = re.compile(r"^(\s*)[-*]\s+(\*\*A-[A-Z]+-\d+[a-z]?\b.*)$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
TABLE_SEPARATOR = re.compile(r"^\|[\s:|-]+\|?\s*$")
SUB_ITEM = re.compile(r"^(?:[-*+]\s+|\d+[.)]\s+)")
TAGS = re.compile(r"^((?:\[[\w-]+\]\s*)+)")
_TITLED = re.compile(r"^\*\*(A-[A-Z]+-\d+[a-z]?)\s*[—–-]\s*(.*?)\*\*\s*(.*)$", re.S)
_PLAIN = re.compile(r"^\*\*(A-[A-Z]+-\d+[a-z]?)\*\*\s*(.*)$", re.S)
_DEFAULT = re.compile(r"\*\*Defaults?:\*\*|\bDefaults?(?: readings?)?:")
_CONFIG = re.compile(r"\*\*(?:Config|Parameters?):\*\*|\b(?:Config|Parameters?):")


@dataclass(frozen=True)
class RuleDraft:
    """A rule as the checklist states it, before its Russian original is looked up.

    ``citation`` is the raw citation (``"§2.2.2, «...»"``, ``"L36"``, ``"«...»"``);
    ``ru_cells`` holds the verbatim Russian cells of a table row.
    """

    id: str
    section: str
    tags: tuple[str, ...]
    text_en: str
    citation: str
    ru_cells: tuple[str, ...]
    line: int


@dataclass
class ChecklistEntries:
    """Everything parsed from one checklist."""

    title: str = ""
    rules: list[RuleDraft] = field(default_factory=list)
    ambiguities: list[Ambiguity] = field(default_factory=list)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The continuation lines of the list item at ``start`` and the index after it."""
    base = _indent(lines[start])
    j = start + 1
    while j < len(lines):
        if not lines[j].strip():
            k = j
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k < len(lines) and _indent(lines[k]) > base:
                j = k
                continue
            break
        if _indent(lines[j]) <= base:
            break
        j += 1
    return lines[start + 1 : j], j


def _assemble(first: str, body: list[str]) -> str:
    """Join an item's wrapped lines into one line; sub-bullets follow on, `;`-separated.

    Fenced code keeps its own lines.
    """
    pieces: list[tuple[str, str]] = [("text", first.strip())]
    new_piece = False
    in_code = False
    for raw in body:
        text = raw.strip()
        if text.startswith("```"):
            in_code = not in_code
            if in_code:
                pieces.append(("code", ""))
            new_piece = True
        elif in_code:
            pieces[-1] = ("code", f"{pieces[-1][1]}\n{text}".lstrip("\n"))
        elif not text:
            new_piece = True
        elif SUB_ITEM.match(text) or new_piece:
            pieces.append(("text", re.sub(r"^[-*+]\s+", "", text)))
            new_piece = False
        else:
            pieces[-1] = ("text", f"{pieces[-1][1]} {text}")
    out = ""
    for kind, text in pieces:
        if kind == "code":
            out = f"{out.rstrip()}\n{text}\n"
            continue
        if out and not out.endswith("\n"):
            out += ("" if out[-1] in ".;:,!?»)—" else ";") + " "
        out += text
    return out.strip()


def _balanced_tail(text: str, start: int) -> int:
    """Index just past the parenthesis group opening at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def split_citation(text: str) -> tuple[str, str]:
    """Split an item's text into (English text, citation).

    Recognises ``(source: ...)`` (checklists 000/001) and a trailing ``— «...»``.
    """
    at = text.rfind("(source:")
    if at >= 0:
        end = _balanced_tail(text, at)
        citation = text[at + len("(source:") : end - 1].strip()
        return (text[:at] + text[end:]).strip(), citation
    at = text.rfind("— «")
    while at >= 0:
        rest = text[at + 1 :]
        if not re.sub(r"[\s,.;…]", "", without_quotes(rest)):
            return text[:at].strip(), rest.strip()
        at = text.rfind("— «", 0, at)
    return text, ""


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


def _row_rule(
    rule_id: str, cells: list[str], header: list[str], section: str, line_no: int
) -> RuleDraft:
    """A rule defined by a table row: English cells as text, Russian cells kept aside."""
    english: list[str] = []
    russian: list[str] = []
    quotes: list[str] = []
    for i, cell in enumerate(cells[1:], start=1):
        name = header[i] if i < len(header) else f"column {i + 1}"
        low = name.lower()
        value = strip_markdown(cell)
        if not value:
            continue
        if "quote" in low:
            quotes.append(value)
            continue
        if "(ru" in low or (is_russian(value) and "(en" not in low):
            if value not in ("—", "-"):
                russian.append(value)
            if "(ru" in low:
                continue
        label = re.sub(r"\s*\(EN\)\s*", "", name).strip()
        english.append(f"{label}: {value}")
    return RuleDraft(
        rule_id, section, (), "; ".join(english), " ".join(quotes), tuple(russian), line_no
    )


def _bullet_rule(rule_id: str, rest: str, body: list[str], section: str, line_no: int) -> RuleDraft:
    text = strip_markdown(_assemble(rest, body))
    tags: tuple[str, ...] = ()
    m = TAGS.match(text)
    if m:
        tags = tuple(re.findall(r"\[([\w-]+)\]", m.group(1)))
        text = text[m.end() :]
    text_en, citation = split_citation(text)
    return RuleDraft(rule_id, section, tags, text_en, unwrap(citation), (), line_no)


def _ambiguity(raw: str, document: str) -> Ambiguity | None:
    m = _TITLED.match(raw)
    if m:
        amb_id, title, rest = m.group(1), unwrap(m.group(2)), m.group(3)
    else:
        m = _PLAIN.match(raw)
        if not m:
            return None
        amb_id, rest = m.group(1), m.group(2)
        first = re.match(r"(.+?[.?!])(?:\s|$)", rest, re.S)
        title = first.group(1) if first else rest
        rest = rest[len(title) :]
    default = config = ""
    d = _DEFAULT.search(rest)
    if d:
        rest, default = rest[: d.start()], rest[d.end() :]
        c = _CONFIG.search(default)
        if c:
            default, config = default[: c.start()], default[c.end() :]
    else:
        c = _CONFIG.search(rest)
        if c:
            rest, config = rest[: c.start()], rest[c.end() :]

    def clean(s: str) -> str:
        return strip_markdown(s).strip(" ;")

    return Ambiguity(amb_id, clean(title), clean(rest), clean(default), clean(config), document)


def parse_checklist(text: str, document: str = "") -> ChecklistEntries:
    """Parse a checklist's markdown. IDs keep their first definition, as rule_coverage does."""
    lines = text.splitlines()
    out = ChecklistEntries()
    seen: set[str] = set()
    section = ""
    header: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = HEADING.match(line)
        if heading:
            level, title = len(heading.group(1)), heading.group(2)
            if level == 1 and not out.title:
                out.title = title
            elif level == 2:
                section = ""
            elif level == 3:
                section = title
            i += 1
            continue
        if line.startswith("|"):
            if i + 1 < len(lines) and TABLE_SEPARATOR.match(lines[i + 1]):
                header = _cells(line)
                i += 2
                continue
            row = ROW_RULE.match(line)
            if row and row.group(1) not in seen:
                seen.add(row.group(1))
                out.rules.append(_row_rule(row.group(1), _cells(line), header, section, i + 1))
            i += 1
            continue
        bullet = BULLET_RULE.match(line)
        if bullet:
            body, nxt = _block(lines, i)
            nested = [k for k, b in enumerate(body) if BULLET_RULE.match(b)]
            if nested:  # a nested bold ID is a rule of its own, parsed next
                body, nxt = body[: nested[0]], i + 1 + nested[0]
            if bullet.group(2) not in seen:
                seen.add(bullet.group(2))
                out.rules.append(
                    _bullet_rule(bullet.group(2), bullet.group(3), body, section, i + 1)
                )
            i = nxt
            continue
        amb = BULLET_AMBIGUITY.match(line)
        if amb:
            body, nxt = _block(lines, i)
            parsed = _ambiguity(_assemble(amb.group(2), body), document)
            if parsed is not None:
                out.ambiguities.append(parsed)
            i = nxt
            continue
        i += 1
    return out
