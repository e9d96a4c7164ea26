"""A creature's D&D numbers (see ``common.py`` for where they live): Constitution
score, proficiency bonus, level (or a monster's CR / hit dice), hit points, AC and
shield, and whether it is an enemy (D-SEV-01, A-D-02, D-INF-03).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.common import refuse


def register(rs: Ruleset) -> None:
    """Declare ``set-dnd-stats``."""

    class SetDndStats(BaseModel):
        character: str = Field(description="whose numbers")
        con: int | None = Field(None, ge=1, le=30, description="Constitution score")
        proficiency: int | None = Field(None, ge=0, le=10, description="proficiency bonus")
        level: int | None = Field(None, ge=0, le=30, description="character level")
        cr: int | None = Field(
            None, ge=0, le=30, description="a monster's challenge rating, rounded down"
        )
        hit_dice: int | None = Field(None, ge=0, le=100, description="a monster's hit dice")
        hp_max: int | None = Field(None, ge=1, le=10000, description="maximum hit points")
        hp: int | None = Field(None, ge=0, le=10000, description="current hit points")
        ac: int | None = Field(None, ge=0, le=40, description="armour class (shield included)")
        shield: int | None = Field(None, ge=0, le=10, description="the shield's AC bonus")
        enemy: bool | None = Field(None, description="an enemy: injured only by attempts")

    @rs.action(
        "set-dnd-stats",
        SetDndStats,
        summary=(
            "Set a creature's D&D numbers (CON, proficiency, level, HP, AC)",
            "Задать числа D&D существа (Телосложение, мастерство, уровень, хиты, КД)",
        ),
        rule_ids=("D-SEV-01", "A-D-02"),
    )
    def set_stats(ctx: ActionContext, a: SetDndStats) -> None:
        ch = ctx.character(a.character)
        stats = dict(ch.stats)
        for key in ("con", "proficiency", "level", "cr", "hit_dice", "ac", "shield"):
            value = getattr(a, key)
            if value is not None:
                stats[key] = value
        hits_max = a.hp_max if a.hp_max is not None else ch.hits_max
        hits = a.hp if a.hp is not None else (hits_max if a.hp_max is not None else ch.hits)
        if hits > hits_max:
            refuse(
                f"{ch.name}: {hits} hit points is more than the maximum {hits_max}",
                f"{ch.name}: хитов {hits} больше максимума {hits_max}",
                "D-COND-02",
            )
        enemy = bool(ch.data.get("enemy")) if a.enemy is None else a.enemy
        ctx.emit(
            "dnd.stats_set",
            {
                "character": ch.id,
                "stats": stats,
                "hits": hits,
                "hits_max": hits_max,
                "enemy": enemy,
                "summary": ", ".join(f"{k} {v}" for k, v in sorted(stats.items())),
            },
            ("D-SEV-01",),
        )
