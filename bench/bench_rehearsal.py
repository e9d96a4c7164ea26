"""The game-weekend rehearsal (issue 25): a LARP day through the real server, a Wi-Fi
storm, a SIGKILL and a backup included, judged by what a master would check.

    .venv/bin/python bench/bench_rehearsal.py [--quick] [--backends sqlite,pg]

``lazaretto serve`` runs in a child process (SQLite, one process; PostgreSQL, two
worker processes: the URL from ``--pg`` or ``LAZARETTO_TEST_PG``, else a throw-away
cluster when PostgreSQL's binaries are installed). The campaign, warhammer-larp with
3,000 characters (``--quick``: 300), is seeded through the service layer before the
server starts, as a master would import the roster before the gates open. Then
simulated phones play a compressed game day over HTTP, with httpx and asyncio: the
scenario is a timeline (the storm must start in the middle of a battle, the kill
between two taps), which Locust's independent users would have to be bent into, and
httpx is already what the tests speak; each phone is its own master's (one user may
have only so many changes in flight), with its own connections.

**The clock.** The campaign's clock is manual and the master's laptop moves it one
campaign minute per tick (``POST …/clock?op=advance``, ``--tick`` real seconds, 0.5 s:
a campaign hour in 30 s; the countdowns fire as on a running clock). Taps made online
carry no time (placed at the clock's now); taps from a phone's outbox carry the time
they were made, as ``static/outbox.js`` sends them. In a tick each phone taps (or not)
at a moment of its own within the tick, as healers do; ``--together`` makes them all
tap at its start, with the clock's move: the harshest burst, not a battle's.

**The day.** A battle (60 healers' phones, ``--quick``: 20: wounds, bandages,
admissions to the hospital, each tap with an Idempotency-Key); during it 30 phones
(``--quick``: 10) lose the Wi-Fi for 20 campaign minutes and reconnect within 5 s of
each other, each sending its outbox in order, up to eight taps a request
(``…/outbox``, as ``static/outbox.js``); then the master's outbreak and epidemic wave;
a second battle in which the server is SIGKILLed and restarted (the phones resend what
got no answer, with the same keys) and a backup is taken while it runs; then a paper
log of 200 records (``--quick``: 40) typed in after the battle at the times written on
it, and 20 mis-taps (``--quick``: 5) undone. 100 pages (``--quick``: 10) watch
characters' cards over the live stream meanwhile.

**The checks**, MET / NOT MET per line. Correctness (``--quick`` prints only these,
and exits 1 if one is NOT MET): ``replay`` clean and ``repair --dry-run`` finds
nothing; every tap answered, and recorded exactly once (0 lost, 0 doubled, counted in
the database against the record numbers the answers named, across the SIGKILL); every
outbox drained; the master's outbreak and wave placed; every watching page shows the
final card; the backup restores into a campaign whose records are the live one's up
to the backup's last record and whose state replays clean. Figures (the full run): the
storm drained within 10 s of reconnecting; online taps p99 <= 150 ms during the storm
and <= 100 ms outside it; the server's memory at the end <= 1.3x after warm-up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_load import KIT, load, p, postgres  # noqa: E402
from tests.process.server import LAZARETTO, Server  # noqa: E402

from lazaretto.core.character import Character  # noqa: E402
from lazaretto.core.clock import ClockMode  # noqa: E402
from lazaretto.core.ruleset import Role  # noqa: E402
from lazaretto.service.accounts import AccountService  # noqa: E402
from lazaretto.service.campaigns import CampaignService  # noqa: E402
from lazaretto.service.play import OUTBOX_MAX  # noqa: E402
from lazaretto.service.recorder import Draft  # noqa: E402
from lazaretto.store.db import Database  # noqa: E402

CAMPAIGN = "weekend"
START = datetime(2026, 6, 13, 10, 0)
PASSWORD = "rehearsal-password"
DRAIN_S = 10.0
STORM_P99_MS = 150.0
CALM_P99_MS = 100.0
RSS_RATIO = 1.3
GIVE_UP_S = 120.0
"""A phone keeps resending a tap that got no answer for this long (a restart included)."""


@dataclass
class Plan:
    characters: int = 3000
    healers: int = 60
    offline: int = 30
    watchers: int = 100
    battle: int = 60
    """Campaign minutes of each battle."""
    paper: int = 200
    undos: int = 20
    rate: float = 0.4
    """The chance that a phone taps in a tick."""
    tick: float = 0.5
    reconnect_s: float = 5.0
    together: bool = False
    """All phones tap at the start of the tick (else each at its own moment in it)."""


QUICK = Plan(characters=300, healers=20, offline=10, watchers=10, battle=30, paper=40,
             undos=5, rate=0.4, tick=0.3, reconnect_s=2.0)


@dataclass
class Tap:
    key: str
    action: str
    body: dict[str, Any]
    made: float = 0.0
    """perf_counter when it was sent first (online) or made (outbox)."""
    status: int | None = None
    record: int | None = None
    reason: str = ""
    late: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    """Made offline: sent from the outbox with the time it was made."""


@dataclass
class Day:
    """What the phones sent and heard, for the checks."""

    plan: Plan
    url: str
    now: datetime = START
    taps: list[Tap] = field(default_factory=list)
    calm: list[float] = field(default_factory=list)
    stormy: list[float] = field(default_factory=list)
    slow: Counter[str] = field(default_factory=Counter)
    """Online taps outside the storm over the target, by the campaign minute they fell in."""
    storm: tuple[float, float] | None = None
    """perf_counter of the first reconnect and of the last outbox answered."""
    resent: int = 0
    wounded: list[str] = field(default_factory=list)
    rss: dict[str, int] = field(default_factory=dict)
    """The server's memory (KiB) when warm, before the kill, warm again, at the end."""
    cpu: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    """At the same moments: CPU seconds of the server and of this client, and the time."""
    lag: list[float] = field(default_factory=list)
    """How late this client's event loop woke for a 10 ms sleep (s): its own backlog."""
    changes: Counter[str] = field(default_factory=Counter)
    opened: set[str] = field(default_factory=set)
    """The pages that have their card and their live stream (told of its first event)."""
    trace: list[tuple[float, str, float, bool]] = field(default_factory=list)
    """Each measured online tap: wall time it was sent, campaign minute, seconds it
    took, during the storm or not (``--trace``: where the slow ones fall)."""

    def in_storm(self, t: float) -> bool:
        return self.storm is not None and self.storm[0] <= t <= (self.storm[1] or 1e18)


