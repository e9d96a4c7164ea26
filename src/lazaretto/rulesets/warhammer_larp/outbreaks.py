"""Outbreaks (вспышка заражения): checklist-000 §4.5.4; A-W-20/21.

A one-off release of a disease (W-OUT-01), in a whole building or in a 3 m radius
outdoors. The master records who is where and at what distance; the engine decides who
gets a sticker and says why the others do not: outside, protected (only full protection
counts: W-PROT-01/03), beyond the cap (10 in a building, 5 outdoors) or the stickers ran
out — the nearest get them first (W-OUT-02/03/06).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.errors import NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import disease
from lazaretto.rulesets.warhammer_larp.infection import deliver
from lazaretto.rulesets.warhammer_larp.protection import protection
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import held, move
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS


class Presence(BaseModel):
    """Where a character stands at the moment of an outbreak (recorded by a master)."""

    character: str
    distance_m: float = Field(
        ge=0, le=100_000, description="to the activation point (outdoors: to the carrier)"
    )
    inside: bool = Field(True, description="inside the building (building outbreaks)")
    outfit: list[str] | None = Field(
        None, max_length=20, description="what they wear now (default: as recorded)"
    )


@REDUCERS.on("outbreak.released")
def _released(st: WarhammerState, ev: Event) -> None:
    st.outbreaks[ev.payload["id"]] = {**ev.payload, "at": ev.at.isoformat()}
    cert = ev.payload.get("certificate")
    if cert in st.certificates:
        st.certificates[cert]["used"] = True


def _army_phase(ctx: ActionContext, carrier: Character, phase: str) -> None:
    """W-OUT-07/08: no outbreak during army combat; a saboteur may use one at a halt."""
    if phase == "battle":
        refuse(
            "Outbreaks do not work during army combat",
            "Вспышка заражения не действует во время боёвки армий",
            "W-OUT-07",
        )
    if phase == "rest_halt" and not carrier.has_skill(params(ctx).saboteur_skill):
        refuse(
            f"During the army game only a saboteur may start an outbreak at a rest halt; "
            f"{carrier.name} is not one",
            f"Во время армейской игры вспышку на привале может использовать только диверсант; "
            f"{carrier.name} — не диверсант",
            "W-OUT-07",
            "W-OUT-08",
        )


def _stickers(
    ctx: ActionContext, carrier: Character, certificate: str | None, code: str | None
) -> tuple[list[str], str]:
    """The stickers released and their disease (A-W-21: from the certificate)."""
    p = params(ctx)
    if certificate is None and p.outbreak_requires_certificate:
        refuse(
            "An outbreak needs an outbreak certificate",
            "Для вспышки нужен сертификат вспышки заражения",
            "A-W-21",
            "W-LAB-13",
            tip="Give --certificate.",
            tip_ru="Укажите --certificate.",
        )
    if certificate is not None:
        cert = state(ctx).certificates.get(certificate)
        if cert is None or cert["kind"] != "outbreak":
            raise NotFound(
                f"No outbreak certificate {certificate!r}",
                ru=f"Нет сертификата вспышки {certificate!r}",
            )
        if cert["holder"] != carrier.id:
            refuse(
                f"Certificate {certificate} is held by {cert['holder']}, not {carrier.name}",
                f"Сертификат {certificate} у {cert['holder']}, а не у {carrier.name}",
                "A-W-21",
            )
        if cert["used"]:
            refuse(
                f"Certificate {certificate} was already used: an outbreak is a one-off release",
                f"Сертификат {certificate} уже использован: вспышка однократна",
                "W-OUT-01",
            )
        st = state(ctx)
        live = [c for c in cert["stickers"] if st.stickers[c].status == "certificate"]
        return live, cert["disease"]
    if code is None:
        refuse("Name the disease", "Укажите болезнь", "A-W-21")
    disease(ctx, code)
    return [s.code for s in held(state(ctx), carrier.id, code)], code


def register(rs: Ruleset) -> None:
    """Declare ``start-outbreak``."""

    class StartOutbreak(BaseModel):
        carrier: str = Field(description="the carrier who activates it")
        place: Literal["building", "outdoor"]
        people: list[Presence] = Field(
            default_factory=list, max_length=300, description="everyone around, with distances"
        )
        certificate: str | None = Field(None, description="outbreak certificate id")
        disease: str | None = Field(None, description="without a certificate (A-W-21 off)")
        building: str = Field("", max_length=100, description="which building")
        distance_from_entrance_m: float | None = Field(
            None, ge=0, le=10_000, description="how far inside the carrier stands"
        )
        announced: bool = Field(False, description="outdoors: «Вспышка заражения» said aloud")
        army_phase: Literal["none", "battle", "rest_halt"] = Field(
            "none", description="army combat going on, or the carrier's army at a rest halt"
        )

    @rs.action(
        "start-outbreak",
        StartOutbreak,
        roles=MASTERS,
        summary=(
            "A carrier starts an outbreak in a building or outdoors",
            "Разносчик активирует вспышку заражения в здании или на улице",
        ),
        rule_ids=("W-OUT-01", "W-OUT-02", "W-OUT-03", "W-OUT-04", "W-OUT-05", "W-OUT-06"),
    )
    def start(ctx: ActionContext, a: StartOutbreak) -> None:
        p = params(ctx)
        carrier = ctx.character(a.carrier)
        checks.require_alive(carrier)
        if not carrier.has_skill(p.carrier_skill):
            refuse(
                f"{carrier.name} does not have the {p.carrier_skill} skill",
                f"У {carrier.name} нет умения «Разносчик болезни»",
                "W-DEF-12",
            )
        _army_phase(ctx, carrier, a.army_phase)
        if a.place == "building":
            d = a.distance_from_entrance_m
            if d is None or d < p.outbreak_min_distance_from_entrance_m:
                refuse(
                    f"The carrier must be inside, at least "
                    f"{p.outbreak_min_distance_from_entrance_m:g} m from the entrance "
                    f"(given: {'?' if d is None else f'{d:g} m'})",
                    f"Разносчик должен быть внутри, не ближе "
                    f"{p.outbreak_min_distance_from_entrance_m:g} м от входа",
                    "W-OUT-04",
                )
            cap, rules = p.outbreak_building_max_characters, ("W-OUT-02", "W-OUT-03")
        else:
            if not a.announced:
                refuse(
                    "An outdoor outbreak must be announced loudly: «Вспышка заражения»",
                    "Вспышку вне здания нужно громко объявить: «Вспышка заражения»",
                    "W-OUT-05",
                )
            cap, rules = p.outbreak_outdoor_max_stickers, ("W-OUT-06", "W-OUT-03")
        stock, code = _stickers(ctx, carrier, a.certificate, a.disease)
        oid = f"ob-{len(state(ctx).outbreaks) + 1}"
        decisions: list[dict[str, Any]] = []
        eligible: list[tuple[Presence, Character]] = []
        seen: set[str] = {carrier.id}
        for pr in a.people:
            ch = ctx.character(pr.character)
            if ch.id in seen:
                continue
            seen.add(ch.id)
            why, rule = _not_eligible(ctx, a.place, pr, ch, code)
            if why:
                decisions.append(_row(pr, None, why, rule))
            else:
                eligible.append((pr, ch))
        eligible.sort(key=lambda x: x[0].distance_m)  # W-OUT-03: nearest first
        pool = list(stock)
        for n, (pr, ch) in enumerate(eligible):
            if n >= cap:
                decisions.append(_row(pr, None, f"beyond the cap of {cap}", rules[0]))
            elif not pool:
                decisions.append(_row(pr, None, "no stickers left", "W-OUT-03"))
            else:
                s = pool.pop(0)
                got = deliver(
                    ctx, carrier.id, ch, [s], "outbreak", f"outbreak:{oid}", rules, pr.outfit
                )
                if got.kept:
                    pool.insert(0, s)
                    decisions.append(_row(pr, None, got.reason, got.rule_ids[0]))
                else:
                    decisions.append(_row(pr, s, "stuck" if got.stuck else "held", rules[0]))
        if pool and p.outbreak_unused_stickers == "discarded":
            move(ctx, pool, "discarded", "", "discarded", ("A-W-21",), by=carrier.id)
        else:
            move(ctx, pool, "held", carrier.id, "returned", ("A-W-21",), by=oid)
        ctx.emit(
            "outbreak.released",
            {
                "id": oid,
                "carrier": carrier.id,
                "certificate": a.certificate,
                "disease": code,
                "place": a.place,
                "building": a.building,
                "decisions": decisions,
                "infected": [r["character"] for r in decisions if r["sticker"]],
                "unused": pool,
            },
            ("W-OUT-01", *rules),
        )


def _not_eligible(
    ctx: ActionContext, place: str, pr: Presence, ch: Character, code: str
) -> tuple[str, str]:
    p = params(ctx)
    if not ch.alive:
        return "dead", "W-DEF-01"
    if place == "building" and not pr.inside:
        return "not inside the building", "W-OUT-02"
    if place == "outdoor" and pr.distance_m > p.outbreak_outdoor_radius_m:
        return f"beyond {p.outbreak_outdoor_radius_m:g} m", "W-OUT-06"
    shield = protection(ctx, ch, "outbreak", code, pr.outfit)
    if shield is not None:
        return f"protected ({shield[0]})", shield[1][0]
    return "", ""


def _row(pr: Presence, code: str | None, why: str, rule: str) -> dict[str, Any]:
    return {
        "character": pr.character,
        "distance_m": pr.distance_m,
        "sticker": code,
        "why": why,
        "rule": rule,
    }
