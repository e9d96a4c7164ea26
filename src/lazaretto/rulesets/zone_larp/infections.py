"""Infections (инфекции) and implants (импланты): Z-INF, Z-IMPL, A-Z-12, A-Z-27, A-Z-28.

An infection is caught from a contaminated object and shown on the character sheet
(Z-INF-03/04); once identified it doubles the stay in the Hospital (Z-INF-05, see
rehab.py) and curing it costs medical resources (Z-INF-06). Implants shorten the stay
(Z-IMPL-01..04); a damaged one is repaired by its manufacturer (Z-IMPL-05).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import Conflict, InvalidInput, NotFound
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.rulesets.zone_larp import checks
from lazaretto.rulesets.zone_larp.checks import params, refuse
from lazaretto.rulesets.zone_larp.hospital import reschedule
from lazaretto.rulesets.zone_larp.params import ImplantSpec, StaffRole, Zone
from lazaretto.rulesets.zone_larp.state import INFECTION, conditions

MASTERS = frozenset({Role.MASTER})
STAFF = frozenset({Role.MASTER, Role.HEALER})


def register(rs: Ruleset) -> None:
    """Declare the infection and implant actions."""

    class ExposeInfection(BaseModel):
        character: str = Field(description="who touched a contaminated object")
        infection: str = Field(min_length=1, max_length=40, description="the infection's code")
        source: str = Field(
            min_length=1, max_length=120, description="the contaminated object touched"
        )

    @rs.action(
        "expose-infection",
        ExposeInfection,
        roles=MASTERS,
        summary=(
            "A character catches an infection from a contaminated object",
            "Заражение от контакта с заражённым предметом",
        ),
        rule_ids=("Z-INF-01", "Z-INF-03", "Z-INF-04", "A-Z-27"),
    )
    def expose(ctx: ActionContext, a: ExposeInfection) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        if any(c.data["code"] == a.infection for c in conditions(ch, INFECTION)):
            raise Conflict(
                f"{ch.name} already has {a.infection}", ru=f"У {ch.name} уже есть {a.infection}"
            )
        ctx.emit(
            "infection.exposed",
            {"character": ch.id, "infection": a.infection, "source": a.source},
            ("Z-INF-01", "Z-INF-03", "Z-INF-04", "A-Z-27"),
        )

    class IdentifyInfection(BaseModel):
        patient: str = Field(description="the infected character")
        staff: StaffRole = Field("chief_doctor", description="who identifies it")

    @rs.action(
        "identify-infection",
        IdentifyInfection,
        roles=STAFF,
        summary=(
            "Identify a patient's infections (the stay doubles)",
            "Идентифицировать инфекции пациента (срок удваивается)",
        ),
        rule_ids=("Z-INF-02", "Z-INF-05", "A-Z-27"),
    )
    def identify(ctx: ActionContext, a: IdentifyInfection) -> None:
        ch = ctx.character(a.patient)
        checks.require_staff(params(ctx), a.staff, "chief_doctor", "medic")
        unknown = [c.data["code"] for c in conditions(ch, INFECTION) if not c.data["identified"]]
        if not unknown:
            refuse(
                f"{ch.name} has no unidentified infection",
                f"У {ch.name} нет неидентифицированной инфекции",
                "Z-INF-02",
            )
        ctx.emit(
            "infection.identified",
            {"character": ch.id, "infections": unknown},
            ("Z-INF-02", "A-Z-27"),
        )
        reschedule(ctx, ch.id)

    class CureInfection(BaseModel):
        patient: str = Field(description="the infected character")
        infection: str = Field(min_length=1, max_length=40, description="the infection's code")
        resources: int = Field(ge=0, le=1000, description="medical resources spent")

    @rs.action(
        "cure-infection",
        CureInfection,
        roles=STAFF,
        summary=(
            "Cure an identified infection with medical resources",
            "Вылечить идентифицированную инфекцию медицинскими ресурсами",
        ),
        rule_ids=("Z-INF-02", "Z-INF-06", "A-Z-27"),
    )
    def cure(ctx: ActionContext, a: CureInfection) -> None:
        ch = ctx.character(a.patient)
        cost = params(ctx).infection_resource_cost
        found = [c for c in conditions(ch, INFECTION) if c.data["code"] == a.infection]
        if not found:
            raise NotFound(
                f"{ch.name} has no infection {a.infection!r}",
                ru=f"У {ch.name} нет инфекции {a.infection!r}",
            )
        if not found[0].data["identified"]:
            refuse(
                f"{a.infection} has not been identified; it cannot be treated yet",
                f"{a.infection} не идентифицирована; лечить её пока нельзя",
                "Z-INF-02",
                tip="Identify it first (`identify-infection`).",
                tip_ru="Сначала идентифицируйте (`identify-infection`).",
            )
        if a.resources < cost:
            refuse(
                f"Curing {a.infection} takes {cost} medical resource(s); {a.resources} given",
                f"Лечение {a.infection} требует медицинских ресурсов: {cost}; дано {a.resources}",
                "Z-INF-06",
                "A-Z-27",
            )
        ctx.emit(
            "infection.cured",
            {"character": ch.id, "infection": a.infection, "resources": a.resources},
            ("Z-INF-06",),
        )

    class InstallImplant(BaseModel):
        character: str = Field(description="who has the implant")
        name: str = Field(min_length=1, max_length=60, description="a catalogue name or a new one")
        zone: Zone | Literal["all"] | None = Field(None, description="the zone it serves")
        mechanism: Literal["containment", "regeneration"] | None = Field(
            None, description="containment (a zone counts milder) or regeneration"
        )
        minutes: int | None = Field(None, ge=0, le=600, description="minutes off its zone")
        factor: float | None = Field(None, ge=0, le=1, description="its zone's minutes x factor")

    @rs.action(
        "install-implant",
        InstallImplant,
        roles=MASTERS,
        summary=(
            "Record an implant that shortens the Hospital stay",
            "Записать имплант, сокращающий пребывание в Госпитале",
        ),
        rule_ids=("Z-IMPL-01", "Z-IMPL-02", "Z-IMPL-03", "A-Z-28"),
    )
    def install(ctx: ActionContext, a: InstallImplant) -> None:
        ch = ctx.character(a.character)
        checks.require_in_game(ch)
        if any(i["name"] == a.name for i in ch.data.get("implants", [])):
            raise Conflict(f"{ch.name} already has {a.name}", ru=f"У {ch.name} уже есть {a.name}")
        spec = params(ctx).implant_effects.get(a.name)
        if spec is None:
            if a.zone is None or a.mechanism is None:
                raise InvalidInput(
                    f"{a.name!r} is not in the implant catalogue: give --zone and --mechanism",
                    ru=f"{a.name!r} нет в каталоге имплантов: укажите --zone и --mechanism",
                )
            spec = ImplantSpec(
                zone=a.zone,
                mechanism=a.mechanism,
                minutes=a.minutes or 0,
                factor=1.0 if a.factor is None else a.factor,
            )
        ctx.emit(
            "implant.installed",
            {
                "character": ch.id,
                "name": a.name,
                "implant": {"name": a.name, "spec": spec.model_dump(), "damaged": False},
            },
            ("Z-IMPL-01", "Z-IMPL-02", "Z-IMPL-03", "A-Z-28"),
        )

    class DamageImplant(BaseModel):
        character: str = Field(description="whose implant")
        name: str = Field(min_length=1, max_length=60, description="the implant")

    @rs.action(
        "damage-implant",
        DamageImplant,
        roles=MASTERS,
        summary=("An implant is damaged (it stops working)", "Имплант повреждён (не работает)"),
        rule_ids=("Z-IMPL-05",),
    )
    def damage(ctx: ActionContext, a: DamageImplant) -> None:
        _implant(ctx, a.character, a.name)
        ctx.emit("implant.damaged", {"character": a.character, "name": a.name}, ("Z-IMPL-05",))

    class RepairImplant(BaseModel):
        character: str = Field(description="whose implant")
        name: str = Field(min_length=1, max_length=60, description="the implant")
        manufacturer: str = Field(min_length=1, max_length=80, description="who repaired it")

    @rs.action(
        "repair-implant",
        RepairImplant,
        roles=MASTERS,
        summary=(
            "The manufacturer repairs a damaged implant",
            "Производитель ремонтирует повреждённый имплант",
        ),
        rule_ids=("Z-IMPL-05",),
    )
    def repair(ctx: ActionContext, a: RepairImplant) -> None:
        implant = _implant(ctx, a.character, a.name)
        if not implant.get("damaged"):
            raise Conflict(f"{a.name} is not damaged", ru=f"{a.name} не повреждён")
        ctx.emit(
            "implant.repaired",
            {"character": a.character, "name": a.name, "manufacturer": a.manufacturer},
            ("Z-IMPL-05",),
        )


def _implant(ctx: ActionContext, char_id: str, name: str) -> dict[str, object]:
    ch = ctx.character(char_id)
    for imp in ch.data.get("implants", []):
        if imp["name"] == name:
            return dict(imp)
    raise NotFound(f"{ch.name} has no implant {name!r}", ru=f"У {ch.name} нет импланта {name!r}")
