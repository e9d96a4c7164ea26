"""The store (store/db.py, migrations) and the campaign service (service/campaigns.py)
on real databases — SQLite files and, in CI, PostgreSQL: durable settings, migrations,
the event log, refusals that store nothing, restarts, and concurrent writers."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError

from lazaretto.core import engine
from lazaretto.core.character import Character
from lazaretto.core.clock import Clock, ClockMode
from lazaretto.core.errors import (
    ClockError,
    Conflict,
    Forbidden,
    InvalidInput,
    NotFound,
    RuleViolation,
)
from lazaretto.core.events import named_in
from lazaretto.core.ruleset import Role
from lazaretto.service.campaigns import CampaignService
from lazaretto.service.event_log import Idempotency
from lazaretto.store.db import Database

START = datetime(2026, 6, 13, 9, 0)
RULESET = "warhammer-larp"


def head_revision() -> str:
    """The newest migration shipped in the package."""
    from importlib import resources

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option(
        "script_location", str(resources.files("lazaretto.store").joinpath("migrations"))
    )
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def test_the_head_revision_constant_is_the_newest_migration() -> None:
    from lazaretto.store.db import HEAD_REVISION

    assert head_revision() == HEAD_REVISION


def hero(cid: str, name: str | None = None) -> Character:
    return Character(id=cid, name=name or cid.title(), hits_max=3, hits=3)


@pytest.fixture
def db_url(database_url: str) -> str:
    return database_url


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path}/x.db")
    yield database
    database.close()


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    database = Database(db_url)
    yield database
    database.close()


@pytest.fixture
def svc(db: Database) -> CampaignService:
    return CampaignService(db)


@pytest.fixture
def campaign(svc: CampaignService) -> str:
    svc.create_campaign("siege", RULESET, start=START, seed=7)
    svc.add_character("siege", hero("c1", "Rustam"))
    return "siege"


def stored_events(db: Database, campaign: str) -> list[tuple[int, str]]:
    with db.engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seq, kind FROM events WHERE campaign_id = :c ORDER BY id"), {"c": campaign}
        )
        return [(r[0], r[1]) for r in rows]


# --- the database file -----------------------------------------------------------------


def test_the_database_file_is_in_wal_mode(sqlite_db: Database, tmp_path: Path) -> None:
    db = sqlite_db
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    raw = sqlite3.connect(tmp_path / "x.db")  # WAL is a property of the file itself
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        raw.close()


def test_every_connection_commits_with_synchronous_full(sqlite_db: Database) -> None:
    db = sqlite_db
    # Connections are opened one after the other: each transaction takes the write lock.
    with db.engine.connect() as a:
        assert a.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert a.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    db.engine.dispose()  # a brand-new pooled connection gets the same settings
    with db.engine.connect() as b:
        assert b.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_the_migration_creates_the_campaign_and_event_tables(db: Database) -> None:
    insp = inspect(db.engine)
    assert {"campaigns", "events", "alembic_version"} <= set(insp.get_table_names())
    assert {c["name"] for c in insp.get_columns("events")} >= {
        "campaign_id",
        "seq",
        "kind",
        "at",
        "wall",
        "actor",
        "action",
        "payload",
        "dice",
        "rule_ids",
    }
    assert {c["name"] for c in insp.get_columns("campaigns")} >= {
        "id",
        "ruleset",
        "version",
        "state",
    }
    uniques = {u["name"] for u in insp.get_unique_constraints("events")}
    assert "uq_events_campaign_seq" in uniques
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == [
            head_revision()
        ]


def test_running_the_migration_again_changes_nothing(db_url: str, db: Database) -> None:
    svc = CampaignService(db)
    svc.create_campaign("keep", RULESET, start=START, seed=1)
    before = stored_events(db, "keep")

    again = Database(db_url)  # migrates on open
    again._migrate()  # and once more, explicitly
    try:
        with again.engine.connect() as conn:
            versions = conn.exec_driver_sql("SELECT version_num FROM alembic_version")
            assert versions.scalars().all() == [head_revision()]
        assert stored_events(again, "keep") == before
        assert [c.id for c in CampaignService(again).campaigns()] == ["keep"]
    finally:
        again.close()


def test_the_seq_of_a_campaign_is_unique_in_the_database(db: Database, campaign: str) -> None:
    with pytest.raises(IntegrityError, match=r"(?i)unique"), db.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO events (campaign_id, seq, kind, at, actor, action, "
                "payload, dice, rule_ids) VALUES (:c, 1, 'x', 'a', 'b', 'c', '{}', "
                "'[]', '[]')"
            ),
            {"c": campaign},
        )


# --- campaigns -----------------------------------------------------------------------------


def test_a_created_campaign_is_listed_with_its_clock_and_first_event(svc: CampaignService) -> None:
    info = svc.create_campaign("siege", RULESET, start=START, seed=7)
    assert (info.id, info.ruleset, info.now, info.characters, info.events) == (
        "siege",
        RULESET,
        START,
        0,
        1,
    )
    assert info.clock.mode is ClockMode.MANUAL
    assert [c.id for c in svc.campaigns()] == ["siege"]
    [created] = svc.events("siege")
    assert created.kind == "campaign.created"
    assert created.payload["seed"] == 7


def test_creating_a_campaign_with_a_taken_name_is_a_conflict(svc: CampaignService) -> None:
    svc.create_campaign("siege", RULESET, start=START, seed=7)
    with pytest.raises(Conflict, match="'siege' already exists"):
        svc.create_campaign("siege", RULESET, start=START, seed=8)
    assert len(svc.events("siege")) == 1
    assert svc.events("siege")[0].payload["seed"] == 7


@pytest.mark.parametrize("name", ["", "has space", "-dash-first", "x" * 81, "a/b", "тест"])
def test_creating_a_campaign_with_a_malformed_name_is_invalid_input(
    svc: CampaignService, name: str
) -> None:
    with pytest.raises(InvalidInput, match="Campaign name"):
        svc.create_campaign(name, RULESET, start=START)
    assert svc.campaigns() == []


def test_creating_a_campaign_of_an_unknown_ruleset_or_bad_params_stores_nothing(
    svc: CampaignService,
) -> None:
    with pytest.raises(NotFound, match="warhammer-larp"):
        svc.create_campaign("x", "chess", start=START)
    with pytest.raises(InvalidInput, match="bleed"):
        svc.create_campaign("x", RULESET, start=START, params={"bleed": 1})
    assert svc.campaigns() == []


def test_an_unknown_campaign_is_not_found(svc: CampaignService) -> None:
    with pytest.raises(NotFound, match="'nowhere'"):
        svc.act("nowhere", "lose-hits", {"character": "c1"})
    with pytest.raises(NotFound):
        svc.events("nowhere")


# --- characters and actions ---------------------------------------------------------------


def test_an_added_character_is_stored_in_the_state(svc: CampaignService, campaign: str) -> None:
    _, state, _ = svc.load(campaign)
    assert state.characters["c1"].name == "Rustam"
    assert state.characters["c1"].hits == 3
    with pytest.raises(Conflict):
        svc.add_character(campaign, hero("c1"))


def test_an_action_stores_its_events_and_the_new_state(svc: CampaignService, campaign: str) -> None:
    evs = svc.act(
        campaign,
        "lose-hits",
        {"character": "c1", "hits": 1, "location": "arm"},
        at=START + timedelta(hours=3),
    )
    kinds = [e.kind for e in evs]
    assert kinds[0] == "clock.changed"
    assert "wound.hits_lost" in kinds
    _, state, version = svc.load(campaign)
    assert state.characters["c1"].hits == 2
    assert state.clock is not None and state.clock.now() == START + timedelta(hours=3)
    assert version == 3  # created, character added, action
    assert [e.model_dump() for e in svc.events(campaign)[-len(evs) :]] == [
        e.model_dump() for e in evs
    ]


def test_events_are_stored_in_order_with_seq_one_to_n_and_no_gaps(
    db: Database, svc: CampaignService, campaign: str
) -> None:
    svc.add_character(campaign, hero("c2"))
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START + timedelta(hours=1))
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 3}, at=START + timedelta(hours=2))
    svc.advance_to(campaign, START + timedelta(hours=5))  # both countdowns run out

    rows = stored_events(db, campaign)
    assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1))
    assert [e.seq for e in svc.events(campaign)] == list(range(1, len(rows) + 1))
    assert svc.info(campaign).events == len(rows)
    assert "timer.fired" in [kind for _, kind in rows]
    times = [e.at for e in svc.events(campaign)]
    assert times == sorted(times)


def test_only_the_requested_event_kinds_are_returned(svc: CampaignService, campaign: str) -> None:
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1})
    assert [e.kind for e in svc.events(campaign, ("wound.hits_lost",))] == ["wound.hits_lost"]


@pytest.mark.parametrize(
    ("action", "raw", "role", "error"),
    [
        ("lose-hits", {"character": "nobody", "hits": 1}, Role.MASTER, NotFound),
        ("lose-hits", {"character": "c1", "hits": 0}, Role.MASTER, InvalidInput),
        ("lose-hits", {"hits": 1}, Role.MASTER, InvalidInput),
        ("fly", {}, Role.MASTER, NotFound),
    ],
)
def test_a_refused_action_stores_nothing(
    db: Database,
    svc: CampaignService,
    campaign: str,
    action: str,
    raw: dict[str, object],
    role: Role,
    error: type[Exception],
) -> None:
    before_rows = stored_events(db, campaign)
    _, before, version = svc.load(campaign)
    with pytest.raises(error):
        svc.act(campaign, action, raw, role=role, at=START + timedelta(hours=1))
    assert stored_events(db, campaign) == before_rows
    _, after, version_after = svc.load(campaign)
    assert after == before
    assert version_after == version


def test_an_action_refused_by_a_rule_after_timers_fired_stores_nothing_at_all(
    db: Database, svc: CampaignService, campaign: str
) -> None:
    """The engine works in place; the service must throw the whole working state away:
    the timers fired first, the clock move and the half-run action."""
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 3}, at=START)  # heavy wound
    svc.advance_to(campaign, START + timedelta(hours=1))  # … and dies (W-WND-12)
    _, dead_state, _ = svc.load(campaign)
    assert not dead_state.characters["c1"].alive
    svc.add_character(campaign, hero("c2"))
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 1}, at=START + timedelta(hours=1))
    before_rows = stored_events(db, campaign)
    _, before, _ = svc.load(campaign)
    assert before.timers  # c2's light-wound countdown is pending

    with pytest.raises(RuleViolation):  # the dead cannot lose hits; c2's timer was due first
        svc.act(
            campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START + timedelta(hours=4)
        )

    assert stored_events(db, campaign) == before_rows
    _, after, _ = svc.load(campaign)
    assert after == before
    assert svc.replay_matches(campaign)


def test_the_change_after_a_refused_one_starts_from_the_stored_state(
    svc: CampaignService, campaign: str
) -> None:
    """The writer keeps its working copy between changes; a refusal half-way must not
    leak the half-run action (here: a fired countdown) into the next change."""
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 3}, at=START)
    svc.advance_to(campaign, START + timedelta(hours=1))  # c1 dies
    svc.add_character(campaign, hero("c2"))
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 1}, at=START + timedelta(hours=1))
    with pytest.raises(RuleViolation):  # fires c2's countdown, then refuses
        svc.act(
            campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START + timedelta(hours=4)
        )

    svc.add_character(campaign, hero("c3"))

    _, state, _ = svc.load(campaign)
    assert state.pending_timers(), "the refused attempt's fired countdown must not stick"
    assert set(state.characters) == {"c1", "c2", "c3"}
    assert [e.seq for e in svc.events(campaign)] == list(range(1, state.last_seq + 1))
    assert svc.replay_matches(campaign)


def test_a_writer_sees_changes_made_by_another_process_in_between(db_url: str) -> None:
    """Two services on one database (as two server processes): each keeps a working
    copy, and must notice the other's change instead of overwriting it."""
    first, second = Database(db_url), Database(db_url)
    try:
        a, b = CampaignService(first), CampaignService(second)
        a.create_campaign("two-doors", RULESET, start=START, seed=3)
        a.add_character("two-doors", hero("c1"))
        b.add_character("two-doors", hero("c2"))
        a.add_character("two-doors", hero("c3"))
        b.act("two-doors", "lose-hits", {"character": "c1", "hits": 1})
        a.act("two-doors", "lose-hits", {"character": "c2", "hits": 1})
        for svc in (a, b):
            _, state, version = svc.load("two-doors")
            assert set(state.characters) == {"c1", "c2", "c3"}
            assert state.characters["c1"].hits == state.characters["c2"].hits == 2
            assert version == 6
            assert svc.replay_matches("two-doors")
    finally:
        first.close()
        second.close()


