"""The wall time a realtime campaign's next countdown comes due, for the ticker.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.add_column(sa.Column("next_due_wall", sa.String(40), nullable=True))
        batch.create_index("ix_campaigns_next_due_wall", ["next_due_wall"])


def downgrade() -> None:
    with op.batch_alter_table("campaigns") as batch:
        batch.drop_index("ix_campaigns_next_due_wall")
        batch.drop_column("next_due_wall")
