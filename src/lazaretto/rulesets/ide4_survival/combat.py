"""The combat stamina pool (боевой запас сил) — kept apart from survival.

Short combat fatigue is 6–8 tokens per fight; an attack costs 1 and a stance in plate
armour costs 1; it is reset after the fight (I-DAY-10, kept by the Combat rules). Hunger,
march and sleep deprivation are never taken from it: they act through the states of
this chapter (I-DAY-11), and calm points are a different pool again (I-GEN-13). A fight
breaking out and more foes than friends cost calm before initiative (I-CALM-06/07); a
heavy fight without rest leaves "tired" (I-COND-05).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival.calm import change_calm
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    gain_fatigue,
    params,
    party,
    refuse,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.state import survivor_events

survivor_events("fight.started", "stamina.spent", "fight.ended")


def register(rs: Ruleset) -> None:
    """Declare the fight actions."""

    class StartFight(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        tokens: int = Field(7, ge=1, le=20, description="stamina tokens for this fight (6–8)")
        outnumbered: bool = Field(False, description="more foes than allies")
        ambush: bool = Field(False, description="a trap or ambush")
        fight: str = Field("fight", max_length=40, description="the fight's id (turns)")

    @rs.action(
        "start-fight",
        StartFight,
        roles=MASTERS,
        summary=(
            "A fight breaks out: stamina tokens, calm before initiative",
            "Завязался бой: фишки запаса сил, спокойствие перед инициативой",
        ),
        rule_ids=("I-DAY-10", "I-CALM-06", "I-CALM-07", "I-CALM-10"),
    )
    def start_fight(ctx: ActionContext, a: StartFight) -> None:
        lo, hi = params(ctx).combat_stamina_tokens
        if not lo <= a.tokens <= hi:
            refuse(
                f"A fight gives {lo}–{hi} stamina tokens, not {a.tokens}",
                f"На схватку выдаётся {lo}–{hi} фишек, а не {a.tokens}",
                "I-DAY-10",
            )
        events = (
            ["fight_breaks_out"]
            + (["outnumbered"] if a.outnumbered else [])
            + (["ambush"] if a.ambush else [])
        )
        for ch in party(ctx, a.characters):
            update(
                ctx,
                "fight.started",
                ch.id,
                {"stamina": a.tokens},
                ("I-DAY-10",),
                tokens=a.tokens,
                fight=a.fight,
            )
            change_calm(
                ctx,
                ch.id,
                losses=tuple(events),
                turn=f"{a.fight}:1",
                scene=a.fight,
                reason=("before initiative", "перед инициативой"),
            )

    class SpendStamina(BaseModel):
        character: str
        move: Literal["attack", "plate_stance"]
        times: int = Field(1, ge=1, le=20)

    @rs.action(
        "spend-stamina",
        SpendStamina,
        summary=("Spend combat stamina tokens", "Потратить фишки боевого запаса сил"),
        rule_ids=("I-DAY-10", "I-DAY-11"),
    )
    def spend(ctx: ActionContext, a: SpendStamina) -> None:
        s = sv(ctx, a.character)
        if s.stamina is None:
            refuse("No fight is going on", "Боя нет", "I-DAY-10")
        cost = params(ctx).combat_stamina_costs[a.move] * a.times
        if cost > s.stamina:
            refuse(
                f"{s.stamina} token(s) left, {cost} needed",
                f"Осталось фишек: {s.stamina}, нужно {cost}",
                "I-DAY-10",
            )
        update(
            ctx,
            "stamina.spent",
            a.character,
            {"stamina": s.stamina - cost},
            ("I-DAY-10",),
            move=a.move,
            cost=cost,
            left=s.stamina - cost,
        )

    class EndFight(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        heavy: bool = Field(False, description="a heavy fight with no rest after it")

    @rs.action(
        "end-fight",
        EndFight,
        roles=MASTERS,
        summary=("The fight is over: the stamina pool resets", "Бой окончен: запас сил сброшен"),
        rule_ids=("I-DAY-10", "I-COND-05"),
    )
    def end_fight(ctx: ActionContext, a: EndFight) -> None:
        for ch in party(ctx, a.characters):
            update(ctx, "fight.ended", ch.id, {"stamina": None}, ("I-DAY-10",), heavy=a.heavy)
            if a.heavy:
                gain_fatigue(
                    ctx,
                    ch.id,
                    "tired",
                    ("a heavy fight without rest", "тяжёлый бой без отдыха"),
                    ("I-COND-05",),
                )
