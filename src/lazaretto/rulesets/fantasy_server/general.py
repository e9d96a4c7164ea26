"""General actions: the character sheet, HP damage, conditions, combat encounters and
the generic check and opposed roll (with the critical rules, S-CRIT)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from lazaretto.core.character import Visibility
from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.fantasy_server.breakage import log_crit
from lazaretto.rulesets.fantasy_server.checks import (
    contest,
    p_active_wins,
    p_success,
    roll_check,
)
from lazaretto.rulesets.fantasy_server.common import (
    CONDITION_EXPIRES,
    MASTERS,
    add_condition,
    fstate,
    hp_change,
    params,
    parse_pairs,
    refuse,
    remove_condition,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import effective_stat
from lazaretto.rulesets.fantasy_server.params import Stat, Threshold
from lazaretto.rulesets.fantasy_server.wear import item_for_roll


def damage(
    ctx: ActionContext,
    deltas: dict[str, int],
    kind: str,
    payload: dict[str, Any],
    rule_ids: tuple[str, ...],
) -> dict[str, int]:
    """Apply HP losses (positive numbers) and emit ``kind`` carrying the resulting HP."""
    after, real = hp_change(ctx, {c: -d for c, d in deltas.items()})
    first = next(iter(after))
    lost = {c: -d for c, d in real.items()}
    ctx.emit(kind, {**payload, "hits_after": after, "lost": lost, "hp": after[first]}, rule_ids)
    return after


def die(ctx: ActionContext, char_id: str, cause: str, rule_ids: tuple[str, ...]) -> None:
    """``char_id`` dies: their countdowns stop."""
    ctx.cancel_all(char_id)
    ctx.emit("character.died", {"character": char_id, "cause": cause}, rule_ids)


def register(rs: Ruleset) -> None:
    """Declare the general actions, queries and timers."""

    class SetSheet(BaseModel):
        character: str = Field(description="whose sheet")
        stats: list[str] = Field(
            default_factory=list,
            description="base stats, e.g. STR=11 (STR END REF PER INT WIL DET MAG)",
        )
        skills: list[str] = Field(default_factory=list, description="skills to add (Smith...)")
        reduced_magic: bool | None = Field(None, description="reduced magic (заниженная магия)")
        is_construct: bool | None = Field(None, description="a construct (конструкт)")
        healing_skill_level: int | None = Field(
            None, ge=0, le=10, description="healing skill level"
        )
        perks: list[str] = Field(default_factory=list, description="perks, e.g. gut_feeling")

        @field_validator("stats")
        @classmethod
        def _stats(cls, v: list[str]) -> list[str]:
            parse_pairs(v, stats_only=True, field="stats")
            return v

    @rs.action(
        "set-sheet",
        SetSheet,
        roles=MASTERS,
        summary=("Set a character's stats and sheet facts", "Задать характеристики персонажа"),
        rule_ids=("S-HEAL-03", "S-CLAR-04", "S-CLAR-05"),
    )
    def set_sheet(ctx: ActionContext, a: SetSheet) -> None:
        ch = ctx.character(a.character)
        data: dict[str, Any] = {}
        for key in ("reduced_magic", "is_construct", "healing_skill_level"):
            value = getattr(a, key)
            if value is not None:
                data[key] = value
        if a.perks:
            data["perks"] = sorted(set(ch.data.get("perks", [])) | set(a.perks))
        stats = {k: v for k, v in parse_pairs(a.stats, stats_only=True, field="stats").items()}
        ctx.emit(
            "sheet.set",
            {"character": ch.id, "stats": stats, "skills": a.skills, "data": data},
            ("A-S-29",),
        )

    class TakeDamage(BaseModel):
        character: str = Field(description="who is hurt")
        amount: int = Field(ge=0, le=1000, description="HP lost")
        cause: str = Field("-", max_length=200, description="what hurt them")

    @rs.action(
        "lose-hp",
        TakeDamage,
        roles=MASTERS,
        summary=("Record HP lost", "Записать потерю здоровья"),
        rule_ids=("S-REGEN-01",),
    )
    def take_damage(ctx: ActionContext, a: TakeDamage) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        damage(
            ctx, {ch.id: a.amount}, "hp.damaged",
            {"character": ch.id, "amount": a.amount, "cause": a.cause}, ("S-REGEN-01",),
        )  # fmt: skip

    class Kill(BaseModel):
        character: str = Field(description="who dies")
        cause: str = Field("killed", max_length=200, description="why")

    @rs.action(
        "record-death",
        Kill,
        roles=MASTERS,
        summary=("Record a character's death", "Записать смерть персонажа"),
        rule_ids=("S-FALL-04",),
    )
    def kill(ctx: ActionContext, a: Kill) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        die(ctx, ch.id, a.cause, ())

    class RecordCondition(BaseModel):
        character: str = Field(description="who")
        kind: Literal["disease", "neurosis", "no_heavy_work", "rudimentary_limb"] = Field(
            description="disease (S-CLAR-01), neurosis (S-CLAR-08)..."
        )
        note: str = Field("", max_length=500, description="what it is, its treatment")
        days: int | None = Field(None, ge=1, le=365, description="how many days it lasts")

    @rs.action(
        "record-condition",
        RecordCondition,
        roles=MASTERS,
        summary=(
            "Record a disease, neurosis or other condition (individual treatment)",
            "Записать болезнь, невроз или иное состояние (лечение индивидуально)",
        ),
        rule_ids=("S-CLAR-01", "S-CLAR-08"),
    )
    def record_condition(ctx: ActionContext, a: RecordCondition) -> None:
        ch = ctx.character(a.character)
        rule = {"disease": "S-CLAR-01", "neurosis": "S-CLAR-08"}.get(a.kind, "S-HEAL-05")
        until = ctx.now + timedelta(days=a.days) if a.days else None
        add_condition(
            ctx, ch.id, a.kind, (rule,), deadline=until, data={"note": a.note},
            visibility=Visibility.OWNER,
        )  # fmt: skip

    class ClearCondition(BaseModel):
        character: str = Field(description="who")
        kind: str = Field(description="the condition kind, e.g. caught_red_handed")

    @rs.action(
        "clear-condition",
        ClearCondition,
        roles=MASTERS,
        summary=("A GM ends a condition", "GM снимает состояние"),
        rule_ids=("A-S-13",),
    )
    def clear_condition(ctx: ActionContext, a: ClearCondition) -> None:
        ch = ctx.character(a.character)
        if not ch.has(a.kind) or a.kind == "trauma":
            refuse(
                f"{ch.name} has no condition {a.kind!r} a GM can clear",
                f"У {ch.name} нет состояния {a.kind!r}, которое можно снять",
                "A-S-13",
            )
        remove_condition(ctx, ch.id, a.kind, ("A-S-13",))

    @rs.on_timer(CONDITION_EXPIRES)
    def condition_expires(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        kind = t.payload["kind"]
        if ch.has(kind):
            ctx.emit(
                "condition.expired",
                {"character": ch.id, "kind": kind, "id": t.payload.get("id")},
                (),
            )

    # --- generic checks ----------------------------------------------------------------

    class RollCheck(BaseModel):
        character: str = Field(description="who rolls")
        stat: Stat | None = Field(None, description="the stat added (none: the die alone)")
        threshold: Threshold | None = Field(None, description="a number, medium, hard or heavy")
        purpose: str = Field("check", max_length=40, description="what for, e.g. attack")
        modifier: int = Field(0, ge=-100, le=100, description="any other modifier")
        reroll: bool = Field(False, description="a repeated attempt (reroll rule)")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        item: str | None = Field(None, description="the weapon or shield used (default: equipped)")

    @rs.action(
        "roll-check",
        RollCheck,
        summary=(
            "Roll a check with the critical rules",
            "Бросить проверку с правилами критов",
        ),
        rule_ids=("S-CRIT-01", "S-CRIT-02", "S-CRIT-03", "S-CRIT-05", "S-CRIT-06"),
    )
    def roll_check_action(ctx: ActionContext, a: RollCheck) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        in_combat = fstate(ctx).combat_of(ch.id) is not None
        used = item_for_roll(ctx, ch, a.purpose, a.item)  # S-BRK-01/03: what the roll wears
        check = roll_check(
            ctx, ch.id, a.stat, a.purpose, threshold=a.threshold,
            modifiers={"modifier": a.modifier} if a.modifier else None, natural=a.roll,
            reroll=a.reroll, slot_set="combat" if in_combat else "rp",
        )  # fmt: skip
        if used is not None and check.crit == "failure":
            log_crit(ctx, used)  # S-BRK-01 / S-BRK-03: a critical failure wears it

    class RollContest(BaseModel):
        actor: str = Field(description="the active side")
        actor_stat: Stat = Field(description="the active side's stat")
        defender: str = Field(description="the defending side")
        defender_stat: Stat = Field(description="the defending side's stat")
        actor_modifier: int = Field(0, ge=-100, le=100)
        defender_modifier: int = Field(0, ge=-100, le=100)
        actor_roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        defender_roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "roll-contest",
        RollContest,
        summary=("An opposed roll with the critical rules", "Встречный бросок с правилами критов"),
        rule_ids=("S-CRIT-04", "A-S-14", "A-S-18"),
    )
    def roll_contest(ctx: ActionContext, a: RollContest) -> None:
        p = params(ctx)
        act = roll_check(
            ctx, a.actor, a.actor_stat, "contest", natural=a.actor_roll,
            modifiers={"modifier": a.actor_modifier} if a.actor_modifier else None,
        )  # fmt: skip
        dfd = roll_check(
            ctx, a.defender, a.defender_stat, "contest", natural=a.defender_roll,
            modifiers={"modifier": a.defender_modifier} if a.defender_modifier else None,
        )  # fmt: skip
        side, rules = contest(act, dfd, p)
        ctx.emit(
            "contest.resolved",
            {
                "actor": a.actor,
                "defender": a.defender,
                "defender_name": ctx.character(a.defender).name,
                "actor_total": act.short(),
                "defender_total": dfd.short(),
                "winner": a.actor if side == "active" else a.defender,
                "winner_name": ctx.character(a.actor if side == "active" else a.defender).name,
            },
            (*rules, "A-S-14", "A-S-18"),
        )

    class CheckOdds(BaseModel):
        character: str = Field(description="who rolls")
        stat: Stat = Field(description="the stat added")
        threshold: Threshold = Field(description="a number, medium, hard or heavy")
        modifier: int = Field(0, ge=-100, le=100)
        against: str | None = Field(None, description="an opposing character (opposed roll)")
        against_stat: Stat | None = Field(None, description="the opposing stat")

    @rs.query(
        "check-odds",
        CheckOdds,
        summary=("The exact odds of a check", "Точные шансы проверки"),
        rule_ids=("S-CRIT-02", "S-CRIT-03", "S-CRIT-04", "A-S-01", "A-S-02"),
    )
    def check_odds(ctx: QueryContext, a: CheckOdds) -> dict[str, Any]:
        p = params(ctx)
        st = fstate(ctx)
        ch = ctx.character(a.character)
        add = effective_stat(st, ch, a.stat, "rp", p) + a.modifier
        add += st.addiction(ch.id).withdrawal
        if a.against and a.against_stat:
            other = ctx.character(a.against)
            d_add = effective_stat(st, other, a.against_stat, "rp", p)
            d_add += st.addiction(other.id).withdrawal
            chance = p_active_wins(add, d_add, p)
            label = ctx.tr(
                f"{a.stat} vs {other.name}'s {a.against_stat}",
                f"{a.stat} против {a.against_stat} ({other.name})",
            )
        else:
            chance = p_success(add, p.threshold(a.threshold), p)
            against = p.threshold_label(a.threshold)
            label = ctx.tr(f"{a.stat} vs {against}", f"{a.stat} против {against}")
        return {
            "summary": f"{ch.name}: {label}: {float(chance):.1%}",
            "probability": str(chance),
            "percent": round(float(chance) * 100, 2),
        }
