"""Benchmark one big campaign: does a wound cost what it touches, not what the campaign holds?

Run from the repository root::

    .venv/bin/python bench/bench_scale.py [--sizes 100,1000,3000] [--events 50000]
                                          [--wounds 200] [--pg URL|none]

For each backend (SQLite with WAL and synchronous=FULL; then PostgreSQL: the URL from
``--pg`` or ``LAZARETTO_TEST_PG``, else a throw-away cluster started with
scripts/pg-test-cluster.sh), and for each size, a warhammer-larp campaign gets its
roster in ONE change (timed: the roster import); a second one of each size is played
(wounds, bandages, cures; group-committed) until it holds ``--events`` events. Then
``--wounds`` wounds are measured in each, one at a time through the service layer (each
a record, committed durably, on a character of its own, followed by an unmeasured cure),
taking turns between the campaigns so that the noise of a shared machine falls on all.
Prints per-wound median and p99 and, per backend,
the 3,000-character / 50,000-event median against the 100-character / 0-event one
(target: at most 1.5x) with MET / NOT MET.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_load import postgres  # noqa: E402

from lazaretto.core.character import Character  # noqa: E402
from lazaretto.service.campaigns import CampaignService  # noqa: E402
from lazaretto.service.recorder import Draft  # noqa: E402
from lazaretto.store.db import Database  # noqa: E402

START = datetime(2026, 6, 13, 8, 0)
KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]
TARGET = 1.5
WARM_UP = 10
"""Wounds made and not counted before each measurement (caches, the writer's copy)."""
FILL_CHUNK = 300
"""Changes queued at once while filling (the writer commits them in groups)."""


class Campaign:
    """One measured campaign and its clock (manual: every change names its time)."""

    def __init__(self, svc: CampaignService, name: str, size: int) -> None:
        self.svc, self.name, self.size = svc, name, size
        self.when = START
        svc.create_campaign(name, "warhammer-larp", start=START, seed=1)
        svc.add_character(name, Character(id="doc", name="Doc", hits_max=3, hits=3,
                                          skills=["Healer"]))
        svc.act(name, "check-kit", {"healer": "doc", "items": KIT})
        svc.act(name, "register-mat", {"id": "m", "healer": "doc", "length_cm": 180,
                                       "width_cm": 60})
        roster = [Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3).model_dump(
            mode="json") for i in range(size)]
        t = time.perf_counter()
        svc.submit(name, None, draft=Draft("character", input={"characters": roster})).result()
        self.roster_s = time.perf_counter() - t
        self.next = 0

    def tick(self, seconds: int = 20) -> datetime:
        self.when += timedelta(seconds=seconds)
        return self.when

    def events(self) -> int:
        return self.svc.load(self.name)[1].last_seq

    def fill(self, events: int) -> float:
        """Play until the campaign holds ``events`` events; returns the seconds taken."""
        t0 = time.perf_counter()
        while self.events() < events:
            futures = []
            for _ in range(FILL_CHUNK // 3):
                cid, at = f"c{self.next % self.size}", self.tick()
                self.next += 1
                futures += [
                    self.svc.submit_act(self.name, "lose-hits", _wound(cid), at=at),
                    self.svc.submit_act(self.name, "apply-bandage", {
                        "healer": "doc", "patient": cid, "bandages": 1, "mat": "m"},
                        at=at + timedelta(seconds=5)),
                    self.svc.submit_act(self.name, "cure-by-other-means", _cure(cid),
                                        at=at + timedelta(seconds=10)),
                ]
            for f in futures:
                f.result()
        return time.perf_counter() - t0

    def wounds(self, count: int) -> list[float]:
        """``count`` wounds, one at a time, each timed to its commit."""
        out = []
        for _ in range(count):
            cid, at = f"c{self.next % self.size}", self.tick()
            self.next += 1
            t = time.perf_counter()
            self.svc.act(self.name, "lose-hits", _wound(cid), at=at)
            out.append(time.perf_counter() - t)
            self.svc.act(self.name, "cure-by-other-means", _cure(cid),
                         at=at + timedelta(seconds=10))
        return out


def _wound(cid: str) -> dict[str, object]:
    return {"character": cid, "hits": 1, "location": "arm"}


def _cure(cid: str) -> dict[str, str]:
    return {"patient": cid, "means": "potion"}


def ms(values: list[float], q: float) -> float:
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * q))]


def backend(label: str, url: str, sizes: list[int], events: int, wounds: int) -> None:
    """Every campaign is built first; then the wounds go round the campaigns, one in
    each per round, so that the machine's noise falls on all of them alike."""
    db = Database(url)
    svc = CampaignService(db)
    print(f"\n{label}")
    campaigns: dict[tuple[int, int], Campaign] = {}
    notes: dict[tuple[int, int], str] = {}
    try:
        for size in sizes:
            for target in (0, events):
                c = campaigns[(size, target)] = Campaign(svc, f"scale-{size}-{target}", size)
                notes[(size, target)] = f"roster of {size:,} in one change: {c.roster_s:.2f} s"
                if target:
                    notes[(size, target)] += f"; played to {target:,} events in " \
                                             f"{c.fill(target):.0f} s"
        for c in campaigns.values():
            c.wounds(WARM_UP)
        took: dict[tuple[int, int], list[float]] = {k: [] for k in campaigns}
        for _ in range(wounds):
            for k, c in campaigns.items():
                took[k] += c.wounds(1)
        print(f"{'characters':>10} {'events':>8} {'median ms':>10} {'p99 ms':>8}   notes")
        for k, c in campaigns.items():
            print(f"{k[0]:>10,} {c.events():>8,} {statistics.median(took[k]) * 1000:>10.2f} "
                  f"{ms(took[k], 0.99):>8.2f}   {notes[k]}")
    finally:
        db.close()
    small, big = (sizes[0], 0), (sizes[-1], events)
    ratio = statistics.median(took[big]) / statistics.median(took[small])
    print(f"{big[0]:,} characters after {events:,} events vs {small[0]:,} after 0: "
          f"{ratio:.2f}x (target <= {TARGET}x): {'MET' if ratio <= TARGET else 'NOT MET'}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="100,1000,3000")
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--wounds", type=int, default=200)
    ap.add_argument("--pg", help="PostgreSQL URL (its public schema is emptied); 'none' to skip")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        backend("SQLite", f"sqlite:///{tmp}/scale.db", sizes, args.events, args.wounds)
    url, cluster = postgres(args)
    if url:
        from tests.conftest import empty_postgres

        try:
            backend("PostgreSQL", empty_postgres(url), sizes, args.events, args.wounds)
        finally:
            if cluster:
                subprocess.run(
                    ["bash", str(ROOT / "scripts/pg-test-cluster.sh"), "stop", cluster],
                    check=False,
                )


if __name__ == "__main__":
    main()
