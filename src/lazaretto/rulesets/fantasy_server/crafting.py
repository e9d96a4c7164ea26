"""Creating items and artifacts (Артефакты; Идеально созданный предмет): checklist-002
§2.1 and the per-artifact stat bonus of §2.3.

A GM registers existing items; a character crafts them with a check. Technological
and magical properties need the right craftsman (S-ART-02); an artifact crafted by a
character waits for a GM's approval (S-ART-04); a critical success may make a weapon,
armour or tool perfect, with characteristics the curating GM sets, and locks the
crafter out of artifact creation for a week (S-ART-07..09). One artifact gives at most
+2 to stats, +3 on a GM-approved critical success (S-STAT-01/02, A-S-05).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field, field_validator

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.fantasy_server import breakage
from lazaretto.rulesets.fantasy_server.checks import make_check, record_check
from lazaretto.rulesets.fantasy_server.common import (
    MASTERS,
    add_condition,
    fstate,
    get_item,
    params,
    parse_pairs,
    refuse,
    require_alive,
)
from lazaretto.rulesets.fantasy_server.items_input import ItemSpec
from lazaretto.rulesets.fantasy_server.params import FantasyParams, Stat, Threshold
from lazaretto.rulesets.fantasy_server.state import FantasyState, Item, Property

PERFECT_KINDS = ("weapon", "armor", "tool")  # S-ART-07


def shown_nature(item: Item) -> str:
    """What a log line calls the item: its origin, or ``artifact`` for an artifact of no
    magical or technological origin (a +3 ring is not "mundane", S-ART-01)."""
    return "artifact" if item.is_artifact and item.nature == "mundane" else item.nature


def check_stat_bonus(p: FantasyParams, bonus: dict[str, int], crit: bool, who: str) -> None:
    """One artifact's total stat bonus: +2, or +3 on a critical success (S-STAT-01/02)."""
    total = sum(bonus.values())
    if any(v < 0 for v in bonus.values()):
        refuse(
            f"{who}: an artifact's stat bonus cannot be negative",
            f"{who}: бонус артефакта к характеристикам не может быть отрицательным",
            "S-STAT-01",
        )
    if total > p.artifact_stat_bonus_max_crit:
        refuse(
            f"{who}: a total stat bonus of +{total} is more than any artifact may give "
            f"(+{p.artifact_stat_bonus_max_crit})",
            f"{who}: общий бонус +{total} больше, чем может дать артефакт "
            f"(+{p.artifact_stat_bonus_max_crit})",
            "S-STAT-01",
            "A-S-05",
        )
    if total > p.artifact_stat_bonus_max and not crit:
        refuse(
            f"{who}: a total stat bonus of +{total} needs a critical success at creation "
            f"(otherwise at most +{p.artifact_stat_bonus_max})",
            f"{who}: общий бонус +{total} возможен только при крит. успехе создания "
            f"(иначе не больше +{p.artifact_stat_bonus_max})",
            "S-STAT-01",
            "A-S-05",
            tip="Lower the bonus, or keep +3 for an item created with a critical success.",
            tip_ru="Уменьшите бонус; +3 — только для предмета, созданного с крит. успехом.",
        )


def new_item(spec: ItemSpec, owner: str | None, **extra: Any) -> Item:
    """An item record from its description."""
    return Item(
        id=spec.item,
        name=spec.name,
        kind=spec.kind,
        owner=owner,
        properties=spec.properties(),
        stat_bonus=spec.stats(),
        param_bonus=spec.params(),
        activation=spec.activation,
        mechanic=spec.mechanic,
        slot_size=spec.slot_size,
        slot_roles=spec.slot_roles or ("rp" if spec.kind == "tool" else "combat"),
        armor_weight=spec.armor_weight,
        silent=spec.silent,
        one_handed=spec.one_handed,
        defense_bonus=spec.defense_bonus,
        armor_value=spec.armor_value,
        resources=spec.resource_list(),
        repair_skill=spec.repair_skill,
        event_item=spec.event_item,
        **extra,
    )


def _require_new(st: FantasyState, item_id: str) -> None:
    if item_id in st.items:
        refuse(
            f"There is already an item {item_id!r}",
            f"Предмет {item_id!r} уже есть",
            "S-ART-01",
            tip="Choose another id.",
            tip_ru="Выберите другой id.",
        )


def _property_limit(p: FantasyParams, count: int, who: str) -> None:
    if p.max_properties_per_artifact is not None and count > p.max_properties_per_artifact:
        refuse(
            f"{who}: {count} properties; an artifact has at most {p.max_properties_per_artifact}",
            f"{who}: свойств {count}; у артефакта не больше {p.max_properties_per_artifact}",
            "S-ART-05",
            "A-S-06",
        )


