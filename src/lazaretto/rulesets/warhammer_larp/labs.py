"""Disease-creation laboratories (ЛСБ): checklist-000 §6.1–§6.5; A-W-30..32.

A lab pays for everything with productivity points (W-LAB-03): 10 at the start
(W-LAB-04), restored every game day with nothing carried over (W-LAB-09/10), plus 1–2
per completed quest, usable at once (W-LAB-05/08; A-W-30: they raise the daily capacity).
Quests come three at a time, drawn at random and possibly repeated; the next three only
when all are done (W-LAB-06/07). A batch of stickers costs 1 point: 10 non-lethal or 5
lethal, made from the disease's recipe (W-LAB-11/12); an outbreak certificate costs 4
and carries at most 10 stickers of one disease, an epidemic certificate costs 8 and needs
30 (W-LAB-13..16). Unknown recipes are found by experiment (W-LAB-17..19).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import Disease, disease, ill_with
from lazaretto.rulesets.warhammer_larp.models import Lab, LabQuestState, game_day
from lazaretto.rulesets.warhammer_larp.params import LabQuest
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import mint
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS


@REDUCERS.on("lab.registered")
def _registered(st: WarhammerState, ev: Event) -> None:
    lab = Lab.model_validate(ev.payload["lab"])
    st.labs[lab.id] = lab


@REDUCERS.on("lab.points_restored")
def _restored(st: WarhammerState, ev: Event) -> None:
    lab = st.labs[ev.payload["lab"]]
    lab.day, lab.points = ev.payload["day"], ev.payload["points"]


@REDUCERS.on("lab.quests_drawn")
def _drawn(st: WarhammerState, ev: Event) -> None:
    lab = st.labs[ev.payload["lab"]]
    lab.quests = [LabQuestState.model_validate(q) for q in ev.payload["quests"]]
    lab.quest_rounds += 1


@REDUCERS.on("lab.quest_completed")
def _completed(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    lab = st.labs[p["lab"]]
    lab.quests[p["no"] - 1].done = True
    lab.capacity, lab.points = p["capacity"], p["points"]


@REDUCERS.on("lab.points_spent")
def _spent(st: WarhammerState, ev: Event) -> None:
    lab = st.labs[ev.payload["lab"]]
    lab.points = ev.payload["points"]
    lab.batches += ev.payload.get("batches", 0)


@REDUCERS.on("lab.experiment_started")
def _experiment(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    st.labs[p["lab"]].experiments[p["disease"]] = {
        "subject": p["subject"],
        "hint": p["hint"],
        "tries": 0,
    }


@REDUCERS.on("lab.recipe_tried")
def _tried(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    lab = st.labs[p["lab"]]
    lab.experiments[p["disease"]]["tries"] += 1
    if p["correct"]:
        lab.known_recipes[p["disease"]] = list(p["components"])


def lab_of(ctx: ActionContext, lab_id: str) -> Lab:
    """The lab ``lab_id`` with today's points (W-LAB-09/10: a new day restores them all,
    and whatever was left yesterday is gone)."""
    lab = state(ctx).labs.get(lab_id)
    if lab is None:
        raise NotFound(
            f"No laboratory {lab_id!r}",
            ru=f"Нет лаборатории {lab_id!r}",
            tip="Register it with `register-lab`.",
            tip_ru="Зарегистрируйте: `register-lab`.",
        )
    today = game_day(ctx.now, params(ctx).lab_day_reset_time)
    if lab.day != today:
        ctx.emit(
            "lab.points_restored",
            {"lab": lab.id, "day": today, "points": lab.capacity, "lost": lab.points},
            ("W-LAB-09", "W-LAB-10", "A-W-30"),
        )
    return lab


def spend(
    ctx: ActionContext, lab: Lab, cost: int, what: str, rules: tuple[str, ...], batches: int = 0
) -> None:
    """Pay ``cost`` productivity points (W-LAB-03) or refuse."""
    if cost > lab.points:
        refuse(
            f"{lab.name} has {lab.points} productivity point(s) today; {what} costs {cost}",
            f"У {lab.name} сегодня {lab.points} очк. производительности; {what} стоит {cost}",
            "W-LAB-03",
            *rules,
            tip="Complete a quest, or wait for the next game day.",
            tip_ru="Выполните квест или дождитесь следующего игрового дня.",
        )
    ctx.emit(
        "lab.points_spent",
        {
            "lab": lab.id,
            "cost": cost,
            "what": what,
            "points": lab.points - cost,
            "batches": batches,
        },
        ("W-LAB-03", *rules),
    )


def recipe_ok(ctx: ActionContext, d: Disease, components: list[str], sacrifices: int) -> bool:
    """Components (some replaced by sacrifices: A-W-32) make the disease's recipe."""
    real = Counter(d.recipe)
    given = Counter(components)
    limit = params(ctx).recipe_max_sacrifice_substitutions
    limit = len(d.recipe) - 1 if limit is None else limit  # "partially": one stays real
    return (
        not (given - real)
        and sum(given.values()) + sacrifices == len(d.recipe)
        and sacrifices <= limit
    )