def test_a_state_handed_to_a_reader_never_changes_under_it(
    svc: CampaignService, campaign: str
) -> None:
    _, seen, _ = svc.load(campaign)
    picture = seen.model_dump()
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1})
    svc.add_character(campaign, hero("c2"))
    assert seen.model_dump() == picture
    _, now, _ = svc.load(campaign)
    assert now.characters["c1"].hits == 2 and "c2" in now.characters


def test_a_forbidden_role_a_time_before_the_campaign_and_a_backwards_clock_store_nothing(
    db: Database, svc: CampaignService, campaign: str
) -> None:
    """A late record is placed at its time (see test_history.py), but not before the
    campaign's start, and the clock itself never goes backwards."""
    svc.advance_to(campaign, START + timedelta(hours=2))
    before = stored_events(db, campaign)
    records = svc.records(campaign)
    with pytest.raises(Forbidden, match="player may not kill"):  # W-DEF-01: masters record deaths
        svc.act(campaign, "kill", {"character": "c1"}, role=Role.PLAYER)
    with pytest.raises(Conflict, match="before this campaign's kept history"):
        svc.act(campaign, "lose-hits", {"character": "c1"}, at=START - timedelta(days=1))
    with pytest.raises(ClockError):
        svc.advance_to(campaign, START)
    assert stored_events(db, campaign) == before
    assert svc.records(campaign) == records


