"""Intimacy, partnership and the hot reroll (секс, партнёрство и горячий переброс), §2.13.

Part of the standard mechanics (I-HOT-01). Any sexual act with a sapient being gives one
hot reroll (I-HOT-02), kept 2 game days (I-HOT-03), no sooner than 30 minutes (male) or
4 hours (female) after the last act that gave one (I-HOT-04), at most 1 held (I-HOT-05).
A "love of a lifetime" raises the limit to 2 and an act with them gives 2 (I-HOT-06/07)
— until the character sleeps with someone else (I-HOT-08, permanent until the GM resets
it, A-I-24). At the cap an act refreshes a held reroll's expiry (A-I-24). A female
participant gets a pregnancy check, rolled and recorded for the GM (I-HOT-09); a sick
partner or a prostitute means an Immunity check (I-HOT-10).
"""

from __future__ import annotations

from datetime import timedelta

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.checks import make_check
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    disease,
    known_diseases,
    params,
    refuse,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.diseases import expose
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.state import Reroll, survivor_events

HOT_EXPIRES = "hot_reroll_expires"
survivor_events("intimacy.recorded", "hot.burned")


def _cooldown(ctx: ActionContext, char_id: str) -> timedelta:
    p = params(ctx)
    s = sv(ctx, char_id)
    if s.hot_cooldown_minutes is not None:
        return timedelta(minutes=s.hot_cooldown_minutes)
    if s.sex == "female":
        return timedelta(hours=p.hot_reroll_cooldown_female_h)
    return timedelta(minutes=p.hot_reroll_cooldown_male_min)


def _act(ctx: ActionContext, char_id: str, partner: str) -> None:
    p = params(ctx)
    s = sv(ctx, char_id)
    is_love = s.life_partner is not None and s.life_partner == partner
    love_lost = s.love_lost or (s.life_partner is not None and not is_love)
    limit = p.hot_reroll_limit_love if s.life_partner and not love_lost else p.hot_reroll_limit
    per_act = 2 if is_love and not love_lost else 1
    held = [r for r in s.rerolls if r.kind == "hot" and r.expires and r.expires > ctx.now]
    others = [r for r in s.rerolls if r.kind != "hot"]
    cooling = s.last_counted_act is not None and ctx.now - s.last_counted_act < _cooldown(
        ctx, char_id
    )
    expires = ctx.now + timedelta(hours=p.hot_reroll_expiry_hours)
    gained = refreshed = 0
    if not cooling:
        target = min(limit, len(held) + per_act)
        gained = max(0, target - len(held))
        if gained == 0 and held:
            held = sorted(held, key=lambda r: r.expires or ctx.now)
            held[0] = held[0].model_copy(update={"expires": expires})  # A-I-24
            refreshed = 1
        held += [
            Reroll(
                kind="hot",
                gained=ctx.now,
                usable_from=ctx.now,
                expires=expires,
                source=f"act {ctx.now:%H:%M}",
            )
            for _ in range(gained)
        ]
    rules = ["I-HOT-02", "I-HOT-03", "I-HOT-04", "I-HOT-05"]
    if s.life_partner:
        rules += ["I-HOT-06", "I-HOT-07", "I-HOT-08"]
    changes: dict[str, object] = {"rerolls": others + held, "love_lost": love_lost}
    if not cooling:
        changes["last_counted_act"] = ctx.now
    update(
        ctx,
        "intimacy.recorded",
        char_id,
        changes,
        tuple(rules),
        partner=partner,
        counted=not cooling,
        note_en=" (too soon after the last one)" if cooling else "",
        note_ru=" (слишком скоро после прошлого)" if cooling else "",
        gained=gained,
        refreshed=refreshed,
        limit=limit,
        love_lost=love_lost and not s.love_lost,
    )
    if gained or refreshed:
        ctx.schedule(HOT_EXPIRES, expires - ctx.now, char_id, rule_ids=("I-HOT-03",))


def register(rs: Ruleset) -> None:
    """Declare intimate-act and the hot reroll's expiry."""

    class IntimateAct(BaseModel):
        character: str
        partner: str = Field(min_length=1, max_length=80, description="a character id or an NPC")
        partner_female: bool = Field(False, description="an NPC partner is female (pregnancy)")
        partner_sick: bool = Field(False, description="an NPC partner is sick")
        partner_prostitute: bool = Field(False)
        disease: str | None = Field(None, description="venereal disease at risk (GM's choice)")
        difficulty: int = Field(0, ge=-10, le=20, description="the Immunity check's [N]")
        outcome: Outcome | None = Field(None, description="the Immunity result")
        roll: int | None = Field(None, ge=1, le=100)

    @rs.action(
        "intimate-act",
        IntimateAct,
        roles=EVERYONE,
        summary=(
            "A hot night: hot reroll, pregnancy check, venereal risk",
            "Жаркая ночь: горячий переброс, проверка беременности, венерический риск",
        ),
        rule_ids=("I-HOT-01", "I-HOT-02", "I-HOT-09", "I-HOT-10"),
    )
    def intimate_act(ctx: ActionContext, a: IntimateAct) -> None:
        ch = ctx.character(a.character)
        if a.partner == ch.id:
            refuse("An act needs a partner", "Нужен партнёр", "I-HOT-02")
        st = state(ctx)
        partner = st.characters.get(a.partner)
        people = [(ch.id, a.partner)] + ([(partner.id, ch.id)] if partner else [])
        for who, other in people:
            _act(ctx, who, other)
        females = [who for who, _ in people if sv(ctx, who).sex == "female"]
        if partner is None and a.partner_female:
            females.append(a.partner)
        for who in females:  # I-HOT-09: a recorded GM roll, no mechanics here (A-I-24)
            ctx.roll("1d100")
            ctx.emit(
                "pregnancy.checked",
                {"character": who, "partner": ch.id if who != ch.id else a.partner},
                ("I-HOT-09", "A-I-24"),
            )
        catalogue = known_diseases(st)
        for who, other in people:
            sick = [
                c
                for c in st.cases.values()
                if c.character == other
                and c.status == "sick"
                and catalogue.get(c.disease) is not None
                and catalogue[c.disease].sexual
            ]
            other_sick = bool(sick) or (other == a.partner and partner is None and a.partner_sick)
            if not (other_sick or (other == a.partner and a.partner_prostitute)):
                continue
            code = sick[0].disease if sick else a.disease
            if code:
                disease(ctx, code)
                expose(
                    ctx,
                    who,
                    code,
                    a.difficulty,
                    f"intimacy with {other}",
                    outcome=a.outcome if who == ch.id else None,
                    roll=a.roll if who == ch.id else None,
                )
            else:
                make_check(
                    ctx,
                    who,
                    params(ctx).immunity_skill,
                    base=a.difficulty,
                    payload={"venereal": other},
                    outcome=a.outcome,
                    roll=a.roll,
                    rule_ids=("I-HOT-10",),
                )

    @rs.on_timer(HOT_EXPIRES)
    def expired(ctx: ActionContext, t: Timer) -> None:
        s = sv(ctx, t.subject)
        keep = [
            r for r in s.rerolls if not (r.kind == "hot" and r.expires and r.expires <= ctx.now)
        ]
        if len(keep) != len(s.rerolls):
            update(
                ctx,
                "hot.burned",
                t.subject,
                {"rerolls": keep},
                ("I-HOT-03",),
                count=len(s.rerolls) - len(keep),
            )
