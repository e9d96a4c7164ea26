"""Epidemics (эпидемия) and how they end: checklist-000 §4.5.5, §5.5; A-W-22..25.

A carrier hands an epidemic certificate with its 30 stickers to the location's regional
master (W-EPI-06/07). The masters then run waves at the interval they set (W-EPI-02):
each wave lasts at most 5 minutes (W-EPI-05) and hands one sticker to every unprotected
character met in the location until the wave's stickers run out (W-EPI-03/04).

It ends on its own, checked after every wave and every journal cure (A-W-24):

* quarantine (карантин): at most 3 infected over two waves in a row (W-EPI-10; A-W-23);
* intensive treatment (усиленное лечение): the location's hospitals cured more than half
  of everyone it infected, counted from their journals (W-EPI-08/09).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel, Field

from lazaretto.core.engine import ActionContext, QueryContext
from lazaretto.core.errors import NotFound
from lazaretto.core.events import Event
from lazaretto.core.ruleset import Ruleset
from lazaretto.core.timers import Timer
from lazaretto.rulesets.warhammer_larp import checks
from lazaretto.rulesets.warhammer_larp.checks import params, refuse, state
from lazaretto.rulesets.warhammer_larp.diseases import disease
from lazaretto.rulesets.warhammer_larp.infection import deliver
from lazaretto.rulesets.warhammer_larp.models import Epidemic, Wave
from lazaretto.rulesets.warhammer_larp.params import WarhammerParams
from lazaretto.rulesets.warhammer_larp.protection import protection
from lazaretto.rulesets.warhammer_larp.state import REDUCERS, WarhammerState
from lazaretto.rulesets.warhammer_larp.stickers import MASTER_STOCK, move
from lazaretto.rulesets.warhammer_larp.values import END_REASONS
from lazaretto.rulesets.warhammer_larp.wounds import MASTERS, STAFF

WAVE_END = "epidemic_wave_end"
WAVE_DUE = "epidemic_wave_due"


@REDUCERS.on("epidemic.started")
def _started(st: WarhammerState, ev: Event) -> None:
    epi = Epidemic.model_validate(ev.payload["epidemic"])
    st.epidemics[epi.id] = epi
    st.certificates[epi.certificate]["used"] = True


@REDUCERS.on("epidemic.wave_started")
def _wave(st: WarhammerState, ev: Event) -> None:
    p = ev.payload
    epi = st.epidemics[p["id"]]
    epi.waves.append(
        Wave(
            no=p["no"],
            started=ev.at,
            ends=datetime.fromisoformat(p["ends"]),
            infected=p["infected"],
            handed=p["handed"],
        )
    )
    epi.stickers = [c for c in epi.stickers if c not in p["handed"]]
    epi.infected += [c for c in p["infected"] if c not in epi.infected]
    if "next_wave_at" in p:  # W-EPI-02: from its start, the next wave is an interval away
        epi.next_wave_at = datetime.fromisoformat(p["next_wave_at"])


@REDUCERS.on("epidemic.wave_ended")
def _wave_ended(st: WarhammerState, ev: Event) -> None:
    epi = st.epidemics[ev.payload["id"]]
    epi.waves[-1].closed = True
    epi.next_wave_at = datetime.fromisoformat(ev.payload["next_wave_at"])


@REDUCERS.on("epidemic.wave_due")
def _wave_due(st: WarhammerState, ev: Event) -> None:
    """A reminder for the masters: the next wave may start."""


@REDUCERS.on("epidemic.ended")
def _ended(st: WarhammerState, ev: Event) -> None:
    epi = st.epidemics[ev.payload["id"]]
    epi.status, epi.ended_at, epi.end_reason = "ended", ev.at, ev.payload["reason"]
    epi.end_rule_ids = list(ev.rule_ids)


def quarantine_met(epi: Epidemic, p: WarhammerParams) -> bool:
    """W-EPI-10, A-W-23: the last waves infected few enough."""
    counts = [len(w.infected) for w in epi.waves if w.closed]
    if len(counts) < p.quarantine_waves:
        return False
    last = counts[-p.quarantine_waves :]
    if p.quarantine_mode == "sum":
        return sum(last) <= p.quarantine_max_infected
    return all(c <= p.quarantine_max_infected for c in last)


def cures_counted(st: WarhammerState, epi: Epidemic, p: WarhammerParams) -> set[str]:
    """Patients cured of the epidemic's disease since it started, from the journals of the
    location's hospitals (W-EPI-09); other cures only if A-W-24 says so."""
    local = {h.id for h in st.hospitals.values() if h.location == epi.location}
    cured = {
        c["patient"]
        for c in st.journal_cures
        if c["disease"] == epi.disease and c["hospital"] in local and _at(c) >= epi.started
    }
    if p.intensive_counts_nonhospital_cures:
        cured |= {
            c["patient"]
            for c in st.cures
            if c["disease"] == epi.disease and c["how"] != "hospital" and _at(c) >= epi.started
        }
    return cured


