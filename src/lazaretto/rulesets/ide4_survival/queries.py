"""Read-only questions: what is due now (``day``), recovery factors, the table run-through
after 2–3 days (I-GEN-13), the disease catalogue and the odds of a check."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import QueryContext
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.ide4_survival import d100
from lazaretto.rulesets.ide4_survival.checks import Tag
from lazaretto.rulesets.ide4_survival.common import (
    MASTERS,
    MEAL_LABELS,
    known_diseases,
    params,
    state,
    window_at,
)
from lazaretto.rulesets.ide4_survival.params import OUTCOMES, IdeParams
from lazaretto.rulesets.ide4_survival.recovery import BETTER, WORSE, factors
from lazaretto.rulesets.ide4_survival.state import Ide4State, survivor
from lazaretto.rulesets.ide4_survival.tables import condition_table

STEPS = (
    ("morning", "I-DAY-02", ("1 morning: mark the states", "1 утро: отметить состояния")),
    ("breakfast", "I-DAY-03", ("2 breakfast from 7:00", "2 завтрак с 7:00")),
    ("march", "I-DAY-04", ("3 day: scenes, march, combat", "3 день: сцены, марш, бой")),
    ("lunch", "I-DAY-05", ("4 lunch from 13:00", "4 обед с 13:00")),
    ("dinner", "I-DAY-06", ("5 dinner from 19:00", "5 ужин с 19:00")),
    ("camp", "I-DAY-07", ("6 camp: weather, damp, stress", "6 лагерь: погода, сырость, стресс")),
    ("sleep", "I-DAY-08", ("7 sleep 3d10", "7 сон 3d10")),
    ("end", "I-DAY-09", ("8 end of the day", "8 конец суток")),
)
TREK = (
    ("morning", ("morning states (table)", "состояния с утра (таблица)")),
    (
        "meals",
        ("breakfast / lunch / dinner: rerolls received?", "завтрак / обед / ужин: перебросы?"),
    ),
    ("march", ("pace and load of the day", "темп и груз дня")),
    ("risks", ("weather, water, disease/poison risk", "погода, вода, риск болезни/яда")),
    ("stress", ("stress events → calm", "стрессовые события → спокойствие")),
    ("camp", ("camp normal / bad", "лагерь: нормальный / плохой")),
    ("sleep", ("sleep 3d10 → hours → fatigue removed", "сон 3d10 → часы → снятие усталости")),
    ("end", ("what recovered: HP, points, disease", "что восстановилось: HP, очки, болезнь")),
)


TRAVEL_DAY = (
    ("weather", "погода"),
    ("pace", "темп"),
    ("food and water use", "расход еды и воды"),
    ("route check", "проверка маршрута"),
    ("hazard check", "проверка опасностей"),
    ("camp", "лагерь"),
    ("sleep and recovery", "сон и восстановление"),
)


REROLLS = {
    "meal": ("meal", "еда"),
    "pacified": ("pacified", "умиротворение"),
    "hot": ("hot", "горячий"),
    "immunity": ("Immunity", "иммунитет"),
}
"""A held reroll's kind (обеденный, умиротворённый, горячий, Иммунитета) in a day line."""

EXPOSURES = {
    "cold_no_clothes": ("cold without warm clothing", "холод без тёплой одежды"),
    "cold_warm_clothes": ("cold, warm clothing, no fire", "холод в тёплой одежде без огня"),
    "wet": ("wet", "мокрый"),
    "sick_contact": ("contact with the sick", "контакт с больным"),
}
"""A running condition of infection (I-IMM-03..06) in a day line."""


def _hm(t: datetime | None) -> str:
    return "" if t is None else f"{t:%H:%M}"


def _one_of(values: list[int], lang: str) -> str:
    """``4, 3 or 4`` (``4, 3 или 4``): the dice a player picks one of."""
    words = [str(v) for v in values]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {'или' if lang == 'ru' else 'or'} {words[-1]}"


def _meal_mark(st: Ide4State, p: IdeParams, name: str, now: datetime) -> str:
    """✓ everyone ate normally in today's ``name`` window, ✗ it closed with a skip, · open."""
    if st.day_started is None or p.resolved("meal") != "detailed":
        return "· "
    start = p.meal_windows[("breakfast", "lunch", "dinner").index(name)]
    h, m = (int(x) for x in start.split(":"))
    w = window_at(p, st.day_started.replace(hour=h, minute=m, second=0, microsecond=0))
    alive = [c for c in st.characters.values() if c.alive]
    if alive and all(survivor(st, c.id).meals.get(w.key) == "normal" for c in alive):
        return "✓ "
    return "✗ " if now >= w.end else "· "


