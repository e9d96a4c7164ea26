"""Idempotency keys per user, with a fingerprint of the request they answered.

The old table was keyed by (campaign, key): a player reusing a key a master had used got
the master's answer and their own change was dropped. Rows are carried over with an
empty fingerprint (a retry of such a request is answered as before).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "idempotency_keys",
        sa.Column("campaign_id", sa.String(80), primary_key=True),
        sa.Column("user_id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("response", sa.JSON, nullable=False),
        sa.Column("created_wall", sa.String(40), nullable=False),
    )
    op.execute(
        "INSERT INTO idempotency_keys (campaign_id, user_id, key, fingerprint, response, "
        "created_wall) SELECT campaign_id, user_id, key, '', response, created_wall "
        "FROM idempotency"
    )
    op.drop_table("idempotency")


def downgrade() -> None:
    # the old table cannot hold two users' answers to one key: the retry windows are
    # dropped (a request retried across a downgrade may be recorded twice)
    op.create_table(
        "idempotency",
        sa.Column("campaign_id", sa.String(80), primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("response", sa.JSON, nullable=False),
        sa.Column("created_wall", sa.String(40), nullable=False),
    )
    op.drop_table("idempotency_keys")