# --- durability -----------------------------------------------------------------------------


def test_the_state_survives_closing_and_reopening_the_database(db_url: str) -> None:
    first = Database(db_url)
    svc = CampaignService(first)
    svc.create_campaign("siege", RULESET, start=START, seed=7)
    svc.add_character("siege", hero("c1", "Rustam"))
    svc.act("siege", "lose-hits", {"character": "c1", "hits": 2}, at=START + timedelta(hours=1))
    _, before, version = svc.load("siege")
    log = svc.events("siege")
    first.close()

    reopened = Database(db_url)
    try:
        again = CampaignService(reopened)
        _, after, version_after = again.load("siege")
        assert after == before
        assert version_after == version
        assert after.characters["c1"].hits == 1
        assert [e.model_dump() for e in again.events("siege")] == [e.model_dump() for e in log]
        assert again.replay_matches("siege")
    finally:
        reopened.close()


def test_replay_matches_the_stored_state_after_a_scenario(
    svc: CampaignService, campaign: str
) -> None:
    svc.add_character(campaign, hero("c2"))
    svc.add_character(campaign, hero("c3"))
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START + timedelta(minutes=5))
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 3}, at=START + timedelta(minutes=6))
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START + timedelta(minutes=9))
    svc.advance_to(campaign, START + timedelta(minutes=40))
    svc.act(campaign, "lose-hits", {"character": "c3", "hits": 1})
    assert svc.replay_matches(campaign)


