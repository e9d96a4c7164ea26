"""Read-only questions: the stay in the Hospital, countdowns, memory, what is allowed."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import QueryContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params
from lazaretto.rulesets.zone_larp.describe import label
from lazaretto.rulesets.zone_larp.params import Activity
from lazaretto.rulesets.zone_larp.rehab import estimate_for
from lazaretto.rulesets.zone_larp.state import HEAVY, HOSPITAL, TRAUMA, conditions
from lazaretto.rulesets.zone_larp.texts import ACTIVITIES


def register(rs: Ruleset) -> None:
    """Declare the zone-larp queries."""

    class RehabTime(BaseModel):
        character: str = Field(description="whose stay")
        worsening: bool = Field(False, description="count health getting worse as infection")

    @rs.query(
        "rehab-time",
        RehabTime,
        summary=(
            "How long a character would stay in the Hospital (мертвяк)",
            "Сколько персонаж пробудет в Госпитале (мертвяке)",
        ),
        rule_ids=("Z-REHAB-12", "Z-REHAB-13", "Z-ZONE-01", "Z-INF-05", "Z-IMPL-01"),
    )
    def rehab_time(ctx: QueryContext, a: RehabTime) -> dict[str, Any]:
        ch = ctx.character(a.character)
        p = params(ctx)
        est = estimate_for(ch, p, a.worsening)
        stay = ch.condition(HOSPITAL)
        release = None
        if stay is not None and stay.data.get("release_at"):
            release = stay.data["release_at"]
        elif stay is not None:
            release = (stay.started + timedelta(minutes=est.minutes)).isoformat()
        out = est.to_dict()
        out["release_at"] = release
        mode = ctx.ruleset.text(f"mode:{p.rehab_mode}", ctx.lang) or p.rehab_mode
        out["summary"] = ctx.tr(
            f"{ch.name}: {est.minutes} min in the Hospital ({mode})",
            f"{ch.name}: {est.minutes} мин в Госпитале ({mode})",
        )
        return out

    class About(BaseModel):
        character: str = Field(description="whose")

    @rs.query(
        "countdowns",
        About,
        summary=("What happens next to a character, and when", "Что и когда будет с персонажем"),
        rule_ids=("Z-HW-14", "Z-LW-10", "Z-STATE-10"),
    )
    def countdowns(ctx: QueryContext, a: About) -> dict[str, Any]:
        ch = ctx.character(a.character)
        upcoming: list[dict[str, Any]] = [
            {
                "what": ctx.ruleset.text(f"timer:{t.kind}", ctx.lang) or t.kind,
                "kind": t.kind,
                "at": t.deadline.isoformat(),
                "in_seconds": int((t.deadline - ctx.now).total_seconds()),
            }
            for t in ctx.state.timers_for(ch.id)
        ]
        if upcoming:
            first = upcoming[0]
            text = ctx.tr(
                f"{ch.name}: {first['what']} at {first['at'][11:19]}",
                f"{ch.name}: {first['what']} в {first['at'][11:19]}",
            )
        else:
            text = ctx.tr(f"{ch.name}: nothing is counting down", f"{ch.name}: отсчётов нет")
        return {"summary": text, "upcoming": upcoming}

    class Memory(BaseModel):
        character: str = Field(description="whose memory")
        at: datetime | None = Field(None, description="a moment to ask about (ISO time)")

    @rs.query(
        "memory",
        Memory,
        summary=(
            "What a character may not remember or use (amnesia)",
            "Что персонаж не помнит и не может использовать (амнезия)",
        ),
        rule_ids=("Z-HW-13", "Z-STATE-12", "Z-REHAB-08", "A-Z-10"),
    )
    def memory(ctx: QueryContext, a: Memory) -> dict[str, Any]:
        ch = ctx.character(a.character)
        gaps = list(ch.data.get("memory_gaps", []))
        out: dict[str, Any] = {"gaps": gaps}
        if a.at is not None:
            when = a.at.isoformat()
            hit = [g for g in gaps if g["from"] <= when < g["to"]]
            out["remembers"] = not hit
            out["summary"] = ctx.tr(
                f"{ch.name} {'does not remember' if hit else 'remembers'} {when[11:19]}",
                f"{ch.name} {'не помнит' if hit else 'помнит'} {when[11:19]}",
            )
        else:
            out["summary"] = ctx.tr(
                f"{ch.name}: {len(gaps)} forgotten span(s)",
                f"{ch.name}: забытых промежутков — {len(gaps)}",
            )
        return out

    class MayDo(BaseModel):
        character: str = Field(description="who")
        activity: Activity = Field(description="run, walk, melee, shoot, radio, speak, ...")

    @rs.query(
        "may-do",
        MayDo,
        summary=("May a character do this now?", "Может ли персонаж сейчас это сделать?"),
        rule_ids=("Z-STATE-07", "Z-LW-07", "Z-LW-08", "Z-HW-10", "Z-REHAB-09"),
    )
    def may_do(ctx: QueryContext, a: MayDo) -> dict[str, Any]:
        ch = ctx.character(a.character)
        p = params(ctx)
        why = checks.why_not(ch, p, a.activity)
        st = checks.wound_state(ch, p)
        names = p.state_labels.get(st)
        state = (names.ru if ctx.lang == "ru" else names.en) if names else st
        activity = label(ACTIVITIES, a.activity, ctx.lang)
        return {
            "allowed": not why,
            "state": st,
            "summary": ctx.tr(
                f"{ch.name} {'may' if not why else 'may not'} {activity} ({state})",
                f"{ch.name} {'может' if not why else 'не может'}: {activity} ({state})",
            ),
            "rule_ids": list(why) or ["Z-STATE-01"],
        }

    class Options(BaseModel):
        patient: str = Field(description="the patient")

    @rs.query(
        "operation-options",
        Options,
        summary=(
            "Which operations a healer offers the patient",
            "Какие операции лекарь предлагает пациенту",
        ),
        rule_ids=("Z-TRT-07", "Z-TRT-08", "A-Z-15"),
    )
    def options(ctx: QueryContext, a: Options) -> dict[str, Any]:
        ch = ctx.character(a.patient)
        p = params(ctx)
        offered: list[str] = []
        if ch.has(HEAVY) and p.wound_model != "light_heavy_only":
            offered = ["ordinary"]
            if len(conditions(ch, TRAUMA)) < p.max_traumas:
                offered.append("radical")
        shown = ", ".join(ctx.ruleset.text(f"measure:{m}", ctx.lang) or m for m in offered)
        return {
            "offered": offered,
            "summary": ctx.tr(
                f"{ch.name}: {shown or 'no operation'}",
                f"{ch.name}: {shown or 'операция не нужна'}",
            ),
        }

    class Board(BaseModel):
        pass

    @rs.query(
        "hospital-board",
        Board,
        summary=("Who is in the Hospital (мертвяк), until when", "Кто в Госпитале и до когда"),
        rule_ids=("Z-REHAB-04", "Z-HOSP-05"),
    )
    def board(ctx: QueryContext, a: Board) -> dict[str, Any]:
        rows = []
        for ch in ctx.state.characters.values():
            stay = ch.condition(HOSPITAL)
            if stay is None:
                continue
            rows.append(
                {
                    "character": ch.id,
                    "name": ch.name,
                    "arrived": stay.data.get("arrived"),
                    "examined": stay.data.get("examined", False),
                    "minutes": stay.data.get("minutes"),
                    "release_at": stay.data.get("release_at"),
                    "done": stay.data.get("done", False),
                    "decision": stay.data.get("decision"),
                }
            )
        rows.sort(key=lambda r: str(r["arrived"]))
        return {
            "patients": rows,
            "summary": ctx.tr(f"{len(rows)} in the Hospital", f"В Госпитале: {len(rows)}"),
        }