def seed(db_url: str, plan: Plan) -> list[str]:
    """The campaign before the gates open: the roster in one record, healers with their
    kits and mats, a hospital with an open journal, a disease with its certificates for
    the master's outbreak and epidemic; a master account per phone, one for the master's
    laptop and one for the pages. Returns their Bearer tokens, the master's first."""
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        svc.create_campaign(CAMPAIGN, "warhammer-larp", clock=ClockMode.MANUAL, start=START,
                            seed=25)
        people = [Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3)
                  for i in range(plan.characters)]
        people += [Character(id=f"h{i}", name=f"Healer {i}", hits_max=3, hits=3,
                             skills=["Healer"]) for i in range(plan.healers)]
        people += [Character(id=k, name=k, hits_max=3, hits=3, skills=["Carrier"])
                   for k in ("K1", "K2")]
        roster = [c.model_dump(mode="json") for c in people]
        svc.submit(CAMPAIGN, None, draft=Draft("character", input={"characters": roster}))\
            .result()
        setup: list[tuple[str, dict[str, Any]]] = [
            ("register-location", {"id": "town", "name": "Town", "regional_master": "Olga"}),
            ("register-hospital", {"id": "h1", "name": "Shallya", "number": "7",
                                   "tables": [{"id": "t1"}, {"id": "t2"}],
                                   "beds": [{"id": f"b{i}"} for i in range(40)],
                                   "location": "town"}),
            ("open-journal", {"hospital": "h1", "journal": "day"}),
            ("define-disease", {"code": "GF", "name": "Grey fever"}),
            ("issue-certificate", {"kind": "outbreak", "disease": "GF", "holder": "K1"}),
            ("issue-certificate", {"kind": "epidemic", "disease": "GF", "holder": "K2"}),
        ]
        for i in range(plan.healers):
            setup += [
                ("check-kit", {"healer": f"h{i}", "items": KIT}),
                ("register-mat", {"id": f"m{i}", "healer": f"h{i}", "length_cm": 180,
                                  "width_cm": 60}),
            ]
        for action, body in setup:
            svc.act(CAMPAIGN, action, body)
        certs = {str(e.payload["kind"]): str(e.payload["id"])
                 for e in svc.events(CAMPAIGN, ("certificate.issued",))}
        for kind, count in (("outbreak", 10), ("epidemic", 30)):
            svc.act(CAMPAIGN, "attach-stickers",
                    {"certificate": certs[kind], "count": count, "source": "master"})
        svc.act(CAMPAIGN, "hand-certificate", {"certificate": certs["outbreak"], "holder": "K1"})
        tokens = []
        for i in range(plan.healers + 2):
            user = accounts.create_user(f"m{i}-{CAMPAIGN}", PASSWORD)
            accounts.add_member(user, CAMPAIGN, Role.MASTER)
            tokens.append(accounts.login(f"m{i}-{CAMPAIGN}", PASSWORD).token)
        return [*tokens, json.dumps(certs)]
    finally:
        db.close()


