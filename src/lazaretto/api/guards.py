"""Two layers every request passes: answers that no other site may frame, and text
inputs that carry no NUL character.

* Every answer says ``X-Frame-Options: DENY`` and ``Content-Security-Policy:
  frame-ancestors 'none'``: a page of ours inside someone else's frame could be made
  to take a healer's taps (clickjacking). Served over HTTPS (``serve --ssl-certfile``,
  or a trusted proxy's ``X-Forwarded-Proto``), an answer also says
  ``Strict-Transport-Security`` (:data:`HSTS`): a phone that once reached the server
  safely never again sends its session in clear text to a look-alike on the field
  Wi-Fi. Browsers take it only from a connection without certificate errors (RFC
  6797, 8.1), so a self-signed field certificate clicked through is not pinned.
* A NUL character is refused with a 422 before the request reaches any route, whether
  it comes in the path, the query, a form or a JSON body (``\\u0000``): PostgreSQL
  refuses to store it, so it would fail a change late and for everyone it was
  committed with; no name or note needs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lazaretto.core.errors import InvalidInput, LazarettoError

SECURITY_HEADERS = (
    ("X-Frame-Options", "DENY"),
    ("Content-Security-Policy", "frame-ancestors 'none'"),
)

HSTS = ("Strict-Transport-Security", "max-age=31536000")
"""Said on HTTPS answers only (over plain HTTP a browser must ignore it): a year."""

# a JSON string's \u0000 escape: a backslash that is not itself escaped (preceded by an
# even number of backslashes), then u0000
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


def nul_refused() -> InvalidInput:
    """The refusal of a text with a NUL character."""
    return InvalidInput(
        "Text may not contain the NUL character (\\u0000): remove it and send again",
        ru="Текст не может содержать символ NUL (\\u0000): уберите его и отправьте снова",
    )


def has_nul(body: bytes, content_type: str) -> bool:
    """Whether a request body carries a NUL character in any text it holds."""
    if b"\x00" in body:
        return True
    if "json" in content_type:
        return _JSON_NUL.search(body) is not None
    if "x-www-form-urlencoded" in content_type:
        return b"%00" in body
    return False


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.setdefault(name, value)
                if scope.get("scheme") == "https":
                    headers.setdefault(*HSTS)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RefuseNul:
    """ASGI middleware refusing a NUL character anywhere in a request's text.

    The path and query are checked at once; a body is read whole first (they are
    small: a body over ``limit`` is left for the size limit to refuse) and handed on
    to the app unchanged when it has none."""

    def __init__(
        self, app: ASGIApp, *, limit: int, answer: Callable[[Request, LazarettoError], Response]
    ) -> None:
        self.app, self.limit, self.answer = app, limit, answer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query: bytes = scope.get("query_string", b"")
        if "\x00" in scope["path"] or b"%00" in query or b"\x00" in query:
            await self.answer(Request(scope), nul_refused())(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length", "")
        if scope["method"] in ("GET", "HEAD", "OPTIONS") or (
            declared.isdigit() and int(declared) > self.limit
        ):
            await self.app(scope, receive, send)
            return
        read: list[Message] = []
        body = bytearray()
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                break
            body.extend(message.get("body", b""))
            if len(body) > self.limit:
                break  # the size limit's to refuse
            if not message.get("more_body"):
                if has_nul(bytes(body), headers.get("content-type", "").lower()):
                    await self.answer(Request(scope), nul_refused())(scope, receive, send)
                    return
                break

        async def replay() -> Message:
            return read.pop(0) if read else await receive()

        await self.app(scope, replay, send)
