"""The wound state machine (A-Z-01): healthy → light wound → heavy wound → clinical death.

* A light wound (лёгкое ранение) opens the 10-minute first-aid-kit window (Z-LW-10/13).
* A heavy wound (тяжёлое ранение, «при смерти» at 0 hits) starts the 5-minute wait
  (Z-HW-04, A-Z-07), the 30-minute amnesia (Z-HW-13) and the 15-minute death timer that
  the Hospital or an operation stops (Z-STATE-10, A-Z-07).
* Game death is clinical death, and the way to the мертвяк (Z-CD-02).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.zone_larp.checks import params, state
from lazaretto.rulesets.zone_larp.state import HEAVY, LIGHT, ON_TABLE, TREATMENT

KIT_WINDOW = "kit_window_expires"
HEAVY_WAIT = "heavy_wait_over"
DYING = "dying_death"
TREATMENT_DONE = "treatment_complete"
WAIT_RULE = {
    "stay_then_go": "Z-HW-04",
    "until_combat_end": "Z-HW-03",
    "leave_within": "Z-HW-05",
    "until_help": "Z-HW-06",
}


def memory_gap(start: datetime, end: datetime, reason: str) -> dict[str, Any]:
    """A span the character does not remember or may not use (Z-HW-13, Z-STATE-12)."""
    return {"from": start.isoformat(), "to": end.isoformat(), "reason": reason}


def interrupt(ctx: ActionContext, char_id: str, reason: str) -> None:
    """Stop a rest or an operation: no recovery (Z-TRT-04, Z-TRT-10)."""
    ch = ctx.character(char_id)
    if ch.has(TREATMENT) or ch.has(ON_TABLE):
        ctx.cancel_all(char_id, TREATMENT_DONE)
        ctx.emit(
            "treatment.interrupted",
            {"character": char_id, "reason": reason},
            ("Z-TRT-04", "Z-TRT-06", "Z-TRT-10"),
        )


def become_light(ctx: ActionContext, char_id: str, source: str) -> None:
    """A light wound; outside ``hits_only`` the first-aid-kit window opens (Z-LW-10)."""
    p = params(ctx)
    if p.wound_model == "hits_only":
        if not ctx.character(char_id).has(LIGHT):
            ctx.emit(
                "wound.light_started",
                {"character": char_id, "deadline": None, "source": source},
                ("Z-STATE-06", "Z-STATE-07", "A-Z-01"),
            )
        return
    t = ctx.schedule(
        KIT_WINDOW,
        timedelta(minutes=p.light_kit_window_minutes),
        char_id,
        rule_ids=("Z-LW-10", "Z-LW-13"),
    )
    ctx.emit(
        "wound.light_started",
        {"character": char_id, "deadline": t.deadline.isoformat(), "source": source},
        ("Z-LW-01", "Z-LW-03", "Z-LW-10", "Z-STATE-06"),
    )


def become_heavy(ctx: ActionContext, char_id: str, source: str, rule_ids: tuple[str, ...]) -> None:
    """A heavy wound at 0 hits: the wait, the death timer and the amnesia begin."""
    p = params(ctx)
    ctx.cancel_all(char_id, KIT_WINDOW, HEAVY_WAIT, DYING)
    interrupt(ctx, char_id, "heavy_wound")
    death = ctx.schedule(
        DYING,
        timedelta(minutes=p.dying_death_minutes),
        char_id,
        rule_ids=("Z-STATE-10", "A-Z-07"),
    )
    model_b = p.wound_model != "hits_only"
    wait_until = None
    if model_b and p.heavy_wait_mode != "until_help":
        wait = ctx.schedule(
            HEAVY_WAIT,
            timedelta(minutes=p.heavy_wait_minutes),
            char_id,
            rule_ids=(WAIT_RULE[p.heavy_wait_mode], "A-Z-07"),
        )
        wait_until = wait.deadline.isoformat()
    gap = None
    if "heavy_wound" in p.amnesia_applies_to:
        start = ctx.now - timedelta(minutes=p.amnesia_window_minutes)
        gap = memory_gap(start, ctx.now, "heavy_wound")
    ctx.emit(
        "wound.became_heavy",
        {
            "character": char_id,
            "source": source,
            "deadline": death.deadline.isoformat(),
            "wait_until": wait_until,
            "armband": model_b and p.armband_at == "immediately",
            "memory_gap": gap,
        },
        tuple(dict.fromkeys((*rule_ids, "Z-HW-02", "Z-STATE-08", "A-Z-02", "Z-HW-13"))),
    )


def stop_death_timer(ctx: ActionContext, char_id: str, why: str) -> bool:
    """Stop the 15-minute death timer if ``why`` stops it (A-Z-07); True if it did."""
    if why not in params(ctx).dying_timer_stops_on or not ctx.state.timers_for(char_id, DYING):
        return False
    ctx.cancel_all(char_id, DYING, rule_ids=("A-Z-07",))
    ctx.emit("wound.death_timer_stopped", {"character": char_id, "why": why}, ("A-Z-07",))
    return True


def clinical_death(
    ctx: ActionContext, char_id: str, cause: str, wounds: bool, rule_ids: tuple[str, ...]
) -> None:
    """Game death: clinical death, then reanimation in the мертвяк (Z-CD-01, Z-CD-02)."""
    p = params(ctx)
    ctx.cancel_all(char_id)
    gap = None
    if "clinical_death" in p.amnesia_applies_to:
        start = ctx.now - timedelta(minutes=p.amnesia_window_minutes)
        gap = memory_gap(start, ctx.now, "clinical_death")
    ctx.emit(
        "character.clinical_death",
        {"character": char_id, "cause": cause, "wounds": wounds, "memory_gap": gap},
        (*rule_ids, "Z-CD-01", "Z-CD-02", "A-Z-10"),
    )


def recover(ctx: ActionContext, char_id: str, how: str, rule_ids: tuple[str, ...]) -> None:
    """All hits back; the character is Healthy again (Z-STATE-05)."""
    ctx.cancel_all(char_id, KIT_WINDOW, HEAVY_WAIT, DYING, TREATMENT_DONE)
    ctx.emit("character.recovered", {"character": char_id, "how": how}, (*rule_ids, "Z-STATE-05"))


def set_off(ctx: ActionContext, char_id: str, escort: str | None, automatic: bool) -> None:
    """The heavy-wounded one puts on the red armband and heads for the Hospital."""
    p = params(ctx)
    ctx.cancel_all(char_id, HEAVY_WAIT)
    ctx.emit(
        "wound.set_off",
        {"character": char_id, "escort": escort, "automatic": automatic},
        (WAIT_RULE[p.heavy_wait_mode], "Z-HW-08", "Z-HW-11", "A-Z-07", "A-Z-08"),
    )


def register_timers(rs: Ruleset) -> None:
    """The countdowns of the wound state machine."""

    @rs.on_timer(KIT_WINDOW)
    def kit_window(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        light = ch.condition(LIGHT)
        if light is not None and not light.data.get("kit"):
            become_heavy(ctx, ch.id, "no_kit", ("Z-LW-13", "A-Z-06"))

    @rs.on_timer(HEAVY_WAIT)
    def wait_over(ctx: ActionContext, t: Timer) -> None:
        heavy = ctx.character(t.subject).condition(HEAVY)
        if heavy is None or heavy.data.get("en_route"):
            return
        if params(ctx).heavy_wait_mode == "until_combat_end" and state(ctx).combat_ongoing:
            ctx.emit("wound.wait_extended", {"character": t.subject}, ("Z-HW-03", "A-Z-07"))
            return
        set_off(ctx, t.subject, None, automatic=True)

    @rs.on_timer(DYING)
    def dying(ctx: ActionContext, t: Timer) -> None:
        clinical_death(ctx, t.subject, "no_medicine", True, ("Z-STATE-10", "A-Z-07"))
