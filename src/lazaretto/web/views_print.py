"""Printing from the web: disease sticker sheets and passports as PDF downloads.

``/c/{campaign}/print`` (masters) lists what can be printed: the sticker batches of a
warhammer-larp campaign, every passport of the campaign as one PDF, and says when the
address its QR codes would encode is a loopback one (a phone scanning
``http://127.0.0.1/...`` opens itself, not the server). That address is
``lazaretto serve --public-url`` (the ``LAZARETTO_PUBLIC_URL`` setting), else the
address the printing browser used. A sticker sheet is the ruleset's own
``sticker-sheet`` query, so its role checks and contents are the same as the API's.
"""

from __future__ import annotations

import base64
import ipaddress
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Query, Request
from fastapi.responses import Response

from lazaretto.api.context import lang, services
from lazaretto.core.errors import InvalidInput
from lazaretto.core.ruleset import Role
from lazaretto.web.pages import PUBLIC_URL as PUBLIC_URL  # re-exported: what QR codes follow
from lazaretto.web.pages import frame, public_url, render, router, who

ROUTER = router()


def is_loopback(url: str) -> bool:
    """Whether ``url`` names this machine only (localhost, 127.0.0.0/8, ::1)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _download(pdf: bytes, name: str) -> Response:
    return Response(
        pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@ROUTER.get("/c/{campaign}/print")
def print_page(request: Request, campaign: str) -> Response:
    """What a master can print, with a warning when QR codes would open a loopback address."""
    caller = who(request)
    camp = frame(request, caller, campaign)
    svc = services(request)
    svc.play.require(caller.user, campaign, Role.MASTER)
    _, state, _ = svc.campaigns.load(campaign)
    batches: dict[str, int] = {}
    for s in getattr(state, "stickers", {}).values():
        if s.batch:
            batches[s.batch] = batches.get(s.batch, 0) + 1
    url = public_url(request)
    return render(
        request,
        "print.html",
        caller=caller,
        camp=camp,
        url=url,
        loopback=is_loopback(url),
        batches=sorted(batches.items()),
        characters=sorted((c.id, c.name) for c in state.characters.values()),
        stickers=bool(batches),
    )


@ROUTER.get("/c/{campaign}/print/stickers.pdf")
def stickers_pdf(
    request: Request,
    campaign: str,
    batch: Annotated[str | None, Query(max_length=80)] = None,
    codes: Annotated[str, Query(max_length=4000)] = "",
    master_copy: bool = False,
) -> Response:
    """A sticker sheet (a batch, or codes separated by spaces or commas) as a PDF file."""
    caller = who(request)
    svc = services(request)
    raw = {
        "batch": batch or None,
        "codes": [c for c in codes.replace(",", " ").split() if c],
        "master_copy": master_copy,
        "base_url": public_url(request),
    }
    answer = svc.play.query(caller.user, campaign, "sticker-sheet", raw, lang(request))
    pdf = base64.b64decode(str(answer["pdf_base64"]))
    return _download(pdf, f"stickers-{campaign}{'-' + batch if batch else ''}.pdf")


@ROUTER.get("/c/{campaign}/print/passports.pdf")
def passports_pdf(
    request: Request,
    campaign: str,
    character: Annotated[str | None, Query(max_length=80)] = None,
) -> Response:
    """One character's passport, or every passport the caller may see, as one A4 PDF."""
    from lazaretto.service.pdf import passports_pdf as render_pdf

    caller = who(request)
    frame(request, caller, campaign)
    svc = services(request)
    language = lang(request)
    if character:
        found = [svc.play.card(caller.user, campaign, character, language)]
    else:
        svc.play.require(caller.user, campaign, Role.MASTER)
        found = svc.play.cards(caller.user, campaign, language)
    if not found:
        raise InvalidInput("No characters to print", ru="Нет персонажей для печати")
    base = public_url(request)
    passports = [
        {
            "id": c["id"],
            "name": c["name"],
            "race": c.get("race", ""),
            "age": c.get("age"),
            "hits": c.get("hits_max"),
            "url": f"{base}/c/{campaign}/ch/{c['id']}",
        }
        for c in found
    ]
    words = (
        {"passport": "Паспорт", "hits": "Хиты"}
        if language == "ru"
        else {"passport": "Passport", "hits": "Hits"}
    )
    title = ("Паспорта" if language == "ru" else "Passports") + f" — {campaign}"
    name = f"passport-{campaign}-{character}.pdf" if character else f"passports-{campaign}.pdf"
    return _download(render_pdf(passports, title, words), name)
