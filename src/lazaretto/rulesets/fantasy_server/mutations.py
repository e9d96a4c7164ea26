"""Magical healing and magical mutations (Магические мутации): checklist-002 §2.18.

Every magical healing (spells, rituals, potions, combat healing skills) is counted over
a rolling window (A-S-25). Once a character has received more than their max HP of it
within the window, each further magical healing is resisted: the patient's WIL against
the healer's MAG; if the healer wins (a tie goes to the patient) the d6 mutation table
is rolled. Self-healing is not resisted: the d6 is always rolled (S-MUT-01..04).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import InvalidInput
from lazaretto.rulesets.fantasy_server.checks import Check, contest, roll_check
from lazaretto.rulesets.fantasy_server.common import (
    add_condition,
    add_trauma,
    die_sides,
    fstate,
    hp_change,
    params,
    refuse,
    require_master,
)
from lazaretto.rulesets.fantasy_server.tables import mutations

SKIN_FESTERS = "skin_layer_festers"


def window_total(ctx: ActionContext | QueryContext, char_id: str) -> int:
    """Magical healing ``char_id`` received within the window (A-S-25)."""
    start = ctx.now - timedelta(hours=params(ctx).mutation_window_hours)
    return sum(r.amount for r in fstate(ctx).magic_heals.get(char_id, []) if r.at > start)


def triggered(ctx: ActionContext | QueryContext, char_id: str) -> bool:
    """Whether the next magical healing of ``char_id`` risks a mutation (S-MUT-01)."""
    ch = ctx.character(char_id)
    return window_total(ctx, char_id) > params(ctx).mutation_trigger_ratio * ch.hits_max


def mutation_check(
    ctx: ActionContext,
    patient: str,
    healer: str | None,
    *,
    healer_roll: int | None = None,
    patient_roll: int | None = None,
    mutation_roll: int | None = None,
    healer_check: Check | None = None,
) -> int | None:
    """Resist and, failing that, roll the mutation table; returns the face or None.

    ``healer_check`` is the healer's MAG roll when the healing itself was one (a magical
    trauma treatment); otherwise the healer rolls MAG here.
    """
    p = params(ctx)
    if not triggered(ctx, patient):
        return None
    rules: tuple[str, ...] = ("S-MUT-01", "A-S-25")
    if healer is None or healer == patient:  # S-MUT-02: self-healing is not resisted
        if p.self_heal_mutation == "always_resisted":
            ctx.emit(
                "mutation.resisted",
                {"character": patient, "healer": patient, "how": "self-healing"},
                ("S-MUT-02", "A-S-25"),
            )
            return None
        rules += ("S-MUT-02",)
    else:
        h = healer_check or roll_check(
            ctx, healer, "MAG", "heal", natural=healer_roll, rule_ids=("S-MUT-01",)
        )
        w = roll_check(
            ctx, patient, "WIL", "mutation_resist", natural=patient_roll, rule_ids=("S-MUT-01",)
        )
        side, crit_rules = contest(h, w, p)
        if side == "defender":
            ctx.emit(
                "mutation.resisted",
                {
                    "character": patient,
                    "healer": healer,
                    "how": f"WIL {w.short()} vs MAG {h.short()}",
                },
                (*rules, *crit_rules, "A-S-14"),
            )
            return None
        rules += crit_rules
    if mutation_roll is not None:
        require_master(ctx, "enter a die rolled elsewhere", "вводить уже брошенный кубик")
        if not 1 <= mutation_roll <= die_sides(p.mutation_die):
            raise InvalidInput(
                f"A {p.mutation_die} cannot show {mutation_roll}",
                ru=f"На {p.mutation_die} не может выпасть {mutation_roll}",
            )
        face = mutation_roll
    else:
        face = ctx.roll(p.mutation_die).total
    row = mutations()[face]
    ctx.emit(
        "mutation.rolled",
        {
            "character": patient,
            "face": face,
            "effect": row.effect,
            "text": row.en,
            "text_ru": row.ru,
        },
        (*rules, "S-MUT-03", row.rule),
    )
    return face


def apply_side_effects(ctx: ActionContext, patient: str, face: int) -> None:
    """The lasting consequences of a mutation face (S-MUTT-02/03/05/06)."""
    p = params(ctx)
    effect = mutations()[face].effect
    if effect == "half":
        add_condition(
            ctx, patient, "next_roll_penalty", ("S-MUTT-02",),
            data={"value": p.mutation_next_roll_penalty},
        )  # fmt: skip
    elif effect == "skin_layer":
        tid = add_trauma(ctx, patient, "skin_layer", ("S-MUTT-03",), source="mutation")
        ctx.schedule(
            SKIN_FESTERS,
            timedelta(hours=p.mutation_skin_festering_hours),
            patient,
            {"trauma": tid},
            ("S-MUTT-03", "A-S-25"),
        )
    elif effect == "rudimentary_limb":
        add_condition(ctx, patient, "rudimentary_limb", ("S-MUTT-05",), source="mutation")
    elif effect == "tumour":
        add_trauma(ctx, patient, "tumour", ("S-MUTT-06",), source="mutation")


def magical_heal(
    ctx: ActionContext,
    patient: str,
    healer: str | None,
    amount: int,
    means: str,
    rule_ids: tuple[str, ...],
    *,
    healer_roll: int | None = None,
    patient_roll: int | None = None,
    mutation_roll: int | None = None,
    counts: bool = True,
) -> dict[str, Any]:
    """Restore ``amount`` HP by magic, with the mutation rule; returns what happened."""
    p = params(ctx)
    face = mutation_check(
        ctx,
        patient,
        healer,
        healer_roll=healer_roll,
        patient_roll=patient_roll,
        mutation_roll=mutation_roll,
    )
    effect = mutations()[face].effect if face is not None else None
    delta, rules = amount, list(rule_ids)
    if effect == "damage":  # S-MUTT-01: damage equal to the healing
        delta = -amount
        rules.append("S-MUTT-01")
    elif effect == "half":  # S-MUTT-02: half strength
        delta = amount // 2 if p.mutation_half_rounding == "floor" else -(-amount // 2)
        rules.append("S-MUTT-02")
    after, real = hp_change(ctx, {patient: delta})
    ctx.emit(
        "hp.healed",
        {
            "character": patient,
            "healer": healer or patient,
            "means": means,
            "amount": amount,
            "restored": real[patient],
            "hits_after": after,
            "hp": after[patient],
            "mutation": effect or "-",
        },
        tuple(rules),
    )
    if face is not None:
        apply_side_effects(ctx, patient, face)
        if effect == "misknit":
            add_trauma(ctx, patient, "misknit", ("S-MUTT-04",), source="mutation")
    restored = max(0, real[patient])
    if counts and restored:
        start = ctx.now - timedelta(hours=p.mutation_window_hours)
        ctx.emit(
            "magic_heal.recorded",
            {"character": patient, "amount": restored, "window_start": start.isoformat()},
            ("S-MUT-01", "A-S-25"),
        )
    return {"face": face, "effect": effect, "restored": restored}


def require_magic_ok(char_id: str, name: str, reduced: bool, construct: bool) -> None:
    """Magical healing is refused for reduced magic and for constructs (S-HEAL-06, S-CLAR-05)."""
    if construct:
        refuse(
            f"{name} is a construct: magical healing does not work on constructs",
            f"{name} — конструкт: магическое лечение конструктам недоступно",
            "S-CLAR-05",
            tip="Use a repair kit (`heal-physically --means repair_kit`).",
            tip_ru="Используйте ремонтный набор (`heal-physically --means repair_kit`).",
        )
    if reduced:
        refuse(
            f"{name} has reduced magic: magical healing cannot treat them",
            f"У {name} заниженная магия: магическое лечение недоступно",
            "S-HEAL-06",
            tip="Use physical healing.",
            tip_ru="Используйте физическое лечение.",
        )
