"""Stateful fuzzing of the API (schemathesis): sequences of calls chained by the links
schemathesis infers from the OpenAPI document (a campaign listed or created, then its
characters, actions and queries), made by a logged-in master, healer and player.

Whatever the sequence: no 5xx, no traceback text, every refusal a JSON error with a
message, and a refused change leaves the campaign as it was.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.core.transport import Response
from schemathesis.generation.stateful.state_machine import APIStateMachine

from tests.security.world import World

STEPS = settings(
    # one long sequence rather than many short ones: the calls run against a live
    # database that is not reset between Hypothesis' test cases, and a second case
    # sharing a first one's start drew differently (FlakyStrategyDefinition)
    max_examples=1,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),
)


def machine(world: World, user: str) -> type[APIStateMachine]:
    """The API's state machine, calling as ``user`` and judging every answer."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", world.app)
    # the stream never ends, and a logout would end the session the sequence runs on
    calls = schema.exclude(path_regex=r"/stream$").exclude(path="/api/logout")
    base: Any = calls.as_state_machine()
    headers = world.bearer(user)

    class Calls(base):  # type: ignore[misc]
        version: int | None = None

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": headers}

        def before_call(self, case: Any) -> None:
            campaign = (case.path_parameters or {}).get("campaign")
            self.version = world.campaigns.version(campaign) if campaign else None

        def validate_response(self, response: Response, case: Any, *args: Any,
                              **kwargs: Any) -> None:
            where = f"{case.method} {case.formatted_path} {case.body!r:.300}"
            text = response.text or ""
            assert response.status_code < 500, f"{where}: {response.status_code} {text[:300]}"
            assert "Traceback" not in text, where
            if response.status_code >= 400:
                body = response.json()
                assert body["error"] and body["message"], f"{where}: {text[:300]}"
                campaign = (case.path_parameters or {}).get("campaign")
                if campaign and self.version is not None:
                    after = world.campaigns.version(campaign)
                    assert after == self.version, f"{where}: refused, but the campaign changed"

    return Calls


@pytest.mark.parametrize("user", ["master", "healer", "player"])
def test_no_sequence_of_calls_breaks_the_api(world: World, user: str) -> None:
    machine(world, user).run(settings=STEPS)
