"""The state as parts: one row per entity instead of one JSON document per campaign.

Revision ID: 0009
Revises: 0008

Each campaign's stored state is split into its parts (``service/state_store.py``),
written as of the campaign's current version; ``campaigns.state`` is emptied (the
column stays: SQLite cannot drop it without rebuilding a table others refer to).

Frozen: a migration keeps meaning what it meant when it was written, so it imports
nothing from the service or the rulesets (a later change to them would change what
this upgrade does). What it needs of them is copied here as it was at this revision:
which fields of each ruleset's state are stored one entry per row, their order in the
state's JSON, and the order scale. The JSON is read generically (``json``, not the
state models), and every value is kept as the text it was stored as. A state that is
not JSON (or not an object of objects where the mappings are) stays as it is; one that
is JSON of another shape is split all the same, and reads as damaged as it did before
(``lazaretto repair`` rebuilds it either way).
"""

import json
from typing import NoReturn

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

ORDER_SCALE = 1_000_000
"""A part's order is ``version * ORDER_SCALE + position`` (``service/state_layout.py``
at this revision)."""

GLOBAL = ""
"""The field and key of the part holding everything not split into entities."""

_CORE = ("campaign", "ruleset", "seed", "clock", "params", "characters", "timers",
         "last_seq", "timer_count", "fired_until")
STATE_FIELDS: dict[str, tuple[str, ...]] = {
    "dnd5e-injuries": (*_CORE, "injury_count", "pending_count"),
    "fantasy-server": (*_CORE, "items", "encounters", "treatments", "raids", "scenes",
                       "doors", "tortures", "last_checks", "magic_heals", "addictions"),
    "ide4-survival": (*_CORE, "survivors", "checks", "cases", "exposures",
                      "custom_diseases", "dropped_diseases", "day", "day_started",
                      "day_steps", "day_ended", "counter"),
    "warhammer-larp": (*_CORE, "hospitals", "mats", "raining", "admissions", "diseases",
                       "certificates", "stickers", "sticker_serial", "labs", "epidemics",
                       "outbreaks", "locations", "convoys", "treatises", "studies", "cures",
                       "journal_cures", "contacts"),
    "zone-larp": (*_CORE, "combat_ongoing"),
}
"""Each ruleset's state fields, in the order its state model writes them."""

_CORE_SPLIT = ("characters", "timers")
SPLIT_FIELDS: dict[str, tuple[str, ...]] = {
    "dnd5e-injuries": _CORE_SPLIT,
    "fantasy-server": (*_CORE_SPLIT, "items", "encounters", "treatments", "raids",
                       "scenes", "doors", "tortures", "last_checks", "magic_heals",
                       "addictions"),
    "ide4-survival": (*_CORE_SPLIT, "survivors", "checks", "cases", "exposures",
                      "custom_diseases"),
    "warhammer-larp": (*_CORE_SPLIT, "hospitals", "mats", "admissions", "diseases",
                       "certificates", "stickers", "labs", "epidemics", "outbreaks",
                       "locations", "convoys", "treatises", "studies", "contacts"),
    "zone-larp": _CORE_SPLIT,
}
"""Each ruleset's fields stored one entry per row (every mapping field but ``params``):
a part per key, its body the entry's JSON; the rest of the state is the global part."""


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
    conn = op.get_bind()
    parts = sa.table(
        "state_parts",
        sa.column("campaign_id"), sa.column("field"), sa.column("key"),
        sa.column("version"), sa.column("body"), sa.column("ord"),
    )
    campaigns = conn.execute(sa.text("SELECT id, ruleset, version, state FROM campaigns"))
    for name, ruleset, version, stored in list(campaigns):
        try:
            split = split_state(stored, _split_fields(ruleset))
        except ValueError:  # a damaged state stays as it is: `lazaretto repair` rebuilds it
            continue
        rows = [  # in each mapping's order: version * ORDER_SCALE + position
            {"campaign_id": name, "field": f, "key": k, "version": version, "body": body,
             "ord": version * ORDER_SCALE + i}
            for f, entries in split.items()
            for i, (k, body) in enumerate(entries.items())
        ]
        conn.execute(sa.insert(parts), rows)
        conn.execute(
            sa.text("UPDATE campaigns SET state = '' WHERE id = :id"), {"id": name}
        )


