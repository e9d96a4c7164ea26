"""Tables: campaigns (with their current state) and the append-only event log.

The campaign row holds the current state as JSON and a version number; every change
to a campaign updates the row with ``version = version + 1 WHERE version = old``, so
two processes can never both apply a change (a due timer fires exactly once).
"""

from __future__ import annotations

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
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
    state: Mapped[str] = mapped_column(Text)


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
