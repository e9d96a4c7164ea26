"""Announcing an injury (определение травмы): ``roll-injury``.

The player rolls 1d4 (D-ROLL-01) for the body location (A-D-01) unless an aimed attack
or Equal Exchange already fixed it; the damage type picks the sub-table of that
location (A-D-05) and the damage against the creature's combat caution the severity
(D-SEV); that row of the injury table (D-TAB) is applied with its effects and
treatment (D-ROLL-02). A heavy head injury also disfigures (D-DISF-01).

Every check runs before the first die is rolled, so a refusal leaves no trace. What
only the GM can decide after the roll (the sub-table of an unmapped damage type, a
re-roll for a limb already lost) is recorded as a question (``injury.needs_gm``) and
the next ``roll-injury`` answers it with the location kept.
"""

from __future__ import annotations

from fractions import Fraction

from lazaretto.core.engine import ActionContext
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.dnd5e_injuries.caution import exchanged, severity
from lazaretto.rulesets.dnd5e_injuries.common import injuries, params, pending, require_alive
from lazaretto.rulesets.dnd5e_injuries.effects import heal
from lazaretto.rulesets.dnd5e_injuries.plan import RollInjury, limb_free, plan
from lazaretto.rulesets.dnd5e_injuries.record import build_record, disfigure, receive
from lazaretto.rulesets.dnd5e_injuries.tables import LIMBS, TABLES
from lazaretto.rulesets.dnd5e_injuries.triggers import open_pending

SEVERITY_RULES = {
    "light": ("D-SEV-02",),
    "medium": ("D-SEV-03", "A-D-16"),
    "heavy": ("D-SEV-04", "A-D-16"),
}


def register(rs: Ruleset) -> None:
    """Declare ``roll-injury``."""

    @rs.action(
        "roll-injury",
        RollInjury,
        summary=(
            "Roll (announce) an injury: location 1d4, severity, the table row",
            "Бросить (объявить) травму: локация 1d4, тяжесть, строка таблицы",
        ),
        rule_ids=("D-ROLL-01", "D-ROLL-02", "D-SEV-01", "D-DISF-01"),
    )
    def roll_injury(ctx: ActionContext, a: RollInjury) -> None:
        ch = ctx.character(a.character)
        require_alive(ch)
        p = params(ctx)
        pend = pending(ch)
        plan_ = plan(ctx, ch, pend, a)
        if pend is None:  # a direct roll: the trigger is the GM's word
            assert a.trigger is not None
            open_pending(
                ctx,
                ch,
                [a.trigger],
                damage=a.damage,
                damage_type=a.damage_type,
                from_attack=a.trigger == "critical_hit",
            )
            pend = pending(ch)
            assert pend is not None
        data = pend.data
        location = data.get("location")
        rules: list[str] = ["D-ROLL-01"]
        if location is None:
            if a.location is not None:
                location, how_en, how_ru = a.location, "the GM's choice", "выбор мастера"
                rules += ["D-AIM-04", "A-D-08"]
            else:
                face = a.location_roll or int(ctx.roll(p.location_die).total)
                location = p.location_map[face]
                how_en = how_ru = f"{p.location_die} = {face}"
                rules += ["A-D-01"] + (["D-AIM-04", "A-D-08"] if data.get("aimed_missed") else [])
            ctx.emit(
                "injury.located",
                {
                    "character": ch.id,
                    "pending": data["id"],
                    "changes": {"location": location, "location_source": "rolled"},
                    "location": location,
                    "how_en": how_en,
                    "how_ru": how_ru,
                },
                tuple(rules),
            )
        elif data.get("location_source") == "aimed":
            rules += ["D-AIM-03"]
        elif data.get("location_source") == "equal_exchange":
            rules += ["D-DEF-04"]
        rules += ["D-ROLL-02", "D-SEV-01"]
        sub = p.sub_table(location, plan_.damage_type) or a.sub_table
        if sub is None:
            if p.unmapped_damage_policy == "no_injury":
                ctx.emit(
                    "injury.unmapped",
                    {
                        "character": ch.id,
                        "pending": data["id"],
                        "location": location,
                        "damage_type": plan_.damage_type,
                    },
                    ("A-D-05",),
                )
                return
            choices = list(TABLES.sub_tables[location])
            ctx.emit(
                "injury.needs_gm",
                {
                    "character": ch.id,
                    "pending": data["id"],
                    "changes": {},
                    "need": "sub_table",
                    "location": location,
                    "damage_type": plan_.damage_type,
                    "choices": ", ".join(choices),
                },
                ("A-D-05", "D-ROLL-02"),
            )
            return
        if a.sub_table:
            rules += ["A-D-05"]
        if plan_.severity_from_gm:
            rolled_sev = sev = a.severity or "light"
        elif plan_.damage is None:
            rolled_sev = sev = "light"  # A-D-03 alternative / A-D-17
        else:
            assert plan_.caution_value is not None
            rolled_sev = severity(plan_.damage, Fraction(*plan_.caution_value), p)
            sev = exchanged(rolled_sev, p) if data.get("exchanged") else rolled_sev
        rules += list(SEVERITY_RULES[rolled_sev])
        if data.get("exchanged"):
            rules += ["D-DEF-03", "D-DEF-04", "A-D-11"]
        row = TABLES.row(location, sub, sev)
        side = None
        if location in LIMBS and p.track_limb_side:
            side = a.side or data.get("side") or ("left" if ctx.roll("1d2").total == 1 else "right")
        if any(e.kind == "limb_lost" for e in row.effects) and not limb_free(
            ch, location, side, p
        ):  # A-D-15: a limb already lost: the GM re-rolls
            ctx.emit(
                "injury.needs_gm",
                {
                    "character": ch.id,
                    "pending": data["id"],
                    "changes": {"location": None, "location_source": None, "side": None},
                    "need": "reroll",
                    "location": location,
                    "damage_type": plan_.damage_type,
                    "choices": "",
                },
                ("A-D-15", row.id),
            )
            return
        if p.duplicate_injury_policy == "replace":  # A-D-15 alternative
            for old in injuries(ch):
                if old.data["row"] == row.id and old.data.get("side") == side:
                    heal(ctx, ch, old, "replaced", ("A-D-15",))
        record = build_record(
            ctx,
            ch,
            row,
            location=location,
            side=side,
            sub_table=sub,
            sev=sev,
            rolled_sev=rolled_sev,
            plan=plan_,
            data=data,
            gm_amounts=a.gm_amounts,
        )
        receive(ctx, ch, record, data["id"], (*rules, row.id))
        if sev == "heavy" and location == "head" and ch.alive:  # D-DISF-01
            disfigure(ctx, ch, plan_)
