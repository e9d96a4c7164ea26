"""The state as parts: one row per entity instead of one JSON document per campaign.

Revision ID: 0009
Revises: 0008

Each campaign's stored state is split into its parts (``service/state_store.py``),
written as of the campaign's current version; ``campaigns.state`` is emptied (the
column stays: SQLite cannot drop it without rebuilding a table others refer to).
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "state_parts",
        sa.Column("campaign_id", sa.String(80),
                  sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("field", sa.String(80), primary_key=True),
        sa.Column("key", sa.String(300), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=True),
        sa.Column("ord", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_state_parts_version", "state_parts", ["campaign_id", "version"])
    op.add_column(
        "campaigns", sa.Column("parts_floor", sa.Integer, nullable=False, server_default="0")
    )
    _split_existing()


def _split_existing() -> None:
    from lazaretto.core.registry import get_ruleset
    from lazaretto.service.state_store import ORDER_SCALE, layout

    conn = op.get_bind()
    parts = sa.table(
        "state_parts",
        sa.column("campaign_id"), sa.column("field"), sa.column("key"),
        sa.column("version"), sa.column("body"), sa.column("ord"),
    )
    campaigns = conn.execute(sa.text("SELECT id, ruleset, version, state FROM campaigns"))
    for name, ruleset, version, stored in list(campaigns):
        model = get_ruleset(ruleset).state_model
        try:
            state = model.model_validate_json(stored)
        except ValueError:  # a damaged state stays as it is: `lazaretto repair` rebuilds it
            continue
        rows = [  # in each mapping's order (state_store: version * ORDER_SCALE + position)
            {"campaign_id": name, "field": f, "key": k, "version": version, "body": body,
             "ord": version * ORDER_SCALE + i}
            for f, entries in layout(model).split_state(state).items()
            for i, (k, body) in enumerate(entries.items())
        ]
        conn.execute(sa.insert(parts), rows)
        conn.execute(
            sa.text("UPDATE campaigns SET state = '' WHERE id = :id"), {"id": name}
        )


def downgrade() -> None:
    from lazaretto.core.registry import get_ruleset
    from lazaretto.service.state_store import layout

    conn = op.get_bind()
    for name, ruleset in list(conn.execute(sa.text("SELECT id, ruleset FROM campaigns"))):
        written: dict[str, dict[str, str]] = {}
        rows = conn.execute(
            sa.text("SELECT field, key, body FROM state_parts "
                    "WHERE campaign_id = :id AND body IS NOT NULL ORDER BY ord"), {"id": name},
        )
        for f, k, body in rows:
            written.setdefault(f, {})[k] = body
        if "" in written:
            state = layout(get_ruleset(ruleset).state_model).assemble(written)
            conn.execute(sa.text("UPDATE campaigns SET state = :s WHERE id = :id"),
                         {"s": state.model_dump_json(), "id": name})
    op.drop_column("campaigns", "parts_floor")
    op.drop_index("ix_state_parts_version", table_name="state_parts")
    op.drop_table("state_parts")
