"""Known devices (a browser that logged in as a user before) and registration attempts
by client address, so that the login limits never lock the owner of the right password
out of a device they use, and registrations are limited like failed logins.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if "known_devices" not in present:  # a database re-upgraded from an older mark
        _create_known_devices()
    if "registration_attempts" not in present:
        _create_registration_attempts()


def _create_known_devices() -> None:
    op.create_table(
        "known_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("last_used_wall", sa.String(40), nullable=False),
    )


def _create_registration_attempts() -> None:
    op.create_table(
        "registration_attempts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("at_wall", sa.String(40), nullable=False),
    )
    op.create_index(
        "ix_registration_attempts_client", "registration_attempts", ["client", "at_wall"]
    )
    op.create_index("ix_registration_attempts_at_wall", "registration_attempts", ["at_wall"])


def downgrade() -> None:
    op.drop_table("registration_attempts")
    op.drop_table("known_devices")