class Phone:
    """A healer's phone: online it sends each tap and waits for the answer; offline it
    keeps the taps in its outbox, with the time each was made, and sends them in order
    when the Wi-Fi is back; a tap that got no answer is resent with its key."""

    def __init__(self, day: Day, n: int, token: str) -> None:
        self.day, self.n = day, n
        self.auth = {"Authorization": f"Bearer {token}"}
        self.client = httpx.AsyncClient(base_url=day.url, timeout=httpx.Timeout(30, read=60))
        self.online = True
        self.outbox: list[Tap] = []
        self.rng = random.Random(n)
        self.measured = True

    async def tap(self, action: str, body: dict[str, Any]) -> Tap:
        tap = Tap(str(uuid.UUID(int=self.rng.getrandbits(128))), action, body)
        self.day.taps.append(tap)
        if not self.online:
            tap.body, tap.late = {**body, "at": self.day.now.isoformat()}, True
            self.outbox.append(tap)
            return tap
        await self.send(tap)
        return tap

    async def send(self, tap: Tap, *, measured: bool = True) -> None:
        tap.made = began = time.perf_counter()
        failed = False
        while time.perf_counter() - began < GIVE_UP_S:
            try:
                r = await self.client.post(
                    f"/api/campaigns/{CAMPAIGN}/actions/{tap.action}", json=tap.body,
                    headers={**self.auth, "Idempotency-Key": tap.key},
                )
            except httpx.TransportError:  # the server is down or restarting: again
                failed = True
                self.day.resent += 1
                await asyncio.sleep(0.25)
                continue
            if r.status_code >= 500 or r.status_code == 429:
                failed = True
                await asyncio.sleep(0.25)
                continue
            tap.status = r.status_code
            answer = r.json()
            tap.record = answer.get("record") if r.status_code == 200 else None
            tap.events = answer.get("events", []) if r.status_code == 200 else []
            tap.reason = "" if r.status_code == 200 else str(answer.get("detail", answer))
            break
        took = time.perf_counter() - began
        if measured and self.measured and not failed and tap.status is not None:
            stormy, minute = self.day.in_storm(began), f"{self.day.now:%H:%M}"
            (self.day.stormy if stormy else self.day.calm).append(took)
            self.day.trace.append((time.time() - took, minute, took, stormy))
            if not stormy and took * 1000 > CALM_P99_MS:
                self.day.slow[minute] += 1

    async def play(self) -> None:
        """One tap of a battle: a wound (60 %), a bandage or an admission to the
        hospital of someone this phone's healer wounded... treated."""
        if self.rng.random() >= self.day.plan.rate:
            return
        if not self.day.plan.together:
            await asyncio.sleep(self.rng.uniform(0, self.day.plan.tick))
        roll, healer = self.rng.random(), f"h{self.n}"
        who = f"c{self.rng.randrange(self.day.plan.characters)}"
        if roll < 0.6 or not self.day.wounded:
            self.day.wounded.append(who)
            await self.tap("lose-hits", {"character": who, "hits": 1, "location": "arm"})
        elif roll < 0.9:
            await self.tap("apply-bandage", {"healer": healer, "patient":
                           self.rng.choice(self.day.wounded), "bandages": 1, "mat": f"m{self.n}"})
        else:
            await self.tap("admit", {"hospital": "h1", "healer": healer,
                                     "patient": self.rng.choice(self.day.wounded)})

    async def reconnect(self, after: float) -> None:
        await asyncio.sleep(after)
        self.online = True
        while self.outbox:
            await self.send_outbox(self.outbox[:OUTBOX_MAX])

    async def send_outbox(self, taps: list[Tap]) -> None:
        """Up to OUTBOX_MAX waiting taps in one request (``…/outbox``), as
        ``static/outbox.js`` sends them; the answered ones leave the outbox, a tap that
        found no turn (429) stays with those after it; no answer: all sent again."""
        body = {"taps": [{"action": t.action, "input": {k: v for k, v in t.body.items()
                                                          if k != "at"},
                          "at": t.body["at"], "key": t.key} for t in taps]}
        began = time.perf_counter()
        while time.perf_counter() - began < GIVE_UP_S:
            try:
                r = await self.client.post(f"/api/campaigns/{CAMPAIGN}/outbox", json=body,
                                           headers=self.auth)
            except httpx.TransportError:
                self.day.resent += len(taps)
                await asyncio.sleep(0.25)
                continue
            if r.status_code >= 500 or r.status_code == 429:
                await asyncio.sleep(0.25)
                continue
            if r.status_code != 200:
                raise RuntimeError(f"the outbox was refused: {r.status_code} {r.text}")
            for tap, answer in zip(taps, r.json()["answers"], strict=True):
                if answer["status"] == 429:
                    await asyncio.sleep(0.25)
                    return
                tap.made, tap.status = began, answer["status"]
                tap.record = answer.get("record") if tap.status == 200 else None
                tap.events = answer.get("events", []) if tap.status == 200 else []
                tap.reason = "" if tap.status == 200 else str(answer.get("message"))
                self.outbox.remove(tap)
            return
        raise RuntimeError("the outbox got no answer")


