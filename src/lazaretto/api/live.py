"""Live updates: the due-timer ticker and the server-sent event stream.

The ticker fires due countdowns of running realtime campaigns about once a second
(found with one indexed query; the campaign's version check makes each fire exactly
once even with several server processes). A campaign that fails is logged, skipped and
retried with backoff; the others keep firing. Pages subscribe to
``/api/campaigns/{campaign}/stream`` and get a ``changed`` event whenever the
campaign's version moves, whichever process made the change: one poller per watched
campaign per process reads the version once a second and wakes every stream watching
it, so a hundred open phones cost one cheap query a second, not a hundred.

On SIGTERM or Ctrl-C every stream ends at once (:func:`stop_signals`): a stream never
ends by itself, and the server would wait for the last open phone before it stopped.
The pages' EventSource reconnects by itself, to the next server on the same address.

A page about one character (a card) subscribes with ``?character=ID`` and is told only
of changes whose events name that character, or name nobody (a clock move, the
weather), and at least every ``STALE_SECONDS`` while other changes happen: six hundred
players watching their own cards do not all refetch for every wound on the field.
A player who may not see the other characters (the campaign's ``player_sight``) is told
only of changes about their own characters, whatever page they watch, and cannot watch
a character they may not know of: it is refused as one that does not exist.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import signal
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from types import FrameType
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import StreamingResponse

from lazaretto.api.context import CallerDep, Services, ServicesDep
from lazaretto.core.errors import LazarettoError

log = logging.getLogger("lazaretto.live")
router = APIRouter(prefix="/api")
POLL_SECONDS = 1.0
HEARTBEAT_SECONDS = 15.0
SPREAD_PER_PAGE = 0.005
"""Seconds over which the pages watching a campaign hear of a change, per page watching
(at most ``MAX_SPREAD``): three pages hear within 15 ms, a hundred within half a second."""
MAX_SPREAD = 0.5
STALE_SECONDS = 30.0
"""A page skipping changes about others is still told after this long."""
HISTORY = 256


def spread(pages: int) -> float:
    """How long notifying ``pages`` watchers of one change may take."""
    return min(MAX_SPREAD, SPREAD_PER_PAGE * pages)


class Backoff:
    """When a failing campaign is tried again: ``FIRST`` seconds after its first failure,
    doubling up to ``MOST``; a success forgets it."""

    FIRST = 1.0
    MOST = 60.0

    def __init__(self) -> None:
        self._failing: dict[str, tuple[float, float]] = {}  # campaign -> (delay, retry at)

    def ready(self, campaign: str, now: float) -> bool:
        """Whether ``campaign`` may be tried at ``now`` (monotonic seconds)."""
        failing = self._failing.get(campaign)
        return failing is None or now >= failing[1]

    def failed(self, campaign: str, now: float) -> float:
        """Record a failure at ``now``; returns how long until the next try."""
        last = self._failing.get(campaign)
        delay = self.FIRST if last is None else min(self.MOST, last[0] * 2)
        self._failing[campaign] = (delay, now + delay)
        return delay

    def succeeded(self, campaign: str) -> None:
        """``campaign`` worked again."""
        self._failing.pop(campaign, None)


async def ticker(svc: Services, stop: asyncio.Event) -> None:
    """Fire due countdowns until ``stop`` is set.

    Each campaign is fired on its own: one that fails (a busy database, a damaged
    stored state, a bug) is logged with its name and traceback and tried again later,
    with backoff (:class:`Backoff`), while the others keep firing. Nothing but
    cancellation ends the loop.
    """
    backoff = Backoff()
    while not stop.is_set():
        try:
            due = await asyncio.to_thread(svc.campaigns.due_campaigns)
        except Exception:  # the database is unreachable: look again on the next tick
            log.exception("ticker: cannot list the campaigns with due countdowns")
            due = []
        for campaign in due:
            if stop.is_set():
                break
            if backoff.ready(campaign, time.monotonic()):
                await _fire(svc, campaign, backoff)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=POLL_SECONDS)


async def _fire(svc: Services, campaign: str, backoff: Backoff) -> None:
    """Fire ``campaign``'s due countdowns; a failure is logged and backed off, never raised."""
    try:
        await asyncio.to_thread(svc.campaigns.catch_up, campaign)
    except LazarettoError as err:  # ours (e.g. a busy database): no traceback needed
        delay = backoff.failed(campaign, time.monotonic())
        log.warning("ticker: campaign %r: %s (next try in %.0f s)", campaign, err.text(), delay)
    except Exception:
        delay = backoff.failed(campaign, time.monotonic())
        log.exception(
            "ticker: campaign %r failed to fire its countdowns; next try in %.0f s "
            "(a damaged state is rebuilt with `lazaretto repair %s`)",
            campaign,
            delay,
            campaign,
        )
    else:
        backoff.succeeded(campaign)


News = Callable[[str, int | None], tuple[int | None, int, frozenset[str] | None]]
"""(campaign, after seq) → (version, last seq, what the events after it name or None)."""


