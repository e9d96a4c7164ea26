"""What each event names, so one character's history is an indexed read.

Revision ID: 0005
Revises: 0004

The backfill indexes the events already stored the way the service indexes new ones:
every top-level string of the payload, the strings of its top-level lists, and its
timer's subject (``lazaretto.core.events.named_in`` as of this revision, kept here so
the migration does not change when that function does).
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

SUBJECT_MAX = 80
CHUNK = 2000


def _named(payload: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for value in payload.values():
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            found.update(v for v in value if isinstance(v, str))
    timer = payload.get("timer")
    if isinstance(timer, dict) and isinstance(timer.get("subject"), str):
        found.add(timer["subject"])
    return {n for n in found if len(n) <= SUBJECT_MAX}


def upgrade() -> None:
    subjects = op.create_table(
        "event_subjects",
        sa.Column(
            "campaign_id",
            sa.String(80),
            sa.ForeignKey("campaigns.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("subject", sa.String(SUBJECT_MAX), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
    )
    assert subjects is not None
    conn = op.get_bind()
    events = sa.table(
        "events", sa.column("id", sa.Integer), sa.column("campaign_id", sa.String),
        sa.column("seq", sa.Integer), sa.column("payload", sa.JSON),
    )
    last_id = 0
    while True:
        rows = conn.execute(
            sa.select(events.c.id, events.c.campaign_id, events.c.seq, events.c.payload)
            .where(events.c.id > last_id)
            .order_by(events.c.id)
            .limit(CHUNK)
        ).all()
        if not rows:
            break
        last_id = rows[-1].id
        found = []
        for row in rows:
            payload = row.payload if isinstance(row.payload, dict) else json.loads(row.payload)
            found += [
                {"campaign_id": row.campaign_id, "subject": name, "seq": row.seq}
                for name in sorted(_named(payload))
            ]
        if found:
            conn.execute(subjects.insert(), found)


def downgrade() -> None:
    op.drop_table("event_subjects")