async def watch(day: Day, token: str, who: str, seen: dict[str, Any]) -> None:
    """A card page: listens to the live stream for its character and fetches the card
    after every change it hears; reconnects when the stream drops (the restart), as
    EventSource does, fetching the card again first."""
    auth = {"Authorization": f"Bearer {token}"}
    card = f"/api/campaigns/{CAMPAIGN}/characters/{who}"
    async with httpx.AsyncClient(base_url=day.url, timeout=httpx.Timeout(30, read=None)) as c:
        while True:
            try:
                seen[who] = (await c.get(card, headers=auth)).json()
                async with c.stream("GET", f"/api/campaigns/{CAMPAIGN}/stream?character={who}",
                                    headers=auth) as r:
                    async for line in r.aiter_lines():
                        if line.startswith("event: changed"):
                            day.changes[who] += 1
                            seen[who] = (await c.get(card, headers=auth)).json()
                            day.opened.add(who)
            except (httpx.TransportError, json.JSONDecodeError):
                await asyncio.sleep(0.5)


def progress(day: Day) -> None:
    """A line every ten campaign minutes: the run is long."""
    said = Counter(t.status for t in day.taps)
    print(f"    {day.now:%H:%M}  {len(day.taps)} taps: {said[200]} recorded, "
          f"{sum(n for s, n in said.items() if s and s != 200)} refused by the rules, "
          f"{said[None]} waiting in outboxes; resent after no answer {day.resent}",
          flush=True)


def _per_process(server: Server, read: Callable[[int], float]) -> float:
    """``read(pid)`` summed over the server and its workers (one gone meanwhile: 0)."""
    assert server.proc is not None
    total = 0.0
    for pid in {server.proc.pid, *server.worker_pids()}:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += read(pid)
    return total


