"""Shared pieces of the web page tests (their fixtures are in conftest.py)."""

from __future__ import annotations

import re
from collections.abc import Callable

from fastapi.testclient import TestClient

from lazaretto.service.demo import CAMPAIGN

C = f"/c/{CAMPAIGN}"
Login = Callable[[str], TestClient]


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no field {name}"
    return found.group(1)
