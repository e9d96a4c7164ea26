"""Campaigns with their current state, and the append-only event log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("id", sa.String(80), primary_key=True),
        sa.Column("ruleset", sa.String(80), nullable=False),
        sa.Column("created_wall", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "campaign_id",
            sa.String(80),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(80), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("wall", sa.String(40), nullable=True),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("action", sa.String(80), nullable=False),
        sa.Column("payload", sa.JSON, nullable=False),
        sa.Column("dice", sa.JSON, nullable=False),
        sa.Column("rule_ids", sa.JSON, nullable=False),
        sa.UniqueConstraint("campaign_id", "seq", name="uq_events_campaign_seq"),
    )
    op.create_index("ix_events_campaign_kind", "events", ["campaign_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_events_campaign_kind", "events")
    op.drop_table("events")
    op.drop_table("campaigns")
