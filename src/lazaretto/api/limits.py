"""The request body size limit, as one layer that answers in our error shape.

A body declared larger than the limit (Content-Length) is refused before any of it is
read; a body sent in chunks is counted as it is read, and refused once it passes the
limit. Either way the caller gets a 413 with the JSON body (or, for a browser, the
error page) of every other error, in their language.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lazaretto.core.errors import LazarettoError


class TooLarge(LazarettoError):
    """Raised when a request body is larger than the server accepts."""

    http_status = 413


def too_large(limit: int) -> TooLarge:
    """The refusal of a body over ``limit`` bytes."""
    spaced = f"{limit:,}".replace(",", " ")  # 1 000 000, as Russian writes it
    return TooLarge(
        f"The request body is larger than {limit:,} bytes",
        ru=f"Тело запроса больше {spaced} байт",
    )


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes."""

    def __init__(
        self, app: ASGIApp, *, limit: int, answer: Callable[[Request, LazarettoError], Response]
    ) -> None:
        self.app, self.limit, self.answer = app, limit, answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(Headers(scope=scope))
        if declared is not None and declared > self.limit:
            response = self.answer(Request(scope), too_large(self.limit))
            await response(scope, receive, send)
            return
        if declared is not None:  # the server delivers no more than declared
            await self.app(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:  # answered by the app's HTTPException handler
                    raise HTTPException(413, str(too_large(self.limit)))
            return message

        await self.app(scope, counted, send)


def _content_length(headers: Headers) -> int | None:
    try:
        return int(headers["content-length"])
    except (KeyError, ValueError):
        return None