def test_a_realtime_clock_can_be_paused_and_resumed_through_the_service(
    svc: CampaignService,
) -> None:
    svc.create_campaign("larp", RULESET, clock=ClockMode.REALTIME, start=START, seed=1)
    svc.set_clock("larp", Clock.pause)
    assert svc.info("larp").clock.paused
    with pytest.raises(ClockError, match="already paused"):
        svc.set_clock("larp", Clock.pause)
    svc.set_clock("larp", Clock.resume)
    assert not svc.info("larp").clock.paused
    assert svc.replay_matches("larp")


def test_pausing_a_manual_clock_is_refused_and_stores_nothing(
    svc: CampaignService, campaign: str
) -> None:
    before = svc.events(campaign)
    with pytest.raises(ClockError, match="manual clock"):
        svc.set_clock(campaign, Clock.pause)
    assert svc.events(campaign) == before


# --- several writers on one file ---------------------------------------------------------------


def test_two_services_writing_interleaved_on_one_file_never_lose_an_event(db_url: str) -> None:
    setup = Database(db_url)
    CampaignService(setup).create_campaign("siege", RULESET, start=START, seed=7)
    setup.close()
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def writer(prefix: str) -> None:
        database = Database(db_url)
        svc = CampaignService(database)
        try:
            start.wait()
            for i in range(25):  # 50 changes: add a character, then wound it
                svc.add_character("siege", hero(f"{prefix}{i}"))
                svc.act("siege", "lose-hits", {"character": f"{prefix}{i}", "hits": 1})
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            database.close()

    threads = [threading.Thread(target=writer, args=(p,)) for p in ("a", "b")]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not errors, errors

    check = Database(db_url)
    try:
        svc = CampaignService(check)
        events = svc.events("siege")
        added = [e.payload["character"]["id"] for e in events if e.kind == "character.added"]
        wounded = [e.payload["character"] for e in events if e.kind == "wound.hits_lost"]
        expected = {f"{p}{i}" for p in "ab" for i in range(25)}
        assert len(added) + len(wounded) == 100
        assert set(added) == set(wounded) == expected
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        _, state, version = svc.load("siege")
        assert set(state.characters) == expected
        assert all(c.hits == 2 for c in state.characters.values())
        assert version == 101
        assert svc.replay_matches("siege")
    finally:
        check.close()


