"""Fixtures of the security tests: one world per database backend per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import BACKENDS, PG_URL, empty_postgres
from tests.security.world import World, build_world


@pytest.fixture(scope="module", params=BACKENDS)
def module_database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """What ``database_url`` gives, shared by a module's tests (its world is costly)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('security') / 'world.db'}"
    assert PG_URL is not None
    return empty_postgres(PG_URL)


@pytest.fixture(scope="module")
def world(request: pytest.FixtureRequest, module_database_url: str) -> Iterator[World]:
    """Every ruleset's campaign with users in every role (see world.py); only the demo
    campaign's in a module that says ``OTHER_RULESETS = False`` (it makes its own)."""
    built = build_world(
        module_database_url, other_rulesets=getattr(request.module, "OTHER_RULESETS", True)
    )
    yield built
    built.client.close()
    built.db.close()
