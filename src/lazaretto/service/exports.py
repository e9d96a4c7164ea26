"""What every file we hand out shares, whichever entry point writes it: the download
name of an answer (``Content-Disposition``) and CSV cells that a spreadsheet cannot
run as formulas.

Both are used by the web pages and the CLI; they live here, below the entry points, so
that none imports another.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV
Injection"): a name ``=HYPERLINK(...)`` typed by a player would run on the master's
computer when the journal is opened."""

_UNSAFE_ASCII = re.compile(r"[^A-Za-z0-9._-]+")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell that no spreadsheet runs as a formula.

    Text starting with ``= + - @``, a tab or a carriage return gets a leading single
    quote (OWASP's advice), which spreadsheets show and do not evaluate. Numbers we
    write as numbers (``-3`` hits) stay numbers: only text is someone's input. A list
    becomes ``"a; b"`` and is neutralised as one text.
    """
    if isinstance(value, list | tuple):
        value = "; ".join(map(str, value))
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_row(values: Iterable[Any]) -> list[Any]:
    """Every cell of a row through :func:`csv_cell`."""
    return [csv_cell(v) for v in values]


def content_disposition(filename: str, *, attachment: bool = True) -> str:
    """A ``Content-Disposition`` header value for ``filename`` (RFC 6266, RFC 5987).

    ``filename="..."`` carries an ASCII fallback (accents dropped, anything else
    replaced by ``_``, so no quote, backslash, CR or LF can end or split the header)
    for old clients; ``filename*=UTF-8''...`` carries the real name percent-encoded,
    which every current browser prefers: ``journal-госпиталь.csv`` downloads as such.
    """
    name = "".join(ch for ch in filename if unicodedata.category(ch)[0] != "C")  # no CR/LF
    base = "".join(
        ch for ch in unicodedata.normalize("NFKD", name) if unicodedata.category(ch) != "Mn"
    )  # é -> e
    fallback = _UNSAFE_ASCII.sub("_", base).lstrip(".")
    stem, dot, ext = fallback.rpartition(".")
    if not re.search(r"[A-Za-z0-9]", stem if dot else fallback):
        fallback = f"download{dot}{ext}" if dot else "download"
    encoded = quote(name, safe="")
    kind = "attachment" if attachment else "inline"
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{encoded}"


def character_outcomes(campaigns: Any, campaign: str, lang: str = "en") -> list[dict[str, Any]]:
    """The medical outcome of every character of ``campaign``
    (:func:`lazaretto.service.outcomes.outcomes`); ``campaigns`` a CampaignService."""
    from lazaretto.service.outcomes import KINDS, outcomes

    rs, state, _ = campaigns.load(campaign)
    now = campaigns.info(campaign).now
    states: dict[str, str] = {}
    if rs.describe is not None:
        for cid in state.characters:
            card = rs.describe(state, cid, lang)
            word = card.get("state_label") or card.get("state")
            if isinstance(word, str):
                states[cid] = word
    events = campaigns.events(campaign, KINDS)
    return outcomes(state.characters, events, now, states)


def outcomes_csv(rows: list[dict[str, Any]], lang: str = "en") -> str:
    """The outcome rows as CSV, headers in ``lang``, every cell through :func:`csv_cell`
    (a character named ``=HYPERLINK(...)`` reads as text)."""
    import csv
    import io

    from lazaretto.service.outcomes import COLUMNS, headers

    yes, no = ("да", "нет") if lang == "ru" else ("yes", "no")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headers(lang))
    for row in rows:
        cells = [row[key] for key, _, _ in COLUMNS]
        writer.writerow(csv_row(yes if c is True else no if c is False else c for c in cells))
    return out.getvalue()