def test_a_stale_version_is_retried_instead_of_overwriting_a_newer_state(
    svc: CampaignService, campaign: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The optimistic check: an update based on an old version must not win."""
    real_writable = svc._writable
    stale = {"left": 1}

    def writable_once_stale(name: str, session: object) -> object:
        rs, state, written, version = real_writable(name, session)  # type: ignore[arg-type]
        if stale["left"]:
            stale["left"] -= 1
            return rs, state, written, version - 1
        return rs, state, written, version

    monkeypatch.setattr(svc, "_writable", writable_once_stale)
    svc.add_character(campaign, hero("c2"))
    monkeypatch.undo()
    assert stale["left"] == 0
    assert [e.seq for e in svc.events(campaign)] == [1, 2, 3]
    _, state, version = svc.load(campaign)
    assert set(state.characters) == {"c1", "c2"}
    assert version == 3


def test_a_due_timer_fires_once_when_two_services_advance_past_it_one_after_the_other(
    db_url: str, svc: CampaignService, campaign: str
) -> None:
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START)  # turns heavy 09:30
    other = Database(db_url)
    try:
        second = CampaignService(other)
        first_run = svc.advance_to(campaign, START + timedelta(minutes=31))
        second_run = second.advance_to(campaign, START + timedelta(minutes=31))
        assert [e.kind for e in first_run].count("timer.fired") == 1
        assert second_run == []
        assert len(second.events(campaign, ("timer.fired",))) == 1
    finally:
        other.close()


def test_a_due_timer_fires_once_when_two_services_advance_past_it_at_the_same_time(
    db_url: str, svc: CampaignService, campaign: str
) -> None:
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, at=START)  # turns heavy 09:30
    target = START + timedelta(minutes=40)  # before the heavy wound's death at 09:45
    barrier = threading.Barrier(2)
    results: dict[str, list[str]] = {}
    errors: list[BaseException] = []

    def advance(name: str) -> None:
        database = Database(db_url)
        try:
            barrier.wait()
            results[name] = [e.kind for e in CampaignService(database).advance_to(campaign, target)]
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            database.close()

    threads = [threading.Thread(target=advance, args=(n,)) for n in ("x", "y")]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)

    assert not errors, errors
    assert sorted(len(kinds) > 0 for kinds in results.values()) == [False, True]
    assert sum(kinds.count("timer.fired") for kinds in results.values()) == 1
    assert len(svc.events(campaign, ("timer.fired",))) == 1
    _, state, _ = svc.load(campaign)
    assert state.timers_for("c1", "light_wound_worsens") == []
    assert svc.replay_matches(campaign)


def test_readers_of_a_new_version_share_one_parsed_state(
    svc: CampaignService, campaign: str
) -> None:
    """After a change every watching page asks at once; they all get one shared state
    (parsed once), not a copy each."""
    for i in range(150):  # a state big enough that parsing it takes a while
        svc.add_character(campaign, hero(f"extra{i}"))
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1})
    seen: list[object] = []
    start = threading.Barrier(16)

    def page() -> None:
        start.wait()
        seen.append(svc.load(campaign)[1])

    pages = [threading.Thread(target=page) for _ in range(16)]
    for th in pages:
        th.start()
    for th in pages:
        th.join(timeout=60)
    assert len(seen) == 16
    assert len({id(state) for state in seen}) == 1


def queued_at_once(
    svc: CampaignService, campaign: str, calls: list[Callable[[], object]]
) -> list[object]:
    """Run ``calls`` in threads that all queue while the write lock is held, so one
    leader commits them together; returns each call's result or exception."""
    results: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    with svc.db.write_lock:
        for th in threads:
            th.start()
        deadline = time.monotonic() + 30
        while len(svc._queues.get(campaign, [])) < len(calls) and time.monotonic() < deadline:
            time.sleep(0.01)
    for th in threads:
        th.join(timeout=60)
    return results


def test_changes_queued_together_are_committed_as_one_and_a_refusal_fails_alone(
    db: Database, svc: CampaignService, campaign: str
) -> None:
    """Group commit: one transaction for the queue, yet each change sees the ones
    before it, and the refused one (after firing a countdown) leaves no trace."""
    for cid in ("c2", "c3", "c4"):
        svc.add_character(campaign, hero(cid))
    svc.act(campaign, "lose-hits", {"character": "c1", "hits": 3}, at=START)
    svc.advance_to(campaign, START + timedelta(hours=1))  # c1 dies
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 1}, at=START + timedelta(hours=1))
    _, _, version = svc.load(campaign)
    later = START + timedelta(hours=4)  # c2's countdown is due by then

    def wound(cid: str, at: datetime | None = None) -> Callable[[], object]:
        return lambda: svc.act(campaign, "lose-hits", {"character": cid, "hits": 1}, at=at)

    results = queued_at_once(
        svc, campaign, [wound("c3"), wound("c1", later), wound("c3"), wound("c4")]
    )

    assert isinstance(results[1], RuleViolation)  # the dead cannot lose hits
    assert all(isinstance(r, list) and r for r in (results[0], results[2], results[3]))
    _, state, version_after = svc.load(campaign)
    assert version_after == version + 1, "one commit for the whole queue"
    assert state.characters["c3"].hits == 1  # the second wound saw the first
    assert state.characters["c4"].hits == 2
    assert state.timers_for("c2"), "the refused change's fired countdown is undone"
    assert [e.seq for e in svc.events(campaign)] == list(range(1, state.last_seq + 1))
    assert svc.replay_matches(campaign)


