"""Fetch a roster from a JoinRPG server: the same JSON a master would save by hand.

JoinRPG's game API (``JoinRpg.Portal/Controllers/XGameApi``) answers, for a project
address ``{server}/x-game-api/{projectId}`` and a master's token (``Authorization:
Bearer``):

- ``GET …/metadata/fields``: the project's ``ProjectFieldsMetadata``;
- ``GET …/characters``: the list of ``CharacterHeader`` (id, updated, active);
- ``GET …/characters/{characterId}/``: one ``CharacterInfo``.

:func:`fetch_roster` asks for all three and returns the document
:func:`lazaretto.service.joinrpg.read_document` reads (``{"metadata", "characters"}``).
"""

from __future__ import annotations

import json
from typing import Any

from lazaretto.core.errors import InvalidInput
from lazaretto.service.joinrpg import MAX_CHARACTERS, get

MAX_ANSWER_BYTES = 5_000_000
"""Bytes of one answer read at most (a whole project's metadata is far less)."""
TIMEOUT_S = 30.0


class FetchFailed(InvalidInput):
    """Raised when the JoinRPG server cannot be reached or answers otherwise than JSON."""


def _fail(url: str, en: str, ru: str) -> FetchFailed:
    return FetchFailed(
        f"JoinRPG at {url}: {en}",
        ru=f"JoinRPG по адресу {url}: {ru}",
        tip="Check the address (…/x-game-api/<project id>) and the token, or save the "
        "JSON by hand and import the file.",
        tip_ru="Проверьте адрес (…/x-game-api/<номер проекта>) и токен или сохраните "
        "JSON вручную и импортируйте файл.",
    )


def _get(client: Any, url: str) -> Any:
    import httpx

    try:
        with client.stream("GET", url) as answer:
            if answer.status_code in (401, 403):
                raise _fail(url, "the token is refused", "токен не принят")
            if answer.status_code != 200:
                raise _fail(url, f"answered {answer.status_code}", f"ответ {answer.status_code}")
            body = b""
            for chunk in answer.iter_bytes():
                body += chunk
                if len(body) > MAX_ANSWER_BYTES:
                    raise _fail(url, "the answer is over 5 MB", "ответ больше 5 МБ")
    except httpx.HTTPError as exc:
        raise _fail(url, f"cannot be reached ({type(exc).__name__})", "недоступен") from None
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise _fail(url, "the answer is not JSON", "ответ — не JSON") from None


def fetch_roster(base: str, token: str, *, transport: Any = None) -> dict[str, Any]:
    """The metadata and every character of the project at ``base``
    (``https://joinrpg.ru/x-game-api/4242``), asked with ``token``."""
    import httpx

    base = base.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise _fail(base, "the address is not http(s)", "адрес — не http(s)")
    headers = {"Authorization": f"Bearer {token.strip()}", "Accept": "application/json"}
    with httpx.Client(
        headers=headers, timeout=TIMEOUT_S, transport=transport, follow_redirects=False
    ) as client:
        metadata = _get(client, f"{base}/metadata/fields")
        listing = _get(client, f"{base}/characters")
        if not isinstance(listing, list):
            raise _fail(base, "the character list is not a list", "список персонажей — не список")
        if len(listing) > MAX_CHARACTERS:
            raise _fail(base, f"over {MAX_CHARACTERS} characters", f"больше {MAX_CHARACTERS}")
        characters = []
        for header in listing:
            cid = get(header, "CharacterId") if isinstance(header, dict) else None
            if not isinstance(cid, int) or isinstance(cid, bool):
                raise _fail(base, "a character without a whole id", "персонаж без целого id")
            characters.append(_get(client, f"{base}/characters/{cid}/"))
    return {"metadata": metadata, "characters": characters}
