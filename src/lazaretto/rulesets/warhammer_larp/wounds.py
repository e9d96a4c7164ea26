"""Wounds and bandaging (ранения и перевязка): checklist-000 §1, §2.1–§2.2, §2.5.

Light wound → 30 min without a bandage → heavy wound → 15 min without a bandage →
death. A bandage cancels the running countdown (A-W-06).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import FIELD, params, refuse, wound_state
from lazaretto.rulesets.warhammer_larp.journal import record_outcome

STAFF = frozenset({Role.MASTER, Role.HEALER})
MASTERS = frozenset({Role.MASTER})

WORSENS = "light_wound_worsens"
DEATH = "heavy_wound_death"
BANDAGE_EXPIRES = "bandage_expires"
TREATMENT_DONE = "treatment_complete"


def register(rs: Ruleset) -> None:
    """Declare the wound actions and timers on ``rs``."""

    class LoseHits(BaseModel):
        character: str = Field(description="who was hit")
        hits: int = Field(1, ge=1, le=100, description="hits lost")
        location: str = Field("", max_length=80, description="where on the body (for the journal)")
        attacker: str | None = Field(None, description="who struck (checked during a looting)")

    @rs.action(
        "lose-hits",
        LoseHits,
        summary=("Record hits lost to a wound", "Записать потерю хитов от ранения"),
        rule_ids=("W-DEF-02", "W-DEF-06", "W-WND-08"),
    )
    def lose_hits(ctx: ActionContext, a: LoseHits) -> None:
        ch = ctx.character(a.character)
        checks.require_alive(ch)
        p = params(ctx)
        if a.attacker is not None:
            checks.resident_may_harm(ctx, ctx.character(a.attacker), ch)
        if ch.hits == 0:
            refuse(
                f"{ch.name} has no hits left to lose",
                f"У {ch.name} не осталось хитов",
                "W-DEF-02",
                tip="A master records a death with `kill`.",
                tip_ru="Смерть записывает мастер: `kill`.",
            )
        if ch.has("treatment") or ch.has("on_table"):
            _interrupt(ctx, ch.id, "wounded_again")
        hits = max(0, ch.hits - a.hits)
        ctx.emit(
            "wound.hits_lost",
            {"character": ch.id, "lost": ch.hits - hits, "hits": hits, "location": a.location},
            ("W-DEF-02", "W-DEF-06"),
        )
        if hits == 0:
            _become_heavy(ctx, ch.id, "all_hits_lost", ("W-DEF-02", "W-DEF-04", "A-W-07"))
            return
        light = ch.condition("light_wound")
        restart = (
            light is None or light.data.get("bandaged") or p.light_timer_anchor == "latest_hit"
        )
        if restart:  # A-W-07: unbandaged hits do not restart the countdown
            ctx.cancel_all(ch.id, WORSENS, BANDAGE_EXPIRES)
            t = ctx.schedule(
                WORSENS,
                timedelta(minutes=p.light_to_heavy_unbandaged_minutes),
                ch.id,
                rule_ids=("W-WND-08", "W-DEF-07"),
            )
            ctx.emit(
                "wound.light_started",
                {"character": ch.id, "deadline": t.deadline.isoformat(), "source": a.location},
                ("W-DEF-06", "W-WND-07"),
            )

    @rs.on_timer(WORSENS)
    def worsens(ctx: ActionContext, t: Timer) -> None:
        _become_heavy(ctx, t.subject, "unbandaged_light", ("W-WND-08", "W-DEF-07"))

    @rs.on_timer(DEATH)
    def death(ctx: ActionContext, t: Timer) -> None:
        die(ctx, t.subject, "unbandaged_heavy", ("W-WND-12", "W-DEF-04"))

    @rs.on_timer(BANDAGE_EXPIRES)
    def bandage_expires(ctx: ActionContext, t: Timer) -> None:
        ch = ctx.character(t.subject)
        heavy = ch.has("heavy_wound")
        p = params(ctx)
        minutes = p.heavy_death_unbandaged_minutes if heavy else p.light_to_heavy_unbandaged_minutes
        nt = ctx.schedule(
            DEATH if heavy else WORSENS, timedelta(minutes=minutes), ch.id, rule_ids=("A-W-06",)
        )
        ctx.emit(
            "wound.bandage_expired",
            {"character": ch.id, "deadline": nt.deadline.isoformat()},
            ("A-W-06",),
        )

    class ApplyBandage(BaseModel):
        healer: str = Field(description="who bandages (Healer skill)")
        patient: str = Field(description="who is bandaged")
        bandages: int = Field(ge=1, le=100, description="bandages applied")
        place: str = Field(FIELD, description="'field' or a hospital id")
        mat: str | None = Field(None, description="the field mat the patient lies on")
        lying: bool = Field(True, description="the patient lies down while bandaged")

    @rs.action(
        "apply-bandage",
        ApplyBandage,
        roles=STAFF,
        summary=(
            "Bandage a wounded character (stops the countdown)",
            "Перевязать раненого (останавливает отсчёт)",
        ),
        rule_ids=("W-WND-02", "W-WND-05", "W-WND-06", "W-HEAL-10"),
    )
    def apply_bandage(ctx: ActionContext, a: ApplyBandage) -> None:
        healer, patient = ctx.character(a.healer), ctx.character(a.patient)
        p = params(ctx)
        checks.require_wounded(patient)
        own = healer.id == patient.id
        if (
            own
            and wound_state(healer) == "heavy_unbandaged"
            and not p.self_bandage_allowed_when_heavy
        ):
            refuse(
                f"{healer.name} is heavily wounded and cannot bandage themself",
                f"{healer.name} тяжело ранен и не может перевязать себя сам",
                "A-W-09",
                "W-DEF-03",
                "W-WND-09",
                tip="Another healer must bandage them.",
                tip_ru="Нужен другой лекарь.",
            )
        if own:
            checks.require_alive(healer)
            if not healer.has_skill(p.healer_skill):
                checks.require_healer(ctx, healer)
        else:
            checks.require_healer(ctx, healer)
        if patient.has("disease_course") and not p.bandage_allowed_during_disease_course:
            refuse(
                f"{patient.name} is in a disease course; bandaging counts as wound treatment here",
                f"{patient.name} на курсе лечения болезни; перевязка здесь — лечение ранений",
                "W-DTRT-19",
                "A-W-17",
            )
        if wound_state(patient) in ("heavy_bandaged",) or _bandaged(patient):
            refuse(
                f"{patient.name}'s wounds are already bandaged",
                f"Раны {patient.name} уже перевязаны",
                "W-WND-02",
            )
        if a.place == FIELD:
            if not (own and not p.self_bandage_requires_mat):
                checks.require_free_mat(ctx, a.mat, patient.id, ("W-WND-06", "W-HEAL-06"))
        else:
            checks.hospital(ctx, a.place)
        if not a.lying and not own:
            refuse(
                f"{patient.name} must be lying down to be bandaged",
                f"{patient.name} должен лежать во время перевязки",
                "W-WND-05",
            )
        need = checks.lost_hits(patient) * p.bandages_per_lost_hit
        if p.stabilise_requires_bandage_per_lost_hit and a.bandages < need:
            refuse(
                f"{patient.name} lost {checks.lost_hits(patient)} hits: {need} bandages needed, "
                f"{a.bandages} given",
                f"{patient.name} потерял {checks.lost_hits(patient)} "
                f"хит(ов): нужно повязок — {need}, наложено — {a.bandages}",
                "A-W-08",
                "W-TRT-02",
            )
        stabilise(ctx, patient.id, healer.id, a.bandages, own)

    class Support(BaseModel):
        supporter: str = Field(description="who holds the wounded one up")
        patient: str = Field(description="the heavy-wounded character")

    @rs.action(
        "support",
        Support,
        summary=(
            "Support a heavy-wounded character while walking",
            "Поддерживать тяжелораненого при ходьбе",
        ),
        rule_ids=("W-WND-10", "W-WND-11"),
    )
    def support(ctx: ActionContext, a: Support) -> None:
        sup, pat = ctx.character(a.supporter), ctx.character(a.patient)
        checks.require_alive(pat)
        checks.require_alive(sup)
        if wound_state(pat) != "heavy_unbandaged":
            refuse(
                f"{pat.name} is not an unbandaged heavy-wounded character",
                f"{pat.name} не тяжелораненый без перевязки",
                "W-WND-10",
            )
        if "support_wounded" not in checks.allowed(ctx, sup):
            refuse(
                f"{sup.name} is wounded too heavily to support anyone",
                f"{sup.name} слишком тяжело ранен, чтобы поддерживать других",
                "W-WND-14",
                "W-WND-09",
            )
        ctx.emit(
            "support.started", {"supporter": sup.id, "patient": pat.id}, ("W-WND-10", "W-WND-11")
        )

    class StopSupport(BaseModel):
        supporter: str = Field(description="who lets go")

    @rs.action(
        "stop-support",
        StopSupport,
        summary=("Stop supporting a wounded character", "Перестать поддерживать раненого"),
        rule_ids=("W-WND-11",),
    )
    def stop_support(ctx: ActionContext, a: StopSupport) -> None:
        sup = ctx.character(a.supporter)
        if not sup.has("supporting"):
            refuse(
                f"{sup.name} is not supporting anyone",
                f"{sup.name} никого не поддерживает",
                "W-WND-11",
            )
        ctx.emit("support.ended", {"supporter": sup.id}, ("W-WND-11",))

    class Kill(BaseModel):
        character: str = Field(description="who dies")
        cause: str = Field(
            "killed", max_length=200, description="why (finishing-off, execution...)"
        )

    @rs.action(
        "kill",
        Kill,
        roles=MASTERS,
        summary=("Record a character's death", "Записать смерть персонажа"),
        rule_ids=("W-DEF-01",),
    )
    def kill(ctx: ActionContext, a: Kill) -> None:
        ch = ctx.character(a.character)
        checks.require_alive(ch)
        die(ctx, ch.id, a.cause, ("W-DEF-01",))

    class InteractCorpse(BaseModel):
        actor: str = Field(description="who does it")
        corpse: str = Field(description="the dead character")
        interaction: str = Field(description="funeral_rite, search or carry")

    @rs.action(
        "interact-corpse",
        InteractCorpse,
        summary=(
            "Funeral rite, search or carry a dead body",
            "Отпеть, обыскать или перенести тело",
        ),
        rule_ids=("W-DEF-01",),
    )
    def interact_corpse(ctx: ActionContext, a: InteractCorpse) -> None:
        corpse, who = ctx.character(a.corpse), ctx.character(a.actor)
        checks.require_alive(who)
        if corpse.alive:
            refuse(f"{corpse.name} is alive", f"{corpse.name} жив", "W-DEF-01")
        if a.interaction not in params(ctx).corpse_interactions:
            allowed = ", ".join(params(ctx).corpse_interactions)
            refuse(
                f"{a.interaction!r} is not something done with a body; allowed: {allowed}",
                f"{a.interaction!r} нельзя сделать с телом; можно: {allowed}",
                "W-DEF-01",
            )
        ctx.emit(
            "corpse.interacted",
            {"actor": who.id, "corpse": corpse.id, "interaction": a.interaction},
            ("W-DEF-01",),
        )

    class CureByOtherMeans(BaseModel):
        patient: str = Field(description="who is cured")
        means: str = Field(description="spell, prayer, potion or supplies")
        note: str = Field("", max_length=500, description="what exactly (spell name...)")

    @rs.action(
        "cure-by-other-means",
        CureByOtherMeans,
        roles=MASTERS,
        summary=(
            "Cure wounds by a spell, prayer, potion or Supplies (master's ruling)",
            "Излечить ранения заклинанием, молитвой, зельем или припасами",
        ),
        rule_ids=("W-DEF-05", "W-WND-15"),
    )
    def cure_other(ctx: ActionContext, a: CureByOtherMeans) -> None:
        ch = ctx.character(a.patient)
        checks.require_wounded(ch)
        if a.means not in params(ctx).other_cure_means:
            means = ", ".join(params(ctx).other_cure_means)
            refuse(
                f"Unknown means {a.means!r}; use one of {means}",
                f"Неизвестное средство {a.means!r}; варианты: {means}",
                "W-DEF-05",
            )
        cure(ctx, ch.id, a.means, ("W-DEF-05", "W-WND-15", "A-W-33"))


def register_queries(rs: Ruleset) -> None:
    """Declare the read-only questions about wounds."""

    class NextChange(BaseModel):
        character: str = Field(description="whose countdowns")

    @rs.query(
        "next-change",
        NextChange,
        summary=(
            "What happens next to a character, and when",
            "Что и когда произойдёт с персонажем",
        ),
        rule_ids=("W-WND-08", "W-WND-12", "W-TRT-03", "W-TRT-13"),
    )
    def next_change(ctx: QueryContext, a: NextChange) -> dict[str, Any]:
        from lazaretto.rulesets.warhammer_larp.diseases import DISEASE_DEATH

        ch = ctx.character(a.character)
        # a disease's lethal countdown belongs to its penalties, hidden from healers
        # (W-DIS-03, W-DIS-05); masters and the sick character's player see it
        hidden = {DISEASE_DEATH} if ctx.role is Role.HEALER else set()
        upcoming: list[dict[str, Any]] = [
            {
                "what": ctx.ruleset.text(f"timer:{t.kind}", ctx.lang) or t.kind,
                "kind": t.kind,
                "at": t.deadline.isoformat(),
                "in_seconds": int((t.deadline - ctx.now).total_seconds()),
            }
            for t in ctx.state.timers_for(ch.id)
            if t.kind not in hidden
        ]
        if not upcoming:
            text = ctx.tr(f"{ch.name}: nothing is counting down", f"{ch.name}: отсчётов нет")
        else:
            first = upcoming[0]
            text = ctx.tr(
                f"{ch.name}: {first['what']} at {first['at'][11:19]}",
                f"{ch.name}: {first['what']} в {first['at'][11:19]}",
            )
        return {"summary": text, "upcoming": upcoming}


def _bandaged(ch: Character) -> bool:
    light = ch.condition("light_wound")
    return bool(light and light.data.get("bandaged"))


def _become_heavy(ctx: ActionContext, char_id: str, source: str, rule_ids: tuple[str, ...]) -> None:
    ctx.cancel_all(char_id, WORSENS, BANDAGE_EXPIRES)
    ch = ctx.character(char_id)
    if ch.has("treatment"):
        _interrupt(ctx, char_id, "heavy_wound")
    t = ctx.schedule(
        DEATH,
        timedelta(minutes=params(ctx).heavy_death_unbandaged_minutes),
        char_id,
        rule_ids=("W-WND-12", "A-W-10"),
    )
    ctx.emit(
        "wound.became_heavy",
        {"character": char_id, "deadline": t.deadline.isoformat(), "source": source},
        rule_ids,
    )


def stabilise(ctx: ActionContext, patient: str, healer: str, bandages: int, own: bool) -> None:
    """Bandage ``patient``: the running countdown stops (A-W-06)."""
    ctx.cancel_all(patient, WORSENS, DEATH, BANDAGE_EXPIRES, rule_ids=("A-W-06",))
    ctx.emit(
        "wound.bandaged",
        {"character": patient, "healer": healer, "bandages": bandages, "self": own},
        ("W-WND-02", "W-WND-13", "A-W-06"),
    )
    minutes = params(ctx).bandage_duration_minutes
    if minutes is not None:
        ctx.schedule(BANDAGE_EXPIRES, timedelta(minutes=minutes), patient, rule_ids=("A-W-06",))


def die(ctx: ActionContext, char_id: str, cause: str, rule_ids: tuple[str, ...]) -> None:
    """``char_id`` dies: every countdown about them stops; the journal says so (W-HOSP-07)."""
    ctx.cancel_all(char_id)
    ctx.emit("character.died", {"character": char_id, "cause": cause}, rule_ids)
    record_outcome(ctx, char_id, "died", rule_ids)


def cure(ctx: ActionContext, char_id: str, how: str, rule_ids: tuple[str, ...]) -> None:
    """``char_id`` is cured (излечение): all hits back, wound penalties gone (W-DEF-15).

    Only the wound countdowns stop: a lethal disease keeps counting (W-DIS-09)."""
    ctx.cancel_all(char_id, WORSENS, DEATH, BANDAGE_EXPIRES, TREATMENT_DONE)
    ctx.emit("character.cured", {"character": char_id, "how": how}, ("W-DEF-15", *rule_ids))
    record_outcome(ctx, char_id, "recovered", rule_ids)


def _interrupt(ctx: ActionContext, char_id: str, reason: str) -> None:
    ctx.cancel_all(char_id, TREATMENT_DONE)
    ctx.emit("treatment.interrupted", {"character": char_id, "reason": reason}, ("W-TRT-03",))


def become_heavy(ctx: ActionContext, char_id: str, source: str, rule_ids: tuple[str, ...]) -> None:
    """``char_id`` enters heavy wound now (its 15-minute countdown starts: A-W-10)."""
    _become_heavy(ctx, char_id, source, rule_ids)