def _at(record: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(record["at"]))


def intensive_met(st: WarhammerState, epi: Epidemic, p: WarhammerParams) -> bool:
    """W-EPI-08: more than half of the infected cured (A-W-24: strictly more)."""
    infected = len(epi.infected)
    return infected > 0 and len(cures_counted(st, epi, p)) > p.intensive_threshold * infected


def end_if_over(ctx: ActionContext, epi: Epidemic) -> bool:
    """End ``epi`` if quarantine or intensive treatment says so; True if it ended."""
    p, st = params(ctx), state(ctx)
    if epi.status != "active":
        return False
    if intensive_met(st, epi, p):
        cured = len(cures_counted(st, epi, p))
        reason = "intensive_treatment"
        detail = f"{cured} of {len(epi.infected)} infected cured"
        rules: tuple[str, ...] = ("W-EPI-08", "W-EPI-09", "A-W-24")
    elif quarantine_met(epi, p):
        counts = [len(w.infected) for w in epi.waves if w.closed][-p.quarantine_waves :]
        reason = "quarantine"
        detail = f"waves infected {' + '.join(map(str, counts))} ({p.quarantine_mode} mode)"
        rules = ("W-EPI-10", "A-W-23")
    else:
        return False
    ctx.cancel_all(epi.id)
    move(ctx, list(epi.stickers), "stock", MASTER_STOCK, "returned", rules, by=epi.id)
    ctx.emit("epidemic.ended", {"id": epi.id, "reason": reason, "detail": detail}, rules)
    return True


def check_after_cure(ctx: ActionContext, code: str, hospital: str | None) -> None:
    """A journal cure of ``code`` in ``hospital``: check intensive treatment (A-W-24)."""
    st = state(ctx)
    where = st.hospitals[hospital].location if hospital in st.hospitals else None
    for epi in list(st.epidemics.values()):
        if (
            epi.status == "active"
            and epi.disease == code
            and (epi.location == where or params(ctx).intensive_counts_nonhospital_cures)
        ):
            end_if_over(ctx, epi)


def next_wave(epi: Epidemic, started: datetime, ends: datetime) -> datetime:
    """When the wave after one that ``started`` and ``ends`` may start (W-EPI-02; A-W-22:
    the master's interval, counted from a wave's start): never while it still runs
    (W-EPI-05). Known from the wave's first minute, so the masters' screens count down to
    it at once, not to the deadline that has just passed."""
    return max(ends, started + timedelta(minutes=epi.interval_minutes))


def _epidemic(ctx: ActionContext | QueryContext, eid: str) -> Epidemic:
    st: WarhammerState = ctx.state  # type: ignore[assignment]
    epi = st.epidemics.get(eid)
    if epi is None:
        raise NotFound(f"No epidemic {eid!r}", ru=f"Нет эпидемии {eid!r}")
    return epi


class WavePresence(BaseModel):
    """A character the masters meet in the location during a wave."""

    character: str
    outfit: list[str] | None = Field(None, max_length=20, description="as worn now")


