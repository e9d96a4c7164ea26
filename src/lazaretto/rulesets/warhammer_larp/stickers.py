"""Disease stickers (наклейки болезней) as tracked objects: codes, moves, history.

A sticker is made in a lab (or by the masters), handed to a carrier, attached to a
certificate, given to a victim, stuck into a passport and cured in a hospital; every
step is an event and a line of the sticker's history (W-DIS-01). The sticker's code is
printed on it and in its QR code (``printing.py``); ``query sticker --code`` finds it
(``sticker_queries.py``). Codes are random-looking yet reproducible from the seed.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp import checks, hands
from lazaretto.rulesets.warhammer_larp.checks import refuse, state
from lazaretto.rulesets.warhammer_larp.models import Sticker, StickerStatus, StickerStep
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS

MASTER_STOCK = "master"


def _step(ev: Event, what: str, **kw: Any) -> StickerStep:
    return StickerStep(at=ev.at, what=what, rule_ids=list(ev.rule_ids), **kw)


@REDUCERS.on("sticker.made")
def _made(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    for code in p["codes"]:
        st.stickers[code] = Sticker(
            code=code,
            disease=p["disease"],
            lab=p.get("lab"),
            batch=p.get("batch"),
            status="stock",
            holder=p["holder"],
            history=[_step(ev, "made", by=p.get("lab") or MASTER_STOCK, to=p["holder"])],
        )
        hands.made(st, st.stickers[code])
    st.sticker_serial = max(st.sticker_serial, p["serial"])


@REDUCERS.on("sticker.moved")
def _moved(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    for code in p["codes"]:
        s = st.stickers[code]
        s.status = p["status"]
        hands.handed(st, code, s.holder, p["holder"])
        s.holder = p["holder"]
        s.history.append(
            _step(ev, p["what"], by=p.get("by", ""), to=p["holder"], note=p.get("note", ""))
        )


@REDUCERS.on("sticker.kept")
def _kept(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    for code in p["codes"]:
        st.stickers[code].history.append(
            _step(ev, "kept", by=p["giver"], to=p["victim"], note=p["reason"])
        )


@REDUCERS.on("sticker.vanished")
def _vanished(st: WarhammerState, ev: Event) -> None:
    for code in ev.payload["codes"]:
        s = st.stickers[code]
        s.status = "vanished"
        s.history.append(_step(ev, "vanished", by=s.holder, note=ev.payload["reason"]))
        hands.handed(st, code, s.holder, "")
        s.holder = ""


def sticker(ctx: ActionContext | QueryContext, code: str) -> Sticker:
    """The sticker with printed code ``code`` (case-insensitive); NotFound otherwise."""
    st: WarhammerState = ctx.state  # type: ignore[assignment]
    found = st.stickers.get(code) or st.stickers.get(code.strip().upper())
    if found is None:
        raise unknown_sticker(code)
    return found


def unknown_sticker(code: str) -> NotFound:
    """The answer for a code nobody printed (and for one the asker may not read)."""
    return NotFound(
        f"No sticker with code {code!r}",
        ru=f"Нет наклейки с кодом {code!r}",
        tip="Check the code printed under the QR code.",
        tip_ru="Проверьте код под QR-кодом.",
    )


def held(st: WarhammerState, holder: str, disease: str | None = None) -> list[Sticker]:
    """Stickers in ``holder``'s hand (of ``disease``), oldest first (the order they were
    made: codes are random and say nothing about it)."""
    return [
        s
        for s in hands.of(st, holder)
        if s.status == "held" and (disease is None or s.disease == disease)
    ]


def in_stock(st: WarhammerState, holder: str, disease: str) -> list[Sticker]:
    """Stickers of ``disease`` in a lab's (or the masters') stock, oldest first."""
    return [s for s in hands.of(st, holder) if s.status == "stock" and s.disease == disease]


CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: no I, L, O or U to misread when a code is typed from paper."""
CODE_CHARS = 8
"""40 bits: a code cannot be guessed (nor the next one told from the last)."""


