"""Outbreak and epidemic certificates (сертификаты) made in a lab: checklist-000 §6.3.3–§6.3.4.

An outbreak certificate costs 4 points and carries at most 10 stickers of one disease
(W-LAB-13/14); an epidemic certificate costs 8 and must come with 30 (W-LAB-15/16;
A-W-31). The stickers are made separately and attached — at once or later (A-W-31:
stickers persist across days).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import disease, issue
from lazaretto.rulesets.warhammer_larp.labs import lab_of, spend
from lazaretto.rulesets.warhammer_larp.stickers import held, in_stock, mint, move
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS


def register(rs: Ruleset) -> None:
    """Declare making, filling and handing over certificates."""

    class MakeCertificate(BaseModel):
        lab: str
        kind: Literal["outbreak", "epidemic"]
        disease: str
        holder: str | None = Field(None, description="the carrier who takes it")
        stickers: int = Field(0, ge=0, le=100, description="stickers attached now from stock")

    @rs.action(
        "make-certificate",
        MakeCertificate,
        roles=MASTERS,
        summary=(
            "Make an outbreak (4 points) or epidemic (8 points) certificate",
            "Создать сертификат вспышки (4 очка) или эпидемии (8 очков)",
        ),
        rule_ids=("W-LAB-13", "W-LAB-14", "W-LAB-15", "W-LAB-16"),
    )
    def certificate(ctx: ActionContext, a: MakeCertificate) -> None:
        p = params(ctx)
        lab = lab_of(ctx, a.lab)
        d = disease(ctx, a.disease)
        if a.holder:
            ctx.character(a.holder)
        limit = p.outbreak_max_stickers if a.kind == "outbreak" else p.epidemic_required_stickers
        if a.stickers > limit:
            _too_many(a.kind, limit, a.stickers)
        if len(in_stock(state(ctx), lab.id, d.code)) < a.stickers:
            refuse(
                f"{lab.name} has fewer than {a.stickers} stickers of {d.name} in stock",
                f"На складе {lab.name} меньше {a.stickers} наклеек {d.name}",
                "W-LAB-14" if a.kind == "outbreak" else "W-LAB-16",
            )
        cost = p.outbreak_certificate_cost if a.kind == "outbreak" else p.epidemic_certificate_cost
        rule = "W-LAB-13" if a.kind == "outbreak" else "W-LAB-15"
        spend(ctx, lab, cost, f"an {a.kind} certificate", (rule,))
        cid = issue(ctx, a.kind, d.code, a.holder or lab.id, lab.id, (rule, "W-LAB-01"))
        attach(ctx, cid, a.stickers, "lab")

    class Attach(BaseModel):
        certificate: str
        count: int = Field(ge=1, le=100)
        source: Literal["lab", "holder", "master"] = Field(
            "lab", description="the certificate's lab stock, its holder's hand, or new stickers"
        )

    @rs.action(
        "attach-stickers",
        Attach,
        roles=MASTERS,
        summary=(
            "Attach stickers of its disease to a certificate",
            "Приложить к сертификату наклейки его болезни",
        ),
        rule_ids=("W-LAB-14", "W-LAB-16", "A-W-31"),
    )
    def attach_stickers(ctx: ActionContext, a: Attach) -> None:
        attach(ctx, a.certificate, a.count, a.source)

    class HandCertificate(BaseModel):
        certificate: str
        holder: str = Field(description="the character who takes it")

    @rs.action(
        "hand-certificate",
        HandCertificate,
        roles=MASTERS,
        summary=("Hand a certificate to a character", "Передать сертификат персонажу"),
        rule_ids=("W-EPI-06",),
    )
    def hand_certificate(ctx: ActionContext, a: HandCertificate) -> None:
        cert = _cert(ctx, a.certificate)
        ctx.character(a.holder)
        if cert["used"]:
            refuse(
                f"Certificate {a.certificate} is used",
                f"Сертификат {a.certificate} использован",
                "W-OUT-01",
            )
        ctx.emit(
            "certificate.changed",
            {"id": a.certificate, "changes": {"holder": a.holder}},
            ("W-EPI-06",),
        )


def _cert(ctx: ActionContext, cid: str) -> dict[str, Any]:
    cert = state(ctx).certificates.get(cid)
    if cert is None:
        raise NotFound(f"No certificate {cid!r}", ru=f"Нет сертификата {cid!r}")
    return cert


def _too_many(kind: str, limit: int, n: int) -> None:
    refuse(
        f"An {kind} certificate carries at most {limit} stickers of one disease, not {n}",
        f"К сертификату ({kind}) — не больше {limit} наклеек одной болезни, а не {n}",
        "W-LAB-14" if kind == "outbreak" else "W-LAB-16",
        "A-W-31",
    )


def attach(ctx: ActionContext, cid: str, count: int, source: str) -> None:
    """Attach ``count`` stickers of the certificate's disease (one disease: W-LAB-14/16)."""
    if count == 0:
        return
    p, st = params(ctx), state(ctx)
    cert = _cert(ctx, cid)
    if cert["used"]:
        refuse(f"Certificate {cid} is used", f"Сертификат {cid} использован", "W-OUT-01")
    limit = p.outbreak_max_stickers if cert["kind"] == "outbreak" else p.epidemic_required_stickers
    if len(cert["stickers"]) + count > limit:
        _too_many(cert["kind"], limit, len(cert["stickers"]) + count)
    if source == "master":
        codes = mint(ctx, cert["disease"], count, ("A-W-31",))
    else:
        where = cert.get("lab") if source == "lab" else cert["holder"]
        pool = (
            in_stock(st, where or "", cert["disease"])
            if source == "lab"
            else held(st, where or "", cert["disease"])
        )
        if len(pool) < count:
            refuse(
                f"{where} has {len(pool)} stickers of {cert['disease']}, not {count}",
                f"У {where} {len(pool)} наклеек {cert['disease']}, а не {count}",
                "W-LAB-14" if cert["kind"] == "outbreak" else "W-LAB-16",
            )
        codes = [s.code for s in pool[:count]]
    move(ctx, codes, "certificate", cid, "attached", ("W-LAB-14", "W-LAB-16"), by=source)
    ctx.emit(
        "certificate.changed",
        {"id": cid, "changes": {"stickers": [*cert["stickers"], *codes]}},
        ("W-LAB-14",) if cert["kind"] == "outbreak" else ("W-LAB-16", "A-W-31"),
    )
