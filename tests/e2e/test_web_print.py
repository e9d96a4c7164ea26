"""Printing from the web: sticker sheets and passports as PDF downloads (A4, Cyrillic,
QR codes that open the server's public address), the loopback warning, and dates in
the journal PDF. PDFs are read back with pypdfium2 where it is installed."""

from __future__ import annotations

import re

import pytest
from tests.e2e.webtools import C, Login

from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN
from lazaretto.store.db import Database
from lazaretto.web.views_print import PUBLIC_URL, is_loopback


def _pdf_text(data: bytes) -> tuple[int, str, tuple[float, float]]:
    pdfium = pytest.importorskip("pypdfium2")
    doc = pdfium.PdfDocument(data)
    text = "".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    return len(doc), text, doc[0].get_size()


RECIPE = ["salt", "ash", "bone", "moss", "wax"]


def _stickers(db: Database) -> None:
    svc = CampaignService(db)
    svc.act(CAMPAIGN, "define-disease", {"code": "BX-1", "name": "Чёрная хворь", "recipe": RECIPE})
    svc.act(CAMPAIGN, "register-lab", {"id": "L1", "name": "Лаборатория", "equipped": True})
    svc.act(CAMPAIGN, "make-stickers", {"lab": "L1", "disease": "BX-1", "components": RECIPE})


def test_a_sticker_sheet_downloads_as_a_pdf_with_the_public_address(
    login: Login, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    _stickers(db)
    monkeypatch.setenv(PUBLIC_URL, "http://10.0.0.5:8000")
    client = login("master")
    page = client.get(f"{C}/print").text
    assert "http://10.0.0.5:8000" in page and "data-loopback" not in page
    batch = next(
        s.batch for s in CampaignService(db).load(CAMPAIGN)[1].stickers.values() if s.batch
    )
    assert f"stickers.pdf?batch={batch}" in page
    r = client.get(f"{C}/print/stickers.pdf", params={"batch": batch})
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("attachment;")
    pages, text, _ = _pdf_text(r.content)
    assert pages >= 1 and "Чёрная хворь" in text  # Cyrillic


def test_the_sticker_sheet_query_offers_a_download_not_base64(login: Login, db: Database) -> None:
    _stickers(db)
    batch = next(
        s.batch for s in CampaignService(db).load(CAMPAIGN)[1].stickers.values() if s.batch
    )
    page = login("master").get(f"{C}/query/sticker-sheet", params={"batch": batch, "ask": "1"})
    assert page.status_code == 200 and "data-download" in page.text
    assert "pdf base64" not in page.text and "JVBERi" not in page.text  # "%PDF" in base64


def test_all_passports_print_as_one_a4_pdf_in_russian(login: Login) -> None:
    r = login("master").get(f"{C}/print/passports.pdf?lang=ru")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    _, text, (width, height) = _pdf_text(r.content)
    assert round(width / 72 * 25.4) == 210 and round(height / 72 * 25.4) == 297  # A4
    assert "Паспорт № 1001" in text and "Rustam" in text and "Хиты" in text
    one = login("player").get(f"{C}/print/passports.pdf?character=1002")
    assert one.status_code == 200 and "Boris" in _pdf_text(one.content)[1]


def test_a_player_may_not_print_every_passport(login: Login) -> None:
    assert login("player").get(f"{C}/print/passports.pdf").status_code == 403


def test_the_print_page_warns_when_qr_codes_would_open_a_loopback_address(
    login: Login, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(PUBLIC_URL, "http://127.0.0.1:8000")
    page = login("master").get(f"{C}/print").text
    assert "data-loopback" in page and "--public-url" in page
    assert is_loopback("http://localhost:8000") and is_loopback("http://[::1]/")
    assert not is_loopback("http://192.168.1.10:8000")


def test_the_journal_pdf_shows_dates(login: Login) -> None:
    r = login("healer").get(f"{C}/journal.pdf")
    _, text, _ = _pdf_text(r.content)
    assert re.search(r"\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d", text), text[:300]
