"""Looting a stormed location (разграбление локации): the army-rules fragment, Looting §5.

After an assault the winning Army's Commander may order looting (W-LOOT-01): the Army's
Convoy gets Supplies tokens equal to the location's Wealth before the assault
(W-LOOT-02) and 30 minutes to search (W-LOOT-03). Residents cannot harm the winners
(W-LOOT-06); each hides, plays a heavy wound, commits suicide or surrenders (W-LOOT-07).
The location is looted when every resident is killed, fled or surrendered, or after 30
minutes (W-LOOT-09); after the Army leaves it can neither form Armies nor be assaulted
for 4 hours (W-LOOT-10/11). Wealth is hidden from players (W-LOOT-05).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import Conflict, NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Role, Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.models import Location, Looting
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, become_heavy, die

SEARCH_ENDS = "looting_search_ends"
TIME_UP = "looting_time_up"
RESOLVED = {"killed", "fled", "surrendered", "suicide"}


@REDUCERS.on("location.registered")
def _registered(st: WarhammerState, ev: Event) -> None:
    loc = Location.model_validate(ev.payload["location"])
    st.locations[loc.id] = loc


@REDUCERS.on("location.wealth_changed")
def _wealth(st: WarhammerState, ev: Event) -> None:
    loc = st.locations[ev.payload["location"]]
    loc.wealth, loc.wealth_cycle = ev.payload["wealth"], ev.payload["cycle"]


@REDUCERS.on("location.assaulted")
def _assaulted(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    st.locations[p["location"]].assault = {
        "army": p["army"],
        "at": ev.at.isoformat(),
        "wealth_before": p["wealth_before"],
    }


@REDUCERS.on("army.formed")
def _formed(st: WarhammerState, ev: Event) -> None:
    """A fact for the log (army formation is the army rules' business)."""


@REDUCERS.on("looting.started")
def _started(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    loc = st.locations[p["location"]]
    loc.looting = Looting(
        army=p["army"],
        started=ev.at,
        search_until=datetime.fromisoformat(p["search_until"]),
        supplies=p["supplies"],
        units=p["units"],
        residents={r: "remaining" for r in loc.residents},
    )
    loc.assault = None
    st.convoys[p["army"]] = st.convoys.get(p["army"], 0) + p["supplies"]


@REDUCERS.on("looting.resident_acted")
def _resident(st: WarhammerState, ev: Event) -> None:
    lt = st.locations[ev.payload["location"]].looting
    if lt is not None:
        lt.residents[ev.payload["resident"]] = ev.payload["status"]


@REDUCERS.on("looting.declared")
def _declared(st: WarhammerState, ev: Event) -> None:
    loc = st.locations[ev.payload["location"]]
    if loc.looting is not None:
        loc.looting.declared_at = ev.at
    if ev.payload.get("protected_until"):
        loc.protected_until = datetime.fromisoformat(ev.payload["protected_until"])


@REDUCERS.on("looting.search_ended")
def _search_ended(st: WarhammerState, ev: Event) -> None:
    lt = st.locations[ev.payload["location"]].looting
    if lt is not None:
        lt.search_ended_at = ev.at


@REDUCERS.on("looting.army_left")
def _left(st: WarhammerState, ev: Event) -> None:
    loc = st.locations[ev.payload["location"]]
    if loc.looting is not None:
        loc.looting.army_left_at = ev.at
    if ev.payload.get("protected_until"):
        loc.protected_until = datetime.fromisoformat(ev.payload["protected_until"])


def _loc(ctx: ActionContext | QueryContext, lid: str) -> Location:
    st: WarhammerState = ctx.state  # type: ignore[assignment]
    loc = st.locations.get(lid)
    if loc is None:
        raise NotFound(f"No location {lid!r}", ru=f"Нет локации {lid!r}")
    return loc


def _protected(ctx: ActionContext, loc: Location, what: tuple[str, str], rule: str) -> None:
    if loc.protected_until is not None and ctx.now < loc.protected_until:
        refuse(
            f"{loc.name} was looted: it cannot {what[0]} until {loc.protected_until:%H:%M:%S}",
            f"{loc.name} разграблена: {what[1]} нельзя до {loc.protected_until:%H:%M:%S}",
            rule,
            "A-W-03",
        )


def _declare(ctx: ActionContext, loc: Location, why: str, rules: tuple[str, ...]) -> None:
    """The location is looted (W-LOOT-09)."""
    p = params(ctx)
    lt = loc.looting
    assert lt is not None
    until = None
    if p.loot_protection_anchor == "declared_looted":
        until = (ctx.now + timedelta(hours=p.loot_protection_hours)).isoformat()
    ctx.cancel(next((t.id for t in ctx.state.timers_for(loc.id, TIME_UP)), ""))
    ctx.emit(
        "looting.declared",
        {"location": loc.id, "why": why, "protected_until": until},
        (*rules, "A-W-02", "A-W-03"),
    )
    if p.loot_search_ends_on_declaration and lt.search_ended_at is None:
        ctx.cancel_all(loc.id, SEARCH_ENDS)
        ctx.emit("looting.search_ended", {"location": loc.id}, ("A-W-02",))


def register(rs: Ruleset) -> None:
    """Declare the looting actions, timers and the location status."""

    class RegisterLocation(BaseModel):
        id: str = Field(min_length=1, max_length=40)
        name: str = Field(min_length=1, max_length=100)
        wealth: int = Field(0, ge=0, le=1_000_000, description="hidden from players")
        regional_master: str = Field("", max_length=60)
        residents: list[str] = Field(default_factory=list, max_length=500)

    @rs.action(
        "register-location",
        RegisterLocation,
        roles=MASTERS,
        summary=("Register a game location and its wealth", "Зарегистрировать локацию"),
        rule_ids=("W-LOOT-04", "W-LOOT-05"),
    )
    def register_location(ctx: ActionContext, a: RegisterLocation) -> None:
        if a.id in state(ctx).locations:
            raise Conflict(f"Location {a.id!r} already exists", ru=f"Локация {a.id!r} уже есть")
        for r in a.residents:
            ctx.character(r)
        loc = Location(**a.model_dump())
        ctx.emit("location.registered", {"location": loc.model_dump(mode="json")}, ("W-LOOT-04",))

    class SetWealth(BaseModel):
        location: str
        wealth: int = Field(ge=0, le=1_000_000)
        cycle: int = Field(ge=0, le=100_000, description="the economic cycle")

    @rs.action(
        "set-location-wealth",
        SetWealth,
        roles=MASTERS,
        summary=("Set a location's wealth for an economic cycle", "Богатство локации на цикл"),
        rule_ids=("W-LOOT-04",),
    )
    def set_wealth(ctx: ActionContext, a: SetWealth) -> None:
        loc = _loc(ctx, a.location)
        if loc.wealth_cycle is not None and a.cycle <= loc.wealth_cycle:
            refuse(
                f"{loc.name}'s wealth was already set for cycle {loc.wealth_cycle}; it changes "
                "once per economic cycle",
                f"Богатство {loc.name} уже задано на цикл {loc.wealth_cycle}; оно меняется раз "
                "в экономический цикл",
                "W-LOOT-04",
            )
        ctx.emit(
            "location.wealth_changed",
            {"location": loc.id, "wealth": a.wealth, "cycle": a.cycle},
            ("W-LOOT-04",),
        )

    class ArmyAt(BaseModel):
        location: str
        army: str = Field(min_length=1, max_length=60)

    @rs.action(
        "start-assault",
        ArmyAt,
        roles=MASTERS,
        summary=("An Army assaults a location", "Армия штурмует локацию"),
        rule_ids=("W-LOOT-11", "W-LOOT-02"),
    )
    def assault(ctx: ActionContext, a: ArmyAt) -> None:
        loc = _loc(ctx, a.location)
        _protected(ctx, loc, ("be assaulted", "штурмовать"), "W-LOOT-11")
        ctx.emit(
            "location.assaulted",
            {"location": loc.id, "army": a.army, "wealth_before": loc.wealth},
            ("W-LOOT-02",),
        )

    @rs.action(
        "form-army",
        ArmyAt,
        roles=MASTERS,
        summary=("A location forms an Army", "Локация формирует Армию"),
        rule_ids=("W-LOOT-10",),
    )
    def form_army(ctx: ActionContext, a: ArmyAt) -> None:
        loc = _loc(ctx, a.location)
        _protected(ctx, loc, ("form Armies", "формировать Армии"), "W-LOOT-10")
        ctx.emit("army.formed", {"location": loc.id, "army": a.army}, ("W-LOOT-10",))

    class StartLooting(BaseModel):
        location: str
        army: str = Field(min_length=1, max_length=60, description="the winning Army")
        commander_orders: bool = Field(False, description="the Commander decided to loot")
        units: list[str] = Field(
            default_factory=list, max_length=1000, description="the winning Army's characters"
        )

    @rs.action(
        "start-looting",
        StartLooting,
        roles=MASTERS,
        summary=(
            "The winning Army loots: Supplies = pre-assault Wealth, 30 minutes",
            "Армия-победитель грабит: припасы = богатство до штурма, 30 минут",
        ),
        rule_ids=("W-LOOT-01", "W-LOOT-02", "W-LOOT-03"),
    )
    def start(ctx: ActionContext, a: StartLooting) -> None:
        p = params(ctx)
        loc = _loc(ctx, a.location)
        if not loc.assault or loc.assault["army"] != a.army:
            refuse(
                f"{a.army} has not won an assault on {loc.name}",
                f"{a.army} не брала штурмом {loc.name}",
                "W-LOOT-01",
                tip="Record the assault with `start-assault`.",
                tip_ru="Запишите штурм: `start-assault`.",
            )
        if not a.commander_orders:
            refuse(
                "Looting happens only if the winning Army's Commander decides so",
                "Разграбление — только по решению Командующего армии-победителя",
                "W-LOOT-01",
            )
        for u in a.units:
            ctx.character(u)
        until = ctx.now + timedelta(minutes=p.loot_search_minutes)
        ctx.schedule(
            SEARCH_ENDS, timedelta(minutes=p.loot_search_minutes), loc.id, {}, ("W-LOOT-03",)
        )
        ctx.schedule(TIME_UP, timedelta(minutes=p.loot_max_minutes), loc.id, {}, ("W-LOOT-09",))
        ctx.emit(
            "looting.started",
            {
                "location": loc.id,
                "army": a.army,
                "supplies": loc.assault["wealth_before"],
                "search_until": until.isoformat(),
                "units": a.units,
            },
            ("W-LOOT-01", "W-LOOT-02", "W-LOOT-03"),
        )

    class ResidentActs(BaseModel):
        location: str
        resident: str
        choice: Literal["hide", "heavy_wound", "suicide", "surrender", "fled", "killed"]
        fate: Literal["enslaved", "executed"] | None = Field(
            None, description="after surrendering: the general rules decide (W-LOOT-08)"
        )

    @rs.action(
        "resident-acts",
        ResidentActs,
        roles=MASTERS,
        summary=(
            "A resident hides, plays a heavy wound, commits suicide, surrenders, flees or dies",
            "Житель прячется, получает тяжёлое ранение, кончает с собой, сдаётся, бежит, гибнет",
        ),
        rule_ids=("W-LOOT-07", "W-LOOT-08", "W-LOOT-09"),
    )
    def resident(ctx: ActionContext, a: ResidentActs) -> None:
        loc = _loc(ctx, a.location)
        lt = loc.looting
        ch = ctx.character(a.resident)
        if lt is None or lt.declared_at is not None or a.resident not in lt.residents:
            refuse(
                f"{ch.name} is not a remaining resident of {loc.name} under looting",
                f"{ch.name} — не оставшийся житель разграбляемой локации {loc.name}",
                "W-LOOT-07",
            )
        checks.require_alive(ch)
        status = {"hide": "hidden", "heavy_wound": "heavy_wound"}.get(a.choice, a.choice)
        if a.choice == "surrender":
            status = "surrendered"
        ctx.emit(
            "looting.resident_acted",
            {
                "location": loc.id,
                "resident": ch.id,
                "choice": a.choice,
                "fate": a.fate,
                "status": status,
            },
            ("W-LOOT-07", "W-LOOT-08") if a.fate else ("W-LOOT-07",),
        )
        if a.choice == "heavy_wound" and ch.hits > 0:
            ctx.emit(
                "wound.hits_lost",
                {"character": ch.id, "lost": ch.hits, "hits": 0, "location": "fight with invaders"},
                ("W-LOOT-07",),
            )
            become_heavy(ctx, ch.id, "all_hits_lost", ("W-LOOT-07", "W-DEF-02"))
        elif a.choice in ("suicide", "killed") or a.fate == "executed":
            die(ctx, ch.id, a.fate or a.choice, ("W-LOOT-07", "W-LOOT-08"))
        if all(s in RESOLVED for s in lt.residents.values()):
            _declare(ctx, loc, "every resident killed, fled or surrendered", ("W-LOOT-09",))

    @rs.on_timer(TIME_UP)
    def time_up(ctx: ActionContext, t: Timer) -> None:
        loc = _loc(ctx, t.subject)
        if loc.looting is not None and loc.looting.declared_at is None:
            _declare(ctx, loc, "30 minutes passed", ("W-LOOT-09",))

    @rs.on_timer(SEARCH_ENDS)
    def search_ends(ctx: ActionContext, t: Timer) -> None:
        ctx.emit("looting.search_ended", {"location": t.subject}, ("W-LOOT-03",))

    class LocationOnly(BaseModel):
        location: str

    @rs.action(
        "army-leaves",
        LocationOnly,
        roles=MASTERS,
        summary=(
            "The winning Army leaves: 4 hours without Armies or assaults",
            "Армия-победитель уходит: 4 часа без армий и штурмов",
        ),
        rule_ids=("W-LOOT-10", "W-LOOT-11", "A-W-03"),
    )
    def leaves(ctx: ActionContext, a: LocationOnly) -> None:
        p = params(ctx)
        loc = _loc(ctx, a.location)
        lt = loc.looting
        if lt is None or lt.army_left_at is not None:
            refuse(f"No army is looting {loc.name}", f"{loc.name} никто не грабит", "W-LOOT-10")
        if lt.declared_at is None:
            _declare(ctx, loc, "the army left", ("W-LOOT-09",))
        until = None
        if p.loot_protection_anchor == "army_exit":
            until = (ctx.now + timedelta(hours=p.loot_protection_hours)).isoformat()
        ctx.cancel_all(loc.id)
        ctx.emit(
            "looting.army_left",
            {"location": loc.id, "army": lt.army, "protected_until": until},
            ("W-LOOT-10", "W-LOOT-11", "A-W-03"),
        )

    @rs.query(
        "location-status",
        LocationOnly,
        summary=("A location: looting, protection (wealth: masters only)", "Состояние локации"),
        rule_ids=("W-LOOT-05", "W-LOOT-09", "W-LOOT-10"),
    )
    def status(ctx: QueryContext, a: LocationOnly) -> dict[str, Any]:
        loc = _loc(ctx, a.location)
        lt = loc.looting
        protected = loc.protected_until is not None and ctx.now < loc.protected_until
        out: dict[str, Any] = {
            "summary": ctx.tr(
                f"{loc.name}: "
                + ("looted" if lt and lt.declared_at else "looting" if lt else "calm")
                + (f", protected until {loc.protected_until:%H:%M:%S}" if protected else ""),
                f"{loc.name}: "
                + ("разграблена" if lt and lt.declared_at else "грабят" if lt else "спокойно")
                + (f", защищена до {loc.protected_until:%H:%M:%S}" if protected else ""),
            ),
            "protected_until": loc.protected_until.isoformat()
            if protected and loc.protected_until
            else None,
            "looting": None
            if lt is None
            else {
                "army": lt.army,
                "started": lt.started.isoformat(),
                "search_until": lt.search_until.isoformat(),
                "declared_at": lt.declared_at.isoformat() if lt.declared_at else None,
                "army_left_at": lt.army_left_at.isoformat() if lt.army_left_at else None,
                "residents": lt.residents,
            },
        }
        if ctx.role is Role.MASTER:  # W-LOOT-05: wealth is found out in play, not here
            out["wealth"] = loc.wealth
            out["supplies"] = lt.supplies if lt else None
        return out
