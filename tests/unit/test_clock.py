"""The campaign clock (core/clock.py): manual and realtime modes, pause/resume, and the
time and duration formats users type (DESIGN.md, principle 3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from lazaretto.core.clock import LATEST, Clock, ClockMode, parse_duration, parse_time
from lazaretto.core.errors import ClockError, InvalidInput

T0 = datetime(2026, 6, 13, 9, 0)
W0 = datetime(2026, 6, 13, 6, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)


def realtime() -> Clock:
    return Clock(mode=ClockMode.REALTIME, anchor=T0, anchor_wall=W0)


# --- manual clock ------------------------------------------------------------------


def test_manual_clock_does_not_move_while_wall_time_passes() -> None:
    clock = Clock(anchor=T0)
    assert clock.mode is ClockMode.MANUAL
    assert clock.now(W0) == T0
    assert clock.now(W0 + timedelta(hours=5)) == T0
    assert clock.now() == T0


def test_manual_clock_set_moves_to_the_given_time() -> None:
    clock = Clock(anchor=T0).set(T0 + 30 * MIN)
    assert clock.now() == T0 + 30 * MIN
    assert clock.anchor_wall is None


def test_manual_clock_set_to_the_current_time_is_allowed() -> None:
    assert Clock(anchor=T0).set(T0).now() == T0


def test_manual_clock_advance_adds_the_duration() -> None:
    clock = Clock(anchor=T0).advance(timedelta(hours=1, minutes=15))
    assert clock.now() == datetime(2026, 6, 13, 10, 15)


def test_clock_operations_return_a_new_clock_and_leave_the_old_one_unchanged() -> None:
    old = Clock(anchor=T0)
    new = old.advance(10 * MIN)
    assert old.now() == T0
    assert new.now() == T0 + 10 * MIN
    with pytest.raises(ValidationError, match="frozen"):
        old.anchor = T0 + MIN  # type: ignore[misc]


def test_setting_the_clock_backwards_is_refused_with_both_times_named() -> None:
    clock = Clock(anchor=T0)
    with pytest.raises(ClockError) as info:
        clock.set(T0 - MIN)
    assert "2026-06-13 09:00:00" in info.value.message
    assert "2026-06-13 08:59:00" in info.value.message
    assert "назад" in info.value.text("ru")
    assert info.value.exit_code == 2


def test_a_clock_past_the_year_9000_is_refused_so_countdowns_still_fit() -> None:
    """A clock set near the calendar's end would make every later countdown overflow."""
    assert Clock(anchor=T0).set(LATEST).now() == LATEST
    with pytest.raises(InvalidInput) as info:
        Clock(anchor=T0).set(datetime(9999, 12, 30))
    assert "out of range" in info.value.message and "9000-01-01" in info.value.message
    assert "вне допустимого" in info.value.text("ru")
    with pytest.raises(InvalidInput):
        Clock(anchor=T0).advance(LATEST - T0 + MIN)


def test_advancing_by_a_negative_duration_is_refused() -> None:
    with pytest.raises(ClockError, match="negative"):
        Clock(anchor=T0).advance(-MIN)


def test_a_manual_clock_cannot_be_paused() -> None:
    with pytest.raises(ClockError, match="manual clock"):
        Clock(anchor=T0).pause()


# --- realtime clock ----------------------------------------------------------------


def test_realtime_clock_follows_the_wall_time_it_is_given() -> None:
    clock = realtime()
    assert clock.now(W0) == T0
    assert clock.now(W0 + 10 * MIN) == T0 + 10 * MIN
    assert clock.now(W0 + timedelta(hours=2, seconds=5)) == T0 + timedelta(hours=2, seconds=5)


def test_realtime_clock_never_reads_earlier_than_its_anchor_for_an_earlier_wall_time() -> None:
    assert realtime().now(W0 - timedelta(hours=1)) == T0


def test_pausing_a_realtime_clock_freezes_it_at_the_moment_of_the_pause() -> None:
    paused = realtime().pause(W0 + 10 * MIN)
    assert paused.paused
    assert paused.now(W0 + 10 * MIN) == T0 + 10 * MIN
    assert paused.now(W0 + timedelta(hours=3)) == T0 + 10 * MIN


