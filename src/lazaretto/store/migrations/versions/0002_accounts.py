"""Accounts, campaign memberships, invites, login sessions and idempotency keys.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(80), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(300), nullable=False),
        sa.Column("created_wall", sa.String(40), nullable=False),
    )
    op.create_table(
        "memberships",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("characters", sa.JSON, nullable=False),
    )
    op.create_table(
        "invites",
        sa.Column("code", sa.String(40), primary_key=True),
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("character_id", sa.String(80), nullable=True),
        sa.Column("created_wall", sa.String(40), nullable=False),
        sa.Column("used_by", sa.Integer, nullable=True),
    )
    op.create_table(
        "login_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires_wall", sa.String(40), nullable=False),
    )
    op.create_table(
        "idempotency",
        sa.Column("campaign_id", sa.String(80), primary_key=True),
        sa.Column("key", sa.String(100), primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("response", sa.JSON, nullable=False),
        sa.Column("created_wall", sa.String(40), nullable=False),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("settings", "idempotency", "login_sessions", "invites", "memberships",
                  "users"):
        op.drop_table(table)