def downgrade() -> None:
    conn = op.get_bind()
    for name, ruleset in list(conn.execute(sa.text("SELECT id, ruleset FROM campaigns"))):
        written: dict[str, dict[str, str]] = {}
        rows = conn.execute(
            sa.text("SELECT field, key, body FROM state_parts "
                    "WHERE campaign_id = :id AND body IS NOT NULL ORDER BY ord"), {"id": name},
        )
        for f, k, body in rows:
            written.setdefault(f, {})[k] = body
        if GLOBAL in written:
            conn.execute(sa.text("UPDATE campaigns SET state = :s WHERE id = :id"),
                         {"s": join_state(written, ruleset), "id": name})
    op.drop_column("campaigns", "parts_floor")
    op.drop_index("ix_state_parts_version", table_name="state_parts")
    op.drop_table("state_parts")


def _split_fields(ruleset: str) -> tuple[str, ...]:
    if ruleset not in SPLIT_FIELDS:
        raise RuntimeError(
            f"Migration 0009 does not know the state of ruleset {ruleset!r}: it knows "
            f"{', '.join(sorted(SPLIT_FIELDS))}"
        )
    return SPLIT_FIELDS[ruleset]


# --- the state's JSON, read generically ---------------------------------------------
def _refuse(constant: str) -> NoReturn:
    raise ValueError(f"{constant} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_refuse)


def _skip(text: str, i: int) -> int:
    """Where the next thing after JSON white space from ``i`` is."""
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def _members(text: str) -> list[tuple[str, str, str]]:
    """The members of the JSON object ``text``, in order: (key, the key as written, the
    value as written). Raises ValueError if ``text`` is not one JSON object."""
    i = _skip(text, 0)
    if text[i:i + 1] != "{":
        raise ValueError("not a JSON object")
    i = _skip(text, i + 1)
    out: list[tuple[str, str, str]] = []
    if text[i:i + 1] == "}":
        i += 1
    else:
        while True:
            if text[i:i + 1] != '"':
                raise ValueError(f"a key expected at {i}")
            key, end = _DECODER.raw_decode(text, i)
            raw_key = text[i:end]
            i = _skip(text, end)
            if text[i:i + 1] != ":":
                raise ValueError(f"':' expected at {i}")
            start = _skip(text, i + 1)
            _, end = _DECODER.raw_decode(text, start)
            out.append((key, raw_key, text[start:end]))
            i = _skip(text, end)
            if text[i:i + 1] == ",":
                i = _skip(text, i + 1)
                continue
            if text[i:i + 1] != "}":
                raise ValueError(f"',' or '}}' expected at {i}")
            i += 1
            break
    if _skip(text, i) != len(text):
        raise ValueError("text after the JSON object")
    return out


def _unique(members: list[tuple[str, str, str]]) -> dict[str, tuple[str, str]]:
    """Members by key; a repeated key keeps its first place and its last value."""
    out: dict[str, tuple[str, str]] = {}
    for key, raw_key, value in members:
        out[key] = (raw_key, value)
    return out


def split_state(stored: str, split: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The parts of the state document ``stored``: the global part (the document without
    the ``split`` fields) under ``""``, and each entry of each ``split`` field by its
    key. Raises ValueError for a document that is not a JSON object of such fields."""
    top = _unique(_members(stored))
    out = {GLOBAL: {GLOBAL: "{" + ",".join(
        f"{raw_key}:{value}" for key, (raw_key, value) in top.items() if key not in split
    ) + "}"}}
    for f in split:
        entries = _unique(_members(top[f][1])) if f in top else {}
        out[f] = {k: value for k, (_, value) in entries.items()}
    return out


def join_state(written: dict[str, dict[str, str]], ruleset: str) -> str:
    """The state document the parts ``written`` make, its fields in the ruleset's order
    (any field the global part has that the order does not name comes last)."""
    split, order = _split_fields(ruleset), STATE_FIELDS[ruleset]
    top = _unique(_members(written[GLOBAL][GLOBAL]))
    pieces: list[str] = []
    for f in (*order, *(k for k in top if k not in order)):
        if f in split:
            body = ",".join(f"{_key(k)}:{v}" for k, v in written.get(f, {}).items())
            pieces.append(f"{_key(f)}:{{{body}}}")
        elif f in top:
            raw_key, value = top[f]
            pieces.append(f"{raw_key}:{value}")
    return "{" + ",".join(pieces) + "}"


def _key(key: str) -> str:
    """A key as the state models wrote it: JSON, characters beyond ASCII as they are."""
    return json.dumps(key, ensure_ascii=False)
