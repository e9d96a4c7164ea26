"""The service worker, served from the site's root: pages already opened open offline.

``static/sw.js`` says what it does and why it is our own and not Workbox. It is served
here, at ``/sw.js``, because a worker controls only the paths under its own URL: from
the root it covers the whole origin (no ``Service-Worker-Allowed`` header is needed).
In front of it goes its configuration: a version made of the package's version and
every static file's hash (a new server's worker differs by at least that line, so the
browser installs it and it drops the old files), the static URLs to keep from the
start, and the offline texts in the pages' two languages. ``no-cache``: the browser
asks for it again on every check, never trusting a stored one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from functools import cache

from fastapi.responses import Response

from lazaretto import __version__
from lazaretto.web import i18n
from lazaretto.web.pages import ASSETS, STATIC, router

ROUTER = router()
WORKER = "sw.js"


def worker_version(package: str, assets: Mapping[str, str]) -> str:
    """The worker's version: a new package or any changed static file makes a new one."""
    stamp = json.dumps([package, sorted(assets.items())])
    return hashlib.sha256(stamp.encode()).hexdigest()[:12]


@cache
def worker_script() -> bytes:
    """``static/sw.js`` with its configuration in front (the same for every request)."""
    files = {name: f"/static/{name}?v={digest}" for name, digest in ASSETS.items()}
    config = {
        "version": worker_version(__version__, ASSETS),
        "assets": sorted(url for name, url in files.items() if name != WORKER),
        "css": files["app.css"],
        "texts": {
            lang: {
                "copy": i18n.text("offline_copy", lang),
                "none": i18n.text("offline_none", lang),
                "unsent": i18n.text("offline_unsent", lang),
                "home": i18n.text("campaigns", lang),
            }
            for lang in i18n.LANGS
        },
    }
    head = f"var LZ = {json.dumps(config, ensure_ascii=False, sort_keys=True)};\n"
    return head.encode() + (STATIC / WORKER).read_bytes()


@ROUTER.get("/sw.js")
def service_worker() -> Response:
    """The service worker script (no login needed: it holds no one's data)."""
    return Response(
        worker_script(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache"},
    )