def due_for(ctx: QueryContext, char_id: str) -> list[str]:
    """What is due now for one character, in the asked language."""
    st = state(ctx)
    p = params(ctx)
    tr = ctx.tr
    ch = st.characters[char_id]
    if not ch.alive:
        return [tr("dead", "мёртв")]
    s = survivor(st, char_id)
    out: list[str] = []
    if p.resolved("meal") == "detailed":
        w = window_at(p, ctx.now)
        label = MEAL_LABELS[w.name]
        if s.meals.get(w.key) != "normal":
            out.append(
                tr(
                    f"{label[0]} not eaten yet (window until {_hm(w.end)})",
                    f"{label[1]} ещё не был (окно до {_hm(w.end)})",
                )
            )
    elif str(st.day) not in s.food_marks:
        out.append(tr("food mark for the day", "отметка еды за сутки"))
    held = Counter(
        (r.kind, r.expires) for r in s.rerolls if r.expires is None or r.expires > ctx.now
    )
    for (kind, expires), n in held.items():
        until = f" → {_hm(expires)}" if expires else ""
        en, ru = REROLLS.get(kind, (kind, kind))
        out.append(tr(f"{n} {en} reroll(s){until}", f"перебросов ({ru}): {n}{until}"))
    if s.calm == p.calm_points_max and not (
        s.pacified_used and s.pacified_used.date() == ctx.now.date()
    ):
        out.append(tr("pacified reroll available", "умиротворённый переброс доступен"))
    for k in st.checks.values():
        if k.character == char_id and k.pending:  # named as the table knows it, not by id
            skill = ctx.ruleset.text(f"skill:{k.skill}", ctx.lang) or k.skill
            out.append(
                tr(
                    f"{ch.name}'s {skill} check [{k.difficulty}] awaits its outcome "
                    "(resolve-check)",
                    f"{ch.name}: проверка «{skill}» [{k.difficulty}] ждёт исхода (resolve-check)",
                )
            )
    if s.asleep:
        wake = [t.deadline for t in st.timers_for(char_id, "sleep_ends")]
        out.append(
            tr(
                f"asleep until {_hm(min(wake)) if wake else '?'}",
                f"спит до {_hm(min(wake)) if wake else '?'}",
            )
        )
    elif s.sleep_options:
        out.append(
            tr(
                f"pick the hours of sleep: {_one_of(s.sleep_options, 'en')} (go-to-sleep)",
                f"выбрать часы сна: {_one_of(s.sleep_options, 'ru')} (go-to-sleep)",
            )
        )
    burn = st.timers_for(char_id, "xp_burns")
    if s.xp_pending and burn:
        out.append(
            tr(
                f"{s.xp_pending} XP burn at {_hm(burn[0].deadline)} unless in bed",
                f"{s.xp_pending} опыта сгорит в {_hm(burn[0].deadline)}, если не лечь",
            )
        )
    if s.calm == 0:
        pen = st.timers_for(char_id, "zero_calm_penalty")
        out.append(
            tr(
                f"0 calm: {s.replacements} Tragedy replacement(s)"
                + (f", −30 Health at {_hm(pen[0].deadline)}" if pen else ""),
                f"0 спокойствия: замен Трагедии {s.replacements}"
                + (f", −30 к здоровью в {_hm(pen[0].deadline)}" if pen else ""),
            )
        )
    if s.adrenaline:
        out.append(tr(f"{s.adrenaline} adrenaline d20", f"адреналиновых d20: {s.adrenaline}"))
    catalogue = known_diseases(st)
    for c in st.cases.values():
        if c.character == char_id and c.status == "sick":
            name = catalogue[c.disease].name if c.disease in catalogue else None
            nm = (name.en, name.ru) if name else (c.disease, c.disease)
            out.append(
                tr(
                    f"{nm[0]} stage {c.stage}: Immunity check at end-day",
                    f"{nm[1]}, стадия {c.stage}: проверка Иммунитета в конце суток",
                )
            )
    for e in st.exposures.values():
        if e.character == char_id:
            nxt = [
                t.deadline
                for t in st.timers_for(char_id, "exposure_check")
                if t.payload.get("exposure") == e.id
            ]
            en, ru = EXPOSURES.get(e.kind, (e.kind, e.kind))
            out.append(
                tr(
                    f"{en}: next Immunity check {_hm(min(nxt)) if nxt else '-'}",
                    f"{ru}: следующая проверка Иммунитета {_hm(min(nxt)) if nxt else '-'}",
                )
            )
    return out