def test_resuming_continues_from_where_the_clock_stopped_without_a_jump() -> None:
    paused = realtime().pause(W0 + 10 * MIN)
    resumed = paused.resume(W0 + timedelta(hours=1))
    assert not resumed.paused
    assert resumed.now(W0 + timedelta(hours=1)) == T0 + 10 * MIN
    assert resumed.now(W0 + timedelta(hours=1, minutes=5)) == T0 + 15 * MIN


def test_pausing_twice_and_resuming_a_running_clock_are_refused() -> None:
    paused = realtime().pause(W0)
    with pytest.raises(ClockError, match="already paused"):
        paused.pause(W0)
    with pytest.raises(ClockError, match="not paused"):
        realtime().resume(W0)


def test_advancing_a_running_realtime_clock_jumps_and_keeps_running() -> None:
    clock = realtime().advance(30 * MIN, wall=W0 + 10 * MIN)
    assert clock.now(W0 + 10 * MIN) == T0 + 40 * MIN
    assert clock.now(W0 + 20 * MIN) == T0 + 50 * MIN


def test_advancing_a_paused_realtime_clock_moves_it_and_it_stays_paused() -> None:
    clock = realtime().pause(W0 + 10 * MIN).advance(30 * MIN, wall=W0 + 20 * MIN)
    assert clock.paused
    assert clock.now(W0 + 20 * MIN) == T0 + 40 * MIN
    assert clock.now(W0 + timedelta(hours=5)) == T0 + 40 * MIN
    assert clock.resume(W0 + timedelta(hours=5)).now(W0 + timedelta(hours=5, minutes=1)) == (
        T0 + 41 * MIN
    )


def test_setting_a_realtime_clock_before_its_current_reading_is_refused() -> None:
    with pytest.raises(ClockError):
        realtime().set(T0 + 5 * MIN, wall=W0 + 10 * MIN)


# --- parse_time --------------------------------------------------------------------

REF = datetime(2026, 6, 13, 9, 15, 42, 123)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12:00", datetime(2026, 6, 13, 12, 0)),
        (" 12:00 ", datetime(2026, 6, 13, 12, 0)),
        ("12:00:30", datetime(2026, 6, 13, 12, 0, 30)),
        ("00:05", datetime(2026, 6, 13, 0, 5)),
        ("2026-06-14T08:30", datetime(2026, 6, 14, 8, 30)),
        ("2026-06-14 08:30:15", datetime(2026, 6, 14, 8, 30, 15)),
        ("+30m", REF + timedelta(minutes=30)),
        ("+1h30m", REF + timedelta(minutes=90)),
        ("+90s", REF + timedelta(seconds=90)),
        ("+2d", REF + timedelta(days=2)),
    ],
)
def test_parse_time_reads_clock_times_iso_and_relative_offsets(
    text: str, expected: datetime
) -> None:
    assert parse_time(text, reference=REF) == expected


def test_parse_time_returns_a_naive_campaign_time_for_an_iso_time_with_an_offset() -> None:
    assert parse_time("2026-06-14T08:30:00+03:00", reference=REF).tzinfo is None


@pytest.mark.parametrize(
    "text",
    ["noon", "", "12", "25:00", "12:61", "12:00:00:00", "1200", "2026-13-01T00:00", "12:xx"],
)
def test_parse_time_refuses_garbage_naming_what_was_typed(text: str) -> None:
    with pytest.raises(ClockError) as info:
        parse_time(text, reference=REF)
    assert repr(text) in info.value.message
    assert "HH:MM" in info.value.message


@pytest.mark.parametrize("text", ["+", "+soon", "+30x", "+-5m"])
def test_parse_time_refuses_a_relative_time_with_a_bad_duration(text: str) -> None:
    with pytest.raises(ClockError):
        parse_time(text, reference=REF)


# --- parse_duration ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1h30m", timedelta(hours=1, minutes=30)),
        ("45m", timedelta(minutes=45)),
        ("90s", timedelta(seconds=90)),
        ("2d", timedelta(days=2)),
        ("1d2h3m4s", timedelta(days=1, hours=2, minutes=3, seconds=4)),
        ("15", timedelta(minutes=15)),
        ("0", timedelta(0)),
        (" 1H ", timedelta(hours=1)),
    ],
)
def test_parse_duration_reads_units_and_bare_minutes(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "  ", "1h30", "m", "1.5h", "-5m", "ten", "5 m", "1w"])
def test_parse_duration_refuses_garbage_with_a_clock_error(text: str) -> None:
    with pytest.raises(ClockError):
        parse_duration(text)
