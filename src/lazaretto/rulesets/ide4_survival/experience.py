"""Experience and sleep (опыт и сон): the day's experience burns unless the character is
in bed by about noon of the next day (I-SLEEP-06); going to sleep banks it, and "Lady
Luck" counts it by the planned sleep (I-SLEEP-07, see :mod:`.sleep`).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival.common import MASTERS, params, party, state, sv, update
from lazaretto.rulesets.ide4_survival.sleep import XP_BURN


def register(rs: Ruleset) -> None:
    """Declare gain-xp and the experience countdown."""

    class GainXp(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        points: int = Field(ge=1, le=1000)

    @rs.action(
        "gain-xp",
        GainXp,
        roles=MASTERS,
        summary=(
            "Experience gathered today (burns if not in bed by noon)",
            "Опыт за день (сгорает, если не лечь до полудня)",
        ),
        rule_ids=("I-SLEEP-06", "I-DAY-09"),
    )
    def gain_xp(ctx: ActionContext, a: GainXp) -> None:
        p = params(ctx)
        h, m = (int(x) for x in p.xp_burn_deadline.split(":"))
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            update(
                ctx,
                "xp.gained",
                ch.id,
                {"xp_pending": s.xp_pending + a.points},
                ("I-SLEEP-06",),
                points=a.points,
            )
            if s.asleep or state(ctx).timers_for(ch.id, XP_BURN):
                continue
            awake = s.last_woke or ctx.now
            deadline = datetime.combine(awake.date() + timedelta(days=1), time(h, m))
            ctx.schedule(
                XP_BURN, max(timedelta(0), deadline - ctx.now), ch.id, rule_ids=("I-SLEEP-06",)
            )

    @rs.on_timer(XP_BURN)
    def xp_burns(ctx: ActionContext, t: Timer) -> None:
        s = sv(ctx, t.subject)
        if s.xp_pending and not s.asleep:
            update(
                ctx, "xp.burned", t.subject, {"xp_pending": 0}, ("I-SLEEP-06",), points=s.xp_pending
            )
