"""Ways of infection (способы заражения): checklist-000 §4.5.1–§4.5.3, §6.6–§6.7.

* A master hands a sticker straight to a character as a punishment (W-INF-01).
* A carrier (разносчик) passes up to three stickers of one contagious disease by touch,
  one of a non-contagious one (W-INF-02, W-CARR-01..03; A-W-26).
* A contagious patient sticks one sticker and passes the others, one per touch, holding
  at most two of a disease (W-CARR-04/05).
* Whoever finishes off a carrier in melee gets one of the stickers in the carrier's hand,
  unless protected; spears and ranged attacks do not count (W-INF-03/04).

:func:`deliver` decides, sticker by sticker, whether it is stuck into the passport, held
for passing on, or stays with the giver — and why (W-CARR-07/08).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Literal

from pydantic import BaseModel, Field

from lazaretto.core.character import Character
from lazaretto.core.engine import ActionContext
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import Disease, disease, ill_with, stick
from lazaretto.rulesets.warhammer_larp.params import Route
from lazaretto.rulesets.warhammer_larp.protection import protection
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import held, mint, move, sticker
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, die


@dataclass
class Delivery:
    """What became of the stickers offered to one victim."""

    stuck: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    reason: str = ""
    rule_ids: tuple[str, ...] = ()

    @property
    def infected(self) -> bool:
        """The victim fell ill (a sticker went into the passport)."""
        return bool(self.stuck)


@REDUCERS.on("infection.contact")
def _contact(st: WarhammerState, ev: Event) -> None:
    st.contacts[f"{ev.payload['giver']}>{ev.payload['victim']}"] = ev.at


@REDUCERS.on("finish_off.recorded")
def _finish_off(st: WarhammerState, ev: Event) -> None:
    """A fact for the log; the infection and the death are their own events."""


def hand_room(ctx: ActionContext, victim: Character, code: str) -> int:
    """How many more stickers of ``code`` ``victim`` may hold to pass on (W-CARR-05)."""
    if victim.has_skill(params(ctx).carrier_skill):
        return 1_000
    return max(
        0, params(ctx).held_stickers_per_disease_max - len(held(state(ctx), victim.id, code))
    )


def deliver(
    ctx: ActionContext,
    giver: str,
    victim: Character,
    codes: list[str],
    route: Route | None,
    source: str,
    rule_ids: tuple[str, ...],
    outfit: list[str] | None = None,
) -> Delivery:
    """Offer ``codes`` (one disease) to ``victim`` by ``route`` (None: a master's hand)."""
    out = Delivery()
    if not codes:
        return out
    code = state(ctx).stickers[codes[0]].disease
    d = disease(ctx, code)
    shield = None if route is None else protection(ctx, victim, route, code, outfit)
    if shield is not None:  # W-CARR-07: protection or immunity keeps it with the giver
        out.kept, out.reason, out.rule_ids = list(codes), f"protected ({shield[0]})", shield[1]
    else:
        room = hand_room(ctx, victim, code)
        ill = ill_with(victim, code) is not None
        for c in codes:
            if not ill:
                stick(ctx, victim, c, source, rule_ids)
                out.stuck.append(c)
                ill = True
            elif d.contagious and room > 0:  # W-CARR-04/08: kept to infect others
                out.held.append(c)
                room -= 1
            else:
                out.kept.append(c)
        move(ctx, out.held, "held", victim.id, "held", ("W-CARR-04", "W-CARR-08"), by=giver)
        if out.kept:
            out.reason = "sticker limit reached" if d.contagious else "already ill, not contagious"
            out.rule_ids = ("W-CARR-07", "A-W-27") if d.contagious else ("W-CARR-07", "W-DEF-10")
    if out.kept:
        ctx.emit(
            "sticker.kept",
            {"codes": out.kept, "giver": giver, "victim": victim.id, "reason": out.reason},
            out.rule_ids,
        )
    return out


def _choose(
    ctx: ActionContext, giver: Character, code: str | None, codes: list[str], count: int
) -> tuple[list[str], list[str]]:
    """The stickers of one disease the giver passes now, and those left (W-CARR-09)."""
    st = state(ctx)
    if codes:
        chosen = [sticker(ctx, c) for c in codes]
        for s in chosen:
            if s.status != "held" or s.holder != giver.id:
                refuse(
                    f"Sticker {s.code} is not in {giver.name}'s hand",
                    f"Наклейки {s.code} нет на руках у {giver.name}",
                    "W-CARR-02",
                )
        first = code or chosen[0].disease
        return [s.code for s in chosen if s.disease == first], [
            s.code for s in chosen if s.disease != first
        ]
    if code is None:
        refuse(
            "Name the disease or the stickers passed",
            "Укажите болезнь или наклейки",
            "W-CARR-09",
        )
    disease(ctx, code)
    hand = held(st, giver.id, code)
    if len(hand) < count:
        refuse(
            f"{giver.name} holds {len(hand)} sticker(s) of {code}, not {count}",
            f"У {giver.name} на руках {len(hand)} наклеек {code}, а не {count}",
            "W-CARR-02",
            "W-INF-03",
            tip="Hand stickers to the carrier first (`hand-stickers`).",
            tip_ru="Сначала передайте наклейки разносчику (`hand-stickers`).",
        )
    return [s.code for s in hand[:count]], []


def _cap(ctx: ActionContext, d: Disease, n: int) -> None:
    """W-INF-02, W-CARR-03, A-W-26: up to 3 of a contagious disease, 1 of another."""
    p = params(ctx)
    cap = p.carrier_max_stickers_per_victim if d.contagious else p.noncontagious_max_per_victim
    if n > cap:
        refuse(
            f"One touch passes at most {cap} sticker(s) of {d.name}, not {n}",
            f"За одно касание — не больше {cap} наклеек {d.name}, а не {n}",
            "W-INF-02",
            "W-CARR-03",
            "A-W-26",
        )


def _touch(
    ctx: ActionContext,
    giver: Character,
    victim: Character,
    code: str | None,
    codes: list[str],
    count: int,
    via: str,
    rule_ids: tuple[str, ...],
) -> None:
    checks.require_alive(giver)
    checks.require_alive(victim)
    if giver.id == victim.id:
        refuse("Nobody infects themself", "Нельзя заразить самого себя", "W-CARR-01")
    p = params(ctx)
    last = state(ctx).contacts.get(f"{giver.id}>{victim.id}")
    if last is not None and ctx.now < last + timedelta(seconds=p.contact_cooldown_seconds):
        refuse(
            f"{giver.name} touched {victim.name} less than {p.contact_cooldown_seconds} s ago",
            f"{giver.name} касался {victim.name} меньше {p.contact_cooldown_seconds} с назад",
            "A-W-28",
        )
    if code is not None and not codes:
        _cap(ctx, disease(ctx, code), count)
    passed, left = _choose(ctx, giver, code, codes, count)
    d = disease(ctx, state(ctx).stickers[passed[0]].disease)
    _cap(ctx, d, len(passed))
    kind = "carrier" if giver.has_skill(p.carrier_skill) else "contagious"
    got = deliver(ctx, giver.id, victim, passed, "touch", f"{kind}:{giver.id}", rule_ids)
    ctx.emit(
        "infection.contact",
        {
            "giver": giver.id,
            "victim": victim.id,
            "disease": d.code,
            "via": via,
            "stuck": got.stuck,
            "held": got.held,
            "kept": got.kept,
            "reason": got.reason,
            "not_passed": left,
        },
        (*rule_ids, *got.rule_ids, *(("W-CARR-09",) if left else ())),
    )


def register(rs: Ruleset) -> None:
    """Declare the infection actions."""

    class Infect(BaseModel):
        character: str
        disease: str = Field(description="disease code")
        sticker: str | None = Field(None, description="the sticker handed (default: a new one)")

    @rs.action(
        "infect",
        Infect,
        roles=MASTERS,
        summary=(
            "A master hands a disease sticker to a character (punishment)",
            "Мастер вручает персонажу наклейку болезни (наказание)",
        ),
        rule_ids=("W-INF-01", "W-DIS-10", "W-DIS-09"),
    )
    def infect(ctx: ActionContext, a: Infect) -> None:
        ch = ctx.character(a.character)
        checks.require_alive(ch)
        d = disease(ctx, a.disease)
        if ill_with(ch, d.code) is not None and not (d.contagious and hand_room(ctx, ch, d.code)):
            refuse(
                f"{ch.name} already has {d.name} and cannot hold another sticker of it",
                f"{ch.name} уже болеет ({d.name}) и не может держать ещё наклейку",
                "W-DIS-11",
                "W-CARR-07",
                "W-CARR-08",
            )
        if a.sticker is None:
            codes = mint(ctx, d.code, 1, ("W-INF-01",))
        else:
            s = sticker(ctx, a.sticker)
            if s.disease != d.code or s.status not in ("stock", "held"):
                refuse(
                    f"Sticker {s.code} ({s.disease}, {s.status}) cannot be handed as {d.code}",
                    f"Наклейку {s.code} ({s.disease}, {s.status}) нельзя вручить как {d.code}",
                    "W-DIS-01",
                )
            codes = [s.code]
        deliver(ctx, "master", ch, codes, None, "master", ("W-INF-01",))

    class CarrierTouch(BaseModel):
        carrier: str = Field(description="the character with the carrier skill")
        victim: str
        disease: str | None = Field(None, description="one disease per touch")
        stickers: list[str] = Field(
            default_factory=list, max_length=10, description="the exact stickers passed"
        )
        count: int = Field(1, ge=1, le=10, description="stickers passed (up to 3)")
        via: Literal["hands", "master"] = Field(
            "hands", description="from the carrier's hands, or a master who saw the touch"
        )

    @rs.action(
        "carrier-touch",
        CarrierTouch,
        roles=MASTERS,
        summary=(
            "A disease carrier infects someone by touch (recorded by a master)",
            "Разносчик заражает касанием (фиксирует мастер)",
        ),
        rule_ids=("W-DEF-12", "W-CARR-01", "W-CARR-02", "W-CARR-03", "W-CARR-09", "W-INF-02"),
    )
    def carrier_touch(ctx: ActionContext, a: CarrierTouch) -> None:
        carrier, victim = ctx.character(a.carrier), ctx.character(a.victim)
        checks.require_alive(carrier)
        skill = params(ctx).carrier_skill
        if not carrier.has_skill(skill):
            refuse(
                f"{carrier.name} does not have the {skill} skill and cannot spread diseases",
                f"У {carrier.name} нет умения «Разносчик болезни», заражать нельзя",
                "W-DEF-12",
            )
        _touch(
            ctx,
            carrier,
            victim,
            a.disease,
            a.stickers,
            len(a.stickers) or a.count,
            a.via,
            ("W-CARR-01", "W-CARR-02", "W-INF-02"),
        )

    class PassSticker(BaseModel):
        actor: str = Field(description="the contagious patient passing a held sticker")
        victim: str
        disease: str | None = Field(None, description="one disease per touch")
        stickers: list[str] = Field(
            default_factory=list, max_length=10, description="the stickers offered"
        )

    @rs.action(
        "pass-sticker",
        PassSticker,
        roles=MASTERS,
        summary=(
            "A contagious patient passes a held sticker on by touch",
            "Заразный больной передаёт наклейку касанием",
        ),
        rule_ids=("W-CARR-04", "W-CARR-07", "W-CARR-09", "W-DEF-10"),
    )
    def pass_sticker(ctx: ActionContext, a: PassSticker) -> None:
        giver, victim = ctx.character(a.actor), ctx.character(a.victim)
        codes = a.stickers
        if codes:
            first = sticker(ctx, codes[0]).disease
            same = [c for c in codes if sticker(ctx, c).disease == first]
            codes = same[:1] + [c for c in codes if c not in same]  # one per touch
        _touch(ctx, giver, victim, a.disease, codes, 1, "hands", ("W-CARR-04", "W-DEF-10"))

    class FinishOff(BaseModel):
        attacker: str = Field(description="who finishes off")
        carrier: str = Field(description="the character finished off")
        weapon: Literal["melee", "spear", "ranged_weapon", "ranged_magic"] = "melee"
        disease: str | None = Field(None, description="which held disease (default: the first)")
        kills: bool = Field(True, description="the finishing-off kills the character")

    @rs.action(
        "finish-off",
        FinishOff,
        roles=MASTERS,
        summary=(
            "Finish off a character; a carrier's stickers may infect the attacker",
            "Добить персонажа; наклейки разносчика могут заразить атакующего",
        ),
        rule_ids=("W-INF-03", "W-INF-04", "A-W-29"),
    )
    def finish_off(ctx: ActionContext, a: FinishOff) -> None:
        attacker, victim = ctx.character(a.attacker), ctx.character(a.carrier)
        checks.require_alive(attacker)
        checks.require_alive(victim)
        p = params(ctx)
        hand = [
            s
            for s in held(state(ctx), victim.id, a.disease)
            if victim.has_skill(p.carrier_skill)
            or (p.finish_off_infects_from_contagious and disease(ctx, s.disease).contagious)
        ]
        reason, got = "", Delivery()
        rules: tuple[str, ...] = ("W-INF-03",)
        if not victim.has_skill(p.carrier_skill) and not p.finish_off_infects_from_contagious:
            reason, rules = "not a carrier", ("W-INF-03", "A-W-29")
        elif a.weapon in p.finish_off_excluded_weapons:
            reason, rules = f"{a.weapon} does not count", ("W-INF-04",)
        elif not hand:
            reason = "no stickers on hand"
        else:
            first = hand[0].disease
            codes = [s.code for s in hand if s.disease == first][: p.finish_off_stickers]
            got = deliver(
                ctx, victim.id, attacker, codes, "combat", f"finish_off:{victim.id}", rules
            )
            reason, rules = got.reason, (*rules, *got.rule_ids)
        ctx.emit(
            "finish_off.recorded",
            {
                "attacker": attacker.id,
                "carrier": victim.id,
                "weapon": a.weapon,
                "infected": got.infected or bool(got.held),
                "stickers": got.stuck + got.held,
                "reason": reason,
            },
            rules,
        )
        if a.kills:
            die(ctx, victim.id, "finished_off", ("W-DEF-01",))
