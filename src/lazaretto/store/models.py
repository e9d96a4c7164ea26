"""Tables: campaigns (with their current state) and the append-only event log.

The campaign row holds a version number, and the current state is stored as parts
(one row per entity, ``service/state_store.py``); every change
to a campaign updates the row with ``version = version + 1 WHERE version = old``, so
two processes can never both apply a change (a due timer fires exactly once).
"""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of all Lazaretto tables."""


class CampaignRow(Base):
    """A campaign and its current state."""

    __tablename__ = "campaigns"

    id: Mapped[str] = mapped_column(String(80), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(80))
    created_wall: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[str] = mapped_column(Text, default="")
    """Unused since the state is stored as parts (migration 0009), except by a
    campaign whose state was damaged before it: ``lazaretto repair`` rebuilds it."""
    next_due_wall: Mapped[str | None] = mapped_column(String(40), nullable=True, index=True)
    parts_floor: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Tombstones of parts written before this version are gone: a reader whose state
    is older reads the whole state again (``service/state_store.py``)."""


class StatePartRow(Base):
    """One part of a campaign's current state: an entity (a character, a timer, a
    hospital...) or, with field ``""``, everything else (``service/state_store.py``).
    ``body`` None: the entity is gone (a tombstone, kept for readers catching up)."""

    __tablename__ = "state_parts"
    __table_args__ = (Index("ix_state_parts_version", "campaign_id", "version"),)

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    field: Mapped[str] = mapped_column(String(80), primary_key=True)
    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    ord: Mapped[int] = mapped_column(BigInteger)
    """Where the entry stands in its mapping's order (``state_store.ORDER_SCALE``)."""


SUBJECT_MAX = 80
"""The longest name an event's subject index keeps (character ids are at most 40)."""


class EventRow(Base):
    """One event of a campaign's log; never updated or deleted."""

    __tablename__ = "events"
    __table_args__ = (
        UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
        Index("ix_events_campaign_kind", "campaign_id", "kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(80))
    at: Mapped[str] = mapped_column(String(40))
    wall: Mapped[str | None] = mapped_column(String(40), nullable=True)
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(80))
    payload: Mapped[dict[str, object]] = mapped_column(JSON)
    dice: Mapped[list[object]] = mapped_column(JSON)
    rule_ids: Mapped[list[str]] = mapped_column(JSON)
    record_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The record whose action produced it (countdowns that fired name none)."""


class RecordRow(Base):
    """One accepted change as it was asked: the source the events are run from
    (see :mod:`lazaretto.core.history`). Never deleted; a mistaken one is voided by
    another record. ``status`` is what the last run of the history made of it: ``ok``,
    ``refused`` (on re-run, with ``reason``) — a voided record keeps its status and is
    named by the void's ``voids``."""

    __tablename__ = "records"
    __table_args__ = (Index("ix_records_campaign_at", "campaign_id", "at"),)

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    no: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    at: Mapped[str] = mapped_column(String(40))
    wall: Mapped[str] = mapped_column(String(40))
    actor: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str] = mapped_column(String(80))
    input: Mapped[dict[str, object]] = mapped_column(JSON)
    voids: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(20), default="ok")
    refusal: Mapped[dict[str, object] | None] = mapped_column(JSON, nullable=True)


class CheckpointRow(Base):
    """The state right after record ``no``: a late record re-runs from the nearest one
    before it, not from the campaign's start."""

    __tablename__ = "checkpoints"

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    no: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[str] = mapped_column(String(40))
    last_seq: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(Text)


class CorrectionRow(Base):
    """An outcome that a late record or an undo changed after it was shown: what is
    undone or now happened, and the record that caused it."""

    __tablename__ = "corrections"
    __table_args__ = (Index("ix_corrections_campaign", "campaign_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    cause: Mapped[int] = mapped_column(Integer)
    wall: Mapped[str] = mapped_column(String(40))
    change: Mapped[str] = mapped_column(String(20))
    event: Mapped[dict[str, object]] = mapped_column(JSON)
    subjects: Mapped[list[str]] = mapped_column(JSON)


class EventSubjectRow(Base):
    """What an event names: each top-level string of its payload (and its timer's
    subject), see :func:`lazaretto.core.events.named_in`. The index behind one
    character's history, so a card does not read the whole log."""

    __tablename__ = "event_subjects"

    campaign_id: Mapped[str] = mapped_column(
        ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True
    )
    subject: Mapped[str] = mapped_column(String(SUBJECT_MAX), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)


class UserRow(Base):
    """An account: a master, a healer or a player."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(String(300))
    created_wall: Mapped[str] = mapped_column(String(40))


class MembershipRow(Base):
    """A user's role in a campaign and the characters they play or heal as."""

    __tablename__ = "memberships"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"),
                                             primary_key=True)
    role: Mapped[str] = mapped_column(String(20))
    characters: Mapped[list[str]] = mapped_column(JSON)


class InviteRow(Base):
    """A one-use code that joins a campaign with a role (and a character)."""

    __tablename__ = "invites"

    code: Mapped[str] = mapped_column(String(40), primary_key=True)
    campaign_id: Mapped[str] = mapped_column(ForeignKey("campaigns.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))
    character_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created_wall: Mapped[str] = mapped_column(String(40))
    used_by: Mapped[int | None] = mapped_column(Integer, nullable=True)


class LoginSessionRow(Base):
    """A logged-in browser: only the token's hash is stored."""

    __tablename__ = "login_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    expires_wall: Mapped[str] = mapped_column(String(40))


class LoginFailureRow(Base):
    """A failed login: by which name and from which client address, and when."""

    __tablename__ = "login_failures"
    __table_args__ = (
        Index("ix_login_failures_username", "username", "at_wall"),
        Index("ix_login_failures_client", "client", "at_wall"),
        Index("ix_login_failures_at_wall", "at_wall"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(80))
    client: Mapped[str] = mapped_column(String(64))
    at_wall: Mapped[str] = mapped_column(String(40))


class KnownDeviceRow(Base):
    """A browser that has logged in as a user: only its device token's hash is stored.
    Its logins are not counted against the limits that strangers' guesses fill."""

    __tablename__ = "known_devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    last_used_wall: Mapped[str] = mapped_column(String(40))


class RegistrationAttemptRow(Base):
    """An attempt to create an account, from which client address, and when."""

    __tablename__ = "registration_attempts"
    __table_args__ = (
        Index("ix_registration_attempts_client", "client", "at_wall"),
        Index("ix_registration_attempts_at_wall", "at_wall"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    client: Mapped[str] = mapped_column(String(64))
    at_wall: Mapped[str] = mapped_column(String(40))


class IdempotencyRow(Base):
    """The stored answer to a state-changing request, replayed when it is retried.

    Keyed by the user as well as the key: a key names one user's request, so another
    user sending the same key is a different request (and never gets this answer). The
    fingerprint is a hash of what was asked; the same key with a different request is
    refused (409) instead of answered with the first request's events.
    """

    __tablename__ = "idempotency_keys"

    campaign_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64))
    response: Mapped[dict[str, object]] = mapped_column(JSON)
    created_wall: Mapped[str] = mapped_column(String(40))


class SettingRow(Base):
    """Server settings kept in the database (none are stored yet; the table is part of
    the schema since migration 0002)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(80), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
