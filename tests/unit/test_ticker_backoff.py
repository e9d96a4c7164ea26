"""The ticker's backoff for a failing campaign (api/live.py): 1 s, doubling to 60 s,
forgotten on success; another campaign is never held back by it."""

from __future__ import annotations

from lazaretto.api.live import Backoff


def test_a_failing_campaign_is_retried_after_1_s_doubling_to_60_s() -> None:
    b = Backoff()
    now = 100.0
    delays = []
    for _ in range(9):
        delay = b.failed("broken", now)
        delays.append(delay)
        assert not b.ready("broken", now + delay - 0.01) and b.ready("broken", now + delay)
        now += delay
    assert delays == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert b.ready("healthy", now)  # the others are not held back
    b.succeeded("broken")
    assert b.ready("broken", now) and b.failed("broken", now) == 1
