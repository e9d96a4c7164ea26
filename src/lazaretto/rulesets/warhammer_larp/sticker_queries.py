"""Looking stickers up: one by its printed code, or a list (W-DIS-01, W-DIS-05).

Who learns what: masters everything (penalties, the trail); healers what the sticker
says and its status; a player only a sticker in their own character's hand or passport,
and only what is written on it (see :func:`_as_player_reads_it`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import QueryContext
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.warhammer_larp.models import Sticker
from lazaretto.rulesets.warhammer_larp.state import WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import sticker, unknown_sticker
from lazaretto.rulesets.warhammer_larp.values import STICKER_STEPS
from lazaretto.rulesets.warhammer_larp.wounds import STAFF


def register(rs: Ruleset) -> None:
    """Declare the ``sticker`` and ``stickers`` queries."""

    class StickerQuery(BaseModel):
        code: str = Field(min_length=1, max_length=60, description="the printed sticker code")
        character: str | None = Field(
            None, description="a player: your character, who holds or carries the sticker"
        )

    @rs.query(
        "sticker",
        StickerQuery,
        summary=("A sticker by its code: disease, status, history", "Наклейка по коду"),
        rule_ids=("W-DIS-01", "W-DIS-05"),
    )
    def show(ctx: QueryContext, a: StickerQuery) -> dict[str, Any]:
        s = sticker(ctx, a.code)
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        d = st.diseases.get(s.disease, {})
        if ctx.role is Role.PLAYER:
            return _as_player_reads_it(ctx, s, d, a)
        master = ctx.role is Role.MASTER
        out: dict[str, Any] = {
            "summary": ctx.tr(
                f"Sticker {s.code}: {d.get('name', s.disease)} — {s.status}",
                f"Наклейка {s.code}: {d.get('name', s.disease)} — {_STATUS_RU[s.status]}",
            ),
            "code": s.code,
            "disease": s.disease,
            "name": d.get("name", s.disease),
            "symptoms": d.get("symptoms", ""),
            "status": s.status,
            "cure": s.cure,
        }
        if master:  # W-DIS-05: the penalties field and the trail are the masters' only
            out.update(
                penalties=d.get("penalties", ""),
                lethal=d.get("lethal", False),
                races=d.get("races", []),
                holder=s.holder,
                infected=s.infected,
                lab=s.lab,
                batch=s.batch,
                history=[
                    f"{h.at:%H:%M:%S} {ctx.tr(*STICKER_STEPS.get(h.what, (h.what, h.what)))}"
                    + (ctx.tr(f" by {h.by}", f" кем: {h.by}") if h.by else "")
                    + (f" -> {h.to}" if h.to else "")
                    + (f" ({h.note})" if h.note else "")
                    + (f" [{', '.join(h.rule_ids)}]" if h.rule_ids else "")
                    for h in s.history
                ],
            )
        return out

    class StickersQuery(BaseModel):
        holder: str | None = Field(None, description="a character, lab, certificate or 'master'")
        disease: str | None = None
        status: (
            Literal[
                "stock",
                "held",
                "certificate",
                "epidemic",
                "stuck",
                "cured",
                "vanished",
                "discarded",
            ]
            | None
        ) = None

    @rs.query(
        "stickers",
        StickersQuery,
        roles=STAFF,
        summary=("List stickers (by holder, disease, status)", "Список наклеек"),
        rule_ids=("W-DIS-01",),
    )
    def listing(ctx: QueryContext, a: StickersQuery) -> dict[str, Any]:
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        rows = [
            s
            for s in st.stickers.values()  # in the order they were made
            if (a.holder is None or s.holder == a.holder)
            and (a.disease is None or s.disease == a.disease)
            and (a.status is None or s.status == a.status)
        ]
        return {
            "summary": ctx.tr(f"{len(rows)} sticker(s)", f"Наклеек: {len(rows)}"),
            "stickers": [
                {"code": s.code, "disease": s.disease, "status": s.status, "holder": s.holder}
                for s in rows
            ],
        }


def _as_player_reads_it(ctx: QueryContext, s: Sticker, d: dict[str, Any], a: Any) -> dict[str, Any]:
    """What a player learns of a sticker: only one in their character's hand or
    passport, and only what is written on it — its symptoms (W-DIS-01/02) and a cure
    written on it (W-DTRT-20); never the disease's name, nor the penalties field here
    (W-DIS-05: the infected player's card shows theirs). Any other code answers as an
    unknown one: a player cannot tell a stranger's sticker from a mistyped code."""
    if a.character is None or a.character not in (s.holder, s.infected):
        raise unknown_sticker(a.code)  # the same answer as for a code nobody printed
    return {
        "summary": ctx.tr(
            f"Sticker {s.code}: {d.get('symptoms', '')}",
            f"Наклейка {s.code}: {d.get('symptoms', '')}",
        ),
        "code": s.code,
        "symptoms": d.get("symptoms", ""),
        "status": s.status,
        "cure": s.cure,
    }


_STATUS_RU = {
    "stock": "на складе",
    "held": "на руках",
    "certificate": "при сертификате",
    "epidemic": "у регионального мастера",
    "stuck": "вклеена в паспорт",
    "cured": "излечена",
    "vanished": "пропала",
    "discarded": "выброшена",
}
