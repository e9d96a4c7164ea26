"""Printable PDFs for paper-based play (fpdf2): the hospital journal and passports.

Cyrillic needs a Unicode TrueType font: DejaVu Sans (Debian ``fonts-dejavu-core``,
which .ci/run installs) or Liberation Sans; without one the text falls back to Latin-1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
)
COLUMNS = (("no", 10), ("time", 32), ("hospital", 25), ("type", 28), ("name", 40), ("details", 142))


def unicode_font() -> str | None:
    """The first Unicode TrueType font found on this machine."""
    return next((f for f in FONTS if Path(f).exists()), None)


def journal_pdf(rows: list[dict[str, Any]], title: str, headers: dict[str, str]) -> bytes:
    """The journal as an A4 landscape table: one row per entry, in order.

    ``rows`` carry ``no``, ``time`` (its date and time), ``hospital``, ``type`` (a
    label), ``name`` and ``details`` (already readable text); ``headers`` the column
    titles.
    """
    from fpdf import FPDF  # type: ignore[import-not-found,unused-ignore]

    pdf = FPDF(orientation="L", unit="mm", format="A4")
    font = unicode_font()
    family = "Journal" if font else "Helvetica"
    if font:
        pdf.add_font(family, "", font)

    def text(value: Any) -> str:
        shown = "" if value is None else str(value)
        return shown if font else shown.encode("latin-1", "replace").decode("latin-1")

    pdf.set_auto_page_break(auto=True, margin=12)
    pdf.add_page()
    pdf.set_font(family, size=13)
    pdf.cell(0, 9, text(title), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, size=8)
    from fpdf.fonts import FontFace  # type: ignore[import-not-found,unused-ignore]

    with pdf.table(
        col_widths=tuple(w for _, w in COLUMNS),
        text_align="LEFT",
        line_height=4.5,
        headings_style=FontFace(emphasis=""),
    ) as table:
        head = table.row()
        for key, _ in COLUMNS:
            head.cell(text(headers.get(key, key)))
        for r in rows:
            row = table.row()
            for key, _ in COLUMNS:
                row.cell(text(r.get(key)))
    return bytes(pdf.output())


PASSPORT_W, PASSPORT_H, PASSPORT_COLS, PASSPORT_ROWS = 95.0, 68.0, 2, 4
QR_SIDE = 34.0


def _qr(pdf: Any, url: str, x: float, y: float, side: float) -> None:
    """``url`` as a QR code drawn square by square (sharp at any printer resolution)."""
    import segno  # type: ignore[import-not-found,unused-ignore]

    modules = segno.make(url, error="m", micro=False).matrix
    size = side / (len(modules) + 8)  # a quiet zone of 4 modules each side
    for r, line in enumerate(modules):
        for c, dark in enumerate(line):
            if dark:
                pdf.rect(x + (c + 4) * size, y + (r + 4) * size, size, size, style="F")


def passports_pdf(passports: list[dict[str, Any]], title: str, words: dict[str, str]) -> bytes:
    """Passports on A4, eight a page (2 x 4, cut along the frames), each with a QR code.

    Each passport carries ``id``, ``name``, ``race``, ``age``, ``hits`` and ``url`` (what
    its QR code opens); ``words`` the labels ``passport`` and ``hits``.
    """
    from fpdf import FPDF  # type: ignore[import-not-found,unused-ignore]

    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(auto=False)
    pdf.set_title(title)
    font = unicode_font()
    family = "Passport" if font else "Helvetica"
    if font:
        pdf.add_font(family, "", font)

    def text(value: Any) -> str:
        shown = "" if value is None else str(value)
        return shown if font else shown.encode("latin-1", "replace").decode("latin-1")

    per_page = PASSPORT_COLS * PASSPORT_ROWS
    for n, p in enumerate(passports):
        if n % per_page == 0:
            pdf.add_page()
        row, col = divmod(n % per_page, PASSPORT_COLS)
        x, y = 10 + col * PASSPORT_W, 12 + row * PASSPORT_H
        pdf.set_draw_color(150)
        pdf.rect(x, y, PASSPORT_W - 2, PASSPORT_H - 2)
        _qr(pdf, str(p["url"]), x + PASSPORT_W - QR_SIDE - 4, y + 2, QR_SIDE)
        width = PASSPORT_W - QR_SIDE - 8
        pdf.set_xy(x + 3, y + 4)
        pdf.set_font(family, size=9)
        pdf.multi_cell(width, 5, text(f"{words.get('passport', 'Passport')} № {p['id']}"))
        pdf.set_x(x + 3)
        pdf.set_font(family, size=14)
        pdf.multi_cell(width, 7, text(p["name"]))
        pdf.set_x(x + 3)
        pdf.set_font(family, size=9)
        about = ", ".join(str(v) for v in (p.get("race"), p.get("age")) if v)
        if about:
            pdf.multi_cell(width, 5, text(about))
            pdf.set_x(x + 3)
        pdf.multi_cell(width, 5, text(f"{words.get('hits', 'Hits')}: {p.get('hits')}"))
        pdf.set_xy(x + 3, y + PASSPORT_H - 9)
        pdf.set_font(family, size=6)
        pdf.multi_cell(PASSPORT_W - 8, 3, text(p["url"]))
    return bytes(pdf.output())