def register(rs: Ruleset) -> None:
    """Declare the queries."""

    class DayQuery(BaseModel):
        character: str | None = Field(None, description="one character (default: everyone)")

    @rs.query(
        "day",
        DayQuery,
        summary=(
            "What is due now in the game day, for every character",
            "Что положено сейчас в игровом дне, для каждого персонажа",
        ),
        rule_ids=("I-DAY-01", "I-DAY-02", "I-DAY-03", "I-DAY-05", "I-DAY-06", "I-DAY-12"),
    )
    def day(ctx: QueryContext, a: DayQuery) -> dict[str, Any]:
        st = state(ctx)
        p = params(ctx)
        done = set(st.day_steps)
        marks = []
        for key, _rule, label in STEPS:
            if key in ("breakfast", "lunch", "dinner"):
                mark = _meal_mark(st, p, key, ctx.now)
            else:
                mark = "✓ " if key in done else "· "
            marks.append(mark + ctx.tr(*label))
        w = window_at(p, ctx.now)
        out: dict[str, Any] = {
            "summary": ctx.tr(
                f"Day {st.day}, {ctx.now:%H:%M}, {MEAL_LABELS[w.name][0]} window",
                f"День {st.day}, {ctx.now:%H:%M}, окно: {MEAL_LABELS[w.name][1]}",
            ),
            "now": ctx.now.isoformat(),
            "day": st.day,
            "steps": " | ".join(marks),
        }
        if p.mode == "extended":  # I-DAY-12: the extended trek checklist
            out["trek"] = " | ".join(ctx.tr(*label) for _, label in TREK)
            # I-TRAVEL-13: what each day of extended travel includes, in order
            out["travel_day"] = " → ".join(ctx.tr(*step) for step in TRAVEL_DAY)
        ids = [a.character] if a.character else list(st.characters)
        if a.character is None and ctx.role is Role.PLAYER:
            # a player learns what is due for their own character only (the service
            # checks it is theirs): not the others' meals, diseases or exposures
            ids = []
            out["note"] = ctx.tr(
                "name your character to see what is due for them",
                "укажите своего персонажа, чтобы увидеть, что положено ему",
            )
        for cid in ids:
            ch = ctx.character(cid)
            out[f"{ch.id} ({ch.name})"] = "; ".join(due_for(ctx, cid)) or ctx.tr(
                "nothing due", "ничего"
            )
        return out

    class RecoveryQuery(BaseModel):
        character: str
        safe: bool = False
        cared_for: bool = False
        wounds_treated: bool = False
        dirty_wound: bool = False
        cold_or_heat: bool = False

    @rs.query(
        "recovery",
        RecoveryQuery,
        summary=(
            "What makes a character recover better or worse",
            "Что улучшает и ухудшает восстановление",
        ),
        rule_ids=("I-REC-01", "I-REC-02", "I-REC-03", "A-I-25"),
    )
    def recovery(ctx: QueryContext, a: RecoveryQuery) -> dict[str, Any]:
        ctx.character(a.character)
        better, worse = factors(
            state(ctx),
            a.character,
            a.safe,
            a.cold_or_heat,
            a.cared_for,
            a.wounds_treated,
            a.dirty_wound,
        )
        return {
            "summary": ctx.tr(
                f"{len(better)} better, {len(worse)} worse",
                f"лучше: {len(better)}, хуже: {len(worse)}",
            ),
            "better": [ctx.tr(*BETTER[k]) for k in better],
            "worse": [ctx.tr(*WORSE[k]) for k in worse],
            # A-I-25: amounts belong to the Health chapter; a campaign may set them
            "modifier": sum(params(ctx).recovery_modifiers.get(k, 0) for k in (*better, *worse)),
        }

    class RunThrough(BaseModel):
        pass

    @rs.query(
        "run-through",
        RunThrough,
        roles=MASTERS,
        summary=(
            "The table run-through after 2–3 game days of travel",
            "Прогон за столом после 2–3 игровых дней в походе",
        ),
        rule_ids=("I-GEN-13", "A-I-27"),
    )
    def run_through(ctx: QueryContext, a: RunThrough) -> dict[str, Any]:
        return run_through_report(ctx)

    class DiseasesQuery(BaseModel):
        code: str | None = None

    @rs.query(
        "diseases",
        DiseasesQuery,
        summary=("The disease catalogue", "Каталог болезней"),
        rule_ids=("I-DIS-02", "I-DIS-14"),
    )
    def diseases(ctx: QueryContext, a: DiseasesQuery) -> dict[str, Any]:
        cat = known_diseases(state(ctx))
        codes = [a.code] if a.code else list(cat)
        out: dict[str, Any] = {"summary": ctx.tr(f"{len(cat)} diseases", f"болезней: {len(cat)}")}
        for code in codes:
            d = cat[code]
            inc = f"{d.incubation_days[0]}–{d.incubation_days[1]}" if d.incubation_days else "-"
            treats = ", ".join(
                f"{t.rule} {ctx.tr(t.name.en, t.name.ru)} "
                f"({ctx.ruleset.text(f'effect:{t.effect}', ctx.lang) or t.effect})"
                for t in d.treatments
            )
            out[code] = ctx.tr(
                f"{d.name.en} [{d.rule or d.category}]: {d.transmission.en}; incubation {inc}; "
                f"{d.penalties_text.en}; treatments: {treats or '-'}",
                f"{d.name.ru} [{d.rule or d.category}]: {d.transmission.ru}; инкубация {inc}; "
                f"{d.penalties_text.ru}; лечение: {treats or '-'}",
            )
        return out

    class Odds(BaseModel):
        character: str
        skill: str
        difficulty: int = Field(0, ge=-10, le=20)
        tags: list[Tag] = Field(default_factory=list)

    @rs.query(
        "d100-odds",
        Odds,
        summary=("The difficulty and placeholder odds of a check", "Сложность и шансы проверки"),
        rule_ids=("A-I-01", "A-I-02", "I-STATE-02"),
    )
    def odds(ctx: QueryContext, a: Odds) -> dict[str, Any]:
        from lazaretto.rulesets.ide4_survival.checks import cases_of

        p = params(ctx)
        ch = ctx.character(a.character)
        req = d100.Request(skill=a.skill, group=p.skill_groups.get(a.skill), tags=frozenset(a.tags))
        shifts = d100.state_shifts(
            ch, survivor(state(ctx), ch.id), cases_of(ctx, ch.id), req, p, ctx.now
        )
        difficulty = a.difficulty + sum(s.amount for s in shifts)
        counts = dict.fromkeys(OUTCOMES, 0)
        for r in range(1, 101):
            counts[d100.band_outcome(r, difficulty, p.band_table)] += 1
        return {
            "summary": ctx.tr(
                f"difficulty [{difficulty}] (placeholder bands)",
                f"сложность [{difficulty}] (условные полосы)",
            ),
            "difficulty": difficulty,
            "via": p.state_group,  # I-GEN-02
            "shifts": [f"{s.source} {s.amount:+d}" for s in shifts],
            "odds": {k: str(Fraction(v, 100)) for k, v in counts.items()},
        }


