"""Evidence search (Поиск улик): checklist-002 §2.10.

A GM leaves traces at a scene. A search is one PER or INT roll compared with every
trace not yet found (S-CRIME-15). Visible traces need no tools (S-CRIME-17). Invisible
ones need the ability to find them (S-CRIME-20) and equipment or magic (S-CRIME-18);
without equipment only a critical success finds them, with no reroll, and a failure
locks that investigator out of those traces for good (S-CRIME-21/22, A-S-16).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.checks import judge, roll_check
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    fstate,
    params,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.state import Scene, Trace


def _scene(ctx: ActionContext, scene_id: str) -> Scene:
    scene = fstate(ctx).scenes.get(scene_id)
    if scene is None:
        raise NotFound(f"No scene {scene_id!r}", ru=f"Нет места {scene_id!r}")
    return scene


def _trace(ctx: ActionContext, scene_id: str, trace_id: str) -> Trace:
    trace = _scene(ctx, scene_id).traces.get(trace_id)
    if trace is None:
        raise NotFound(
            f"No trace {trace_id!r} at {scene_id}", ru=f"Нет следа {trace_id!r} в {scene_id}"
        )
    return trace


def register(rs: Ruleset) -> None:
    """Declare the evidence actions."""

    class LeaveTrace(BaseModel):
        scene: str = Field(min_length=1, max_length=120, description="the place")
        trace: str = Field(min_length=1, max_length=40, description="trace id")
        visibility: Literal["visible", "invisible"] = Field(description="visible or invisible")
        threshold: int | None = Field(None, ge=1, le=100, description="the search threshold")
        description: str = Field("", max_length=300, description="what it is")
        info_on_discovery: str = Field("", max_length=500, description="learnt on finding it")
        info_after_study: str = Field("", max_length=500, description="learnt after study")
        needs_lab: bool = Field(False, description="must be studied in a laboratory")

    @rs.action(
        "leave-trace",
        LeaveTrace,
        roles=MASTERS,
        summary=("A GM places a trace at a scene", "GM оставляет след на месте"),
        rule_ids=("S-CRIME-16", "S-CRIME-17", "S-CRIME-18", "S-CRIME-19"),
    )
    def leave_trace(ctx: ActionContext, a: LeaveTrace) -> None:
        p = params(ctx)
        if a.visibility == "invisible":
            if a.threshold is None or a.threshold < p.invisible_trace_threshold_min:
                refuse(
                    f"An invisible trace's threshold is set by the GM and must be above 18 "
                    f"(at least {p.invisible_trace_threshold_min}), not {a.threshold}",
                    f"Порог невидимого следа задаёт GM, и он должен быть выше 18 "
                    f"(не меньше {p.invisible_trace_threshold_min}), а не {a.threshold}",
                    "S-CRIME-19",
                    "A-S-16",
                )
            threshold = a.threshold
        else:
            threshold = a.threshold or p.threshold(p.visible_trace_threshold)
        trace = Trace(
            id=a.trace,
            visibility=a.visibility,
            threshold=threshold,
            description=a.description,
            info_on_discovery=a.info_on_discovery,
            info_after_study=a.info_after_study,
            needs_lab=a.needs_lab,
        )
        ctx.emit(
            "trace.left",
            {"scene": a.scene, "trace": trace.model_dump(mode="json")},
            ("S-CRIME-16", "S-CRIME-17" if a.visibility == "visible" else "S-CRIME-19"),
        )

    class SearchEvidence(BaseModel):
        actor: str = Field(description="who searches")
        scene: str = Field(description="the place")
        stat: Literal["PER", "INT"] = Field("PER", description="PER or INT")
        equipment: bool = Field(False, description="with equipment or magic for invisible traces")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")
        reroll: bool = Field(False, description="a repeated attempt (reroll rule)")

    @rs.action(
        "search-evidence",
        SearchEvidence,
        summary=("Search a place for traces", "Искать улики"),
        rule_ids=(
            "S-CRIME-15",
            "S-CRIME-17",
            "S-CRIME-18",
            "S-CRIME-20",
            "S-CRIME-21",
            "S-CRIME-22",
        ),
    )
    def search_evidence(ctx: ActionContext, a: SearchEvidence) -> None:
        p = params(ctx)
        who = ctx.character(a.actor)
        require_alive(who)
        scene = _scene(ctx, a.scene)
        able = who.has_skill(p.trace_finding_skill)
        open_traces = [t for t in scene.traces.values() if who.id not in t.found_by]
        bare_hands = [  # S-CRIME-21: one chance, no reroll, for invisible traces
            t for t in scene.traces.values()
            if t.visibility == "invisible" and able and not a.equipment
        ]  # fmt: skip
        check = roll_check(
            ctx, who.id, a.stat, "evidence", natural=a.roll, reroll=a.reroll,
            no_reroll_rule="S-CRIME-21" if bare_hands else None, rule_ids=("S-CRIME-15",),
        )  # fmt: skip
        found: list[dict[str, Any]] = []
        changes: dict[str, dict[str, Any]] = {}
        missed: list[str] = []
        rules = {"S-CRIME-15"}
        for t in open_traces:
            if t.visibility == "visible":
                ok = judge(check.natural, check.total, t.threshold, p, reroll=a.reroll)[1]
                rules.add("S-CRIME-17")
            elif not able:
                ok = False
                rules.add("S-CRIME-20")
            elif who.id in t.locked_out:
                ok = False
                rules.add("S-CRIME-22")
            elif a.equipment:
                ok = judge(check.natural, check.total, t.threshold, p, reroll=a.reroll)[1]
                rules |= {"S-CRIME-18", "S-CRIME-19"}
            else:
                ok = check.crit == "success"  # S-CRIME-21: only a critical success
                rules.add("S-CRIME-21")
                if not ok:
                    changes[t.id] = {"locked_out": [*t.locked_out, who.id]}  # S-CRIME-22
                    rules.add("S-CRIME-22")
            if ok:
                changes[t.id] = {"found_by": [*t.found_by, who.id]}
                found.append(
                    {"trace": t.id, "description": t.description, "info": t.info_on_discovery}
                )
                if t.info_on_discovery:
                    rules.add("S-CRIME-24")
            else:
                missed.append(t.id)
        ctx.emit(
            "evidence.searched",
            {
                "actor": who.id,
                "scene": scene.id,
                "found": found,
                "found_ids": ", ".join(f["trace"] for f in found) or "-",
                "roll": check.short(),
                "traces_set": changes,
            },
            tuple(sorted(rules)),
        )

    class CollectTrace(BaseModel):
        actor: str = Field(description="who collects it")
        scene: str = Field(description="the place")
        trace: str = Field(description="the trace")
        tools: bool = Field(False, description="has suitable (possibly magical) tools")

    @rs.action(
        "collect-trace",
        CollectTrace,
        summary=("Collect a found trace", "Изъять найденный след"),
        rule_ids=("S-CRIME-23",),
    )
    def collect_trace(ctx: ActionContext, a: CollectTrace) -> None:
        who = ctx.character(a.actor)
        trace = _trace(ctx, a.scene, a.trace)
        if who.id not in trace.found_by:
            refuse(
                f"{who.name} has not found {trace.id}",
                f"{who.name} не нашёл {trace.id}",
                "S-CRIME-15",
            )
        if not a.tools:
            refuse(
                "Collecting traces needs suitable tools (they may be magical)",
                "Чтобы изъять следы, нужны соответствующие инструменты (можно магические)",
                "S-CRIME-23",
            )
        ctx.emit(
            "trace.collected",
            {"actor": who.id, "scene": a.scene, "trace": trace.id,
             "traces_set": {trace.id: {"collected_by": who.id}}},
            ("S-CRIME-23",),
        )  # fmt: skip

    class StudyTrace(BaseModel):
        actor: str = Field(description="who studies it")
        scene: str = Field(description="the place it came from")
        trace: str = Field(description="the trace")
        laboratory: bool = Field(
            False, description="in a laboratory / with special equipment (or magic, divine help)"
        )

    @rs.action(
        "study-trace",
        StudyTrace,
        summary=("Study a collected trace", "Изучить изъятый след"),
        rule_ids=("S-CRIME-24",),
    )
    def study_trace(ctx: ActionContext, a: StudyTrace) -> None:
        who = ctx.character(a.actor)
        trace = _trace(ctx, a.scene, a.trace)
        if trace.collected_by is None:
            refuse(f"{trace.id} has not been collected", f"{trace.id} не изъят", "S-CRIME-23")
        if trace.needs_lab and not a.laboratory:
            refuse(
                f"{trace.id} cannot be studied on site: it needs a laboratory or special equipment",
                f"{trace.id} нельзя изучить на месте: нужна лаборатория или спецоборудование",
                "S-CRIME-24",
            )
        ctx.emit(
            "trace.studied",
            {"actor": who.id, "scene": a.scene, "trace": trace.id, "info": trace.info_after_study,
             "traces_set": {trace.id: {"studied": True}}},
            ("S-CRIME-24",),
        )  # fmt: skip