def register(rs: Ruleset) -> None:
    """Declare the epidemic actions, timers and status."""

    class StartEpidemic(BaseModel):
        carrier: str = Field(description="the carrier who activates it")
        certificate: str = Field(description="epidemic certificate id")
        location: str = Field(min_length=1, max_length=40, description="the location infected")
        regional_master: str = Field(
            min_length=1, max_length=60, description="who receives the certificate"
        )
        interval_minutes: int | None = Field(None, ge=1, le=10_000, description="between waves")
        wave_stickers: int | None = Field(None, ge=1, le=1000, description="stickers per wave")

    @rs.action(
        "start-epidemic",
        StartEpidemic,
        roles=MASTERS,
        summary=(
            "A carrier hands an epidemic certificate to the regional master",
            "Разносчик отдаёт сертификат эпидемии региональному мастеру",
        ),
        rule_ids=("W-EPI-01", "W-EPI-06", "W-EPI-07", "W-LAB-16", "A-W-22"),
    )
    def start(ctx: ActionContext, a: StartEpidemic) -> None:
        p, st = params(ctx), state(ctx)
        carrier = ctx.character(a.carrier)
        checks.require_alive(carrier)
        if not carrier.has_skill(p.carrier_skill):
            refuse(
                f"{carrier.name} does not have the {p.carrier_skill} skill",
                f"У {carrier.name} нет умения «Разносчик болезни»",
                "W-EPI-06",
                "W-DEF-12",
            )
        cert = st.certificates.get(a.certificate)
        if cert is None or cert["kind"] != "epidemic":
            raise NotFound(
                f"No epidemic certificate {a.certificate!r}",
                ru=f"Нет сертификата эпидемии {a.certificate!r}",
            )
        if cert["holder"] != carrier.id or cert["used"]:
            refuse(
                f"Certificate {a.certificate} is not an unused one in {carrier.name}'s hands",
                f"Сертификат {a.certificate} не у {carrier.name} или уже использован",
                "W-EPI-06",
            )
        need = p.epidemic_required_stickers
        if len(cert["stickers"]) != need:
            refuse(
                f"An epidemic certificate comes with {need} stickers of one disease; "
                f"{a.certificate} has {len(cert['stickers'])}",
                f"К сертификату эпидемии прилагается {need} наклеек одной болезни; "
                f"у {a.certificate} — {len(cert['stickers'])}",
                "W-LAB-16",
                "A-W-31",
                tip="Attach stickers with `attach-stickers`.",
                tip_ru="Приложите наклейки: `attach-stickers`.",
            )
        loc = st.locations.get(a.location)
        if loc is not None and loc.regional_master and loc.regional_master != a.regional_master:
            refuse(
                f"The regional master of {loc.name} is {loc.regional_master}, "
                f"not {a.regional_master}",
                f"Региональный мастер локации {loc.name} — {loc.regional_master}, "
                f"а не {a.regional_master}",
                "W-EPI-07",
            )
        interval = a.interval_minutes or p.epidemic_wave_interval_minutes
        per_wave = a.wave_stickers or p.epidemic_wave_stickers
        if interval is None or per_wave is None:
            refuse(
                "The master sets the interval between waves and the stickers per wave",
                "Интервал между волнами и число наклеек в волне задаёт мастер",
                "W-EPI-02",
                "W-EPI-04",
                "A-W-22",
                tip="Give --interval-minutes and --wave-stickers.",
                tip_ru="Укажите --interval-minutes и --wave-stickers.",
            )
        eid = f"epi-{len(st.epidemics) + 1}"
        stickers = list(cert["stickers"])[: p.epidemic_total_stickers]
        epi = Epidemic(
            id=eid,
            certificate=a.certificate,
            disease=cert["disease"],
            location=a.location,
            regional_master=a.regional_master,
            carrier=carrier.id,
            started=ctx.now,
            interval_minutes=interval,
            wave_stickers=per_wave,
            stickers=stickers,
            next_wave_at=ctx.now,
        )
        move(
            ctx,
            stickers,
            "epidemic",
            eid,
            "handed to the regional master",
            ("W-EPI-07",),
            by=carrier.id,
            note=a.regional_master,
        )
        ctx.emit(
            "epidemic.started",
            {"epidemic": epi.model_dump(mode="json")},
            ("W-EPI-01", "W-EPI-06", "W-EPI-07"),
        )

    class RunWave(BaseModel):
        epidemic: str
        present: list[WavePresence] = Field(
            default_factory=list, max_length=1000, description="characters met, in order"
        )
        minutes: int = Field(5, ge=1, le=60, description="how long the wave lasts (at most 5)")

    @rs.action(
        "epidemic-wave",
        RunWave,
        roles=MASTERS,
        summary=(
            "Run an epidemic wave: stickers to the unprotected met in the location",
            "Волна эпидемии: наклейки всем встреченным в локации без защиты",
        ),
        rule_ids=("W-EPI-02", "W-EPI-03", "W-EPI-04", "W-EPI-05"),
    )
    def wave(ctx: ActionContext, a: RunWave) -> None:
        p = params(ctx)
        epi = _epidemic(ctx, a.epidemic)
        if epi.status != "active":
            refuse(
                f"Epidemic {epi.id} is over ({epi.end_reason})",
                f"Эпидемия {epi.id} закончилась ({_reason_ru(epi.end_reason)})",
                *epi.end_rule_ids,
            )
        if a.minutes > p.epidemic_wave_max_minutes:
            refuse(
                f"A wave lasts at most {p.epidemic_wave_max_minutes} minutes, not {a.minutes}",
                f"Волна длится не больше {p.epidemic_wave_max_minutes} минут, а не {a.minutes}",
                "W-EPI-05",
            )
        if epi.waves and not epi.waves[-1].closed:
            refuse(
                f"Wave {epi.waves[-1].no} is still running until {epi.waves[-1].ends:%H:%M:%S}",
                f"Волна {epi.waves[-1].no} ещё идёт до {epi.waves[-1].ends:%H:%M:%S}",
                "W-EPI-05",
            )
        if ctx.now < epi.next_wave_at:
            refuse(
                f"The next wave of {epi.id} is due at {epi.next_wave_at:%H:%M:%S}",
                f"Следующая волна {epi.id} — в {epi.next_wave_at:%H:%M:%S}",
                "W-EPI-02",
            )
        st = state(ctx)
        no = len(epi.waves) + 1
        pool = list(epi.stickers)
        handed: list[str] = []
        infected: list[str] = []
        decisions: list[dict[str, Any]] = []
        seen: set[str] = set()
        for pr in a.present:
            ch = ctx.character(pr.character)
            if ch.id in seen:
                continue
            seen.add(ch.id)
            shield = protection(ctx, ch, "epidemic", epi.disease, pr.outfit)
            if not ch.alive:
                decisions.append({"character": ch.id, "why": "dead", "rule": "W-DEF-01"})
            elif shield is not None:
                decisions.append(
                    {"character": ch.id, "why": f"protected ({shield[0]})", "rule": shield[1][0]}
                )
            elif len(handed) >= epi.wave_stickers or not pool:
                decisions.append(
                    {"character": ch.id, "why": "no stickers left", "rule": "W-EPI-04"}
                )
            else:
                code = pool[0]
                got = deliver(
                    ctx,
                    epi.id,
                    ch,
                    [code],
                    "epidemic",
                    f"epidemic:{epi.id}",
                    ("W-EPI-03",),
                    pr.outfit,
                )
                if got.kept:
                    decisions.append(
                        {"character": ch.id, "why": got.reason, "rule": got.rule_ids[0]}
                    )
                    continue
                pool.pop(0)
                handed.append(code)
                counts = got.stuck and (
                    st.stickers[code].affected or params(ctx).count_nonsusceptible_as_infected
                )
                if counts:  # A-W-25: a spared race is not counted as infected
                    infected.append(ch.id)
                decisions.append(
                    {"character": ch.id, "sticker": code, "why": "stuck" if got.stuck else "held"}
                )
        t = ctx.schedule(WAVE_END, timedelta(minutes=a.minutes), epi.id, {"no": no}, ("W-EPI-05",))
        ctx.emit(
            "epidemic.wave_started",
            {
                "id": epi.id,
                "no": no,
                "ends": t.deadline.isoformat(),
                "next_wave_at": next_wave(epi, ctx.now, t.deadline).isoformat(),
                "handed": handed,
                "infected": infected,
                "count": len(infected),
                "decisions": decisions,
            },
            ("W-EPI-03", "W-EPI-04", "W-EPI-05", "A-W-22", "A-W-25"),
        )

    @rs.on_timer(WAVE_END)
    def wave_end(ctx: ActionContext, t: Timer) -> None:
        epi = _epidemic(ctx, t.subject)
        w = epi.waves[-1]
        due = next_wave(epi, w.started, ctx.now)
        ctx.emit(
            "epidemic.wave_ended",
            {"id": epi.id, "no": w.no, "count": len(w.infected), "next_wave_at": due.isoformat()},
            ("W-EPI-02", "W-EPI-05"),
        )
        if not end_if_over(ctx, epi):
            ctx.schedule(WAVE_DUE, due - ctx.now, epi.id, {"no": w.no + 1}, ("W-EPI-02",))

    @rs.on_timer(WAVE_DUE)
    def wave_due(ctx: ActionContext, t: Timer) -> None:
        ctx.emit("epidemic.wave_due", {"id": t.subject, "no": t.payload["no"]}, ("W-EPI-02",))

    class Status(BaseModel):
        epidemic: str | None = Field(None, description="one epidemic (default: all)")

    @rs.query(
        "epidemic-status",
        Status,
        roles=STAFF,
        summary=("Live status of epidemics: waves, infected, cures", "Состояние эпидемий"),
        rule_ids=("W-EPI-02", "W-EPI-08", "W-EPI-09", "W-EPI-10"),
    )
    def status(ctx: QueryContext, a: Status) -> dict[str, Any]:
        st: WarhammerState = ctx.state  # type: ignore[assignment]
        p: WarhammerParams = ctx.params
        epis = [_epidemic(ctx, a.epidemic)] if a.epidemic else list(st.epidemics.values())
        rows = [_status_row(ctx, st, p, e) for e in epis]
        if not rows:
            return {"summary": ctx.tr("No epidemics", "Эпидемий нет"), "epidemics": []}
        return {"summary": " | ".join(r["line"] for r in rows), "epidemics": rows}


