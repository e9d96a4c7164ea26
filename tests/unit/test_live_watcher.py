"""The stream's shared version poller (api/live.py): many open pages watching one
campaign cost one version query per tick, every page hears every change, and the
poller stops with the last page."""

from __future__ import annotations

import asyncio

import pytest

from lazaretto.api import live


def test_a_hundred_streams_share_one_poller_and_all_hear_a_change(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(live, "POLL_SECONDS", 0.01)
    stored = {"siege": 1}
    asked: list[str] = []

    def version_of(campaign: str) -> int | None:
        asked.append(campaign)
        return stored.get(campaign)

    watcher = live.VersionWatcher(version_of)
    heard: list[list[int | None]] = [[] for _ in range(100)]

    async def page(i: int, ready: asyncio.Barrier) -> None:
        async with watcher.watch("siege") as w:
            await ready.wait()
            while len(heard[i]) < 2:
                if w.version is not None and (not heard[i] or heard[i][-1] != w.version):
                    heard[i].append(w.version)
                    continue
                await w.changed.wait()

    async def scenario() -> tuple[int, int]:
        ready = asyncio.Barrier(101)
        pages = [asyncio.create_task(page(i, ready)) for i in range(100)]
        await ready.wait()
        assert watcher.pollers == 1
        await asyncio.sleep(0.05)
        polls_before = len(asked)
        stored["siege"] = 2  # a change, made by any process
        await asyncio.wait_for(asyncio.gather(*pages), timeout=10)
        return polls_before, watcher.pollers

    polls_before, pollers_after = asyncio.run(scenario())
    assert all(h == [1, 2] for h in heard)
    assert polls_before < 20, "one poller for all pages, not one per page"
    assert pollers_after == 0, "the poller stops when the last page leaves"


def test_a_missing_campaign_is_reported_as_no_version() -> None:
    watcher = live.VersionWatcher(lambda campaign: None)

    async def scenario() -> int | None:
        async with watcher.watch("gone") as w:
            await asyncio.sleep(0.05)
            return w.version

    assert asyncio.run(scenario()) is None