@dataclass
class Watch:
    """The last version seen of one campaign, what its recent changes named, and an
    event set when it moves."""

    version: int | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    subscribers: int = 0
    task: asyncio.Task[None] | None = None
    history: deque[tuple[int | None, frozenset[str] | None]] = field(
        default_factory=lambda: deque(maxlen=HISTORY)
    )

    def concerns(self, subjects: str | frozenset[str], after: int) -> bool:
        """Whether a change since version ``after`` may show on a page about ``subjects``
        (a character, or several: a player's own)."""
        if isinstance(subjects, str):
            subjects = frozenset({subjects})
        full = len(self.history) == self.history.maxlen
        if not self.history or (full and (self.history[0][0] or 0) > after):
            return True  # the history no longer reaches back: cannot tell
        for version, named in reversed(self.history):  # newest first: only what is new
            if version is None or version <= after:
                return False
            if named is None or subjects & named:
                return True
        return False


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def stop_signals(stopping: Callable[[], None]) -> Iterator[None]:
    """Call ``stopping`` (in the event loop) when the process is asked to stop, then
    let the server's own handler stop it as before.

    Only where the server already handles the signal in Python (uvicorn does, in the
    main thread of each worker): a server in a thread or a test client is left alone.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()
    before: dict[int, Any] = {int(sig): signal.getsignal(sig) for sig in STOP_SIGNALS}

    def handler(sig: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stopping)
        server = before[sig]
        if callable(server):
            server(sig, frame)

    ours = {sig for sig, h in before.items() if callable(h)}
    for sig in ours:
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig in ours:
            if signal.getsignal(sig) is handler:
                signal.signal(sig, before[sig])


class VersionWatcher:
    """Shared pollers of campaign versions for the streams of one process."""

    def __init__(self, news: News) -> None:
        self._news = news
        self._watches: dict[str, Watch] = {}
        self.closing = False

    def close(self) -> None:
        """The server is stopping: wake every stream, which then ends."""
        self.closing = True
        for w in self._watches.values():
            w.changed.set()

    @contextlib.asynccontextmanager
    async def watch(self, campaign: str) -> AsyncIterator[Watch]:
        """Follow ``campaign`` while inside the block."""
        w = self._watches.setdefault(campaign, Watch())
        w.subscribers += 1
        if w.task is None:
            w.task = asyncio.create_task(self._poll(campaign, w))
        try:
            yield w
        finally:
            w.subscribers -= 1
            if w.subscribers == 0:
                w.task.cancel()
                del self._watches[campaign]

    @property
    def pollers(self) -> int:
        """How many campaigns are being polled (one poller each)."""
        return len(self._watches)

    async def _poll(self, campaign: str, w: Watch) -> None:
        after: int | None = None
        while True:
            try:
                version, last, named = await asyncio.to_thread(self._news, campaign, after)
            except LazarettoError as err:  # a busy database: look again on the next tick
                log.warning("stream: %s", err.text())
            else:
                if version != w.version:
                    w.history.append((version, named))
                    w.version = version
                    woken, w.changed = w.changed, asyncio.Event()
                    woken.set()
                after = last
            await asyncio.sleep(POLL_SECONDS)


@router.get("/campaigns/{campaign}/stream", tags=["play"])
async def stream(
    campaign: str,
    request: Request,
    svc: ServicesDep,
    who: CallerDep,
    character: Annotated[
        str | None,
        Query(max_length=80, description="only changes that may show on this character's page"),
    ] = None,
) -> StreamingResponse:
    """Server-sent events: ``changed`` whenever the campaign changes (with the clock)."""
    subjects = await asyncio.to_thread(svc.play.watched, who.user, campaign, character)

    watcher: VersionWatcher = request.app.state.watcher

    async def events() -> AsyncIterator[str]:
        async with watcher.watch(campaign) as w:
            yield "retry: 2000\n\n"
            last: int | None = None
            told = time.monotonic()
            # pages opened together must not all go stale together (another herd)
            stale = STALE_SECONDS * random.uniform(1.0, 1.5)
            while not watcher.closing:
                if w.version is not None and w.version != last:
                    first, since = last is None, last
                    last = w.version
                    if not (
                        first
                        or subjects is None
                        or w.concerns(subjects, since or 0)
                        or time.monotonic() - told > stale
                    ):
                        continue  # about someone else: this page stays as it is
                    if not first:
                        # every page told refetches: tell them at staggered moments, not
                        # all in the same millisecond (a herd of fetches in one queue)
                        await asyncio.sleep(random.uniform(0, spread(w.subscribers)))
                    if await request.is_disconnected():
                        return
                    told = time.monotonic()
                    yield f"event: changed\ndata: {json.dumps({'version': last})}\n\n"
                    continue
                try:
                    await asyncio.wait_for(w.changed.wait(), timeout=HEARTBEAT_SECONDS)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield ": keep-alive\n\n"

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