def run_through_report(ctx: QueryContext) -> dict[str, Any]:
    """I-GEN-13: the five questions of the run-through, answered from the campaign."""
    st = state(ctx)
    p = params(ctx)
    table = condition_table()
    survivors = [survivor(st, c) for c in st.characters]
    normal = sum(1 for s in survivors for m in s.meals.values() if m == "normal")
    skipped = sum(1 for s in survivors for m in s.meals.values() if m == "skipped")
    kinds = {c.kind for ch in st.characters.values() for c in ch.conditions}
    outside = sorted(k for k in kinds if k not in table.states and k not in table.other)
    hours = [h for s in survivors for h in s.sleep_log]
    fast = p.paces["fast"]

    def text(kind: str, value: str) -> str:
        return ctx.ruleset.text(f"{kind}:{value}", ctx.lang) or value

    return {
        "summary": ctx.tr(
            f"Run-through after {st.day} game day(s)", f"Прогон после {st.day} игровых дней"
        ),
        "meals": ctx.tr(
            f"{normal} normal, {skipped} skipped meals recorded",
            f"нормальных приёмов: {normal}, пропусков: {skipped}",
        ),
        "states_from_one_table": not outside,
        "sleep_spread": ctx.tr(
            f"hours slept: {min(hours)}–{max(hours)}" if hours else "no sleep yet",
            f"часы сна: {min(hours)}–{max(hours)}" if hours else "сна ещё не было",
        ),
        "fast_march": ctx.tr(
            f"fast pace gives {text('kind', fast.state)}; "
            f"check {text('check_mode', p.travel_check_mode)}",
            f"быстрый темп → {text('kind', fast.state)}; "
            f"проверка: {text('check_mode', p.travel_check_mode)}",
        ),
        "calm_vs_stamina": ctx.tr(
            "calm points and combat stamina are separate pools",
            "спокойствие и боевой запас сил — разные пулы",
        ),
        "provisional": ctx.tr(
            f"pace checks [{fast.check_difficulty}]/[{p.paces['forced'].check_difficulty}], "
            f"sleep thresholds {p.sleep_deprived_below_hours} h / "
            f"{p.sleep_deprived_remove_hours} h "
            "— fix them now (params)",
            f"проверки темпа [{fast.check_difficulty}]/[{p.paces['forced'].check_difficulty}], "
            f"пороги сна {p.sleep_deprived_below_hours} ч / {p.sleep_deprived_remove_hours} ч "
            "— зафиксируйте их (параметры)",
        ),
    }
