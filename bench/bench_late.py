"""Benchmark late records: the re-run when a record arrives 30 minutes late, and what
recording costs an ordinary in-order change.

Run from the repository root::

    .venv/bin/python bench/bench_late.py [--characters 600] [--events 20000]

A warhammer-larp campaign on SQLite (WAL, synchronous=FULL) gets 600 characters and
wounds and bandages until it holds 20,000 events over a game day. Then, in this one
process (medians):

* **late** (7 runs): a wound placed 30 minutes before the clock, re-run from the
  nearest checkpoint (target: at most 200 ms);
* **in order, as a record** against **in order, as before** (the same wound run as a
  plain change that stores no record; 101 runs of each, taking turns, since a change
  costs a few ms and a shared machine's noise is of that size): target at most 1.10x;
* **a storm** (issue 25): ``--storm`` late wounds, 1-20 minutes back, sent one at a
  time (each its own re-run) against the same number sent at once, as phones
  reconnecting after a Wi-Fi outage (placed together, one re-run per group commit):
  target: together at least 5x faster, and within 10 s.

Each figure is wall time (what the healer waits for, the target) and, beside it, the
CPU time the process spent (every thread): on a machine shared with other work the
two differ by the time spent waiting for a core or for the disk.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.recorder import Draft
from lazaretto.store.db import Database

START = datetime(2026, 6, 13, 8, 0)
KIT = ["hourglass_10min", "needle", "thread", "plaster", "bandages", "mask", "gloves",
       "mat_materials"]
LATE_TARGET_MS = 200.0
LATE_RUNS = 7
ORDER_RUNS = 101
ORDER_TARGET = 1.10
STORM_TARGET = 5.0
STORM_DRAIN_S = 10.0


def build(svc: CampaignService, characters: int, events: int) -> datetime:
    """The campaign, filled; returns the clock's time at the end."""
    svc.create_campaign("big", "warhammer-larp", start=START, seed=1)
    svc.add_character("big", Character(id="doc", name="Doc", hits_max=3, hits=3,
                                       skills=["Healer"]))
    svc.act("big", "check-kit", {"healer": "doc", "items": KIT})
    svc.act("big", "register-mat", {"id": "m", "healer": "doc", "length_cm": 180,
                                    "width_cm": 60})
    futures = [
        svc.submit("big", None, draft=_character(i)) for i in range(characters)
    ]
    for f in futures:
        f.result()
    when, i = START, 0
    while svc.load("big")[2] and svc.load("big")[1].last_seq < events:
        when += timedelta(seconds=20)
        cid = f"c{i % characters}"
        svc.act("big", "lose-hits", {"character": cid, "hits": 1, "location": "arm"}, at=when)
        svc.act("big", "apply-bandage", {"healer": "doc", "patient": cid, "bandages": 1,
                                         "mat": "m"}, at=when + timedelta(seconds=5))
        svc.act("big", "cure-by-other-means", cure(cid), at=when + timedelta(seconds=10))
        i += 1
    return when + timedelta(seconds=10)


def cure(cid: str) -> dict[str, str]:
    return {"patient": cid, "means": "potion"}


def heal(svc: CampaignService, cid: str) -> None:
    """Cure ``cid`` if wounded (between runs, so each starts alike)."""
    if svc.load("big")[1].characters[cid].hits < 3:
        svc.act("big", "cure-by-other-means", cure(cid))


