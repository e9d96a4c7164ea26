"""The atheris harnesses in fuzz/ run clean for a bounded number of inputs: a crash (any
exception but the engine's own refusals) makes libFuzzer exit non-zero with the input."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[2] / "fuzz"
RUNS = {"atheris_dice.py": 3000, "atheris_datafile.py": 200}
"""Inputs per harness: a few seconds each (the data files are large and slow to parse)."""


def rss_limit_mb() -> int:
    """libFuzzer's memory limit for a harness started from this process: its default
    2 GB above what this process has held. A child starts with its parent's peak
    resident size as its own (Linux keeps it across fork and exec), and libFuzzer reads
    that peak: in a whole test run the pytest process alone holds over 2 GB, and every
    harness was "out of memory" before its first input."""
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak_kb // 1024 + 2048


@pytest.mark.parametrize("harness", sorted(RUNS))
def test_the_harness_finds_no_crash(harness: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(FUZZ / harness),
            f"-atheris_runs={RUNS[harness]}",
            "-seed=1",
            f"-rss_limit_mb={rss_limit_mb()}",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,  # libFuzzer writes crash-* files into the working folder
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"Done {RUNS[harness]} " in result.stderr