def test_one_request_sent_twice_into_one_group_commit_is_recorded_once(
    svc: CampaignService, campaign: str
) -> None:
    key = Idempotency(1, "wifi-retry-1")

    def send() -> object:
        return svc.act(campaign, "lose-hits", {"character": "c1", "hits": 1}, idempotency=key)

    first, second = queued_at_once(svc, campaign, [send, send])
    assert isinstance(first, list) and first == second
    _, state, _ = svc.load(campaign)
    assert state.characters["c1"].hits == 2
    assert sum(e.kind == "wound.hits_lost" for e in svc.events(campaign)) == 1


def _writers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("lazaretto-writer:")]


def test_changes_submitted_from_an_event_loop_are_all_committed_by_one_writer(
    svc: CampaignService, campaign: str
) -> None:
    """The API's async endpoints hand changes over and await them: sixty wounds sent at
    once from one event loop are all committed, by one writer thread at a time, which
    ends when the queue is empty."""
    svc.add_character(campaign, Character(id="tank", name="Tank", hits_max=100, hits=100))
    ran_in: set[str] = set()
    writers_seen: list[int] = []

    def wound(rs: Any, st: Any) -> list[Any]:
        ran_in.add(threading.current_thread().name)
        writers_seen.append(len(_writers()))
        return engine.run_action(rs, st, "lose-hits", {"character": "tank", "hits": 1})

    async def send_all() -> list[list[Any]]:
        futures = [asyncio.wrap_future(svc.submit(campaign, wound)) for _ in range(60)]
        return await asyncio.gather(*futures)

    _, _, version = svc.load(campaign)
    answers = asyncio.run(send_all())
    assert all(any(e.kind == "wound.hits_lost" for e in events) for events in answers)
    _, state, version_after = svc.load(campaign)
    assert state.characters["tank"].hits == 40
    assert version_after - version < 60, "queued wounds share commits"
    assert ran_in == {f"lazaretto-writer:{campaign}"}
    assert max(writers_seen) == 1
    assert _until_no_writer(10), "the writer ends once its queue is empty"


