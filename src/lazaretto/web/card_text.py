"""A character card as a person reads it (issue 16, "cards that read").

* Every countdown says what happens and when: the ruleset's own words for the timer
  behind a condition's deadline ("light wound turns heavy in 29:47 (at 23:59:56)").
* A condition's details are named, not dumped: who (a healer by name, never ``1004``),
  where (a hospital by name), a time as a time; bookkeeping keys are left out.
* What a master typed in English as a common word (a race, where a wound is) reads in
  the card's language.
* A disease's penalty that forbids an activity moves it from *may* to *may not*, with
  the disease named: a card never says "may run" next to "cannot run".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from lazaretto.core.ruleset import Ruleset
from lazaretto.core.state import CampaignState
from lazaretto.reading.lines import reread
from lazaretto.web.card_words import BODY, CARD_UI, DETAILS, JOURNAL, RACES, VALUES, word

WHO = ("healer",)
"""Detail keys that name a character."""
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")
_NEGATION = re.compile(
    r"(?<!\w)(cannot|can't|can not|may not|must not|unable to|no|не может|не могут|нельзя|"
    r"запрещено|не)(?!\w)",
    re.IGNORECASE,
)


def _pair(table: dict[str, tuple[str, str]], key: str, lang: str) -> str:
    en, ru = table[key]
    return ru if lang == "ru" else en


def other(lang: str) -> str:
    """The other language of the two."""
    return "en" if lang == "ru" else "ru"


def when(deadline: str | datetime, now: datetime) -> str:
    """A campaign time as the card shows it: ``12:45``, with the day when it is not
    today's (``14.06 09:00``): the manual clock of a tabletop game spans days."""
    at = deadline if isinstance(deadline, datetime) else datetime.fromisoformat(deadline)
    clock = at.strftime("%H:%M")
    return clock if at.date() == now.date() else f"{at.day:02d}.{at.month:02d} {clock}"


def due_what(rs: Ruleset, state: CampaignState, char_id: str, deadline: str, lang: str) -> str:
    """What happens at a condition's ``deadline``: the label of the pending timer about
    the character due then, or "" when none is (the card then says "ends")."""
    at = datetime.fromisoformat(deadline)
    for t in state.timers_for(char_id):
        if t.deadline == at:
            return rs.text(f"timer:{t.kind}", lang) or ""
    return ""


def due_phrase(what: str, label: str) -> str:
    """What happens, said after the condition's own name: "light wound turns heavy"
    under "light wound" reads "turns heavy"."""
    if label and what.casefold().startswith(label.casefold()) and len(what) > len(label):
        return what[len(label) :].strip(" :—-")
    return what


@dataclass(frozen=True)
class Names:
    """How ids in a condition's data read: characters and hospitals by name."""

    characters: Mapping[str, str]
    hospitals: Mapping[str, str]

    @classmethod
    def known(cls, state: CampaignState, staff: bool, own: Sequence[str]) -> Names:
        """Everyone's names for masters and healers; a player's own characters' else."""
        people = state.characters
        return cls(
            {c: people[c].name for c in (people if staff else own) if c in people},
            {h.id: h.name for h in getattr(state, "hospitals", {}).values()},
        )


def _value(
    rs: Ruleset, key: str, kind: str, value: Any, names: Names, now: datetime, lang: str
) -> str:
    text = str(value)
    if key == "hospital" and text in names.hospitals:
        return names.hospitals[text]
    if text in names.characters:
        return names.characters[text]
    if _ISO.match(text):
        return when(text, now)
    own = rs.text(f"{kind}:{text}", lang) or rs.text(f"{key}:{text}", lang)
    if own:
        return own
    return word(VALUES, text, lang)


def details(rs: Ruleset, c: Mapping[str, Any], names: Names, now: datetime, lang: str) -> list[str]:
    """A condition's details, each as ``label: value`` (or the label of a set flag)."""
    out = []
    kind = str(c.get("kind", ""))
    for key, value in (c.get("data") or {}).items():
        if key not in DETAILS or value in (None, "", [], {}, False):
            continue
        if key in WHO and str(value) not in names.characters:
            continue  # someone the caller may not know of: not their name, nor their id
        label = _pair(DETAILS, key, lang)
        if value is True:
            out.append(label)
        else:
            out.append(f"{label}: {_value(rs, key, kind, value, names, now, lang)}")
    return out


def _template(kind: str, key: str) -> str:
    return f"journal:{kind}" if key == "text" else f"journal:{kind}.{key}"


def _items(rs: Ruleset, text: str, lang: str) -> str:
    """What a rule wrote as ``CODE: item, item`` (a course's items for a disease, in the
    diagnosis and course entries) with each item named as the ruleset names a course
    item (``course:drip`` is Капельница); a text of any other shape stays as written."""
    code, sep, items = text.partition(": ")
    if not sep:
        return text
    named = [rs.text(f"course:{i}", lang) or i for i in items.split(", ")]
    return f"{code}: {', '.join(named)}"


