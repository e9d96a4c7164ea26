"""Schemathesis against the OpenAPI spec: no generated request, valid or not, may cause a
server error or show a traceback (it must be refused with a clear 4xx instead).

Sequences of requests are in tests/security/test_api_stateful.py."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import CheckContext, not_a_server_error
from schemathesis.core.transport import Response

from lazaretto.api.app import create_app
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import seed
from lazaretto.store.db import Database

_DIR = Path(tempfile.mkdtemp(prefix="lazaretto-schema-"))
_DB = Database(f"sqlite:///{_DIR / 'schema.db'}")
seed(CampaignService(_DB), AccountService(_DB))
TOKEN = AccountService(_DB).login("master", "master-demo").token
APP = create_app(_DB, ticker=False)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


def no_traceback(ctx: CheckContext, response: Response, case: schemathesis.Case[Any]) -> None:
    """Nothing of the server's insides reaches the caller."""
    if "Traceback" in (response.text or ""):
        raise AssertionError(f"a traceback in the answer: {response.text[:300]}")


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_causes_a_server_error(case: schemathesis.Case[Any]) -> None:
    if "campaign" in (case.path_parameters or {}):
        case.path_parameters["campaign"] = "demo-larp"  # aim at real data as well
    case.call_and_validate(
        headers={"Authorization": f"Bearer {TOKEN}"}, checks=[not_a_server_error, no_traceback]
    )
