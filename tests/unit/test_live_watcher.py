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

    def news(campaign: str, after: int | None) -> tuple[int | None, int, frozenset[str] | None]:
        asked.append(campaign)
        return stored.get(campaign), 0, None

    watcher = live.VersionWatcher(news)
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
    watcher = live.VersionWatcher(lambda campaign, after: (None, 0, None))

    async def scenario() -> int | None:
        async with watcher.watch("gone") as w:
            await asyncio.sleep(0.05)
            return w.version

    assert asyncio.run(scenario()) is None


def test_a_card_page_hears_of_changes_naming_its_character_or_nobody() -> None:
    w = live.Watch()
    w.history.extend(
        [
            (1, None),  # the first look: cannot tell
            (2, frozenset({"1002", "h1"})),  # Boris bandaged on the hospital's mat
            (3, frozenset({"1003"})),  # Dmitri wounded
        ]
    )
    assert w.concerns("1002", after=1)
    assert not w.concerns("1002", after=2), "only Dmitri's wound since"
    assert w.concerns("1003", after=2)
    assert not w.concerns("1001", after=1)
    w.history.append((4, None))  # the clock moved: about everyone
    assert w.concerns("1001", after=3), "a clock move shows on every card"
    assert not w.concerns("1001", after=4), "nothing new"


def test_a_page_whose_history_was_forgotten_is_told() -> None:
    w = live.Watch()
    for v in range(100, 100 + live.HISTORY):
        w.history.append((v, frozenset({"someone-else"})))
    assert w.concerns("1001", after=10), "changes before the kept history are unknown"
    assert not w.concerns("1001", after=150)