def sticker_code(seed: int, serial: int, attempt: int = 0) -> str:
    """The printed code of the campaign's ``serial``-th sticker: an HMAC of the campaign's
    seed and the serial, so it is reproducible from the seed yet says nothing about the
    disease, the order or the other codes (``attempt`` moves past a clash)."""
    key = f"lazaretto-sticker:{seed}".encode()
    digest = hmac.new(key, f"{serial}:{attempt}".encode(), hashlib.sha256).digest()
    n = int.from_bytes(digest[:5], "big")
    chars = [CODE_ALPHABET[(n >> (5 * i)) & 31] for i in range(CODE_CHARS)]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])


def mint(
    ctx: ActionContext,
    disease: str,
    count: int,
    rule_ids: tuple[str, ...],
    *,
    lab: str | None = None,
    batch: str | None = None,
) -> list[str]:
    """Make ``count`` new stickers of ``disease`` with fresh unique, unguessable codes
    (:func:`sticker_code`; the codes are in the event, so a replay needs no seed)."""
    st = state(ctx)
    first = st.sticker_serial + 1
    codes: list[str] = []
    for n in range(first, first + count):
        attempt = 0
        while (code := sticker_code(st.seed, n, attempt)) in st.stickers or code in codes:
            attempt += 1
        codes.append(code)
    ctx.emit(
        "sticker.made",
        {
            "codes": codes,
            "disease": disease,
            "lab": lab,
            "batch": batch,
            "holder": lab or MASTER_STOCK,
            "serial": first + count - 1,
            "count": count,
        },
        rule_ids,
    )
    return codes


def move(
    ctx: ActionContext,
    codes: list[str],
    status: StickerStatus,
    holder: str,
    what: str,
    rule_ids: tuple[str, ...],
    *,
    by: str = "",
    note: str = "",
) -> None:
    """Move stickers to a new holder and status, with a history line."""
    if codes:
        ctx.emit(
            "sticker.moved",
            {
                "codes": codes,
                "first": codes[0],
                "count": len(codes),
                "status": status,
                "holder": holder,
                "what": what,
                "by": by,
                "note": note,
            },
            rule_ids,
        )


def register(rs: Ruleset) -> None:
    """Declare handing stickers around and the sticker look-up."""

    class HandStickers(BaseModel):
        to: str = Field(description="the character who receives them (e.g. a carrier)")
        disease: str = Field(description="disease code")
        count: int = Field(1, ge=1, le=500)
        source: str = Field(
            MASTER_STOCK,
            max_length=40,
            description="'master' (new stickers), a lab id or a character",
        )

    @rs.action(
        "hand-stickers",
        HandStickers,
        roles=MASTERS,
        summary=(
            "Hand stickers to a character (from a lab, a character or the masters)",
            "Передать наклейки персонажу (из лаборатории, от персонажа или от мастеров)",
        ),
        rule_ids=("W-DIS-01", "W-CARR-02"),
    )
    def hand(ctx: ActionContext, a: HandStickers) -> None:
        st = state(ctx)
        to = ctx.character(a.to)
        checks.require_alive(to)
        if a.disease not in st.diseases:
            raise NotFound(f"No disease {a.disease!r}", ru=f"Нет болезни {a.disease!r}")
        if a.source == MASTER_STOCK:
            codes = mint(ctx, a.disease, a.count, ("W-INF-01",))
        else:
            pool = in_stock(st, a.source, a.disease) if a.source in st.labs else []
            if a.source not in st.labs:
                ctx.character(a.source)
                pool = held(st, a.source, a.disease)
            if len(pool) < a.count:
                refuse(
                    f"{a.source} has {len(pool)} stickers of {a.disease}, not {a.count}",
                    f"У {a.source} {len(pool)} наклеек {a.disease}, а не {a.count}",
                    "W-DIS-01",
                )
            codes = [s.code for s in pool[: a.count]]
        move(ctx, codes, "held", to.id, "handed", ("W-DIS-01",), by=a.source)

    # the look-ups live beside (they import this module, so only once it is loaded)
    from lazaretto.rulesets.warhammer_larp import sticker_queries

    sticker_queries.register(rs)
