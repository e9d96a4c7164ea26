"""The game-weekend rehearsal's smoke run (issue 25): ``bench/bench_rehearsal.py
--quick`` drives the real ``lazaretto serve`` (SQLite) through a compressed game day —
a battle with a Wi-Fi storm of 10 phones, the master's outbreak and epidemic wave, a
second battle with a SIGKILL and a backup, a paper log and undone mis-taps — and
prints a MET / NOT MET line per check a master would make. Here only its correctness
lines run (the timings are the full run's, in bench/, never asserted): every one must
be MET, and each of them must have been judged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKS = (
    "replay clean",
    "repair --dry-run finds nothing",
    "every tap answered",
    "every tap recorded exactly once",
    "the storm:",
    "the master's outbreak, epidemic and wave placed",
    "mis-taps undone",
    "watching pages show the final card",
    "the backup (taken mid-battle",
)


def test_the_quick_rehearsal_of_a_game_day_meets_every_correctness_line() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/bench_rehearsal.py"), "--quick"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )
    out = done.stdout
    judged = [ln.strip() for ln in out.splitlines() if ln.strip().startswith(("MET", "NOT MET"))]
    assert done.returncode == 0, out[-3000:] + done.stderr[-3000:]
    assert not [ln for ln in judged if ln.startswith("NOT MET")], out[-3000:]
    for check in CHECKS:  # each line was judged, not left out
        assert any(check in ln for ln in judged), f"{check!r} missing:\n{out[-3000:]}"
    assert "lost 0, doubled 0" in out
    # the storm was a storm and the kill a kill: outbox taps were placed late, and taps
    # in flight when the server died were resent and answered
    storm = next(ln for ln in judged if "the storm:" in ln)
    assert int(storm.split("the storm: ")[1].split()[0]) >= 10, storm
    once = next(ln for ln in judged if "exactly once" in ln)
    assert int(once.split("resent after no answer ")[1].split(")")[0]) > 0, once