def _reason_ru(reason: str | None) -> str:
    """How an epidemic ended, in Russian (карантин, интенсивное лечение)."""
    return END_REASONS.get(reason or "", (reason, reason))[1] or ""


def _status_row(
    ctx: QueryContext, st: WarhammerState, p: WarhammerParams, e: Epidemic
) -> dict[str, Any]:
    name = st.diseases.get(e.disease, {}).get("name", e.disease)
    cured = sorted(cures_counted(st, e, p))
    counts = [len(w.infected) for w in e.waves]
    if e.status == "ended":
        line = ctx.tr(
            f"{e.id} ({name}, {e.location}): ended {e.ended_at:%H:%M:%S} by {e.end_reason} "
            f"[{', '.join(e.end_rule_ids)}]",
            f"{e.id} ({name}, {e.location}): окончена {e.ended_at:%H:%M:%S}: "
            f"{_reason_ru(e.end_reason)} "
            f"[{', '.join(e.end_rule_ids)}]",
        )
    else:
        line = ctx.tr(
            f"{e.id} ({name}, {e.location}): active, {len(e.waves)} wave(s) {counts}, "
            f"{len(e.infected)} infected, {len(cured)} cured, next wave {e.next_wave_at:%H:%M:%S}",
            f"{e.id} ({name}, {e.location}): идёт, волн {len(e.waves)} {counts}, заражено "
            f"{len(e.infected)}, вылечено {len(cured)}, следующая волна {e.next_wave_at:%H:%M:%S}",
        )
    return {
        "line": line,
        "id": e.id,
        "disease": e.disease,
        "location": e.location,
        "status": e.status,
        "end_reason": e.end_reason,
        "end_rule_ids": e.end_rule_ids,
        "ended_at": e.ended_at.isoformat() if e.ended_at else None,
        "waves": [
            {
                "no": w.no,
                "started": w.started.isoformat(),
                "ends": w.ends.isoformat(),
                "infected": len(w.infected),
                "stickers": len(w.handed),
                "closed": w.closed,
            }
            for w in e.waves
        ],
        "infected": len(e.infected),
        "cured": len(cured),
        "cures_needed_over": p.intensive_threshold * len(e.infected),
        "quarantine": {
            "mode": p.quarantine_mode,
            "waves": p.quarantine_waves,
            "max_infected": p.quarantine_max_infected,
            "last": counts[-p.quarantine_waves :],
        },
        "stickers_left": len(e.stickers),
        "next_wave_at": e.next_wave_at.isoformat() if e.status == "active" else None,
        "disease_name": disease_name(st, e.disease),
    }


def disease_name(st: WarhammerState, code: str) -> str:
    """The catalogue name of ``code``."""
    return str(st.diseases.get(code, {}).get("name", code))


__all__ = ["check_after_cure", "disease", "register"]
