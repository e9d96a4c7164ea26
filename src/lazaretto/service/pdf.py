"""Printable PDFs for paper-based play (fpdf2): the hospital journal.

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
COLUMNS = (("no", 10), ("time", 22), ("hospital", 25), ("type", 28), ("name", 40), ("details", 152))


def unicode_font() -> str | None:
    """The first Unicode TrueType font found on this machine."""
    return next((f for f in FONTS if Path(f).exists()), None)


def journal_pdf(rows: list[dict[str, Any]], title: str, headers: dict[str, str]) -> bytes:
    """The journal as an A4 landscape table: one row per entry, in order.

    ``rows`` carry ``no``, ``time``, ``hospital``, ``type`` (a label), ``name`` and
    ``details`` (already readable text); ``headers`` the column titles.
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