def _until_no_writer(seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while _writers() and time.monotonic() < deadline:
        time.sleep(0.01)
    return not _writers()


def test_a_lingering_writer_takes_the_next_burst_and_ends_when_stopped(
    svc: CampaignService, campaign: str
) -> None:
    """A server keeps each campaign's writer between bursts of taps (issue 25: starting
    a thread waited on the event loop): the tap after a quiet spell is committed by the
    same writer, not a new one; stopping the writers ends an idle one at once, and a
    change made after that is still committed."""
    svc.add_character(campaign, Character(id="tank", name="Tank", hits_max=100, hits=100))
    assert _until_no_writer(10)
    ran_in: list[threading.Thread] = []

    def wound(rs: Any, st: Any) -> list[Any]:
        ran_in.append(threading.current_thread())
        return engine.run_action(rs, st, "lose-hits", {"character": "tank", "hits": 1})

    svc.linger = 60
    svc.submit(campaign, wound).result()
    time.sleep(0.3)  # a quiet spell: the queue is empty
    assert len(_writers()) == 1, "the writer waits for the next change"
    svc.submit(campaign, wound).result()
    assert ran_in[0] is ran_in[1]
    svc.stop_writers()
    assert _until_no_writer(5), "an idle writer ends when the writers are stopped"
    svc.submit(campaign, wound).result()  # after the stop: a writer that does not wait
    assert len(ran_in) == 3 and ran_in[2] is not ran_in[0]
    assert _until_no_writer(5)
    assert svc.load(campaign)[1].characters["tank"].hits == 97


def test_without_lingering_each_burst_has_a_writer_of_its_own(
    svc: CampaignService, campaign: str
) -> None:
    """The service outside a server (the CLI, the tests) keeps no idle thread: a
    command's process ends as soon as its change is committed."""
    svc.add_character(campaign, Character(id="tank", name="Tank", hits_max=100, hits=100))
    ran_in: list[threading.Thread] = []

    def wound(rs: Any, st: Any) -> list[Any]:
        ran_in.append(threading.current_thread())
        return engine.run_action(rs, st, "lose-hits", {"character": "tank", "hits": 1})

    svc.submit(campaign, wound).result()
    assert _until_no_writer(5)
    svc.submit(campaign, wound).result()
    assert ran_in[0] is not ran_in[1]


def test_a_change_given_up_before_its_turn_is_not_made(
    svc: CampaignService, campaign: str
) -> None:
    """A caller that cancels a queued change (it never started) leaves no trace; the
    change queued after it is made."""
    with svc.db.write_lock:  # the writer waits: both changes stay queued
        given_up = svc.submit_act(campaign, "lose-hits", {"character": "c1", "hits": 2})
        kept = svc.submit_act(campaign, "lose-hits", {"character": "c1", "hits": 1})
        assert given_up.cancel()
    assert kept.result(timeout=30)
    _, state, _ = svc.load(campaign)
    assert state.characters["c1"].hits == 2  # of 3: only the kept wound
    assert [e.payload["lost"] for e in svc.events(campaign, ("wound.hits_lost",))] == [1]


def test_events_about_a_character_are_exactly_those_that_name_it(
    svc: CampaignService, campaign: str
) -> None:
    """The subject index agrees with reading the whole log and asking each event."""
    for cid in ("c2", "c3"):
        svc.add_character(campaign, hero(cid))
    for cid in ("c1", "c2", "c1", "c3"):
        svc.act(campaign, "lose-hits", {"character": cid, "hits": 1, "location": "c3"})
    everything = svc.events(campaign)
    for subject in ("c1", "c2", "c3", "nobody"):
        named = [e.seq for e in everything if subject in (named_in(e.payload) or ())]
        assert [e.seq for e in svc.events(campaign, about=subject)] == named
    assert named_in(everything[-1].payload) and "c3" in named_in(everything[-1].payload)
    last_two = [e.seq for e in everything if "c1" in (named_in(e.payload) or ())][-2:]
    assert [e.seq for e in svc.events(campaign, about="c1", limit=2, latest=True)] == last_two


def downgrade(db: Database, revision: str) -> None:
    """Take ``db``'s schema back to ``revision`` with the migrations' own downgrades."""
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option(
        "script_location", str(resources.files("lazaretto.store").joinpath("migrations"))
    )
    with db.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def test_the_migration_indexes_the_events_stored_before_it(db_url: str) -> None:
    """A database from before the subject index (revision 0004) gets its existing
    events indexed on upgrade, as the service indexes new ones."""
    db = Database(db_url)
    svc = CampaignService(db)
    svc.create_campaign("old", RULESET, start=START, seed=3)
    svc.add_character("old", hero("r1"))
    svc.act("old", "lose-hits", {"character": "r1", "hits": 1})
    subjects = text("SELECT campaign_id, subject, seq FROM event_subjects")
    with db.engine.begin() as conn:
        indexed = sorted(conn.execute(subjects))
    downgrade(db, "0004")
    db.close()
    upgraded = Database(db_url)  # migrates on open
    try:
        with upgraded.engine.connect() as conn:
            again = sorted(conn.execute(subjects))
        assert again == indexed and any(row[1] == "r1" for row in again)
        assert [e.seq for e in CampaignService(upgraded).events("old", about="r1")]
    finally:
        upgraded.close()


def test_news_names_the_characters_changes_are_about(
    svc: CampaignService, campaign: str
) -> None:
    """What live card pages filter on (api/live.py): a wound names its character; a
    clock move names nobody, so every card is told."""
    svc.add_character(campaign, hero("c2"))
    version, last, named = svc.news(campaign, None)
    assert named is None  # the first look cannot tell
    svc.act(campaign, "lose-hits", {"character": "c2", "hits": 1}, at=START)
    version2, last2, named = svc.news(campaign, last)
    assert version2 == version + 1 and last2 > last
    assert named is not None and "c2" in named and "c1" not in named
    svc.advance_to(campaign, START + timedelta(minutes=1))
    _, _, named = svc.news(campaign, last2)
    assert named is None
    assert svc.news("no-such-campaign", 0)[0] is None
