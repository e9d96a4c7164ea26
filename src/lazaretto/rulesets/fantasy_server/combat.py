"""Combat encounters (боевое столкновение): who fights, who takes the initiative by the
rules (caught red-handed, fallen, ambush, a spotted sneaker), and escaping a fight.
Breakage counters and the combat slots depend on them (A-S-11, S-ART-12).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    fstate,
    params,
    refuse,
    remove_condition,
)
from lazaretto.rulesets.fantasy_server.state import Encounter


def register(rs: Ruleset) -> None:
    """Declare the combat encounter actions."""

    class StartCombat(BaseModel):
        encounter: str = Field(min_length=1, max_length=40, description="encounter id")
        participants: list[str] = Field(min_length=1, description="who fights")

    @rs.action(
        "start-combat",
        StartCombat,
        roles=MASTERS,
        summary=(
            "Start a combat encounter (who gets the initiative automatically)",
            "Начать бой (кто автоматически получает инициативу)",
        ),
        rule_ids=("S-CRIME-05", "S-CRIME-06", "S-STEALTH-06", "S-STEALTH-07", "S-ART-12"),
    )
    def start_combat(ctx: ActionContext, a: StartCombat) -> None:
        st = fstate(ctx)
        if a.encounter in st.encounters:
            refuse(f"Encounter {a.encounter!r} exists", f"Бой {a.encounter!r} уже есть", "A-S-11")
        for cid in a.participants:
            ctx.character(cid)
            if st.combat_of(cid) is not None:
                refuse(
                    f"{cid} is already in a fight",
                    f"{cid} уже в бою",
                    "A-S-11",
                    tip="End it with `end-combat`.",
                    tip_ru="Завершите его: `end-combat`.",
                )
        initiative, double, rules = _automatic_initiative(ctx, a.participants)
        enc = Encounter(id=a.encounter, participants=list(a.participants), started=ctx.now)
        ctx.emit(
            "combat.started",
            {
                "encounter": a.encounter,
                "participants": ", ".join(a.participants),
                "initiative": ", ".join(initiative) or "-",
                "double_damage": double,
                "encounter_record": enc.model_dump(mode="json"),
            },
            tuple(rules) or ("S-ART-12",),
        )

    class EndCombat(BaseModel):
        encounter: str = Field(description="encounter id")

    @rs.action(
        "end-combat",
        EndCombat,
        roles=MASTERS,
        summary=("End a combat encounter", "Завершить бой"),
        rule_ids=("S-ART-12", "A-S-11"),
    )
    def end_combat(ctx: ActionContext, a: EndCombat) -> None:
        enc = fstate(ctx).encounters.get(a.encounter)
        if enc is None or not enc.active:
            refuse(
                f"No active encounter {a.encounter!r}", f"Нет идущего боя {a.encounter!r}", "A-S-11"
            )
        ctx.emit("combat.ended", {"encounter": enc.id}, ("S-ART-12", "A-S-11"))

    class FleeCombat(BaseModel):
        character: str = Field(description="who escapes the fight")

    @rs.action(
        "flee-combat",
        FleeCombat,
        summary=("Escape from a fight", "Сбежать из боя"),
        rule_ids=("S-STEALTH-10",),
    )
    def flee_combat(ctx: ActionContext, a: FleeCombat) -> None:
        ch = ctx.character(a.character)
        enc = fstate(ctx).combat_of(ch.id)
        if enc is None:
            refuse(f"{ch.name} is not in a fight", f"{ch.name} не в бою", "S-STEALTH-10")
        ctx.emit("combat.fled", {"character": ch.id, "encounter": enc.id}, ("S-STEALTH-10",))


def _automatic_initiative(
    ctx: ActionContext, participants: list[str]
) -> tuple[list[str], list[str], list[str]]:
    """Who takes the initiative by the rules, who deals double damage, and the rules."""
    p = params(ctx)
    initiative: list[str] = []
    double: list[str] = []
    rules: list[str] = []
    for cid in participants:
        ch = ctx.character(cid)
        if ch.has("hidden"):  # S-STEALTH-08: a fight ends stealth
            remove_condition(ctx, cid, "hidden", ("S-STEALTH-08",))
        for c in list(ch.conditions):
            other = c.data.get("against") or c.data.get("target") or c.data.get("sneaker")
            if other not in participants:
                continue
            if c.kind == "caught_red_handed":  # S-CRIME-05: the victim gets the initiative
                initiative.append(other)
                rules.append("S-CRIME-05")
                if p.caught_red_handed_duration == "next_fight":
                    remove_condition(ctx, cid, c.kind, ("S-CRIME-05", "A-S-13"))
            elif c.kind == "fallen_down":  # S-CRIME-06: initiative and double damage
                initiative.append(other)
                double.append(other)
                rules.append("S-CRIME-06")
                remove_condition(ctx, cid, c.kind, ("S-CRIME-06",))
            elif c.kind == "ambush_ready":  # S-STEALTH-06
                initiative.append(cid)
                rules.append("S-STEALTH-06")
            elif c.kind == "spotted_sneaker":  # S-STEALTH-07
                initiative.append(cid)
                rules.append("S-STEALTH-07")
                remove_condition(ctx, cid, c.kind, ("S-STEALTH-07",))
    return list(dict.fromkeys(initiative)), double, rules
