"""The migrations keep meaning what they meant when they were written: none imports the
service or the rulesets (a later change there would change what an old upgrade does),
and a database from before the state's parts (revision 0008: one JSON document per
campaign) upgrades with today's code to the same campaigns, and downgrades back to the
same rows."""

from __future__ import annotations

import ast
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, text
from tests.integration.test_store import downgrade

from lazaretto.core.state import CampaignState
from lazaretto.service.accounts import AccountService
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.demo import CAMPAIGN, seed
from lazaretto.service.repair import DamagedCampaign, repair
from lazaretto.service.showcase import TABLES, seed_tables
from lazaretto.store.db import HEAD_REVISION, Database

VERSIONS = Path(str(resources.files("lazaretto.store").joinpath("migrations", "versions")))


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (in functions too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
    return out


def test_no_migration_imports_anything_of_lazaretto() -> None:
    """What a migration needs of the service (how a state is split, ORDER_SCALE, ...) is
    copied into it, frozen: a change to ``service/`` or to the state models cannot
    change what an old upgrade does."""
    files = sorted(VERSIONS.glob("*.py"))
    assert len(files) >= 9
    ours = {f.name: sorted(m for m in _imported(f) if m.split(".")[0] == "lazaretto")
            for f in files}
    assert {name: mods for name, mods in ours.items() if mods} == {}


def _rows_at_0008(db: Database) -> list[tuple[Any, ...]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(text("SELECT * FROM campaigns ORDER BY id"))]


def _states(svc: CampaignService, names: list[str]) -> dict[str, CampaignState]:
    return {n: svc.load(n)[1] for n in names}


def test_a_0008_database_upgrades_to_the_same_campaigns_and_downgrades_to_the_same_rows(
    database_url: str,
) -> None:
    """Campaigns of every ruleset with characters and state (the demo LARP and the
    showcase tables), taken back to 0008, then upgraded with today's code: each loads
    with the state it had and its log replays to it; one whose stored document is not
    JSON stays as it was and is listed as damaged (``lazaretto repair`` rebuilds it);
    downgrading 0009 gives back the very rows of 0008."""
    db = Database(database_url)
    svc, accounts = CampaignService(db), AccountService(db)
    seed(svc, accounts)
    shown = seed_tables(svc, accounts, accounts.login("master", "master-demo").user)
    names = [CAMPAIGN, *shown]
    for name in shown:  # countdowns run and fire: timers and conditions in the state
        clock = svc.load(name)[1].clock
        assert clock is not None
        svc.advance_to(name, clock.now() + timedelta(minutes=45))
    svc.create_campaign("broken", "zone-larp", seed=1)
    rulesets = {info.ruleset for info in svc.campaigns()}
    assert rulesets >= {"warhammer-larp", *TABLES}
    before = _states(svc, names)
    assert all(s.characters for s in before.values())
    assert any(s.timers for s in before.values())

    downgrade(db, "0008")
    assert "state_parts" not in inspect(db.engine).get_table_names()
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE campaigns SET state = 'not json' WHERE id = 'broken'"))
    at_0008 = _rows_at_0008(db)
    stored = {row[0]: row for row in at_0008}
    assert {n: before[n].model_dump_json() in stored[n] for n in names} == dict.fromkeys(
        names, True
    )
    db.close()

    db = Database(database_url)  # today's code migrates it to the head
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
            HEAD_REVISION
        )
    svc = CampaignService(db)
    assert _states(svc, names) == before
    assert {n: svc.replay_matches(n) for n in names} == dict.fromkeys(names, True)
    assert isinstance(svc.info("broken"), DamagedCampaign)

    downgrade(db, "0008")
    assert _rows_at_0008(db) == at_0008
    db.close()

    db = Database(database_url)  # and up again: still the same, and repairable
    svc = CampaignService(db)
    assert _states(svc, names) == before
    assert repair(svc, "broken").problem.startswith("Invalid JSON")
    assert not isinstance(svc.info("broken"), DamagedCampaign)
    db.close()
