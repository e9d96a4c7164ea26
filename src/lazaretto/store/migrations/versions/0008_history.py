"""Records as the source of the history: records, checkpoints, corrections.

Revision ID: 0008
Revises: 0007

Campaigns from before keep the events they have; their stored state becomes their
first checkpoint (record 0, at the time of their last event), so a late record can be
placed anywhere after it, not before (nothing earlier was recorded as records).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("record_no", sa.Integer, nullable=True))
    op.create_table(
        "records",
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("wall", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("user_id", sa.Integer, nullable=True),
        sa.Column("action", sa.String(80), nullable=False),
        sa.Column("input", sa.JSON, nullable=False),
        sa.Column("voids", sa.Integer, nullable=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("refusal", sa.JSON, nullable=True),
    )
    op.create_index("ix_records_campaign_at", "records", ["campaign_id", "at"])
    op.create_table(
        "checkpoints",
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("cause", sa.Integer, nullable=False),
        sa.Column("wall", sa.String(40), nullable=False),
        sa.Column("change", sa.String(20), nullable=False),
        sa.Column("event", sa.JSON, nullable=False),
        sa.Column("subjects", sa.JSON, nullable=False),
    )
    op.create_index("ix_corrections_campaign", "corrections", ["campaign_id", "id"])
    op.execute(
        "INSERT INTO checkpoints (campaign_id, no, at, last_seq, state) "
        "SELECT c.id, 0, (SELECT MAX(e.at) FROM events e WHERE e.campaign_id = c.id), "
        "(SELECT MAX(e.seq) FROM events e WHERE e.campaign_id = c.id), c.state "
        "FROM campaigns c"
    )


def downgrade() -> None:
    op.drop_table("corrections")
    op.drop_table("checkpoints")
    op.drop_table("records")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("record_no")