def register(rs: Ruleset) -> None:
    """Declare the item creation and approval actions."""

    class RegisterItem(ItemSpec):
        owner: str | None = Field(None, description="who has it")
        crit_created: bool = Field(False, description="created with a critical success")

    @rs.action(
        "register-item",
        RegisterItem,
        roles=MASTERS,
        summary=("Register an existing item or artifact", "Зарегистрировать предмет или артефакт"),
        rule_ids=("S-ART-01", "S-ART-03", "S-ART-06"),
    )
    def register_item(ctx: ActionContext, a: RegisterItem) -> None:
        p = params(ctx)
        _require_new(fstate(ctx), a.item)
        if a.owner:
            ctx.character(a.owner)
        check_stat_bonus(p, a.stats(), a.crit_created, a.name)
        _property_limit(p, len(a.properties()), a.name)
        item = new_item(a, a.owner, crit_created=a.crit_created)
        ctx.emit(
            "item.registered",
            {"item": item.model_dump(mode="json"), "name": item.name, "nature": shown_nature(item)},
            ("S-ART-01", "S-ART-03"),
        )

    class CraftItem(ItemSpec):
        crafter: str = Field(description="who crafts it")
        stat: Stat = Field("INT", description="the crafting check's stat")
        threshold: Threshold = Field("medium", description="the crafting check's threshold")
        perfect: bool = Field(
            False, description="on a critical success, make it a perfect item (S-ART-07)"
        )
        curator: str | None = Field(None, description="the curating GM (perfect items)")
        tool: str | None = Field(None, description="the tool used (it wears on a crit failure)")
        roll: int | None = Field(None, description="a die rolled elsewhere (masters)")

    @rs.action(
        "craft-item",
        CraftItem,
        summary=(
            "Craft an item; artifacts need a GM's approval",
            "Создать предмет; артефакты одобряет GM",
        ),
        rule_ids=("S-ART-02", "S-ART-04", "S-ART-06", "S-ART-07", "S-ART-08", "S-ART-09"),
    )
    def craft_item(ctx: ActionContext, a: CraftItem) -> None:
        p = params(ctx)
        st = fstate(ctx)
        who = ctx.character(a.crafter)
        require_alive(who)
        _require_new(st, a.item)
        props = a.properties()
        declared = bool(props or a.stat_bonus or a.param_bonus)
        tech = any(pr.origin == "technological" for pr in props)
        magic = any(pr.origin == "magical" for pr in props)
        if tech and not any(who.has_skill(s) for s in p.tech_craft_skills):
            refuse(
                f"{who.name} cannot give technological properties: that needs one of "
                f"{', '.join(p.tech_craft_skills)}",
                f"{who.name} не может наделять технологическими свойствами: нужен навык "
                f"{', '.join(p.tech_craft_skills)}",
                "S-ART-02",
            )
        if magic and not any(who.has_skill(s) for s in p.magic_craft_skills):
            refuse(
                f"{who.name} cannot give magical properties: that needs one of "
                f"{', '.join(p.magic_craft_skills)}",
                f"{who.name} не может наделять магическими свойствами: нужен навык "
                f"{', '.join(p.magic_craft_skills)}",
                "S-ART-02",
            )
        if any(pr.origin == "material" for pr in props) and not any(r.unique for r in a.resources):
            refuse(
                "A property from rare materials needs a rare (unique) resource in the recipe",
                "Свойство от редкого материала требует редкого (уникального) ресурса",
                "S-ART-06",
            )
        _property_limit(p, len(props), a.name)
        if a.perfect:
            if a.kind not in PERFECT_KINDS:
                refuse(
                    f"Only a weapon, armour or a tool can be a perfect item, not a {a.kind}",
                    f"Идеальным может быть только оружие, броня или инструмент, не {a.kind}",
                    "S-ART-07",
                )
            if declared:
                refuse(
                    "A perfect item's characteristics are chosen by the curating GM, "
                    "not the player",
                    "Характеристики идеального предмета выбирает курирующий мастер, а не игрок",
                    "S-ART-08",
                    tip="Leave the bonuses out; the GM sets them with `approve-item`.",
                    tip_ru="Не указывайте бонусы; мастер задаст их в `approve-item`.",
                )
            if not a.curator:
                refuse(
                    "A perfect item needs its curating GM (--curator)",
                    "Идеальному предмету нужен курирующий мастер (--curator)",
                    "S-ART-08",
                )
        lock = who.condition("artifact_lockout")
        if lock is not None and (declared or a.perfect):
            refuse(
                f"{who.name} cannot create artifacts until {lock.deadline:%Y-%m-%d %H:%M}",
                f"{who.name} не может создавать артефакты до {lock.deadline:%Y-%m-%d %H:%M}",
                "S-ART-09",
                "A-S-07",
            )
        tool = get_item(ctx, a.tool) if a.tool else None
        pending = make_check(
            ctx, who.id, a.stat, "craft", threshold=a.threshold, natural=a.roll,
            rule_ids=("S-ART-06", "S-ART-07"),
        )  # fmt: skip
        crit = pending.check.crit == "success"
        check_stat_bonus(p, a.stats(), crit, a.name)  # S-STAT-01: +3 only on a crit
        if a.critical and not crit:
            refuse(
                "A property from a critical success needs a critical success",
                "Свойство от крит. успеха требует крит. успеха",
                "S-ART-06",
            )
        check = record_check(ctx, pending)
        if tool is not None and check.crit == "failure":
            breakage.log_crit(ctx, tool)  # S-BRK-09
        if not check.success:
            ctx.emit(
                "item.craft_failed",
                {"crafter": who.id, "name": a.name, "roll": check.short()},
                ("S-ART-06",),
            )
            return
        perfect = a.perfect and crit
        item = new_item(
            a,
            who.id,
            crafted_by=who.id,
            crit_created=crit,
            perfect=perfect,
            curator=a.curator,
        )
        artifact = item.is_artifact
        item.approval = "pending" if artifact else "not_needed"  # S-ART-04
        rules = ["S-ART-04"] if artifact else []
        if perfect:
            rules += ["S-ART-07", "S-ART-08"]
        ctx.emit(
            "item.crafted",
            {
                "item": item.model_dump(mode="json"),
                "name": item.name,
                "crafter": who.id,
                "nature": shown_nature(item),
                "approval": item.approval,
                "perfect": perfect,
                "perfect_offered": crit and a.kind in PERFECT_KINDS and not a.perfect,
            },
            tuple(rules or ["S-ART-01"]),
        )
        if perfect or (artifact and p.artifact_lockout_scope == "all_artifacts"):
            add_condition(
                ctx,
                who.id,
                "artifact_lockout",
                ("S-ART-09", "A-S-07"),
                deadline=ctx.now + timedelta(days=p.artifact_lockout_days),
                source=item.id,
            )

    class ApproveItem(BaseModel):
        item: str = Field(description="the item")
        approve: bool = Field(True, description="approve (or reject)")
        stat_bonus: list[str] = Field(
            default_factory=list, description="the GM's stat bonus, e.g. REF=1 (perfect items)"
        )
        param_bonus: list[str] = Field(
            default_factory=list, description="the GM's other bonus, e.g. damage=1"
        )
        critical: list[str] = Field(
            default_factory=list, description="properties from the critical success"
        )

        @field_validator("stat_bonus")
        @classmethod
        def _stats(cls, v: list[str]) -> list[str]:
            parse_pairs(v, stats_only=True, field="stat_bonus")
            return v

        @field_validator("param_bonus")
        @classmethod
        def _params(cls, v: list[str]) -> list[str]:
            parse_pairs(v, stats_only=False, field="param_bonus")
            return v

    @rs.action(
        "approve-item",
        ApproveItem,
        roles=MASTERS,
        summary=(
            "Approve (or reject) a crafted artifact; set a perfect item's characteristics",
            "Одобрить (или отклонить) артефакт; задать характеристики идеального предмета",
        ),
        rule_ids=("S-ART-04", "S-ART-08", "S-STAT-01"),
    )
    def approve_item(ctx: ActionContext, a: ApproveItem) -> None:
        p = params(ctx)
        item = get_item(ctx, a.item)
        if item.approval != "pending":
            refuse(
                f"{item.name} is not waiting for approval ({item.approval})",
                f"{item.name} не ожидает одобрения ({item.approval})",
                "S-ART-04",
            )
        if not a.approve:
            ctx.emit(
                "item.rejected",
                {"item": item.id, "name": item.name, "set": {"approval": "rejected"}},
                ("S-ART-04",),
            )
            return
        changes: dict[str, Any] = {"approval": "approved"}
        stats = parse_pairs(a.stat_bonus, stats_only=True, field="stat_bonus")
        extra = parse_pairs(a.param_bonus, stats_only=False, field="param_bonus")
        if stats or extra or a.critical:
            if not item.crit_created:
                refuse(
                    f"{item.name} was not created with a critical success; its "
                    "characteristics were set at crafting",
                    f"{item.name} создан без крит. успеха; его характеристики заданы при создании",
                    "S-ART-08",
                )
            merged = {**item.stat_bonus}
            for k, v in stats.items():
                merged[k] = merged.get(k, 0) + v
            check_stat_bonus(p, merged, True, item.name)
            changes["stat_bonus"] = merged
            changes["param_bonus"] = {**item.param_bonus, **extra}
            props = [*item.properties, *(Property(origin="critical", text=t) for t in a.critical)]
            changes["properties"] = [pr.model_dump() for pr in props]
        ctx.emit(
            "item.approved",
            {"item": item.id, "name": item.name, "set": changes},
            ("S-ART-04", "S-ART-08", "S-STAT-01") if len(changes) > 1 else ("S-ART-04",),
        )
