"""Load test, loopback only and bounded: the "battle's end" burst.

    .venv/bin/python bench/bench_load.py [--wounds 600] [--phones 30] [--watchers 100]
                                         [--seconds 60] [--pg URL]
                                         [--characters 3000 --prefill-events 50000]

A realtime warhammer-larp campaign of 600 characters (``--characters``: more, in one
roster record). With ``--prefill-events`` it is first played through the service layer
(wounds, bandages, cures of every character in turn, queued in hundreds so that the
writer commits them in groups) until it holds that many events: the burst then meets a
big campaign's history. 30 phones (each its own master's: one user may have only 8
changes in flight) record 600 wounds on characters of their own (``lose-hits``, each
with an Idempotency-Key) at random moments spread over the minute,
while 100 pages watch their characters' cards: like live.js on a card page, each
listens to the campaign's live stream for its character and fetches the card after
every change it hears (one fetch in flight per page). Run
against the real ``lazaretto serve``: one process on SQLite, then two processes
(``--workers 2``) on PostgreSQL — the URL from ``--pg`` or ``LAZARETTO_TEST_PG``, else
a throw-away cluster started with scripts/pg-test-cluster.sh when PostgreSQL's binaries
are installed. Prints, per backend: wounds/s, p50/p99 of a wound, errors, card fetches
and their p99, stream events heard, and lost or doubled updates (counted in the
database afterwards). Target: 0 errors and p99 ≤ 100 ms (MET / NOT MET, with the
machine's load average: it is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.process.server import Server  # noqa: E402

from lazaretto.core.character import Character  # noqa: E402
from lazaretto.core.clock import ClockMode  # noqa: E402
from lazaretto.core.ruleset import Role  # noqa: E402
from lazaretto.service.accounts import AccountService  # noqa: E402
from lazaretto.service.campaigns import CampaignService  # noqa: E402
from lazaretto.service.recorder import Draft  # noqa: E402
from lazaretto.store.db import Database  # noqa: E402

CAMPAIGN = "battle"
WARM_UP = 5
"""Wounds (on characters of their own) and cards before the measured burst."""
KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]
FILL_CHUNK = 300
"""Changes queued at once while prefilling (the writer commits them in groups)."""
TARGET_MS = 100.0


def victims(args: argparse.Namespace, rng: random.Random) -> list[str]:
    """The characters the burst wounds, one wound each, in a random order."""
    pool = [f"c{i}" for i in range(args.characters)]
    out = rng.sample(pool, args.wounds) if args.characters > args.wounds else pool
    rng.shuffle(out)
    return out


def seed(db_url: str, args: argparse.Namespace) -> tuple[list[str], int, float]:
    """The realtime campaign: a healer with a mat, the roster in one record; then the
    prefill; then a master per phone and one for the pages. Returns their Bearer tokens
    (the pages' last), the last event's number before the burst and the seconds the
    prefill took."""
    db = Database(db_url)
    try:
        svc, accounts = CampaignService(db), AccountService(db)
        svc.create_campaign(
            CAMPAIGN, "warhammer-larp", clock=ClockMode.REALTIME,
            start=datetime(2026, 6, 13, 12, 0), seed=5,
        )
        svc.add_character(CAMPAIGN, Character(id="doc", name="Doc", hits_max=3, hits=3,
                                              skills=["Healer"]))
        svc.act(CAMPAIGN, "check-kit", {"healer": "doc", "items": KIT})
        svc.act(CAMPAIGN, "register-mat", {"id": "m", "healer": "doc", "length_cm": 180,
                                           "width_cm": 60})
        ids = [f"c{i}" for i in range(args.characters)] + [f"warm{i}" for i in range(WARM_UP)]
        roster = [Character(id=c, name=c.upper(), hits_max=3, hits=3).model_dump(mode="json")
                  for c in ids]
        svc.submit(CAMPAIGN, None, draft=Draft("character", input={"characters": roster}))\
            .result()
        t0, n = time.perf_counter(), 0
        while svc.load(CAMPAIGN)[1].last_seq < args.prefill_events:
            futures = []
            for _ in range(FILL_CHUNK // 3):  # each character in turn: wounded and cured
                cid = f"c{n % args.characters}"
                n += 1
                futures += [
                    svc.submit_act(CAMPAIGN, "lose-hits", {"character": cid, "hits": 1}),
                    svc.submit_act(CAMPAIGN, "apply-bandage", {
                        "healer": "doc", "patient": cid, "bandages": 1, "mat": "m"}),
                    svc.submit_act(CAMPAIGN, "cure-by-other-means",
                                   {"patient": cid, "means": "potion"}),
                ]
            for f in futures:
                f.result()
        filled = time.perf_counter() - t0
        last = svc.load(CAMPAIGN)[1].last_seq
        tokens = []
        for i in range(args.phones + 1):
            user = accounts.create_user(f"gm{i}-{CAMPAIGN}", "process-test-password")
            accounts.add_member(user, CAMPAIGN, Role.MASTER)
            tokens.append(accounts.login(f"gm{i}-{CAMPAIGN}", "process-test-password").token)
        return tokens, last, filled
    finally:
        db.close()


def median_ms(values: list[float]) -> float:
    """The median in milliseconds (0 for no values)."""
    return 1000 * statistics.median(values) if values else 0.0


def p(values: list[float], q: float) -> float:
    """The q-quantile in milliseconds (0 for no values)."""
    if not values:
        return 0.0
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * q))]


async def burst(
    url: str, tokens: list[str], args: argparse.Namespace, role: str
) -> dict[str, object]:
    """The phones recording wounds (``role="phones"``), each as a master of its own
    (``tokens[i]``: one user may have only so many changes in flight), or the pages
    watching (as the last of ``tokens``)."""
    rng = random.Random(600)
    auth = {"Authorization": f"Bearer {tokens[-1]}"}
    wounded = victims(args, rng)
    plan: list[list[tuple[float, str]]] = [[] for _ in range(args.phones)]
    for i, who in enumerate(wounded):
        plan[i % args.phones].append((rng.uniform(0, args.seconds), who))
    wound_lat: list[float] = []
    card_lat: list[float] = []
    errors: Counter[str] = Counter()
    retries: Counter[str] = Counter()  # connection errors resent successfully or not
    heard = 0
    timeout = httpx.Timeout(30, read=60)

    def phone_client() -> httpx.AsyncClient:
        """Each phone and each page has its own connections, as real ones do."""
        return httpx.AsyncClient(base_url=url, timeout=timeout)

    async def phone(jobs: list[tuple[float, str]], t0: float, token: str) -> None:
        auth = {"Authorization": f"Bearer {token}"}
        async with phone_client() as client:
            for at, who in sorted(jobs):
                await asyncio.sleep(max(0.0, t0 + at - time.perf_counter()))
                key = str(uuid.UUID(int=rng.getrandbits(128)))
                start = time.perf_counter()
                for attempt in range(3):  # a phone resends a failed request with its key
                    try:
                        r = await client.post(
                            f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                            json={"character": who, "hits": 1},
                            headers={**auth, "Idempotency-Key": key},
                        )
                    except httpx.TransportError as exc:  # e.g. a keep-alive closed under us
                        retries[type(exc).__name__] += 1
                        if attempt == 2:
                            errors[type(exc).__name__] += 1
                        continue
                    if r.status_code != 200:
                        errors[f"HTTP {r.status_code}"] += 1
                    break
                wound_lat.append(time.perf_counter() - start)

    async def page(who: str) -> None:
        nonlocal heard
        card = f"/api/campaigns/{CAMPAIGN}/characters/{who}"
        fetching: asyncio.Task[None] | None = None
        again = False
        async with phone_client() as client:

            async def fetch() -> None:
                nonlocal again
                while True:
                    again = False
                    start = time.perf_counter()
                    for attempt in range(2):  # as a browser retries a GET once
                        try:
                            r = await client.get(card, headers=auth)
                        except httpx.TransportError as exc:
                            retries[f"card {type(exc).__name__}"] += 1
                            if attempt == 1:
                                errors[f"card {type(exc).__name__}"] += 1
                            continue
                        if r.status_code != 200:
                            errors[f"card HTTP {r.status_code}"] += 1
                        break
                    card_lat.append(time.perf_counter() - start)
                    if not again:
                        return

            try:
                async with client.stream(
                    "GET", f"/api/campaigns/{CAMPAIGN}/stream?character={who}", headers=auth
                ) as r:
                    async for line in r.aiter_lines():  # until cancelled at the end
                        if line.startswith("event: changed"):
                            heard += 1
                            if fetching is None or fetching.done():
                                fetching = asyncio.create_task(fetch())
                            else:
                                again = True
            finally:
                if fetching is not None:
                    fetching.cancel()

    if role == "pages":  # watch for the whole burst, from their own process
        watchers = [
            asyncio.create_task(page(rng.choice(wounded)))
            for _ in range(args.watchers)
        ]
        await asyncio.sleep(args.seconds + 6)
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
        return {"card_lat": card_lat, "errors": errors, "retries": retries, "heard": heard}
    async with phone_client() as client:  # a server in play is warm: a first wound and card
        for i in range(WARM_UP):
            await client.post(
                f"/api/campaigns/{CAMPAIGN}/actions/lose-hits",
                json={"character": f"warm{i}", "hits": 1},
                headers=auth,
            )
            await client.get(f"/api/campaigns/{CAMPAIGN}/characters/warm{i}", headers=auth)
    await asyncio.sleep(2)  # the pages open first
    t0 = time.perf_counter()
    await asyncio.gather(*(phone(jobs, t0, tokens[i]) for i, jobs in enumerate(plan)))
    return {
        "elapsed": time.perf_counter() - t0,
        "wound_lat": wound_lat,
        "errors": errors,
        "retries": retries,
    }


def watch_pages(url: str, tokens: list[str], args: argparse.Namespace) -> dict[str, object]:
    """The hundred watching pages, in a process of their own: their work must not
    delay the phones' clocks."""
    return asyncio.run(burst(url, tokens, args, "pages"))


def check(db_url: str, args: argparse.Namespace, after: int) -> tuple[int, int]:
    """Lost and doubled wounds of the burst (the events after ``after``), counted in the
    database; the prefill left everyone cured."""
    db = Database(db_url)
    try:
        svc = CampaignService(db)
        recorded = Counter(
            e.payload["character"]
            for e in svc.events(CAMPAIGN, ("wound.hits_lost",), after=after)
        )
        _, state, _ = svc.load(CAMPAIGN)
        lost = sum(1 for c in victims(args, random.Random(600)) if recorded[c] == 0)
        doubled = sum(n - 1 for n in recorded.values() if n > 1)
        drift = sum(1 for c, ch in state.characters.items() if ch.hits != 3 - recorded[c])
        return lost + drift, doubled
    finally:
        db.close()


def run(name: str, db_url: str, workers: int, args: argparse.Namespace, tmp: Path) -> None:
    tokens, after, filled = seed(db_url, args)
    if args.prefill_events:
        print(f"  {name}: prefilled to {after:,} events in {filled:.0f} s", flush=True)
    server = Server(db_url, tmp / f"{name}.log", workers=workers)
    server.start()
    print(f"  {name}: {server.url} token {tokens[-1]} — {load()}", flush=True)
    try:
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
            pages = pool.submit(watch_pages, server.url, tokens, args)
            res = asyncio.run(burst(server.url, tokens, args, "phones"))
            seen = pages.result()
    finally:
        server.stop()
    lost, doubled = check(db_url, args, after)
    wl, cl = res["wound_lat"], seen["card_lat"]
    assert isinstance(wl, list) and isinstance(cl, list)
    errors, retries = res["errors"], res["retries"]
    assert isinstance(errors, Counter) and isinstance(retries, Counter)
    errors += seen["errors"]  # type: ignore[arg-type]
    retries += seen["retries"]  # type: ignore[arg-type]
    res["heard"] = seen["heard"]
    print(
        f"{name:28} {len(wl) / float(res['elapsed']):6.1f} wounds/s  "  # type: ignore[arg-type]
        f"wound p50 {median_ms(wl):6.1f} ms  p99 {p(wl, 0.99):6.1f} ms  "
        f"errors {sum(errors.values())}{' ' + str(dict(errors)) if errors else ''}  "
        f"resent {sum(retries.values())}  "
        f"cards {len(cl)} p50 {median_ms(cl):6.1f} ms p99 {p(cl, 0.99):6.1f} ms  "
        f"stream events {res['heard']}  "
        f"lost {lost}  doubled {doubled}"
    )
    failed = sum(errors.values()) + lost + doubled
    met = failed == 0 and p(wl, 0.99) <= TARGET_MS
    print(
        f"{'':28} target 0 errors, wound p99 <= {TARGET_MS:.0f} ms: "
        f"{'MET' if met else 'NOT MET'} — {load()}"
    )


def load() -> str:
    """The machine's load average (1, 5, 15 minutes): it is shared."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def postgres(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """A PostgreSQL URL and, if we started the cluster, its folder."""
    url = args.pg or os.environ.get("LAZARETTO_TEST_PG")
    if url == "none":
        return None, None
    if url:
        return url, None
    try:
        out = subprocess.run(
            ["bash", str(ROOT / "scripts/pg-test-cluster.sh"), "start"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except subprocess.CalledProcessError as exc:
        print(f"PostgreSQL skipped: {exc.stderr.strip()}")
        return None, None
    found = dict(
        line.removeprefix("export ").split("=", 1) for line in out.splitlines() if "=" in line
    )
    return found["LAZARETTO_TEST_PG"].strip("'"), found["LAZARETTO_TEST_PG_DIR"].strip("'")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--wounds", type=int, default=600)
    ap.add_argument("--phones", type=int, default=30)
    ap.add_argument("--watchers", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument(
        "--characters", type=int, default=0, help="in the campaign (default: one per wound)"
    )
    ap.add_argument(
        "--prefill-events", type=int, default=0, help="play the campaign to this many first"
    )
    ap.add_argument("--pg", help="PostgreSQL URL (its public schema is emptied); 'none' to skip")
    ap.add_argument("--backends", default="sqlite,pg", help="which of sqlite,pg to run")
    args = ap.parse_args()
    args.characters = max(args.characters, args.wounds)
    print(
        f"battle's end: {args.wounds} wounds by {args.phones} phones in {args.seconds:.0f} s, "
        f"{args.watchers} pages watching; a campaign of {args.characters:,} characters"
        f"{f' after {args.prefill_events:,} events' if args.prefill_events else ''}; loopback"
    )
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in args.backends:
            run("SQLite, 1 process", f"sqlite:///{tmp}/load.db", 1, args, Path(tmp))
        url, cluster = postgres(args) if "pg" in args.backends else (None, None)
        if url:
            from tests.conftest import empty_postgres

            try:
                run("PostgreSQL, 2 processes", empty_postgres(url), 2, args, Path(tmp))
            finally:
                if cluster:
                    subprocess.run(
                        ["bash", str(ROOT / "scripts/pg-test-cluster.sh"), "stop", cluster],
                        check=False,
                    )


if __name__ == "__main__":
    main()
