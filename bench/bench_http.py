"""HTTP benchmark, loopback only and bounded: the "record a wound" action and the
character card against a bare FastAPI endpoint doing one durable SQLite insert.

    .venv/bin/python bench/bench_http.py [--requests 3000] [--clients 32] [--client wrk]

Both servers run as real uvicorn processes (uvloop + httptools) on 127.0.0.1; one
client process drives each with N concurrent connections: ``wrk`` (Debian's package,
written in C, so the client is not what is measured) when installed, else an asyncio
httpx client. Prints requests/s, p50 and p99 for each and the ratio of the action to
the bare ceiling (target ≥ 30 %, p99 ≤ 50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
CHARACTERS = 200


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(factory: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--factory",
            factory,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--loop",
            "uvloop",
            "--http",
            "httptools",
        ],
        cwd=HERE,
        env={**os.environ, **env},
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/docs", timeout=0.5)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{factory} did not start")


def seed(db_path: str) -> str:
    """A campaign with many sturdy characters; returns a master's Bearer token."""
    from lazaretto.core.character import Character
    from lazaretto.core.ruleset import Role
    from lazaretto.service.accounts import AccountService
    from lazaretto.service.campaigns import CampaignService
    from lazaretto.store.db import Database

    db = Database(f"sqlite:///{db_path}")
    campaigns, accounts = CampaignService(db), AccountService(db)
    campaigns.create_campaign("bench", "warhammer-larp", seed=1)
    for i in range(CHARACTERS):
        campaigns.add_character(
            "bench", Character(id=f"p{i}", name=f"P{i}", hits_max=1000, hits=1000)
        )
    user = accounts.create_user("gm", "bench-password")
    accounts.add_member(user, "bench", Role.MASTER)
    token = accounts.login("gm", "bench-password").token
    db.close()
    return token


async def drive(
    method: str, url: str, total: int, clients: int, headers: dict[str, str], body_for: object
) -> tuple[float, list[float], int]:
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=10) as client:

        async def worker() -> None:
            nonlocal errors
            for i in counter:
                t0 = time.perf_counter()
                body = body_for(i) if callable(body_for) else None  # type: ignore[operator]
                r = await client.request(method, url, headers=headers, json=body)
                latencies.append(time.perf_counter() - t0)
                if r.status_code >= 400:
                    errors += 1

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        return time.perf_counter() - t0, latencies, errors


WRK_SCRIPT = """
local n = 0
local characters = %d
wrk.method = "%s"
wrk.headers["Content-Type"] = "application/json"
%s
request = function()
  n = n + 1
  local body = nil
  if wrk.method == "POST" then
    body = string.format('{"character": "p%%d", "hits": 1}', n %% characters)
  end
  return wrk.format(nil, nil, nil, body)
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%d %%d %%.0f %%.0f\\n", summary.requests,
    summary.duration, summary.errors.status + summary.errors.connect + summary.errors.read
    + summary.errors.write + summary.errors.timeout, latency:percentile(50),
    latency:percentile(99)))
end
"""


def drive_wrk(
    method: str, url: str, total: int, clients: int, headers: dict[str, str], tmp: str
) -> tuple[float, float, float, int]:
    """wrk for about ``total`` requests' worth of time: (req/s, p50 ms, p99 ms, errors)."""
    lines = "\n".join(f'wrk.headers["{k}"] = "{v}"' for k, v in headers.items())
    script = Path(tmp) / "bench.lua"
    script.write_text(WRK_SCRIPT % (CHARACTERS, method, lines))
    seconds = max(5, total // 300)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{clients}", f"-d{seconds}s", "-s", str(script), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.search(r"RESULT (\d+) (\d+) (\d+) (\d+) (\d+)", out)
    assert found, out
    n, micros, errors, p50, p99 = (int(g) for g in found.groups())
    return n / (micros / 1e6), p50 / 1000, p99 / 1000, errors


def report_wrk(
    name: str, rps: float, p50: float, p99: float, errors: int
) -> tuple[float, float]:
    print(f"{name:34} {rps:8.0f} req/s   p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   errors {errors}")
    return rps, p99


def report(name: str, elapsed: float, lat: list[float], errors: int) -> tuple[float, float]:
    lat.sort()
    return report_wrk(
        name,
        len(lat) / elapsed,
        statistics.median(lat) * 1000,
        lat[int(len(lat) * 0.99) - 1] * 1000,
        errors,
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument(
        "--client", choices=("wrk", "httpx"), default="wrk" if shutil.which("wrk") else "httpx"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path, bare_path = f"{tmp}/bench.db", f"{tmp}/bare.db"
        token = seed(db_path)
        p1, p2 = free_port(), free_port()
        env = {"BENCH_DB": db_path, "BENCH_BARE_DB": bare_path}
        servers = [start("http_apps:lazaretto_app", p1, env), start("http_apps:bare_app", p2, env)]

        def wound(i: int) -> dict[str, object]:
            return {"character": f"p{i % CHARACTERS}", "hits": 1}

        def measure(
            name: str, method: str, url: str, headers: dict[str, str]
        ) -> tuple[float, float]:
            if args.client == "wrk":
                return report_wrk(
                    name, *drive_wrk(method, url, args.requests, args.clients, headers, tmp)
                )
            body = wound if method == "POST" else None
            return report(
                name,
                *asyncio.run(drive(method, url, args.requests, args.clients, headers, body)),
            )

        try:
            auth = {"Authorization": f"Bearer {token}"}
            print(
                f"{args.clients} concurrent clients ({args.client}), loopback, "
                "durable commits (WAL, synchronous=FULL)"
            )
            bare, _ = measure(
                "bare FastAPI + 1 SQLite insert", "POST", f"http://127.0.0.1:{p2}/insert", {}
            )
            campaign = f"http://127.0.0.1:{p1}/api/campaigns/bench"
            action, action_p99 = measure(
                "record a wound (lose-hits)", "POST", f"{campaign}/actions/lose-hits", auth
            )
            _, card_p99 = measure("character card (GET)", "GET", f"{campaign}/characters/p7", auth)
            share = 100 * action / bare
            met = share >= 30 and max(action_p99, card_p99) <= 50
            print(
                f"record a wound at {share:.0f}% of the bare ceiling (target >= 30%); "
                f"p99 wound {action_p99:.1f} ms, card {card_p99:.1f} ms (target <= 50 ms): "
                + ("MET" if met else "NOT MET")
            )
        finally:
            for s in servers:
                s.terminate()
                s.wait(timeout=10)


if __name__ == "__main__":
    main()
