"""Boards for masters and healers: a hospital (tables, beds, who is on them, time left),
the hospital journal (filter, print view, CSV) and the countdowns.

A healer sees a countdown only when the card the service gives them shows it, so a
hidden condition (a lethal disease's countdown, say) stays hidden on the boards too.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime
from typing import Annotated, Any

from fastapi import Query, Request
from fastapi.responses import Response

from lazaretto.api.context import lang, services
from lazaretto.core.errors import NotFound
from lazaretto.core.ruleset import Role
from lazaretto.reading.corrections import journal_mark
from lazaretto.reading.lines import timer_label
from lazaretto.service.exports import content_disposition, csv_row
from lazaretto.web import card_text, cards, prefill
from lazaretto.web.pages import frame, render, router, who

ROUTER = router()
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")
MAIN_KEYS = ("no", "time", "hospital", "journal", "type", "patient", "name", "rule_ids")


def _cards_of(request: Request, campaign: str, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The cards of ``ids`` (those lying in a hospital), as the caller may see them: a
    card per occupant, not one per character of the campaign."""
    caller, svc, language = who(request), services(request), lang(request)
    out = {}
    for cid in ids:
        try:
            out[cid] = svc.play.card(caller.user, campaign, cid, language)
        except NotFound:  # gone from the campaign, or not theirs to know
            continue
    return out


@ROUTER.get("/c/{campaign}/hospital/{hospital}")
def hospital_board(request: Request, campaign: str, hospital: str) -> Response:
    """Tables and beds of a hospital, who lies on them and how long is left."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER, Role.HEALER)
    _, state, _ = svc.campaigns.load(campaign)
    h = prefill.directory(state).hospital(hospital)
    if h is None:
        raise NotFound(f"No hospital {hospital!r}", ru=f"Нет госпиталя {hospital!r}")
    places = [("table", t[0], t[1], False) for t in h.tables] + [
        ("bed", b[0], b[1], b[2]) for b in h.beds
    ]
    seen = _cards_of(request, campaign, [p[2] for p in places if p[2]])
    rows = [
        {
            "kind": kind,
            "id": pid,
            "ground": ground,
            "who": seen.get(occupant) if occupant else None,
            "next": cards.next_deadline(seen[occupant]) if occupant in seen else None,
        }
        for kind, pid, occupant, ground in places
    ]
    return render(
        request, "hospital.html", caller=caller, camp=camp, live=True, hospital=h, rows=rows
    )


def _dated(value: Any) -> Any:
    """A journal time with its date, for paper: 13.06.2026 12:00:00."""
    if isinstance(value, str) and ISO.match(value):
        return f"{datetime.fromisoformat(value):%d.%m.%Y %H:%M:%S}"
    return value


def _journal(
    request: Request, campaign: str, hospital: str | None
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    caller = who(request)
    svc = services(request)
    rows = svc.play.journal(caller.user, campaign, hospital or None)
    rs, state, _ = svc.campaigns.load(campaign)
    names = dict(prefill.directory(state).characters)
    hospitals = {h.id: h.name for h in prefill.directory(state).hospitals}
    language = lang(request)
    for r in rows:
        r["type_label"] = rs.text(f"type:{r.get('type')}", language) or r.get("type", "")
        known = card_text.Names(names, hospitals)
        skip = (*MAIN_KEYS, *MARKS, "type_label", "details", "mark")
        r["details"] = card_text.entry_details(rs, r, skip, known, language)
        r["mark"] = journal_mark(r, language, names)
    return rows, hospitals


MARKS = ("correction", "corrected_by")
"""What a late record or an undo did to an entry (service ``journal``): the book keeps
the entry and says so beside it, like a paper one (DESIGN 2)."""


@ROUTER.get("/c/{campaign}/journal")
def journal(
    request: Request,
    campaign: str,
    hospital: Annotated[str | None, Query(max_length=40)] = None,
) -> Response:
    """The hospital journal in order; ``?hospital=`` filters; prints cleanly."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    rows, hospitals = _journal(request, campaign, hospital)
    return render(
        request,
        "journal.html",
        caller=caller,
        camp=camp,
        live=True,
        rows=rows,
        hospitals=hospitals,
        hospital=hospital or "",
    )


@ROUTER.get("/c/{campaign}/journal.csv")
def journal_csv(
    request: Request,
    campaign: str,
    hospital: Annotated[str | None, Query(max_length=40)] = None,
) -> Response:
    """The journal as CSV (UTF-8 with a BOM so spreadsheets read Cyrillic)."""
    rows, _ = _journal(request, campaign, hospital)
    extra = sorted({k for r in rows for k in r} - set(MAIN_KEYS) - {"type_label", "details"})
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*MAIN_KEYS, *extra])
    for r in rows:  # every cell neutralised: names and corrections are players' text
        writer.writerow(csv_row(r.get(k) for k in (*MAIN_KEYS, *extra)))
    name = f"journal-{campaign}{'-' + hospital if hospital else ''}.csv"
    return Response(
        "\ufeff" + out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": content_disposition(name)},
    )


@ROUTER.get("/c/{campaign}/journal.pdf")
def journal_pdf(
    request: Request,
    campaign: str,
    hospital: Annotated[str | None, Query(max_length=40)] = None,
) -> Response:
    """The journal as a printable PDF (A4 landscape, Cyrillic included)."""
    from lazaretto.service.pdf import journal_pdf as render_pdf

    rows, _ = _journal(request, campaign, hospital)
    language = lang(request)
    printable = [
        {
            "no": r.get("no"),
            "time": _dated(r.get("time")),
            "hospital": f"{r.get('hospital')}/{r.get('journal')}",
            "type": r.get("type_label"),
            "name": r.get("name") or r.get("patient"),
            "details": "; ".join(
                [
                    *(
                        f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
                        for k, v in r["details"]
                    ),
                    *([r["mark"]] if r["mark"] else []),
                ]
            ),
        }
        for r in rows
    ]
    headers = {
        "no": "№",
        "time": "time" if language == "en" else "время",
        "hospital": "hospital" if language == "en" else "госпиталь",
        "type": "entry" if language == "en" else "запись",
        "name": "patient" if language == "en" else "пациент",
        "details": "details" if language == "en" else "подробности",
    }
    title = ("Hospital journal" if language == "en" else "Журнал госпиталя") + f" — {campaign}"
    name = f"journal-{campaign}{'-' + hospital if hospital else ''}.pdf"
    return Response(
        render_pdf(printable, title, headers),
        media_type="application/pdf",
        headers={"Content-Disposition": content_disposition(name)},
    )


@ROUTER.get("/c/{campaign}/timers")
def timers(request: Request, campaign: str) -> Response:
    """Every pending countdown the caller may see, soonest first."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    state, rs, pending = svc.play.timers(caller.user, campaign)  # (masters and healers)
    language = lang(request)
    rows = []
    for t in pending:
        who_ = state.characters.get(t.subject)
        rows.append(
            {
                "what": timer_label(rs, t.kind, language),
                "subject": t.subject,
                "name": who_.name if who_ is not None else t.subject,
                "deadline": t.deadline.isoformat(),
                "at": card_text.when(t.deadline, camp.now),
            }
        )
    return render(request, "timers.html", caller=caller, camp=camp, live=True, rows=rows)