def _rss_kib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return sum(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss(server: Server) -> int:
    """The server's resident memory in KiB (its workers' too)."""
    return int(_per_process(server, _rss_kib))


def cpu(server: Server) -> float:
    """CPU seconds the server has used (its workers' too), user and system."""
    return _per_process(server, _cpu_seconds)


def mark(day: Day, server: Server, at: str) -> None:
    """The server's memory and what both sides have used of the CPU, at a moment."""
    day.rss[at] = rss(server)
    day.cpu[at] = (cpu(server), time.process_time(), time.perf_counter())


async def loop_lag(day: Day) -> None:
    """This client's own lateness: a calm latency the client cannot keep up with is
    the client's, not the server's."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.01)
        day.lag.append(time.perf_counter() - began - 0.01)


async def the_day(day: Day, server: Server, tokens: list[str], certs: dict[str, str],
                  backup: Path | None) -> dict[str, Any]:
    plan = day.plan
    master = httpx.AsyncClient(base_url=day.url, timeout=httpx.Timeout(30, read=60),
                               headers={"Authorization": f"Bearer {tokens[0]}"})
    phones = [Phone(day, i, tokens[1 + i]) for i in range(plan.healers)]
    laptop = Phone(day, plan.healers, tokens[0])  # the master's own taps, with keys
    laptop.measured = False  # a paper log's late records are not a healer's taps
    seen: dict[str, Any] = {}
    rng = random.Random(7)
    watched = [f"c{rng.randrange(plan.characters)}" for _ in range(plan.watchers)]
    pages = [asyncio.create_task(watch(day, tokens[-1], w, seen)) for w in watched]
    pages.append(asyncio.create_task(loop_lag(day)))
    out: dict[str, Any] = {}

    async def advance() -> None:
        for _ in range(int(GIVE_UP_S / 0.25)):
            try:
                r = await master.post(f"/api/campaigns/{CAMPAIGN}/clock?op=advance",
                                      json={"by": "1m"})
                if r.status_code == 200:
                    break
                if r.status_code < 500:
                    raise RuntimeError(f"the clock did not move: {r.status_code} {r.text}")
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.25)
        day.now += timedelta(minutes=1)

    async def battle(minutes: int, events: dict[int, Any]) -> None:
        for minute in range(minutes):
            tick = time.perf_counter()
            if minute % 10 == 0:
                progress(day)
            midway = asyncio.create_task(events[minute]()) if minute in events else None
            await asyncio.gather(advance(), *(ph.play() for ph in phones))
            if midway is not None:  # a kill lands while taps are in flight
                await midway
            await asyncio.sleep(max(0.0, tick + plan.tick - time.perf_counter()))

    reconnecting: list[asyncio.Task[None]] = []
    storm_phones = phones[: plan.offline]

    async def wifi_lost() -> None:
        mark(day, server, "before the storm")
        for ph in storm_phones:
            ph.online = False

    async def wifi_back() -> None:
        day.storm = (time.perf_counter(), 0.0)
        sending = [
            asyncio.create_task(ph.reconnect(rng.uniform(0, plan.reconnect_s)))
            for ph in storm_phones
        ]

        async def drained() -> None:
            await asyncio.gather(*sending)
            assert day.storm is not None
            day.storm = (day.storm[0], time.perf_counter())

        reconnecting.append(asyncio.create_task(drained()))

    opening = time.perf_counter()  # the pages open first, as they are before a battle
    while len(day.opened) < len(set(watched)) and time.perf_counter() - opening < GIVE_UP_S:
        await asyncio.sleep(0.05)
    print(f"    {len(day.opened)} pages open in {time.perf_counter() - opening:.1f} s",
          flush=True)
    lost_at = max(1, plan.battle // 6)
    async def warm() -> None:
        mark(day, server, "warm" if "warm" not in day.rss else "warm again")

    storm = {lost_at: wifi_lost, lost_at + 20: wifi_back}
    assert 3 not in storm
    await battle(plan.battle, {**storm, 3: warm})
    await asyncio.gather(*reconnecting)
    out["left"] = sum(len(ph.outbox) for ph in storm_phones)
    mark(day, server, "after the storm")

    # the master's outbreak and epidemic, then a wave
    near = [{"character": f"c{i}", "distance_m": 1 + i % 4} for i in range(5)]
    master_taps = [
        await laptop.tap("start-outbreak", {"carrier": "K1", "certificate": certs["outbreak"],
                                            "place": "outdoor", "announced": True,
                                            "people": near}),
        await laptop.tap("start-epidemic", {"carrier": "K2", "certificate": certs["epidemic"],
                                            "location": "town", "regional_master": "Olga",
                                            "interval_minutes": 30, "wave_stickers": 10}),
    ]
    started = [e["payload"]["epidemic"]["id"] for e in master_taps[1].events
               if e["kind"] == "epidemic.started"]
    wave = await laptop.tap("epidemic-wave", {"epidemic": started[0] if started else "-",
                                              "present": [{"character": f"c{i}"}
                                                          for i in range(10, 20)]})
    out["master"] = [*master_taps, wave]

    async def kill() -> None:
        mark(day, server, "before the kill")
        await asyncio.sleep(0.01)  # the tick's taps are on their way
        await asyncio.to_thread(server.kill)
        await asyncio.sleep(1)
        await asyncio.to_thread(server.start)

    async def take_backup() -> None:
        if backup is None:
            return
        began, at = time.perf_counter(), day.now
        done = await asyncio.to_thread(
            subprocess.run, [LAZARETTO, "backup", str(backup), "--json"],
            env={**os.environ, "LAZARETTO_DB": server.db_url}, capture_output=True, text=True)
        out["backup"] = done
        print(f"    the backup took {time.perf_counter() - began:.1f} s "
              f"({at:%H:%M}-{day.now:%H:%M})", flush=True)

    battle2_start = day.now
    await battle(plan.battle, {plan.battle // 4: take_backup, plan.battle // 2: kill,
                               plan.battle // 2 + 3: warm})
    mark(day, server, "at the end")

    # the paper log, typed in after the battle at the times written on it
    for i in range(plan.paper):
        when = battle2_start + timedelta(minutes=rng.uniform(0, plan.battle))
        who = f"c{rng.randrange(plan.characters)}"
        body: dict[str, Any] = (
            {"character": who, "hits": 1, "location": "leg"} if i % 2 else
            {"healer": "h0", "patient": who, "bandages": 1, "mat": "m0"}
        )
        await laptop.tap("lose-hits" if i % 2 else "apply-bandage",
                         {**body, "at": when.isoformat()})
    # mis-taps undone
    mistaps = rng.sample([t for t in day.taps if t.status == 200 and t.action == "lose-hits"],
                         plan.undos)
    undone = []
    for t in mistaps:
        r = await master.post(f"/api/campaigns/{CAMPAIGN}/records/{t.record}/void",
                              json={"reason": "mis-tap"})
        undone.append((r.status_code, r.json().get("record")))
    out["undone"] = undone
    await asyncio.sleep(2)  # the pages hear the last changes
    for task in pages:
        task.cancel()
    await asyncio.gather(*pages, return_exceptions=True)
    out["seen"] = seen
    final = {}
    for who in set(watched):
        final[who] = (await master.get(f"/api/campaigns/{CAMPAIGN}/characters/{who}")).json()
    out["final"] = final
    for ph in [*phones, laptop]:
        await ph.client.aclose()
    await master.aclose()
    return out


def cli(db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([LAZARETTO, *args], capture_output=True, text=True,
                          env={**os.environ, "LAZARETTO_DB": db_url, "LAZARETTO_LANG": "en",
                               "LAZARETTO_CAMPAIGN": CAMPAIGN})


def stored(db_url: str) -> list[tuple[Any, ...]]:
    """The campaign's records as (no, kind, at, action, input, voids), in order."""
    from sqlalchemy import select

    from lazaretto.store.models import RecordRow

    db = Database(db_url)
    try:
        with db.transaction(readonly=True) as s:
            rows = s.scalars(select(RecordRow).where(RecordRow.campaign_id == CAMPAIGN)
                             .order_by(RecordRow.no)).all()
            return [(r.no, r.kind, r.at, r.action, r.input, r.voids) for r in rows]
    finally:
        db.close()


def line(ok: bool, text: str) -> bool:
    print(f"  {'MET    ' if ok else 'NOT MET'}  {text}", flush=True)
    return ok


def judge(name: str, db_url: str, day: Day, out: dict[str, Any], before: int,
          backup: Path | None, tmp: Path, quick: bool) -> bool:
    ok = True
    replay = cli(db_url, "replay", "--json")
    ok &= line(replay.returncode == 0, f"replay clean (exit {replay.returncode})"
               + ("" if replay.returncode == 0 else f": {replay.stdout[-300:]}"))
    repair = cli(db_url, "repair", CAMPAIGN, "--dry-run", "--json")
    found = json.loads(repair.stdout) if repair.returncode == 0 else None
    clean = found is not None and not found["differences"] and not found["problem"]
    ok &= line(clean, "repair --dry-run finds nothing"
               + ("" if clean else f": {repair.stdout[-300:]}{repair.stderr[-300:]}"))

    unanswered = [t for t in day.taps if t.status is None]
    ok &= line(not unanswered, f"every tap answered: {len(day.taps)} sent, "
               f"{len(unanswered)} without an answer")
    statuses = Counter(t.status for t in day.taps)
    records = stored(db_url)
    acts = {r[0]: r for r in records if r[0] > before and r[1] == "act"
            and r[3] not in ("clock",)}
    named = [t.record for t in day.taps if t.status == 200]
    doubled = len(named) - len(set(named))
    # lost: an answer named a record that is not there, or not this tap's (its action,
    # and for an outbox's or a paper log's tap, the time it was made)
    lost = sum(
        1 for t in day.taps if t.status == 200 and (
            t.record not in acts or acts[t.record][3] != t.action
            or ("at" in t.body and datetime.fromisoformat(acts[t.record][2])
                != datetime.fromisoformat(t.body["at"]))
        )
    )
    extra = len(set(acts) - set(named))
    ok &= line(lost == 0 and doubled == 0 and extra == 0,
               f"every tap recorded exactly once: {len(named)} recorded "
               f"({dict(statuses)} by status; resent after no answer {day.resent}), "
               f"lost {lost}, doubled {doubled + extra}")
    late = [t for t in day.taps if t.late]
    drained = out["left"] == 0 and day.storm is not None and day.storm[1] > 0
    ok &= line(drained and bool(late) and all(t.status for t in late),
               f"the storm: {len(late)} outbox taps of {day.plan.offline} phones, all drained "
               f"and answered ({dict(Counter(t.status for t in late))} by status)")
    placed = [t.status for t in out["master"]]
    ok &= line(placed == [200, 200, 200], f"the master's outbreak, epidemic and wave placed "
               f"({placed}{'; ' + out['master'][-1].reason if placed[-1] != 200 else ''})")
    undone = out["undone"]
    ok &= line(all(s == 200 for s, _ in undone),
               f"{len(undone)} mis-taps undone ({Counter(s for s, _ in undone)})")
    stale = [w for w, card in out["final"].items() if out["seen"].get(w) != card]
    ok &= line(not stale, f"{day.plan.watchers} watching pages show the final card "
               f"({sum(day.changes.values())} changes heard; stale {len(stale)})")
    if backup is not None:
        ok &= judge_backup(db_url, backup, tmp, out)
    else:
        print(f"  n/a      backup: not taken on {name} (lazaretto backup copies SQLite; "
              f"PostgreSQL's is pg_dump)")
    if quick:
        return ok
    storm = day.storm[1] - day.storm[0] if day.storm else float("inf")
    line(storm <= DRAIN_S, f"the storm drained {storm:.1f} s after reconnecting "
         f"(target <= {DRAIN_S:.0f} s)")
    sp, cp = p(day.stormy, 0.99), p(day.calm, 0.99)
    line(sp <= STORM_P99_MS, f"online taps during the storm: {len(day.stormy)}, p99 "
         f"{sp:.0f} ms (target <= {STORM_P99_MS:.0f} ms)")
    line(cp <= CALM_P99_MS, f"online taps outside it: {len(day.calm)}, p99 {cp:.0f} ms "
         f"(target <= {CALM_P99_MS:.0f} ms; p50 {p(day.calm, 0.5):.0f}, p90 "
         f"{p(day.calm, 0.9):.0f})")
    print("           over the target, by campaign minute: " + ", ".join(
        f"{at} x{n}" for at, n in sorted(day.slow.most_common(10))))
    (s0, c0, t0), (s1, c1, t1) = day.cpu["warm"], day.cpu["before the storm"]
    print(f"           in the calm battle the server used {(s1 - s0) / (t1 - t0):.0%} of a "
          f"core, this client {(c1 - c0) / (t1 - t0):.0%} (of {os.cpu_count()}); the "
          f"client's loop woke late by p50 {p(day.lag, 0.5):.1f} / p99 "
          f"{p(day.lag, 0.99):.1f} ms")
    m = day.rss  # the kill starts a new process: each life is judged on its own
    ratio = max(m["before the kill"] / m["warm"], m["at the end"] / m["warm again"])
    line(ratio <= RSS_RATIO, "server memory (MiB) " + ", ".join(
        f"{k} {v // 1024}" for k, v in m.items()) + f": up {ratio:.2f}x at most over a "
        f"process's life (target <= {RSS_RATIO}x)")
    return ok


def judge_backup(db_url: str, backup: Path, tmp: Path, out: dict[str, Any]) -> bool:
    taken = out.get("backup")
    if taken is None or taken.returncode != 0:
        return line(False, f"backup taken while serving: {taken and taken.stderr[-300:]}")
    restored = f"sqlite:///{tmp / 'restored.db'}"
    done = cli(restored, "restore", str(backup), "--json")
    if done.returncode != 0:
        return line(False, f"backup restores: {done.stderr[-300:]}")
    theirs = stored(restored)
    live = stored(db_url)
    last = theirs[-1][0] if theirs else 0
    same = theirs == [r for r in live if r[0] <= last]
    clean = cli(restored, "replay", "--json").returncode == 0
    return line(same and clean, f"the backup (taken mid-battle, {len(theirs)} records) "
                f"restores: its records are the live ones up to no. {last} "
                f"({'same' if same else 'DIFFER'}), its state replays "
                f"{'clean' if clean else 'NOT clean'}")


def run(name: str, db_url: str, workers: int, plan: Plan, tmp: Path, quick: bool,
        trace: Path | None = None) -> bool:
    began = time.perf_counter()
    *tokens, certs = seed(db_url, plan)
    before = stored(db_url)[-1][0]
    server = Server(db_url, tmp / f"{name}.log", workers=workers)
    server.start()
    print(f"{name}: {plan.characters:,} characters, {plan.healers} phones, a tick of "
          f"{plan.tick} s per campaign minute, the phones tapping "
          f"{'all at its start' if plan.together else 'each at its own moment in it'} — "
          f"{load()}", flush=True)
    day = Day(plan, server.url)
    short = name.split(",")[0].lower()  # "sqlite", "postgresql": for file names
    backup = tmp / f"{short}-backup.db" if db_url.startswith("sqlite") else None
    try:
        out = asyncio.run(the_day(day, server, tokens, json.loads(certs), backup))
    finally:
        server.stop()
    ok = judge(name, db_url, day, out, before, backup, tmp, quick)
    if trace is not None:
        with trace.with_suffix(f".{short}.csv").open("w") as f:
            f.write("wall,minute,ms,storm\n")
            f.writelines(f"{w:.3f},{m},{t * 1000:.1f},{int(st)}\n" for w, m, t, st in day.trace)
    print(f"  {name}: {len(day.taps)} taps in {time.perf_counter() - began:.0f} s — "
          f"{load()}", flush=True)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="a few hundred characters, one storm of 10 phones; correctness only")
    ap.add_argument("--backends", default=None, help="sqlite,pg (quick: sqlite)")
    ap.add_argument("--pg", help="PostgreSQL URL (its public schema is emptied); 'none' to skip")
    ap.add_argument("--tick", type=float, help="real seconds per campaign minute")
    ap.add_argument("--together", action="store_true",
                    help="all phones tap at the start of each tick (the harshest burst)")
    ap.add_argument("--trace", type=Path, help="write each online tap (wall time, campaign "
                    "minute, ms, in the storm) to TRACE.<backend>.csv")
    args = ap.parse_args()
    plan = QUICK if args.quick else Plan()
    if args.tick:
        plan.tick = args.tick
    plan.together = args.together
    backends = args.backends or ("sqlite" if args.quick else "sqlite,pg")
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in backends:
            ok &= run("SQLite, 1 process", f"sqlite:///{tmp}/day.db", 1, plan, Path(tmp),
                      args.quick, args.trace)
        url, cluster = postgres(args) if "pg" in backends else (None, None)
        if url:
            from tests.conftest import empty_postgres

            try:
                ok &= run("PostgreSQL, 2 processes", empty_postgres(url), 2, plan, Path(tmp),
                          args.quick, args.trace)
            finally:
                if cluster:
                    subprocess.run(["bash", str(ROOT / "scripts/pg-test-cluster.sh"), "stop",
                                    cluster], check=False)
    sys.exit(0 if ok or not args.quick else 1)


if __name__ == "__main__":
    main()
