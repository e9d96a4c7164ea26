"""Travel, pace and load (путешествие, темп, груз), checklist-004 §2.7–2.8.

After a game day of travel the state follows the pace (I-TRAVEL-02..06): cautious and
normal — nothing (normal and overloaded → tired); fast — tired, and a failed optional
Endurance [2] → very tired; forced — very tired, and a failed Endurance [3] → exhausted.
Two fast days in a row without a full camp leave at least "very tired" (I-TRAVEL-07), as
do two days of march without any camp (I-COND-06). While on a fast march Attention and
Endurance are +1 harder (I-TRAVEL-16). Where the road is not the point, one key check
sets the cost of the whole journey (I-TRAVEL-11/12).

Load is a state the GM sets (A-I-29): light, equipped, loaded (+1 to running, climbing,
swimming, stealth), overloaded (+2 to physical movement; no normal fighting).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.checks import Modifier, make_check, purpose
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    gain,
    gain_fatigue,
    lose,
    params,
    party,
    refuse,
    ru,
    state,
    sv,
    update,
)
from lazaretto.rulesets.ide4_survival.params import Outcome, Pace
from lazaretto.rulesets.ide4_survival.state import CheckRecord, MarchDay, survivor_events

Load = Literal["light", "equipped", "loaded", "overloaded"]
TIRES_FASTER = "loaded: tires faster (I-LOAD-04)"
"""A loaded character «быстрее устаёт»: the march's fatigue check is harder by
``loaded_fatigue_check_shift`` (no number in the text; 0 leaves it to the GM)."""
Cost = Literal[
    "lost_time",
    "fatigue",
    "supplies",
    "random_encounter",
    "lost_trail",
    "worse_weather",
    "injured_animal_or_broken_gear",
]
PACE_RULES = {
    "cautious": "I-TRAVEL-03",
    "normal": "I-TRAVEL-04",
    "fast": "I-TRAVEL-05",
    "forced": "I-TRAVEL-06",
}
survivor_events("march.started", "march.ended", "load.set")


def _run(marches: list[MarchDay], today: int, cond: Callable[[MarchDay], bool]) -> int:
    """How many march days right before ``today`` satisfy ``cond``, in a row."""
    n, day = 0, today - 1
    by_day = {m.day: m for m in marches}
    while day in by_day and cond(by_day[day]):
        n, day = n + 1, day - 1
    return n


def _undo_travel(ctx: ActionContext, rec: CheckRecord) -> None:
    ch = ctx.character(rec.character)
    for c in [c for c in ch.conditions if c.data.get("check") == rec.id]:
        lose(
            ctx,
            ch.id,
            c.kind,
            ("check rerolled", "проверка переброшена"),
            ("A-I-01",),
            key=c.data.get("key"),
        )


@purpose("travel", undo=_undo_travel)
def _travel(ctx: ActionContext, rec: CheckRecord) -> None:
    pace = str(rec.payload["pace"])
    failed = d100.is_failure(rec.outcome)
    kind = str(rec.payload["failure_state"] if failed else rec.payload["state"])
    rule = PACE_RULES[pace]
    gain_fatigue(
        ctx,
        rec.character,
        kind,
        (
            f"{pace} march, Endurance {rec.outcome}",
            f"марш ({ru(pace)}), Выносливость: {ru(rec.outcome)}",
        ),
        (rule, "I-TRAVEL-02", "A-I-21"),
        data={"check": rec.id},
    )


def register(rs: Ruleset) -> None:
    """Declare march, quick travel and load actions."""

    class StartMarch(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        pace: Pace

    @rs.action(
        "start-march",
        StartMarch,
        roles=MASTERS,
        summary=("Step 3: set off at a pace", "Шаг 3: выступить в путь в выбранном темпе"),
        rule_ids=("I-DAY-04", "I-TRAVEL-14", "I-TRAVEL-15", "I-TRAVEL-16", "I-TRAVEL-17"),
    )
    def start_march(ctx: ActionContext, a: StartMarch) -> None:
        for ch in party(ctx, a.characters):
            update(ctx, "march.started", ch.id, {"pace": a.pace}, ("I-TRAVEL-16",), pace=a.pace)
        ctx.emit("day.step_done", {"step": "march"}, ("I-DAY-04",))

    class EndMarch(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        pace: Pace | None = Field(None, description="if not set by start-march")
        check: bool = Field(False, description="roll the optional Endurance check")
        outcome: Outcome | None = Field(None, description="the Endurance result (one character)")
        roll: int | None = Field(None, ge=1, le=100)

    @rs.action(
        "end-march",
        EndMarch,
        roles=MASTERS,
        summary=(
            "End of a travel day: the state by pace (and the Endurance check)",
            "Конец дня в пути: состояние по темпу (и проверка Выносливости)",
        ),
        rule_ids=(
            "I-TRAVEL-02",
            "I-TRAVEL-03",
            "I-TRAVEL-04",
            "I-TRAVEL-05",
            "I-TRAVEL-06",
            "I-TRAVEL-07",
            "I-COND-06",
        ),
    )
    def end_march(ctx: ActionContext, a: EndMarch) -> None:
        p = params(ctx)
        for ch in party(ctx, a.characters):
            s = sv(ctx, ch.id)
            pace = a.pace or s.pace
            if pace is None:
                refuse(
                    f"Which pace did {ch.name} march at?",
                    f"В каком темпе шёл {ch.name}?",
                    "I-TRAVEL-02",
                    tip="Give --pace.",
                    tip_ru="Укажите --pace.",
                )
            row = p.paces[pace]
            day = state(ctx).day
            marches = [*[m for m in s.marches if m.day != day][-4:], MarchDay(day=day, pace=pace)]
            update(
                ctx,
                "march.ended",
                ch.id,
                {"pace": None, "marches": marches},
                (PACE_RULES[pace], "I-TRAVEL-02"),
                pace=pace,
            )
            base = row.state
            if pace == "forced":
                base = p.forced_march_state  # A-I-21
            if row.overloaded_state and s.load == "overloaded":
                base = row.overloaded_state  # I-TRAVEL-04
            wants = a.check or a.outcome is not None or a.roll is not None
            checked = (
                row.check_skill
                and row.failure_state
                and (
                    p.travel_check_mode == "always" or (p.travel_check_mode == "optional" and wants)
                )
            )
            if checked:
                tires = s.load in ("loaded", "overloaded") and p.loaded_fatigue_check_shift > 0
                make_check(
                    ctx,
                    ch.id,
                    row.check_skill or p.endurance_skill,
                    base=row.check_difficulty or 0,
                    tags=("long_physical",),
                    modifiers=(Modifier(reason=TIRES_FASTER, amount=p.loaded_fatigue_check_shift),)
                    if tires
                    else (),
                    purpose_name="travel",
                    payload={"pace": pace, "state": base, "failure_state": row.failure_state},
                    outcome=a.outcome,
                    roll=a.roll,
                    rule_ids=(PACE_RULES[pace], "A-I-21", *(("I-LOAD-04",) if tires else ())),
                )
            else:
                gain_fatigue(
                    ctx,
                    ch.id,
                    base,
                    (f"a day of {pace} march", f"день марша ({ru(pace)})"),
                    (PACE_RULES[pace], "I-TRAVEL-02", "I-TRAVEL-08", "A-I-21"),
                )
            fast_run = _run(s.marches, day, lambda m: m.pace == "fast" and m.camp != "normal")
            if pace == "fast" and fast_run + 1 >= p.fast_days_for_very_tired:
                gain_fatigue(
                    ctx,
                    ch.id,
                    "very_tired",
                    ("two fast days without a full camp", "два быстрых дня без полного лагеря"),
                    ("I-TRAVEL-07", "A-I-30"),
                )
            no_camp = _run(s.marches, day, lambda m: m.camp in (None, "none"))
            if no_camp + 1 >= p.march_days_without_camp_for_very_tired:
                gain_fatigue(
                    ctx,
                    ch.id,
                    "very_tired",
                    ("two days of march without camp", "два дня марша без лагеря"),
                    ("I-COND-06",),
                )

    class QuickTravel(BaseModel):
        character: str = Field(description="who makes the key check")
        route: str = Field(min_length=1, max_length=200)
        pace: Pace = "normal"
        skill: str = Field("Sense of direction", max_length=60)
        difficulty: int = Field(0, ge=-10, le=20)
        outcome: Outcome | None = None
        roll: int | None = Field(None, ge=1, le=100)
        costs: list[Cost] = Field(default_factory=list, description="the price the GM sets")
        party: list[str] = Field(default_factory=list, description="who travels (empty: all)")

    @rs.action(
        "quick-travel",
        QuickTravel,
        roles=MASTERS,
        summary=(
            "Quick travel: one key check sets the price of the road",
            "Быстрое путешествие: одна ключевая проверка определяет цену пути",
        ),
        rule_ids=("I-TRAVEL-10", "I-TRAVEL-11", "I-TRAVEL-12"),
    )
    def quick_travel(ctx: ActionContext, a: QuickTravel) -> None:
        if params(ctx).resolved("travel") != "quick":
            refuse(
                "Quick travel is the light campaign's procedure",
                "Быстрое путешествие — процедура облегчённой кампании",
                "I-TRAVEL-11",
                tip="Use start-march / end-march, or create the campaign with travel_mode=quick.",
                tip_ru="Используйте start-march / end-march или travel_mode=quick.",
            )
        rec = make_check(
            ctx,
            a.character,
            a.skill,
            base=a.difficulty,
            outcome=a.outcome,
            roll=a.roll,
            payload={"route": a.route},
            rule_ids=("I-TRAVEL-11",),
        )
        if rec.pending:
            refuse(
                "The key check needs its outcome", "Нужен исход ключевой проверки", "I-TRAVEL-11"
            )
        unknown = sorted(set(a.costs) - set(params(ctx).quick_travel_costs))
        if unknown:
            refuse(
                f"{unknown[0]} is not a price of the road in this campaign",
                f"{unknown[0]} — не цена пути в этой кампании",
                "I-TRAVEL-12",
            )
        if d100.is_failure(rec.outcome) and not a.costs:
            refuse(
                "The outcome sets the price of the road: name the cost",
                "Исход определяет цену пути: назовите её",
                "I-TRAVEL-11",
                "I-TRAVEL-12",
                tip="Give --costs (lost_time, fatigue, supplies, …).",
                tip_ru="Укажите --costs (lost_time, fatigue, supplies, …).",
            )
        ctx.emit(
            "travel.quick",
            {
                "character": a.character,
                "route": a.route,
                "pace": a.pace,
                "outcome": rec.outcome,
                "costs": list(a.costs),
            },
            ("I-TRAVEL-11", "I-TRAVEL-12"),
        )
        if "fatigue" in a.costs:
            for ch in party(ctx, a.party):
                gain_fatigue(
                    ctx,
                    ch.id,
                    "tired",
                    ("the road's price: fatigue", "цена пути: усталость"),
                    ("I-TRAVEL-12",),
                )

    class SetLoad(BaseModel):
        characters: list[str] = Field(default_factory=list, description="empty: everyone")
        load: Load
        slot_weight: float | None = Field(None, ge=0, le=1000, description="extended only")
        slot_volume: float | None = Field(None, ge=0, le=1000, description="extended only")

    @rs.action(
        "set-load",
        SetLoad,
        roles=MASTERS,
        summary=("Set the load state", "Задать состояние груза"),
        rule_ids=("I-LOAD-01", "I-LOAD-02", "I-LOAD-03", "I-LOAD-04", "I-LOAD-05"),
    )
    def set_load(ctx: ActionContext, a: SetLoad) -> None:
        slots = {
            k: v for k, v in (("weight", a.slot_weight), ("volume", a.slot_volume)) if v is not None
        }
        if slots and params(ctx).resolved("load_slots") != "on":
            refuse(
                "Slot weight and volume belong to the extended game",
                "Слот-вес и слот-объём — для расширенной игры",
                "I-LOAD-01",
                tip="Set the load state only.",
                tip_ru="Задайте только состояние груза.",
            )
        rules = {
            "light": "I-LOAD-02",
            "equipped": "I-LOAD-03",
            "loaded": "I-LOAD-04",
            "overloaded": "I-LOAD-05",
        }
        for ch in party(ctx, a.characters):
            update(
                ctx,
                "load.set",
                ch.id,
                {"load": a.load, "slots": slots},
                (rules[a.load],),
                load=a.load,
            )
            for kind in ("loaded", "overloaded"):
                if kind != a.load:
                    lose(ctx, ch.id, kind, (f"now {a.load}", f"теперь: {a.load}"), (rules[a.load],))
            if a.load in ("loaded", "overloaded"):
                gain(
                    ctx,
                    ch.id,
                    a.load,
                    ("load set by the GM", "груз задан мастером"),
                    (rules[a.load], "A-I-29"),
                )