class Timed:
    """Medians of the wall and the process CPU time of each ``with`` block."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self._t = self._c = 0.0

    def __enter__(self) -> None:
        self._t, self._c = time.perf_counter(), time.process_time()

    def __exit__(self, *exc: object) -> None:
        self.wall.append(time.perf_counter() - self._t)
        self.cpu.append(time.process_time() - self._c)

    @property
    def wall_ms(self) -> float:
        return statistics.median(self.wall) * 1000

    @property
    def cpu_ms(self) -> float:
        return statistics.median(self.cpu) * 1000


def storm(svc: CampaignService, now: datetime, characters: int, taps: int) -> tuple[float, float]:
    """Seconds to place ``taps`` late wounds one at a time, then as many sent at once
    (queued while the writer waits for the write lock: one group commit takes them)."""

    def wounds(lane: int) -> list[tuple[dict[str, object], datetime]]:
        return [
            ({"character": f"c{(lane + n * 7) % characters}", "hits": 1, "location": "leg"},
             now - timedelta(minutes=1 + (n * 19) % 20, seconds=lane + n))
            for n in range(taps)
        ]

    began = time.perf_counter()
    for wound, when in wounds(1):
        svc.act("big", "lose-hits", wound, at=when)
    alone = time.perf_counter() - began
    began = time.perf_counter()
    with svc.db.write_lock:
        futures = [svc.submit_act("big", "lose-hits", w, at=when) for w, when in wounds(3)]
    for future in futures:
        future.result()
    return alone, time.perf_counter() - began


def _character(i: int) -> Draft:
    ch = Character(id=f"c{i}", name=f"C{i}", hits_max=3, hits=3)
    return Draft("character", input={"character": ch.model_dump(mode="json")})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--characters", type=int, default=600)
    ap.add_argument("--events", type=int, default=20_000)
    ap.add_argument("--storm", type=int, default=60, help="late taps in the storm")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(f"sqlite:///{Path(tmp) / 'late.db'}")
        svc = CampaignService(db)
        t0 = time.perf_counter()
        now = build(svc, args.characters, args.events)
        _, state, _ = svc.load("big")
        print(f"built: {len(state.characters)} characters, {state.last_seq:,} events, "
              f"{len(svc.records('big', limit=100_000)):,} records "
              f"in {time.perf_counter() - t0:.1f} s")
        late, record, plain = Timed(), Timed(), Timed()
        for n in range(LATE_RUNS):
            cid = f"c{(n * 37) % args.characters}"
            wound = {"character": cid, "hits": 1, "location": "leg"}
            with late:
                svc.act("big", "lose-hits", wound, at=now - timedelta(minutes=30, seconds=n))
            heal(svc, cid)
        for n in range(ORDER_RUNS):  # a few ms each: many, taking turns, against noise
            cid = f"c{(n * 37) % args.characters}"
            wound = {"character": cid, "hits": 1, "location": "leg"}
            with record:
                svc.act("big", "lose-hits", wound)
            heal(svc, cid)
            with plain:
                svc.submit("big", lambda rs, st, w=wound, k=f"bench{n}": engine.run_action(
                    rs, st, "lose-hits", w, key=k)).result()
            heal(svc, cid)
        alone_s, together_s = storm(svc, now, args.characters, args.storm)
        db.close()
    speedup = alone_s / together_s
    print(f"storm of {args.storm} late taps: one at a time {alone_s:.2f} s, together "
          f"{together_s:.2f} s: {speedup:.1f}x (target >= {STORM_TARGET:.0f}x, together "
          f"<= {STORM_DRAIN_S:.0f} s): "
          f"{'MET' if speedup >= STORM_TARGET and together_s <= STORM_DRAIN_S else 'NOT MET'}")
    late_ms = late.wall_ms
    rec_ms, plain_ms = record.wall_ms, plain.wall_ms
    print(f"late record, 30 minutes back: {late_ms:7.1f} ms median, {late.cpu_ms:.1f} ms CPU "
          f"(target <= {LATE_TARGET_MS:.0f} ms): "
          f"{'MET' if late_ms <= LATE_TARGET_MS else 'NOT MET'}")
    ratio = rec_ms / plain_ms
    print(f"in-order record {rec_ms:.2f} ms ({record.cpu_ms:.2f} ms CPU) vs plain change "
          f"{plain_ms:.2f} ms ({plain.cpu_ms:.2f} ms CPU): {ratio:.2f}x "
          f"(target <= {ORDER_TARGET:.2f}x): {'MET' if ratio <= ORDER_TARGET else 'NOT MET'}")


if __name__ == "__main__":
    main()