def entry_details(
    rs: Ruleset, entry: Mapping[str, Any], skip: Sequence[str], names: Names, lang: str
) -> list[tuple[str, str]]:
    """A journal entry's fields as ``(label, value)`` in the reader's language: names
    for ids, times as times, wounds and races in words, and what a rule wrote in
    English (a course's "until 12:40:00") re-read from the ruleset's template:
    ``journal:TYPE`` for the entry's text, ``journal:TYPE.FIELD`` for another field
    (the entry's own keys and words are kept in the CSV, which scripts read)."""
    now = datetime.fromisoformat(str(entry["time"])) if entry.get("time") else datetime.min
    kind = str(entry.get("type", ""))
    out = []
    for key, value in entry.items():
        if key in skip or value in (None, "", [], {}):
            continue
        pair = JOURNAL.get(key) or DETAILS.get(key)
        label = (pair[1] if lang == "ru" else pair[0]) if pair else key.replace("_", " ")
        if key == "race":
            shown = word(RACES, str(value), lang)
        elif key == "wounds" and isinstance(value, list):
            shown = ", ".join(word(BODY, str(w), lang) for w in value)
        elif key == "state":
            shown = rs.text(f"state:{value}", lang) or word(VALUES, str(value), lang)
        elif key == "course" and kind == "course" and isinstance(value, list):
            shown = "; ".join(_items(rs, str(v), lang) for v in value)
        elif key == "text" and kind == "diagnosis" and isinstance(value, str):
            shown = _items(rs, value, lang)
        elif isinstance(value, list):
            shown = ", ".join(_value(rs, key, "", v, names, now, lang) for v in value)
        elif isinstance(value, bool):
            shown = _pair(VALUES, "yes" if value else "no", lang)
        elif isinstance(value, str) and rs.texts.get(_template(kind, key)):
            shown = reread(rs, _template(kind, key), value, lang)
        else:
            shown = _value(rs, key, "", value, names, now, lang)
        out.append((label, shown))
    return out


def race(card: Mapping[str, Any], lang: str) -> str:
    """The character's race in the card's language when it is a common one."""
    return word(RACES, str(card.get("race") or ""), lang)


def places(card: Mapping[str, Any], lang: str) -> list[str]:
    """Where the character's wounds are, in the card's language when commonly typed."""
    return [word(BODY, str(w), lang) for w in card.get("wound_locations", [])]


@dataclass(frozen=True)
class Folded:
    """May / may not with the disease penalties that forbid an activity moved across."""

    allowed: list[str]
    forbidden: list[str]
    penalties: dict[int, str]  # index of the condition → what is left of its penalties


def _phrases(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[;\n]|\.\s", text) if p.strip()]


def fold_penalties(
    conditions: Sequence[Mapping[str, Any]],
    allowed: Sequence[str],
    forbidden: Sequence[str],
    words: Sequence[Sequence[str]],
    lang: str,
) -> Folded:
    """Move what a disease's penalties forbid from ``allowed`` to ``forbidden``.

    ``words[i]`` are the names of ``allowed[i]`` in every language (a master may write
    the penalties in either). A penalty phrase that says "cannot"/"не может"/"нельзя"
    and names an allowed activity forbids it; the phrases that forbid nothing stay as
    the disease's penalties.
    """
    keep = list(allowed)
    extra: list[str] = []
    left: dict[int, str] = {}
    for i, c in enumerate(conditions):
        disease = c.get("disease") or {}
        text = disease.get("penalties")
        if not isinstance(text, str) or not text.strip():
            continue
        rest = []
        for phrase in _phrases(text):
            low = phrase.casefold()
            hit = [
                a
                for a, names in zip(allowed, words, strict=False)
                if _NEGATION.search(phrase) and any(n.casefold() in low for n in names if n)
            ]
            if not hit:
                rest.append(phrase)
                continue
            why = disease.get("name") or disease.get("code") or ""
            for a in hit:
                if a in keep:
                    keep.remove(a)
                extra.append(f"{a} ({_pair(CARD_UI, 'penalty_of', lang)} {why})")
        left[i] = "; ".join(rest)
    return Folded(keep, [*forbidden, *extra], left)


def readable(
    rs: Ruleset,
    state: CampaignState,
    card: dict[str, Any],
    other: Mapping[str, Any],
    forbidden: list[str],
    names: Names,
    now: datetime,
    lang: str,
) -> dict[str, Any]:
    """What the card template shows beyond the service's card: each condition with what
    its countdown ends in (``due``), its named details and what is left of its
    penalties; may / may not with the penalties folded in; race and wounds in words.
    ``other`` is the same card in the other language (a master writes penalties in
    either)."""
    words = list(zip(card.get("allowed", []), other.get("allowed", []), strict=False))
    folded = fold_penalties(
        card.get("conditions", []), card.get("allowed", []), forbidden, words, lang
    )
    conditions = []
    for i, c in enumerate(card.get("conditions", [])):
        shown = {**c, "details": details(rs, c, names, now, lang)}
        if c.get("deadline"):
            what = due_what(rs, state, str(card["id"]), c["deadline"], lang)
            shown["due"] = due_phrase(what, str(c.get("label") or ""))
            shown["when"] = when(c["deadline"], now)
        if i in folded.penalties and c.get("disease"):
            shown["disease"] = {**c["disease"], "penalties": folded.penalties[i]}
        conditions.append(shown)
    return {
        "card": {
            **card,
            "conditions": conditions,
            "allowed": folded.allowed,
            "race": race(card, lang),
            "wound_locations": places(card, lang),
        },
        "forbidden": folded.forbidden,
    }
