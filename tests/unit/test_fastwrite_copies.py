"""The CLI's SQLite write path (``cli/fastwrite.py``) writes rows with the standard
library from the pure row values of ``service/rows.py`` and ``service/state_layout.py``;
the tables it writes must be the ones the models declare: the same columns, the same
JSON columns (encoded as SQLAlchemy encodes them), the same longest subject."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, String

from lazaretto.core.events import Event
from lazaretto.core.history import Checkpoint, Record
from lazaretto.service import rows, state_layout
from lazaretto.store import models

TABLES = {
    "events": models.EventRow,
    "event_subjects": models.EventSubjectRow,
    "records": models.RecordRow,
    "checkpoints": models.CheckpointRow,
    "state_parts": models.StatePartRow,
}


def test_the_rows_name_every_column_of_their_tables_and_their_json_columns() -> None:
    """Each row value has exactly its table's columns (but an autoincrement id), and
    :data:`rows.JSON_COLUMNS` names exactly the JSON ones."""
    at = datetime(2026, 6, 13, 8, 0)
    ev = Event(kind="wound.hits_lost", payload={"character": "R"}, at=at, wall=at,
               actor="master", action="lose-hits", seq=3)
    made = {
        "events": rows.event_rows("w", [ev], {3: 2})[0],
        "event_subjects": rows.subject_rows("w", [ev])[0],
        "records": rows.record_row("w", Record(no=2, at=at, wall=at, action="lose-hits")),
        "checkpoints": rows.checkpoint_row("w", Checkpoint(2, at, 3, "{}")),
        "state_parts": state_layout.part_rows("w", 4, {("characters", "R"): ("{}", True)})[1][0],
    }
    for table, model in TABLES.items():
        columns = {c.name for c in model.__table__.columns if c.name != "id"}
        assert set(made[table]) == columns, table
        json_columns = {c.name for c in model.__table__.columns if isinstance(c.type, JSON)}
        assert set(rows.JSON_COLUMNS.get(table, ())) == json_columns, table


def test_the_subject_index_keeps_the_names_the_model_has_room_for() -> None:
    assert rows.SUBJECT_MAX == models.SUBJECT_MAX
    column = models.EventSubjectRow.__table__.c.subject.type
    assert isinstance(column, String) and column.length == rows.SUBJECT_MAX