def register(rs: Ruleset) -> None:
    """Declare the laboratory actions and its status."""

    class RegisterLab(BaseModel):
        id: str = Field(min_length=1, max_length=40)
        name: str = Field(min_length=1, max_length=100)
        owner: str | None = Field(None, description="the character who runs it")
        equipped: bool = Field(True, description="fitted out as an alchemical laboratory")

    @rs.action(
        "register-lab",
        RegisterLab,
        roles=MASTERS,
        summary=("Register a disease-creation laboratory (ЛСБ)", "Зарегистрировать ЛСБ"),
        rule_ids=("W-LAB-01", "W-LAB-02", "W-LAB-04"),
    )
    def register_lab(ctx: ActionContext, a: RegisterLab) -> None:
        p = params(ctx)
        if a.id in state(ctx).labs:
            raise Conflict(f"Laboratory {a.id!r} already exists", ru=f"ЛСБ {a.id!r} уже есть")
        if a.owner:
            ctx.character(a.owner)
        if not a.equipped:
            refuse(
                "A disease lab is fitted out under the alchemical-laboratory rules first",
                "ЛСБ оборудуется по правилам алхимических лабораторий",
                "W-LAB-02",
            )
        lab = Lab(
            id=a.id,
            name=a.name,
            owner=a.owner,
            capacity=p.lab_start_points,
            points=p.lab_start_points,
            day=game_day(ctx.now, p.lab_day_reset_time),
        )
        ctx.emit("lab.registered", {"lab": lab.model_dump()}, ("W-LAB-01", "W-LAB-04"))

    class LabOnly(BaseModel):
        lab: str

    @rs.action(
        "draw-lab-quests",
        LabOnly,
        roles=MASTERS,
        summary=("Draw the lab's next three quests at random", "Выдать ЛСБ три случайных квеста"),
        rule_ids=("W-LAB-06", "W-LAB-07"),
    )
    def draw(ctx: ActionContext, a: LabOnly) -> None:
        p = params(ctx)
        lab = lab_of(ctx, a.lab)
        open_ = [q.no for q in lab.quests if not q.done]
        if open_:
            refuse(
                f"{lab.name} still has quest(s) {', '.join(map(str, open_))} to complete",
                f"У {lab.name} не выполнены квесты {', '.join(map(str, open_))}",
                "W-LAB-07",
            )
        quests = []
        for no in range(1, p.lab_quest_batch + 1):
            pick = p.lab_quests[ctx.roll(f"1d{len(p.lab_quests)}").total - 1]  # may repeat
            quests.append({"no": no, "title": pick.title, "reward": pick.reward})
        ctx.emit("lab.quests_drawn", {"lab": lab.id, "quests": quests}, ("W-LAB-06",))

    class CompleteQuest(BaseModel):
        lab: str
        quest: int = Field(ge=1, le=20, description="quest number (1-3)")
        reward: int | None = Field(None, ge=1, le=2, description="points (default: the list's)")

    @rs.action(
        "complete-lab-quest",
        CompleteQuest,
        roles=MASTERS,
        summary=("A lab completed a quest: +1 or +2 points", "ЛСБ выполнила квест: +1 или +2"),
        rule_ids=("W-LAB-05", "W-LAB-08", "A-W-30"),
    )
    def complete(ctx: ActionContext, a: CompleteQuest) -> None:
        lab = lab_of(ctx, a.lab)
        if a.quest > len(lab.quests) or lab.quests[a.quest - 1].done:
            refuse(
                f"{lab.name} has no open quest {a.quest}",
                f"У {lab.name} нет открытого квеста {a.quest}",
                "W-LAB-06",
            )
        reward = a.reward or lab.quests[a.quest - 1].reward
        permanent = params(ctx).lab_quest_points_permanent
        ctx.emit(
            "lab.quest_completed",
            {
                "lab": lab.id,
                "no": a.quest,
                "reward": reward,
                "capacity": lab.capacity + (reward if permanent else 0),
                "points": lab.points + reward,  # W-LAB-08: usable at once
            },
            ("W-LAB-05", "W-LAB-08", "A-W-30"),
        )

    class MakeStickers(BaseModel):
        lab: str
        disease: str
        batches: int = Field(1, ge=1, le=50)
        components: list[str] = Field(
            default_factory=list, max_length=20, description="alchemical components used"
        )
        sacrifices: int = Field(0, ge=0, le=20, description="components replaced by sacrifices")

    @rs.action(
        "make-stickers",
        MakeStickers,
        roles=MASTERS,
        summary=(
            "Make sticker batches: 1 point = 10 non-lethal or 5 lethal",
            "Создать наклейки: 1 очко = 10 несмертельных или 5 смертельных",
        ),
        rule_ids=("W-LAB-11", "W-LAB-12", "W-LAB-20", "A-W-32"),
    )
    def make(ctx: ActionContext, a: MakeStickers) -> None:
        p = params(ctx)
        lab = lab_of(ctx, a.lab)
        d = disease(ctx, a.disease)
        if not d.recipe:
            refuse(
                f"{d.name} has no recipe in the catalogue",
                f"У {d.name} нет рецепта в каталоге",
                "W-LAB-12",
            )
        if not recipe_ok(ctx, d, a.components, a.sacrifices):
            refuse(
                f"These components do not make {d.name}",
                f"Эти компоненты не дают {d.name}",
                "W-LAB-12",
                "A-W-32",
                tip="Work the recipe out by experiment (`try-recipe`).",
                tip_ru="Выведите рецепт экспериментально (`try-recipe`).",
            )
        spend(ctx, lab, a.batches * p.sticker_batch_cost, "stickers", ("W-LAB-11",), a.batches)
        per = p.lethal_stickers_per_batch if d.lethal else p.nonlethal_stickers_per_batch
        for n in range(a.batches):
            mint(
                ctx,
                d.code,
                per,
                ("W-LAB-01", "W-LAB-11"),
                lab=lab.id,
                batch=f"{lab.id}-B{lab.batches - a.batches + n + 1}",
            )

    class Experiment(BaseModel):
        lab: str
        disease: str
        subject: str = Field(description="a character ill with the disease")
        hint: str = Field("", max_length=1000, description="the master's hint for good roleplay")

    @rs.action(
        "start-recipe-experiment",
        Experiment,
        roles=MASTERS,
        summary=(
            "A props test on a patient opens the experimental search for a recipe",
            "Антуражный опыт на больном открывает экспериментальный подбор рецепта",
        ),
        rule_ids=("W-LAB-17", "W-LAB-18", "W-LAB-19"),
    )
    def experiment(ctx: ActionContext, a: Experiment) -> None:
        lab = lab_of(ctx, a.lab)
        d = disease(ctx, a.disease)
        subject = ctx.character(a.subject)
        if ill_with(subject, d.code) is None:
            refuse(
                f"The test needs a character ill with {d.name}; {subject.name} is not",
                f"Для опыта нужен больной {d.name}; {subject.name} не болеет",
                "W-LAB-18",
            )
        ctx.emit(
            "lab.experiment_started",
            {"lab": lab.id, "disease": d.code, "subject": subject.id, "hint": a.hint},
            ("W-LAB-18", "W-LAB-19"),
        )

    class TryRecipe(BaseModel):
        lab: str
        disease: str
        components: list[str] = Field(min_length=1, max_length=20)

    @rs.action(
        "try-recipe",
        TryRecipe,
        roles=MASTERS,
        summary=("Try a combination of components", "Попробовать комбинацию компонентов"),
        rule_ids=("W-LAB-17", "W-LAB-20"),
    )
    def try_recipe(ctx: ActionContext, a: TryRecipe) -> None:
        lab = lab_of(ctx, a.lab)
        d = disease(ctx, a.disease)
        if d.code not in lab.experiments:
            refuse(
                f"{lab.name} has not done the test on a patient with {d.name} yet",
                f"{lab.name} ещё не провела опыт на больном {d.name}",
                "W-LAB-18",
                tip="Use `start-recipe-experiment`.",
                tip_ru="`start-recipe-experiment`.",
            )
        cost = params(ctx).recipe_try_cost
        if cost:
            spend(ctx, lab, cost, "a recipe try", ("W-LAB-17",))
        correct = bool(d.recipe) and Counter(a.components) == Counter(d.recipe)
        ctx.emit(
            "lab.recipe_tried",
            {"lab": lab.id, "disease": d.code, "components": a.components, "correct": correct},
            ("W-LAB-17",),
        )

    @rs.query(
        "lab-status",
        LabOnly,
        roles=MASTERS,
        summary=("A lab's points, quests, stock and certificates", "Очки, квесты и склад ЛСБ"),
        rule_ids=("W-LAB-03", "W-LAB-09", "W-LAB-10"),
    )
    def lab_status(ctx: QueryContext, a: LabOnly) -> dict[str, Any]:
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        lab = st.labs.get(a.lab)
        if lab is None:
            raise NotFound(f"No laboratory {a.lab!r}", ru=f"Нет лаборатории {a.lab!r}")
        today = game_day(ctx.now, ctx.params.lab_day_reset_time)
        points = lab.points if lab.day == today else lab.capacity
        stock = Counter(
            s.disease for s in st.stickers.values() if s.status == "stock" and s.holder == lab.id
        )
        return {
            "summary": ctx.tr(
                f"{lab.name}: {points}/{lab.capacity} points on {today}",
                f"{lab.name}: {points}/{lab.capacity} очков на {today}",
            ),
            "points": points,
            "capacity": lab.capacity,
            "day": today,
            "quests": [q.model_dump() | {"title": quest_title(ctx, q.title)} for q in lab.quests],
            "stock": dict(stock),
            "certificates": [
                {k: c[k] for k in ("id", "kind", "disease", "holder", "used")}
                | {"stickers": len(c["stickers"])}
                for c in st.certificates.values()
                if c.get("lab") == lab.id
            ],
            "known_recipes": lab.known_recipes,
        }


def quest_title(ctx: QueryContext, title: str) -> str:
    """A drawn quest's title in the reader's language: the lab keeps the English title
    it was given, and the campaign's quest list names it in Russian (``title_ru``)."""
    if ctx.lang != "ru":
        return title
    quests: list[LabQuest] = ctx.params.lab_quests
    return next((q.title_ru for q in quests if q.title == title and q.title_ru), title)


__all__ = ["lab_of", "quest_title", "register", "spend"]
