"""Protection against disease (защита от болезней): checklist-000 §5.1; A-W-20.

* Full protection: a hooded robe, gloves and a plague doctor mask covering the whole
  face (W-PROT-01/02) — it blocks every route.
* An ordinary mask with gloves blocks only touch and combat (W-PROT-03).
* Alchemy, magic or an immunity may block some routes or diseases, or all (W-PROT-04).

Which outfit level blocks which route is the parameter ``protection_matrix``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse
from lazaretto.rulesets.warhammer_larp.params import Route, WarhammerParams
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS

ROUTES: tuple[Route, ...] = ("touch", "combat", "outbreak", "epidemic")


@REDUCERS.on("protection.outfit_changed")
def _outfit(st: WarhammerState, ev: Event) -> None:
    st.characters[ev.payload["character"]].data["outfit"] = list(ev.payload["items"])


@REDUCERS.on("protection.granted")
def _granted(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    st.characters[p["character"]].data.setdefault("protections", []).append(
        {k: p[k] for k in ("kind", "routes", "diseases", "until", "note")}
    )


def outfit_level(p: WarhammerParams, items: list[str]) -> str:
    """``full`` (W-PROT-01), ``mask_gloves`` (W-PROT-03) or ``none``."""
    have = set(items)
    if set(p.full_protection_items) <= have:
        return "full"
    if p.gloves_item in have and have & set(p.ordinary_masks):
        return "mask_gloves"
    return "none"


def protection(
    ctx: ActionContext, ch: Character, route: Route, disease: str, outfit: list[str] | None = None
) -> tuple[str, tuple[str, ...]] | None:
    """Why ``ch`` is protected against ``disease`` by ``route`` (reason and rule IDs), or
    None. ``outfit`` overrides the recorded outfit (what a master sees at the moment)."""
    p = params(ctx)
    level = outfit_level(p, outfit if outfit is not None else ch.data.get("outfit", []))
    if level != "none" and level in p.protection_matrix.get(route, []):
        rule = "W-PROT-01" if level == "full" else "W-PROT-03"
        return f"outfit:{level}", (rule, "A-W-20")
    for e in ch.data.get("protections", []):
        if e["until"] is not None and datetime.fromisoformat(e["until"]) <= ctx.now:
            continue
        if (not e["routes"] or route in e["routes"]) and (
            not e["diseases"] or disease in e["diseases"]
        ):
            return e["kind"], ("W-PROT-04",)
    return None


def register(rs: Ruleset) -> None:
    """Declare the protection actions."""

    class Wear(BaseModel):
        character: str
        items: list[str] = Field(
            default_factory=list,
            max_length=20,
            description="hooded_robe, gloves, plague_mask, cloth_mask, medical_mask...",
        )
        mask_covers_face: bool = Field(True, description="the plague mask covers the whole face")

    @rs.action(
        "wear",
        Wear,
        roles=MASTERS,
        summary=(
            "Record what protective clothing a character wears",
            "Записать защитную одежду персонажа",
        ),
        rule_ids=("W-PROT-01", "W-PROT-02", "W-PROT-03"),
    )
    def wear(ctx: ActionContext, a: Wear) -> None:
        ch = ctx.character(a.character)
        if "plague_mask" in a.items and not a.mask_covers_face:
            refuse(
                "A plague doctor mask must cover the whole face to count",
                "Маска чумного доктора должна полностью закрывать лицо",
                "W-PROT-02",
            )
        level = outfit_level(params(ctx), a.items)
        ctx.emit(
            "protection.outfit_changed",
            {"character": ch.id, "items": a.items, "level": level},
            ("W-PROT-01", "W-PROT-03"),
        )

    class Grant(BaseModel):
        character: str
        kind: Literal["alchemy", "magic", "immunity"]
        routes: list[Literal["touch", "combat", "outbreak", "epidemic"]] = Field(
            default_factory=list, max_length=4, description="empty: every route"
        )
        diseases: list[str] = Field(
            default_factory=list, max_length=50, description="empty: every disease"
        )
        minutes: int | None = Field(None, ge=1, le=100_000, description="empty: until revoked")
        note: str = Field("", max_length=200, description="the potion, spell or trait")

    @rs.action(
        "grant-protection",
        Grant,
        roles=MASTERS,
        summary=(
            "Protection by alchemy, magic or an immunity (partial or full)",
            "Защита алхимией, магией или иммунитетом (частичная или полная)",
        ),
        rule_ids=("W-PROT-04",),
    )
    def grant(ctx: ActionContext, a: Grant) -> None:
        ch = ctx.character(a.character)
        checks.require_alive(ch)
        until = None if a.minutes is None else (ctx.now + timedelta(minutes=a.minutes))
        ctx.emit(
            "protection.granted",
            {
                "character": ch.id,
                "kind": a.kind,
                "routes": list(a.routes),
                "diseases": a.diseases,
                "until": until.isoformat() if until else None,
                "note": a.note,
            },
            ("W-PROT-04",),
        )
