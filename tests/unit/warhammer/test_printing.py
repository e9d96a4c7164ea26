"""Printed sticker sheets: the PDF opens and every QR code decodes to its sticker's code.

Rendering uses pypdfium2 and decoding zxing-cpp (test-only packages); without them the
QR payloads are still checked."""

from __future__ import annotations

import base64

import pytest

from lazaretto.core.errors import Forbidden
from lazaretto.core.ruleset import Role
from lazaretto.rulesets.warhammer_larp.printing import qr_payload, sticker_sheet
from tests.unit.warhammer.diseases_kit import RECIPE, define, game, q


def test_the_qr_says_the_code_or_the_url_of_the_sticker_page() -> None:
    assert qr_payload("GF-0001", "day", None) == "GF-0001"
    assert qr_payload("GF-0001", "day", "http://x/") == "http://x/c/day/sticker/GF-0001"


def batch() -> tuple[object, list[str]]:
    import fpdf  # noqa: F401  (a dependency: the test fails if it is missing)

    g = game()
    define(g, name="Серая лихорадка", symptoms="кашель, озноб", penalties="не может бегать")
    g.act("register-lab", id="L1", name="Rat lab")
    g.act("make-stickers", at="09:00", lab="L1", disease="GF", components=RECIPE)
    codes = sorted(c for c, s in g.state.stickers.items() if s.batch == "L1-B1")
    return g, codes


def decoded(pdf: bytes) -> tuple[list[str], str, int]:
    """The QR codes and the text of every page (rendered by pypdfium2, read by zxing-cpp)."""
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(pdf)
    found: list[str] = []
    text = ""
    for page in doc:
        found += [r.text for r in zxingcpp.read_barcodes(page.render(scale=3).to_pil())]
        text += page.get_textpage().get_text_range()
    return found, text, len(doc)


def test_a_batch_sheet_has_one_qr_per_sticker_decoding_to_its_code() -> None:
    g, codes = batch()
    answer = q(g, "sticker-sheet", batch="L1-B1")  # type: ignore[arg-type]
    pdf = base64.b64decode(answer["pdf_base64"])
    assert pdf.startswith(b"%PDF") and answer["codes"] == codes
    found, text, _ = decoded(pdf)
    assert sorted(found) == codes  # W-DIS-01: one QR per sticker, its own code
    assert "Серая лихорадка" in text and "кашель" in text and codes[0] in text
    assert "не может бегать" not in text  # W-DIS-05: no penalties on the players' sheet


def test_the_masters_copy_adds_the_penalties_and_only_masters_get_it() -> None:
    g, codes = batch()
    pdf = sticker_sheet(g.state, codes[:3], master_copy=True)  # type: ignore[attr-defined]
    found, text, _ = decoded(pdf)
    assert sorted(found) == codes[:3]
    assert "не может бегать" in text  # W-DIS-03: penalties on the masters' copy
    with pytest.raises(Forbidden):
        q(g, "sticker-sheet", role=Role.HEALER, batch="L1-B1")  # type: ignore[arg-type]


def test_with_a_base_url_the_qr_opens_the_sticker_page() -> None:
    g, codes = batch()
    url = qr_payload(codes[0], "test", "http://lazaretto.local/")
    assert url == f"http://lazaretto.local/c/test/sticker/{codes[0]}"
    pdf = sticker_sheet(g.state, codes[:1], base_url="http://lazaretto.local")  # type: ignore[attr-defined]
    assert decoded(pdf)[0] == [url]
    assert q(g, "sticker", code=url.rsplit("/", 1)[1])["code"] == codes[0]  # type: ignore[arg-type]


def test_a_long_list_flows_onto_several_pages() -> None:
    g, _ = batch()
    g.act("make-stickers", lab="L1", disease="GF", batches=2, components=RECIPE)  # type: ignore[attr-defined]
    codes = sorted(g.state.stickers)  # type: ignore[attr-defined]
    pdf = sticker_sheet(g.state, codes)  # type: ignore[attr-defined]
    found, _, pages = decoded(pdf)
    assert pages == 2 and sorted(found) == codes
