"""Failed logins, kept in the database so every server process counts them.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(80), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at_wall", sa.String(40), nullable=False),
    )
    op.create_index("ix_login_failures_username", "login_failures", ["username", "at_wall"])
    op.create_index("ix_login_failures_client", "login_failures", ["client", "at_wall"])
    op.create_index("ix_login_failures_at_wall", "login_failures", ["at_wall"])


def downgrade() -> None:
    op.drop_table("login_failures")
