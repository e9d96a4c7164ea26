"""Food and water poisoning (отравление пищей и водой), checklist-004 §2.5.

Risk → Immunity check → outcome → treatment, never mixed with diseases (I-POIS-01): a
poisoning has no stages and no case. The outcome table lives in the Immunity catalogue
(chapter 15), which we do not have: Failure or Tragedy poisons, and a Tragedy is flagged
for the GM to escalate (A-I-12). "Poisoned" costs a held reroll (A-I-23). In the basic
game the state and a treatment check are enough (I-POIS-08); in extended mode the old
point rule runs: −1 poison point per 2 game hours and per 2 acts of vomiting (I-POIS-07).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.checks import Modifier, make_check, purpose
from lazaretto.rulesets.ide4_survival.common import (
    EVERYONE,
    MASTERS,
    gain,
    lose,
    params,
    party,
    refuse,
    ru,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.params import Outcome
from lazaretto.rulesets.ide4_survival.state import CheckRecord, Reroll, jsonable, survivor_events
from lazaretto.rulesets.ide4_survival.texts import VALUES

DECAY = "poison_decay"
Source = Literal[
    "spoiled_food",
    "dirty_water",
    "poison",
    "disease_in_food",
    "unfamiliar_mushrooms",
    "infected_meat",
    "alchemical",
]
Method = Literal[
    "rest", "vomiting", "water", "sorbents", "antidote", "medicine", "magic_or_technology"
]
survivor_events("poison.points_changed", "reroll.lost")


def take_reroll(
    ctx: ActionContext, char_id: str, why: tuple[str, str], rule_ids: tuple[str, ...]
) -> dict[str, Any]:
    """A-I-23: poisoning / disease stage 1 takes the held meal reroll, else the day's
    pacified one. Returns what was taken, so it can be given back."""
    s = sv(ctx, char_id)
    for kind in params(ctx).reroll_loss_order:
        if kind == "meal":
            held = [r for r in s.rerolls if r.kind == "meal"]
            if held:
                update(
                    ctx,
                    "reroll.lost",
                    char_id,
                    {"rerolls": [r for r in s.rerolls if r is not held[0]]},
                    rule_ids,
                    kind="meal",
                    why_en=why[0],
                    why_ru=why[1],
                )
                return {"meal": held[0].model_dump(mode="json")}
        elif not (s.pacified_used and s.pacified_used.date() == ctx.now.date()):
            update(
                ctx,
                "reroll.lost",
                char_id,
                {"pacified_used": ctx.now},
                rule_ids,
                kind="pacified",
                why_en=why[0],
                why_ru=why[1],
            )
            return {"pacified": jsonable(s.pacified_used)}
    return {}


def give_back(ctx: ActionContext, char_id: str, taken: dict[str, Any]) -> None:
    """Return a reroll taken by :func:`take_reroll` (the check was rerolled)."""
    s = sv(ctx, char_id)
    if "meal" in taken:
        update(
            ctx,
            "reroll.lost",
            char_id,
            {"rerolls": [*s.rerolls, Reroll.model_validate(taken["meal"])]},
            ("A-I-01",),
            kind="meal",
            why_en="given back",
            why_ru="возвращён",
        )
    elif "pacified" in taken:
        update(
            ctx,
            "reroll.lost",
            char_id,
            {"pacified_used": taken["pacified"]},
            ("A-I-01",),
            kind="pacified",
            why_en="given back",
            why_ru="возвращён",
        )


def _undo_poison(ctx: ActionContext, rec: CheckRecord) -> None:
    ch = ctx.character(rec.character)
    cond = next(
        (c for c in ch.conditions if c.kind == "poisoned" and c.data.get("check") == rec.id), None
    )
    if cond is None:
        return
    lose(
        ctx,
        ch.id,
        "poisoned",
        ("check rerolled", "проверка переброшена"),
        ("A-I-01",),
        key=cond.data.get("key"),
    )
    give_back(ctx, ch.id, cond.data.get("lost") or {})
    ctx.cancel_all(ch.id, DECAY)
    update(
        ctx,
        "poison.points_changed",
        ch.id,
        {"poison_points": 0, "vomits": 0},
        ("I-POIS-07",),
        points=0,
    )


@purpose("poison", undo=_undo_poison)
def _poison(ctx: ActionContext, rec: CheckRecord) -> None:
    p = params(ctx)
    result = p.poison_outcome_map.get(rec.outcome or "", "none")
    if result == "none":
        return
    src = str(rec.payload.get("source", "poison"))
    lost = take_reroll(ctx, rec.character, ("poisoned", "отравлен"), ("I-COND-09", "A-I-23"))
    points = int(rec.payload.get("points") or p.poison_points_on_failure)
    extended = p.resolved("poison_points") == "on"
    gain(
        ctx,
        rec.character,
        "poisoned",
        (
            f"{src.replace('_', ' ')}: Immunity {rec.outcome}",
            f"{ru(src)}: Иммунитет — {ru(rec.outcome)}",
        ),
        ("I-COND-09", "I-POIS-03", "A-I-12"),
        data={
            "check": rec.id,
            "lost": lost,
            "source": src,
            **({"points": points} if extended else {}),
        },
    )
    if result == "poisoned_gm_escalation":
        ctx.emit(
            "poison.escalation",
            {"character": rec.character, "check": rec.id, "source": src},
            ("A-I-12",),
        )
    if extended:
        update(
            ctx,
            "poison.points_changed",
            rec.character,
            {"poison_points": points, "vomits": 0},
            ("I-POIS-07",),
            points=points,
        )
        ctx.cancel_all(rec.character, DECAY)
        ctx.schedule(
            DECAY, timedelta(hours=p.poison_decay_hours), rec.character, rule_ids=("I-POIS-07",)
        )


def poison_floor(ctx: ActionContext, char_id: str) -> int:
    """Poison points a disease keeps permanently (Crimson Consumption: 2, A-I-20)."""
    from lazaretto.rulesets.ide4_survival.common import known_diseases, state

    catalogue = known_diseases(state(ctx))
    return max(
        (
            catalogue[c.disease].poison_points
            for c in state(ctx).cases.values()
            if c.character == char_id and c.status == "sick" and c.disease in catalogue
        ),
        default=0,
    )


def lower_points(
    ctx: ActionContext, char_id: str, by: int, why: tuple[str, str], vomits: int | None = None
) -> None:
    """I-POIS-07: take poison points off; at 0 the food poisoning is over."""
    s = sv(ctx, char_id)
    floor = poison_floor(ctx, char_id)
    points = max(floor, s.poison_points - by)
    changes: dict[str, object] = {"poison_points": points}
    if vomits is not None:
        changes["vomits"] = vomits
    update(
        ctx,
        "poison.points_changed",
        char_id,
        changes,
        ("I-POIS-07",),
        points=points,
        why_en=why[0],
        why_ru=why[1],
    )
    if points <= 0:
        lose(ctx, char_id, "poisoned", why, ("I-POIS-07",), key=None)
        ctx.cancel_all(char_id, DECAY)


def register(rs: Ruleset) -> None:
    """Declare poisoning actions and the decay countdown."""

    class PoisonRisk(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        source: Source = Field(description="what was eaten or drunk")
        difficulty: int = Field(ge=-10, le=20, description="how dangerous it is [N]")
        skill: str | None = Field(None, description="a suitable skill added to Immunity")
        modifiers: list[Modifier] = Field(default_factory=list)
        outcome: Outcome | None = Field(None, description="table result (one character)")
        roll: int | None = Field(None, ge=1, le=100)
        points: int | None = Field(None, ge=1, le=20, description="extended: poison points")

    @rs.action(
        "poison-risk",
        PoisonRisk,
        summary=("Risk of poisoning: an Immunity check", "Риск отравления: проверка Иммунитета"),
        rule_ids=("I-POIS-01", "I-POIS-02", "I-POIS-03", "I-POIS-04", "I-POIS-05"),
    )
    def poison_risk(ctx: ActionContext, a: PoisonRisk) -> None:
        p = params(ctx)
        for ch in party(ctx, a.characters):
            make_check(
                ctx,
                ch.id,
                p.immunity_skill,
                base=a.difficulty,
                tags=("related",),
                modifiers=tuple(a.modifiers),
                purpose_name="poison",
                payload={"source": a.source, "skill": a.skill, "points": a.points},
                outcome=a.outcome,
                roll=a.roll,
                rule_ids=("I-POIS-03", "I-POIS-04", "I-POIS-05"),
            )

    class TreatPoisoning(BaseModel):
        character: str
        method: Method
        healer: str | None = Field(None, description="who treats (default: the patient)")
        skill: str = Field("Medicine", max_length=60, description="the treatment check's skill")
        difficulty: int = Field(0, ge=-10, le=20)
        outcome: Outcome | None = None
        roll: int | None = Field(None, ge=1, le=100)

    @rs.action(
        "treat-poisoning",
        TreatPoisoning,
        roles=EVERYONE,
        summary=("Treat a poisoning: a treatment check", "Лечение отравления: проверка лечения"),
        rule_ids=("I-POIS-06", "I-POIS-08"),
    )
    def treat_poisoning(ctx: ActionContext, a: TreatPoisoning) -> None:
        ch = ctx.character(a.character)
        food = [c for c in ch.conditions if c.kind == "poisoned" and c.data.get("key") is None]
        if not food:
            refuse(
                f"{ch.name} has no food or water poisoning to treat",
                f"У {ch.name} нет отравления пищей или водой",
                "I-POIS-01",
                tip="A disease's poisoning goes with the disease.",
                tip_ru="Отравление от болезни лечится вместе с болезнью.",
            )
        make_check(
            ctx,
            a.healer or ch.id,
            a.skill,
            base=a.difficulty,
            purpose_name="poison_treatment",
            payload={"patient": ch.id, "method": a.method},
            outcome=a.outcome,
            roll=a.roll,
            rule_ids=("I-POIS-06", "I-POIS-08"),
        )

    class Vomit(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        acts: int = Field(1, ge=1, le=20)

    @rs.action(
        "vomit",
        Vomit,
        roles=MASTERS,
        summary=(
            "Acts of vomiting (extended: −1 poison point per 2)",
            "Акты рвоты (расширенный режим: −1 очко отравления за 2)",
        ),
        rule_ids=("I-POIS-07",),
    )
    def vomit(ctx: ActionContext, a: Vomit) -> None:
        p = params(ctx)
        if p.resolved("poison_points") != "on":
            refuse(
                "Poison points are the old rule, used in extended mode",
                "Очки отравления — старое правило, расширенный режим",
                "I-POIS-07",
                "I-POIS-08",
                tip="In the basic game use `treat-poisoning --method vomiting`.",
                tip_ru="В базовой игре: `treat-poisoning --method vomiting`.",
            )
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            total = s.vomits + a.acts
            lower_points(
                ctx,
                ch.id,
                total // p.poison_decay_vomits,
                (f"{a.acts} act(s) of vomiting", f"рвота: {a.acts}"),
                vomits=total % p.poison_decay_vomits,
            )

    @rs.on_timer(DECAY)
    def decay(ctx: ActionContext, t: Timer) -> None:
        s = sv(ctx, t.subject)
        if s.poison_points <= 0 or not ctx.character(t.subject).alive:
            return
        lower_points(ctx, t.subject, 1, ("2 game hours", "2 игровых часа"))
        if sv(ctx, t.subject).poison_points > poison_floor(ctx, t.subject):
            ctx.schedule(
                DECAY,
                timedelta(hours=params(ctx).poison_decay_hours),
                t.subject,
                rule_ids=("I-POIS-07",),
            )


def _undo_treatment(ctx: ActionContext, rec: CheckRecord) -> None:
    patient = str(rec.payload["patient"])
    if d100.is_success(rec.outcome):
        gain(
            ctx,
            patient,
            "poisoned",
            ("treatment check rerolled", "проверка лечения переброшена"),
            ("A-I-01", "I-COND-09"),
            data={"check": rec.id},
        )


@purpose("poison_treatment", undo=_undo_treatment)
def _treated(ctx: ActionContext, rec: CheckRecord) -> None:
    patient = str(rec.payload["patient"])
    if not d100.is_success(rec.outcome):
        return
    ch = ctx.character(patient)
    cond = next(
        (c for c in ch.conditions if c.kind == "poisoned" and c.data.get("key") is None), None
    )
    if cond is None:
        return
    way = rec.payload["method"]
    method = VALUES.get(f"method:{way}", (way, way))
    lose(
        ctx,
        patient,
        "poisoned",
        (f"treated: {method[0]}", f"вылечено: {method[1]}"),
        ("I-POIS-06", "I-POIS-08", "I-COND-09"),
        key=None,
    )
    if sv(ctx, patient).poison_points:
        update(
            ctx,
            "poison.points_changed",
            patient,
            {"poison_points": 0, "vomits": 0},
            ("I-POIS-07",),
            points=0,
        )
    ctx.cancel_all(patient, DECAY)
