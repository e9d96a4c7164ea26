"""Printable sticker sheets (PDF): one cell per sticker with its QR code.

Each cell shows the sticker's code, the disease's name and symptoms (W-DIS-01/02); the
masters' copy adds the penalties, lethality and races, which the players' sheet never
shows (W-DIS-03/05). The QR code encodes the sticker's code, or — given a base URL —
``{base_url}/c/{campaign}/sticker/{code}``, so a phone opens the sticker; either way
``lazaretto query sticker --code CODE`` finds it.

Needs ``fpdf2`` and ``segno`` (imported here only, so the ruleset loads without them).
Cyrillic needs a Unicode TrueType font: DejaVu Sans (Debian ``fonts-dejavu-core``) or
Liberation Sans is used when found; otherwise non-Latin-1 letters print as ``?``.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import QueryContext
from lazaretto.core.errors import InvalidInput, LazarettoError
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.warhammer_larp.models import Sticker
from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS

FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
    "C:/Windows/Fonts/arial.ttf",
)
COLS, CELL_W, CELL_H, MARGIN, QR_MM = 3, 63.0, 54.0, 10.5, 22.0


class MissingPackage(LazarettoError):
    """Raised when printing is asked for but fpdf2 or segno is not installed."""

    exit_code = 8
    http_status = 501


def qr_payload(code: str, campaign: str, base_url: str | None) -> str:
    """What a sticker's QR code says: its code, or the URL that opens it."""
    if not base_url:
        return code
    return f"{base_url.rstrip('/')}/c/{campaign}/sticker/{code}"


def _font() -> str | None:
    return next((f for f in FONTS if Path(f).is_file()), None)


def sticker_sheet(
    st: WarhammerState,
    codes: list[str],
    *,
    master_copy: bool = False,
    base_url: str | None = None,
) -> bytes:
    """A PDF of ``codes``' stickers, three across, with a QR code each."""
    try:
        import segno  # type: ignore[import-not-found,unused-ignore]
        from fpdf import FPDF  # type: ignore[import-not-found,unused-ignore]
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise MissingPackage(
            "Printing stickers needs the packages fpdf2 and segno",
            ru="Для печати наклеек нужны пакеты fpdf2 и segno",
            tip="pip install fpdf2 segno",
        ) from exc
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(auto=False)
    pdf.set_title("Lazaretto stickers" + (" (masters' copy)" if master_copy else ""))
    font = _font()
    family = "Helvetica"
    if font is not None:
        pdf.add_font("Sticker", "", font)
        family = "Sticker"

    def text(value: str) -> str:
        return value if font else value.encode("latin-1", "replace").decode("latin-1")

    per_page = COLS * int((297 - 2 * MARGIN) // CELL_H)
    for n, code in enumerate(codes):
        s: Sticker = st.stickers[code]
        d: dict[str, Any] = st.diseases.get(s.disease, {})
        if n % per_page == 0:
            pdf.add_page()
        row, col = divmod(n % per_page, COLS)
        x, y = MARGIN + col * CELL_W, MARGIN + row * CELL_H
        pdf.set_draw_color(160)
        pdf.rect(x, y, CELL_W - 2, CELL_H - 2)
        qr = segno.make(qr_payload(code, st.campaign, base_url), error="m", micro=False)
        modules = qr.matrix
        size = QR_MM / (len(modules) + 8)  # a quiet zone of 4 modules each side
        for r, line in enumerate(modules):
            for c, dark in enumerate(line):
                if dark:
                    pdf.rect(x + 1 + (c + 4) * size, y + 1 + (r + 4) * size, size, size, style="F")
        tx, width = x + QR_MM + 2, CELL_W - QR_MM - 6
        pdf.set_xy(tx, y + 3)
        pdf.set_font(family, size=9)
        pdf.multi_cell(width, 4, text(code), new_x="LEFT", new_y="NEXT")
        pdf.set_x(tx)
        pdf.set_font(family, size=8)
        pdf.multi_cell(width, 3.6, text(str(d.get("name", s.disease))), new_x="LEFT", new_y="NEXT")
        body = str(d.get("symptoms", ""))
        if master_copy:
            lethal = f"lethal, {d.get('minutes_to_death')} min" if d.get("lethal") else "non-lethal"
            races = ", ".join(d.get("races", [])) or "all races"
            body += f"\nPENALTIES: {d.get('penalties', '')}\n{lethal}; {races}"
        pdf.set_xy(x + 2, y + QR_MM + 3)
        pdf.set_font(family, size=7)
        pdf.multi_cell(CELL_W - 6, 3.2, text(body[:400]), new_x="LEFT", new_y="NEXT")
    return bytes(pdf.output())


def register(rs: Ruleset) -> None:
    """Declare ``sticker-sheet``."""

    class Sheet(BaseModel):
        batch: str | None = Field(None, description="a lab batch id, e.g. L1-B1")
        codes: list[str] = Field(default_factory=list, max_length=500, description="or codes")
        master_copy: bool = Field(False, description="with penalties (masters only)")
        base_url: str | None = Field(
            None, max_length=200, description="QR opens this server's sticker page"
        )

    @rs.query(
        "sticker-sheet",
        Sheet,
        roles=MASTERS,
        summary=(
            "A printable PDF of stickers with QR codes (base64)",
            "PDF с наклейками и QR-кодами для печати (base64)",
        ),
        rule_ids=("W-DIS-01", "W-DIS-05"),
    )
    def sheet(ctx: QueryContext, a: Sheet) -> dict[str, Any]:
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        codes = [c for c in a.codes if c in st.stickers]
        if a.batch:
            codes += sorted(c for c, s in st.stickers.items() if s.batch == a.batch)
        if not codes:
            raise InvalidInput("No stickers to print", ru="Нет наклеек для печати")
        master = a.master_copy and ctx.role is Role.MASTER
        pdf = sticker_sheet(st, codes, master_copy=master, base_url=a.base_url)
        return {
            "summary": ctx.tr(
                f"{len(codes)} sticker(s), {len(pdf)} bytes", f"Наклеек: {len(codes)}"
            ),
            "codes": codes,
            "qr": [qr_payload(c, st.campaign, a.base_url) for c in codes],
            "master_copy": master,
            "pdf_base64": base64.b64encode(pdf).decode("ascii"),
        }
