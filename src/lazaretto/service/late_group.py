"""Late records that arrive together are placed together, by one re-run (issue 25).

When the Wi-Fi comes back, thirty phones send their outboxes at once: every waiting
tap is a late record, and placing each by its own re-run of the history from its
checkpoint is quadratic work arriving in one second. The writer takes the late records
of one group commit together instead, and this module places them:

* in campaign-time order (arrival breaks ties), numbered in that order: records that
  arrive within one group commit arrived at the same moment, and their order on the
  wire is the network's, not anyone's. The history made is exactly the one that
  delivering them one at a time in that order makes — the same records kept and
  refused, the same dice (named by the record's number), the same state, countdowns
  and journal — because each of them sees before it only records placed before it;
* by one re-run from the checkpoint before the earliest of them, however many are
  refused: a late record the history refuses is refused alone (its caller is told,
  nothing of it is stored) and gives up its number, and those after it take the
  numbers down by one before they run (``history.rerun(renumber_from=...)``), so
  their dice are those of one-at-a-time delivery;
* each caller's answer is their own record's events (:func:`history.news`);
* the corrections are what changed of what had been shown before the group: a change
  one record of the group made and a later one of the same group took back was never
  shown to anyone and is not told. Each correction names as its cause the latest
  record of the group placed at or before the corrected event that names one of its
  subjects (else the latest placed before it, else the earliest of the group).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from lazaretto.core import history
from lazaretto.core.errors import LazarettoError
from lazaretto.core.events import Event, named_in
from lazaretto.core.history import Correction, Record
from lazaretto.core.ruleset import Ruleset
from lazaretto.service import history_store as store
from lazaretto.service.placing import Head, Recorded
from lazaretto.service.recorder import before_kept_history, run_again, store_outcome

GROUPED = ("act", "character")
"""The kinds of late record placed together; an undo or a clock move is placed alone."""


@dataclass
class Placed:
    """What became of one late record of a group: recorded, or refused."""

    recorded: Recorded | None = None
    refused: LazarettoError | None = None


def place_together(
    s: Session,
    campaign: str,
    rs: Ruleset,
    records: Sequence[Record],
    params: history.HistoryParams,
    flush: Callable[[], None],
    head: Head,
) -> list[Placed]:
    """Place the late ``records`` (prepared, in arrival order; their numbers are
    given here) by one re-run; what became of each, in the order given. ``head`` is
    moved on past those stored."""
    out = [Placed() for _ in records]
    floor = store.first_checkpoint(s, campaign)
    waiting: list[int] = []
    for i in sorted(range(len(records)), key=lambda i: (records[i].at, i)):
        if floor is None or records[i].at < floor:
            out[i].refused = before_kept_history(s, campaign, records[i].at)
        else:
            waiting.append(i)
    if not waiting:
        return out
    flush()  # the batch's earlier changes, so the re-run finds their records and events
    earliest = records[waiting[0]]
    start = store.checkpoint_before(s, campaign, (earliest.at, head.next_no))
    assert start is not None  # a checkpoint at or before the floor exists
    old = store.events_after(s, campaign, start.last_seq)
    numbered = {
        i: records[i].model_copy(update={"no": head.next_no + k})
        for k, i in enumerate(waiting)
    }
    outcome, numbers = _run(s, campaign, rs, start, list(numbered.values()), old, params)
    told = history.fired_before(old)
    for i, rec in numbered.items():
        if rec.no in outcome.turned_away:
            out[i].refused = outcome.turned_away[rec.no]
            continue
        final = rec.model_copy(update={"no": numbers[rec.no]})
        own = history.news(told, outcome.by_record.get(final.no, []))
        out[i].recorded = Recorded(outcome.state, own, final.no, rewritten=True)
        head.took(final)
    return out


def _run(
    s: Session,
    campaign: str,
    rs: Ruleset,
    start: history.Checkpoint,
    group: list[Record],
    old: list[Event],
    params: history.HistoryParams,
) -> tuple[history.Outcome, dict[int, int]]:
    """Re-run once with ``group`` (numbered from the head on, in time order) among the
    stored records; store the ones the rules kept, under the numbers the run gave them,
    and what the run derived. Nothing is stored when every one was refused. Returns
    the outcome and each kept record's number as given → as stored."""
    nested = s.begin_nested()
    stored = store.records_after(s, campaign, start)
    wall = max(r.wall for r in group)
    outcome = run_again(
        campaign, rs, start, [*stored, *group], wall, params,
        placing=len(group), renumber_from=group[0].no,
    )  # fmt: skip
    kept = [r.model_copy(update={"no": outcome.numbers[r.no]}) for r in group
            if r.no in outcome.numbers]  # fmt: skip
    if not kept:  # all refused: the history is as it was
        nested.rollback()
        return outcome, {}
    for rec in kept:
        store.store_record(s, campaign, rec)
    store_outcome(s, campaign, start, [*stored, *kept], outcome)
    own = [e for r in kept for e in outcome.by_record.get(r.no, [])]
    found = history.corrections(old, outcome.events, own)
    for cause, corrections in _causes(kept, found).items():
        store.store_corrections(s, campaign, cause, wall, corrections)
    nested.commit()
    return outcome, outcome.numbers


def _causes(group: list[Record], found: list[Correction]) -> dict[int, list[Correction]]:
    """Each correction under the record of the group that most likely caused it: the
    latest placed at or before the event that names one of its subjects, else the
    latest placed before it, else the earliest of the group (``group`` is in time
    order)."""
    out: dict[int, list[Correction]] = {}
    for c in found:
        before = [r for r in group if r.at <= c.event.at] or group[:1]
        subjects = named_in(c.event.payload) or frozenset()
        naming = [r for r in before if subjects & (named_in(r.input) or frozenset())]
        out.setdefault((naming or before)[-1].no, []).append(c)
    return out
