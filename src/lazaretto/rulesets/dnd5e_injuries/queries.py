"""Read-only questions: exact injury odds, a creature's combat caution, the tables."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.dice import parse
from lazaretto.core.engine import QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.caution import (
    OUTCOMES,
    combat_caution,
    fraction_text,
    injury_odds,
    severity,
    thresholds,
)
from lazaretto.rulesets.dnd5e_injuries.common import label, params
from lazaretto.rulesets.dnd5e_injuries.params import DamageType
from lazaretto.rulesets.dnd5e_injuries.tables import LOCATIONS, TABLES, Location, Severity

OUTCOME_LABELS = {
    "none": ("no injury", "без травмы"),
    "light": ("light", "лёгкая"),
    "medium": ("medium", "средняя"),
    "heavy": ("heavy", "тяжёлая"),
}


def percent(x: Fraction) -> float:
    """A probability as a percentage, to 4 decimals (the exact value is beside it)."""
    return round(float(x * 100), 4)


def register(rs: Ruleset) -> None:
    """Declare the queries."""

    class InjuryOdds(BaseModel):
        character: str = Field(description="who is hit (combat caution, hit points)")
        damage: str = Field(
            max_length=100, description="damage expression, e.g. 2d6+3 (a crit's dice doubled)"
        )
        critical: bool = Field(False, description="the hit is a critical hit")
        hp: int | None = Field(None, ge=0, le=10000, description="hit points before (default: now)")
        equal_exchange: bool = Field(False, description="the defender uses Equal Exchange")

    @rs.query(
        "injury-odds",
        InjuryOdds,
        summary=(
            "Exact odds of no injury / light / medium / heavy for a damage roll",
            "Точные шансы: без травмы / лёгкая / средняя / тяжёлая для броска урона",
        ),
        rule_ids=(
            "D-COND-01",
            "D-COND-02",
            "D-INF-02",
            "D-SEV-01",
            "D-SEV-02",
            "D-SEV-03",
            "D-SEV-04",
        ),
    )
    def odds(ctx: QueryContext, a: InjuryOdds) -> dict[str, Any]:
        ch = ctx.character(a.character)
        p = params(ctx)
        cc = combat_caution(ch.name, ch.stats, p)
        dist = parse(a.damage).distribution()
        hp = a.hp if a.hp is not None else (ch.hits if ch.hits_max else None)
        enemy = bool(ch.data.get("enemy"))
        kw: dict[str, Any] = {"critical": a.critical, "enemy": enemy}
        exact = injury_odds(
            dist,
            cc.value,
            p,
            hp=hp,
            hp_max=ch.hits_max or None,
            equal_exchange=a.equal_exchange,
            **kw,
        )
        given = injury_odds(dist, cc.value, p, equal_exchange=a.equal_exchange, critical=True)
        shown = ", ".join(f"{ctx.tr(*OUTCOME_LABELS[k])} {percent(exact[k]):g}%" for k in OUTCOMES)
        hp_text = "?" if hp is None else str(hp)
        return {
            "summary": ctx.tr(
                f"{ch.name} (combat caution {cc.text()}, HP {hp_text}) hit by {a.damage}: {shown}",
                f"{ch.name} (боевая осторожность {cc.text()}, хиты {hp_text}), урон "
                f"{a.damage}: {shown}",
            ),
            "caution": cc.text(),
            "hp": hp,
            "exact": {k: str(v) for k, v in exact.items()},
            "percent": {k: percent(v) for k, v in exact.items()},
            "if_injured": {k: str(given[k]) for k in OUTCOMES[1:]},
            "thresholds": dict(
                zip(("medium", "heavy"), map(fraction_text, thresholds(cc.value, p)), strict=True)
            ),
        }

    class CautionQuery(BaseModel):
        character: str = Field(description="whose combat caution")
        damage: int | None = Field(None, ge=0, le=10000, description="a damage to classify")

    @rs.query(
        "combat-caution",
        CautionQuery,
        summary=(
            "A creature's combat caution, its severity thresholds, a damage's severity",
            "Боевая осторожность существа, пороги тяжести, тяжесть для урона",
        ),
        rule_ids=("D-SEV-01", "D-SEV-02", "D-SEV-03", "D-SEV-04"),
    )
    def caution(ctx: QueryContext, a: CautionQuery) -> dict[str, Any]:
        ch = ctx.character(a.character)
        p = params(ctx)
        cc = combat_caution(ch.name, ch.stats, p)
        medium, heavy = thresholds(cc.value, p)
        out: dict[str, Any] = {
            "caution": cc.text(),
            "terms": {
                "con": cc.con,
                "proficiency": cc.proficiency,
                cc.level_source: fraction_text(cc.level),
            },
            "thresholds": {"medium": fraction_text(medium), "heavy": fraction_text(heavy)},
        }
        text_en = (
            f"{ch.name}: combat caution {cc.text()} = {cc.con} + {cc.proficiency} + "
            f"{fraction_text(cc.level)}; medium from {fraction_text(medium)}, heavy from "
            f"{fraction_text(heavy)}"
        )
        text_ru = (
            f"{ch.name}: боевая осторожность {cc.text()} = {cc.con} + {cc.proficiency} + "
            f"{fraction_text(cc.level)}; средняя от {fraction_text(medium)}, тяжёлая от "
            f"{fraction_text(heavy)}"
        )
        if a.damage is not None:
            sev = severity(a.damage, cc.value, p)
            out["severity"] = sev
            text_en += f"; damage {a.damage} → {label('severity:' + sev, 'en')}"
            text_ru += f"; урон {a.damage} → {label('severity:' + sev, 'ru')}"
        out["summary"] = ctx.tr(text_en, text_ru)
        return out

    class TableQuery(BaseModel):
        location: Location | None = Field(None, description="head, arms, legs or torso")
        damage_type: DamageType | None = Field(None, description="a 5e damage type")
        severity: Severity | None = Field(None, description="light, medium or heavy")

    @rs.query(
        "injury-table",
        TableQuery,
        summary=(
            "Look up injury table rows by location, damage type and severity",
            "Найти строки таблицы травм по локации, типу урона и тяжести",
        ),
        rule_ids=("D-ROLL-02", "A-D-05"),
    )
    def table(ctx: QueryContext, a: TableQuery) -> dict[str, Any]:
        p = params(ctx)
        rows: list[dict[str, Any]] = []
        unmapped: list[str] = []
        for loc in LOCATIONS:
            if a.location not in (None, loc):
                continue
            sub = p.sub_table(loc, a.damage_type) if a.damage_type else None
            if a.damage_type and sub is None:
                unmapped.append(loc)
                continue
            for r in TABLES.rows:
                if r.location != loc or (sub and r.damage != sub):
                    continue
                if a.severity not in (None, r.severity):
                    continue
                rows.append(
                    {
                        "id": r.id,
                        "location": loc,
                        "damage": TABLES.sub_tables[loc][str(r.damage)].get(ctx.lang),
                        "severity": r.severity,
                        "name": r.name.get(ctx.lang),
                        "effect": r.effect.get(ctx.lang),
                        "treatment": r.treatment.get(ctx.lang),
                    }
                )
        lines = "; ".join(f"{r['id']} {r['name']}: {r['effect']} / {r['treatment']}" for r in rows)
        return {
            "summary": lines or ctx.tr("no rows", "строк нет"),
            "rows": rows,
            "unmapped": unmapped,
        }
