"""Crime (Преступная деятельность): theft, robbery and raids, property damage —
checklist-002 §2.8–§2.9. Evidence is in ``evidence.py``, breaking in in ``lockpicking.py``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import (
    contest,
    opposed_pairs,
    roll_check,
)
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    add_condition,
    fstate,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.equipment import effective_stat
from lazaretto.rulesets.fantasy_server.params import FantasyParams
from lazaretto.rulesets.fantasy_server.state import Raid, Trace


def victim_bonus(p: FantasyParams, sees: bool) -> int:
    """The victim's PER bonus against a thief: +3, or +6 if they see the thief (S-CRIME-02)."""
    return p.theft_victim_bonus_seeing if sees else p.theft_victim_bonus


def falls(p: FantasyParams, thief_crit: str | None, victim_crit: str | None) -> bool:
    """Whether the thief falls to the ground (S-CRIME-06, A-S-13)."""
    thief = thief_crit == "failure"
    victim = victim_crit == "success"
    return {
        "thief_crit_fail_or_victim_crit_success": thief or victim,
        "thief_crit_fail": thief,
        "victim_crit_success": victim,
    }[p.theft_fall_trigger]


def register(rs: Ruleset) -> None:
    """Declare the theft and robbery actions and the odds query."""

    class AttemptTheft(BaseModel):
        actor: str = Field(description="the thief")
        victim: str = Field(description="who is robbed")
        unnoticed: bool = Field(True, description="the thief got close unnoticed (S-CRIME-01)")
        victim_sees: bool = Field(False, description="the victim sees the thief (+6, not +3)")
        mode: Literal["specific_item", "rummage"] = Field(
            "rummage", description="take a named item, or rummage through the pockets"
        )
        item: str | None = Field(None, description="the item wanted (an item id or its name)")
        thief_roll: int | None = Field(None, description="the thief's die (masters)")
        victim_roll: int | None = Field(None, description="the victim's die (masters)")

    @rs.action(
        "attempt-theft",
        AttemptTheft,
        summary=("Try to steal from a character", "Попытаться что-то украсть"),
        rule_ids=("S-CRIME-01", "S-CRIME-02", "S-CRIME-03", "S-CRIME-04", "S-CRIME-05"),
    )
    def attempt_theft(ctx: ActionContext, a: AttemptTheft) -> None:
        p = params(ctx)
        thief, victim = ctx.character(a.actor), ctx.character(a.victim)
        require_alive(thief)
        if not a.unnoticed:
            refuse(
                f"{thief.name} must first get close to {victim.name} unnoticed",
                f"{thief.name} должен сначала незаметно подобраться к {victim.name}",
                "S-CRIME-01",
                tip="Sneak up first (`sneak-past`).",
                tip_ru="Сначала подкрадитесь (`sneak-past`).",
            )
        if a.mode == "specific_item" and not a.item:
            refuse("Name the item wanted (--item)", "Укажите вещь (--item)", "S-CRIME-03")
        bonus = victim_bonus(p, a.victim_sees)
        t = roll_check(
            ctx, thief.id, "REF", "theft", natural=a.thief_roll, rule_ids=("S-CRIME-02",)
        )
        v = roll_check(
            ctx, victim.id, "PER", "theft_notice", natural=a.victim_roll,
            modifiers={"theft_notice": bonus}, rule_ids=("S-CRIME-02",),
        )  # fmt: skip
        side, crit_rules = contest(t, v, p)
        rules = ["S-CRIME-02", *crit_rules, "A-S-14"]
        payload: dict[str, Any] = {
            "actor": thief.id,
            "victim": victim.id,
            "victim_name": victim.name,
            "thief_total": t.short(),
            "victim_total": v.short(),
            "victim_bonus": bonus,
            "mode": a.mode,
            "item": a.item,
        }
        if side == "active":
            rules.append("S-CRIME-03" if a.mode == "specific_item" else "S-CRIME-04")
            ctx.emit(
                "theft.resolved",
                {**payload, "outcome": "stolen", "roll_total": t.total},
                tuple(rules),
            )
            item = fstate(ctx).items.get(a.item or "")
            if a.mode == "specific_item" and item is not None and item.owner == victim.id:
                ctx.emit(  # S-CRIME-03: the victim hands the item over
                    "item.transferred",
                    {
                        "item": item.id,
                        "name": item.name,
                        "from": victim.id,
                        "to": thief.id,
                        "set": {"owner": thief.id, "equipped": []},
                    },
                    ("S-CRIME-03",),
                )
            return
        fell = falls(p, t.crit, v.crit)
        rules += ["S-CRIME-05", "A-S-13"] + (["S-CRIME-06"] if fell else [])
        ctx.emit(
            "theft.resolved",
            {**payload, "outcome": "fell" if fell else "caught"},
            tuple(rules),
        )
        add_condition(
            ctx, thief.id, "caught_red_handed", ("S-CRIME-05", "A-S-13"),
            data={"against": victim.id}, source="theft",
        )  # fmt: skip
        if fell:
            add_condition(
                ctx, thief.id, "fallen_down", ("S-CRIME-06", "A-S-13"),
                data={"against": victim.id}, source="theft",
            )  # fmt: skip

    class TheftOdds(BaseModel):
        actor: str = Field(description="the thief")
        victim: str = Field(description="who is robbed")
        victim_sees: bool = Field(False, description="the victim sees the thief")

    @rs.query(
        "theft-odds",
        TheftOdds,
        summary=("The odds of a theft", "Шансы кражи"),
        rule_ids=("S-CRIME-02", "S-CRIME-06", "S-CRIT-04", "A-S-14"),
    )
    def theft_odds(ctx: QueryContext, a: TheftOdds) -> dict[str, Any]:
        p = params(ctx)
        st = fstate(ctx)
        thief, victim = ctx.character(a.actor), ctx.character(a.victim)
        t_add = effective_stat(st, thief, "REF", "rp", p) + st.addiction(thief.id).withdrawal
        bonus = victim_bonus(p, a.victim_sees)
        v_add = effective_stat(st, victim, "PER", "rp", p) + bonus
        v_add += st.addiction(victim.id).withdrawal
        win, fall = theft_odds_exact(t_add, v_add, p)
        return {
            "summary": ctx.tr(
                f"{thief.name} (REF {t_add:+}) vs {victim.name} (PER {v_add:+}, +{bonus}): "
                f"success {float(win):.1%}, falls {float(fall):.1%}",
                f"{thief.name} (REF {t_add:+}) против {victim.name} (PER {v_add:+}, +{bonus}): "
                f"успех {float(win):.1%}, падение {float(fall):.1%}",
            ),
            "success": str(win),
            "percent": round(float(win) * 100, 2),
            "falls": str(fall),
        }

    # --- robbery and raids -----------------------------------------------------------

    class PlanRaid(BaseModel):
        raid: str = Field(min_length=1, max_length=40, description="raid id")
        target: str = Field(min_length=1, max_length=120, description="the house or institution")
        owner: str | None = Field(None, description="the owner (none if unknown)")
        curator: str = Field(min_length=1, max_length=80, description="the curator GM")

    @rs.action(
        "plan-raid",
        PlanRaid,
        roles=MASTERS,
        summary=(
            "A GM agrees a robbery or raid in advance and names its curator",
            "GM согласует грабёж или рейд заранее и назначает куратора",
        ),
        rule_ids=("S-CRIME-13", "S-CRIME-14"),
    )
    def plan_raid(ctx: ActionContext, a: PlanRaid) -> None:
        if a.raid in fstate(ctx).raids:
            refuse(f"Raid {a.raid!r} exists", f"Рейд {a.raid!r} уже есть", "S-CRIME-13")
        if a.owner:
            ctx.character(a.owner)
        raid = Raid(id=a.raid, target=a.target, owner=a.owner, curator=a.curator)
        ctx.emit(
            "raid.approved",
            {"raid": raid.model_dump(mode="json"), "target": a.target, "curator": a.curator},
            ("S-CRIME-13", "S-CRIME-14"),
        )

    class CommitRobbery(BaseModel):
        actor: str = Field(description="the robber")
        raid: str = Field(description="the agreed raid")
        owner_online: bool = Field(description="the resident is online now (S-CRIME-07)")
        item: str = Field(min_length=1, max_length=200, description="what was taken")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "commit-robbery",
        CommitRobbery,
        summary=("Take something from a house (PER check)", "Взять чужое в доме (проверка PER)"),
        rule_ids=("S-CRIME-07", "S-CRIME-08", "S-CRIME-09", "S-CRIME-10", "S-CRIME-11"),
    )
    def commit_robbery(ctx: ActionContext, a: CommitRobbery) -> None:
        p = params(ctx)
        who = ctx.character(a.actor)
        require_alive(who)
        raid = fstate(ctx).raids.get(a.raid)
        if raid is None or raid.status != "approved":
            refuse(
                f"Raid {a.raid!r} has not been agreed with a GM beforehand",
                f"Рейд {a.raid!r} не согласован с GM заранее",
                "S-CRIME-13",
                tip="A GM agrees it with `plan-raid` (and names a curator).",
                tip_ru="GM согласует его через `plan-raid` (с куратором).",
            )
        unknown = raid.owner is None
        if p.robbery_requires_owner_online and not a.owner_online:
            refuse(
                f"{raid.target} may be robbed only while its resident is online",
                f"{raid.target} можно грабить только когда живущий там онлайн",
                "S-CRIME-08" if unknown else "S-CRIME-07",
                "S-CRIME-07",
                "A-S-15",
            )
        check = roll_check(
            ctx, who.id, "PER", "robbery", threshold=p.robbery_per_threshold, natural=a.roll,
            rule_ids=("S-CRIME-09", "A-S-15"),
        )  # fmt: skip
        outcome = "rumour" if check.success else "evidence"
        rule = "S-CRIME-11" if check.success else "S-CRIME-10"
        ctx.emit(
            "robbery.resolved",
            {
                "actor": who.id,
                "raid": raid.id,
                "target": raid.target,
                "item": a.item,
                "outcome": outcome,
                "curator": raid.curator,
            },
            ("S-CRIME-07", "S-CRIME-09", rule) + (("S-CRIME-08",) if unknown else ()),
        )
        ctx.emit(
            "raid.committed",
            {"raid": raid.id, "set": {"status": "committed", "outcome": outcome}},
            ("S-CRIME-13",),
        )
        if not check.success:  # S-CRIME-10: evidence is left behind
            trace = Trace(
                id=f"{raid.id}-evidence",
                visibility="visible",
                threshold=p.threshold(p.visible_trace_threshold),
                description=f"left by the robbery of {raid.target}",
            )
            ctx.emit(
                "trace.left",
                {"scene": raid.target, "trace": trace.model_dump(mode="json")},
                ("S-CRIME-10", "S-CRIME-17"),
            )

    class CloseRaid(BaseModel):
        raid: str = Field(description="the raid")
        note: str = Field("", max_length=500, description="the GM's conclusion")

    @rs.action(
        "close-raid",
        CloseRaid,
        roles=MASTERS,
        summary=("A GM agrees a raid afterwards", "GM согласует рейд после совершения"),
        rule_ids=("S-CRIME-13",),
    )
    def close_raid(ctx: ActionContext, a: CloseRaid) -> None:
        raid = fstate(ctx).raids.get(a.raid)
        if raid is None or raid.status != "committed":
            refuse(
                f"Raid {a.raid!r} has not been carried out",
                f"Рейд {a.raid!r} не совершён",
                "S-CRIME-13",
            )
        ctx.emit(
            "raid.closed",
            {"raid": raid.id, "note": a.note, "set": {"status": "closed"}},
            ("S-CRIME-13",),
        )

    class DamageProperty(BaseModel):
        actor: str = Field(description="who breaks or spoils it")
        owner: str = Field(description="whose property")
        what: str = Field(min_length=1, max_length=200, description="what is damaged")
        notified_with_reply: bool = Field(
            False, description="the owner was notified on Discord and replied"
        )
        owner_online: bool = Field(False, description="the owner is online on the server")

    @rs.action(
        "damage-property",
        DamageProperty,
        summary=("Break or spoil someone's property", "Сломать или испортить чужое имущество"),
        rule_ids=("S-CRIME-12",),
    )
    def damage_property(ctx: ActionContext, a: DamageProperty) -> None:
        who = ctx.character(a.actor)
        if not (a.notified_with_reply or a.owner_online):
            refuse(
                "Someone's property may be damaged only after notifying them on Discord "
                "(with a reply) or while they are online",
                "Чужое имущество можно портить только после уведомления в Дискорде (с ответом) "
                "или пока владелец онлайн",
                "S-CRIME-12",
            )
        ctx.emit(
            "property.damage_recorded",
            {"actor": who.id, "owner": a.owner, "what": a.what},
            ("S-CRIME-12",),
        )

    # --- lockpicking -----------------------------------------------------------------


def theft_odds_exact(t_add: int, v_add: int, p: FantasyParams) -> tuple[Fraction, Fraction]:
    """Exact chances that a theft succeeds and that the thief falls down (S-CRIME-02/06)."""
    pairs, total = opposed_pairs(t_add, v_add, p)
    won = fell = 0
    for t, v, weight in pairs:
        if contest(t, v, p)[0] == "active":
            won += weight
        elif falls(p, t.crit, v.crit):
            fell += weight
    return Fraction(won, total), Fraction(fell, total)
