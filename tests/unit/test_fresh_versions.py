"""The card's version read (api/fresh.py): made in a thread, never on the event loop;
the pages asking while one read is made share the next one; and every page gets a
version read after it asked, so a card never answers from a state older than the
change that sent the page to fetch it (issue 25)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from lazaretto.api.fresh import FreshVersions
from lazaretto.core.errors import Conflict


class Stored:
    """A campaign version 'in the database': each read blocks until let go."""

    def __init__(self) -> None:
        self.version = 1
        self.reads: list[int] = []
        self.threads: set[str] = set()
        self.go = threading.Event()

    def read(self, campaign: str) -> int | None:
        self.threads.add(threading.current_thread().name)
        seen = self.version  # what the query finds; its answer is slow to come back
        self.go.wait(timeout=10)
        self.reads.append(seen)
        return seen if campaign == "siege" else None


def test_pages_asking_during_a_read_share_the_next_one_and_see_what_came_before_it() -> None:
    stored = Stored()
    fresh = FreshVersions(stored.read)

    async def scenario() -> tuple[int | None, list[int | None], str]:
        first = asyncio.create_task(fresh.of("siege"))
        await asyncio.sleep(0.05)  # its read is under way, at version 1
        stored.version = 2  # a change commits while that read is made
        later = [asyncio.create_task(fresh.of("siege")) for _ in range(50)]
        await asyncio.sleep(0.05)
        stored.go.set()
        return await first, await asyncio.gather(*later), threading.current_thread().name

    first, later, loop_thread = asyncio.run(scenario())
    assert first == 1  # it asked before the change
    # the fifty asked after the change: not answered by the read that began before it
    assert later == [2] * 50
    assert stored.reads == [1, 2], "fifty pages, one read after the first"
    assert loop_thread not in stored.threads, "the read is made off the event loop"


def test_a_missing_campaign_is_no_version_and_a_failed_read_reaches_every_waiter() -> None:
    stored = Stored()
    stored.go.set()
    assert asyncio.run(FreshVersions(stored.read).of("gone")) is None

    def broken(campaign: str) -> int | None:
        raise Conflict("busy", ru="занято")

    async def scenario() -> list[BaseException | int | None]:
        fresh = FreshVersions(broken)
        asked = [fresh.of("siege") for _ in range(3)]
        return await asyncio.gather(*asked, return_exceptions=True)

    assert [type(x) for x in asyncio.run(scenario())] == [Conflict] * 3
    with pytest.raises(Conflict):  # and the next one reads again
        asyncio.run(FreshVersions(broken).of("siege"))
