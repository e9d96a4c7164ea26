"""The campaign clock (one per campaign).

Two modes (DESIGN.md, principle 3):

* ``manual`` — campaign time moves only when told: tabletop play, tests, entering a
  paper log after the fact.
* ``realtime`` — campaign time follows the wall clock (a LARP); a master can pause and
  resume it, and can still jump it forward.

Campaign time is a naive :class:`datetime` in the campaign's local time (what a master
reads off a watch: "12:30"). Wall time is always timezone-aware UTC. The clock is an
immutable value: every operation returns a new clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from lazaretto.core.errors import ClockError, InvalidInput

LATEST = datetime(9000, 1, 1)
"""The latest campaign time a clock may show. Far past any game, it leaves a thousand
years of calendar for the countdowns started then (the calendar ends in 9999): a clock
set to 9999-12-30 would have made every later countdown impossible."""


def check_in_range(when: datetime) -> datetime:
    """``when``, refused if it is past :data:`LATEST`."""
    if when.replace(tzinfo=None) > LATEST:
        raise InvalidInput(
            f"The time {when:%Y-%m-%d} is out of range: campaign time ends at "
            f"{LATEST:%Y-%m-%d}",
            ru=f"Время {when:%Y-%m-%d} вне допустимого: время кампании — до {LATEST:%Y-%m-%d}",
        )
    return when


class ClockMode(StrEnum):
    """How campaign time moves."""

    MANUAL = "manual"
    REALTIME = "realtime"


def wall_now() -> datetime:
    """The current wall time, UTC."""
    return datetime.now(UTC)


class Clock(BaseModel):
    """A campaign clock.

    ``anchor`` is the campaign time at wall time ``anchor_wall``; on a manual clock, or
    a paused realtime clock, ``anchor`` simply *is* the current campaign time.
    """

    model_config = ConfigDict(frozen=True)

    mode: ClockMode = ClockMode.MANUAL
    anchor: datetime
    anchor_wall: datetime | None = None
    paused: bool = False

    def now(self, wall: datetime | None = None) -> datetime:
        """The current campaign time (for a realtime clock, at wall time ``wall``)."""
        if self.mode is ClockMode.MANUAL or self.paused or self.anchor_wall is None:
            return self.anchor
        wall = wall or wall_now()
        if self.anchor >= LATEST:
            return self.anchor
        # a running clock stops at the end of campaign time: past it no change could be
        # recorded, nor the clock paused or set, and the campaign would be stuck for good
        return min(LATEST, self.anchor + max(timedelta(0), wall - self.anchor_wall))

    def set(self, when: datetime, wall: datetime | None = None) -> Clock:
        """The clock moved to campaign time ``when``; time never goes backwards."""
        current = self.now(wall)
        if when < current:
            raise ClockError(
                f"Time cannot go backwards: the clock reads {current:%Y-%m-%d %H:%M:%S}, "
                f"asked for {when:%Y-%m-%d %H:%M:%S}",
                ru=f"Время не идёт назад: на часах {current:%Y-%m-%d %H:%M:%S}, "
                f"запрошено {when:%Y-%m-%d %H:%M:%S}",
                tip="Record it at the current time or later; past midnight give the date "
                "(2026-06-14T00:10) or +20m.",
                tip_ru="Запишите на текущее время или позже; после полуночи укажите дату "
                "(2026-06-14T00:10) или +20m.",
            )
        check_in_range(when)
        wall_at = None if self.mode is ClockMode.MANUAL else (wall or wall_now())
        return self.model_copy(update={"anchor": when, "anchor_wall": wall_at})

    def advance(self, delta: timedelta, wall: datetime | None = None) -> Clock:
        """The clock moved forward by ``delta``."""
        if delta < timedelta(0):
            raise ClockError(
                "Cannot advance by a negative duration",
                ru="Нельзя сдвинуть часы на отрицательное время",
            )
        return self.set(self.now(wall) + delta, wall)

    def pause(self, wall: datetime | None = None) -> Clock:
        """A realtime clock stopped at its current reading."""
        if self.mode is ClockMode.MANUAL:
            raise ClockError(
                "A manual clock does not run, so it cannot be paused",
                ru="Ручные часы не идут, их нельзя поставить на паузу",
            )
        if self.paused:
            raise ClockError("The clock is already paused", ru="Часы уже на паузе")
        return self.model_copy(
            update={"anchor": self.now(wall), "anchor_wall": None, "paused": True}
        )

    def resume(self, wall: datetime | None = None) -> Clock:
        """A paused realtime clock running again from where it stopped."""
        if not self.paused:
            raise ClockError("The clock is not paused", ru="Часы не на паузе")
        return self.model_copy(update={"anchor_wall": wall or wall_now(), "paused": False})


def campaign_local(when: datetime) -> datetime:
    """``when`` as a campaign time (naive, local): an explicit offset is converted to
    this machine's local time, as every entry point reads one (issue 28)."""
    return when.astimezone().replace(tzinfo=None) if when.tzinfo else when


def parse_time(text: str, *, reference: datetime) -> datetime:
    """Parse a campaign time as a user types it.

    Accepts ``HH:MM``, ``HH:MM:SS`` (on the reference's date), a full ISO date-time,
    or a relative ``+30m`` / ``+1h30m`` / ``+90s`` from the reference.
    """
    s = text.strip()
    try:
        if s.startswith("+"):
            return reference + parse_duration(s[1:])
        if "T" in s or "-" in s:
            return campaign_local(datetime.fromisoformat(s))
        parts = [int(p) for p in s.split(":")]
        if len(parts) not in (2, 3):
            raise ValueError(s)
        h, m, sec = [*parts, 0][:3]
        # HH:MM is always on the reference's date: rolling over midnight by itself would
        # let a typo jump the clock a day ahead and fire every countdown on the way.
        return reference.replace(hour=h, minute=m, second=sec, microsecond=0)
    except (ValueError, TypeError) as exc:
        raise ClockError(
            f"Cannot read the time {text!r}: use HH:MM, HH:MM:SS, an ISO date-time or +30m",
            ru=f"Не удалось прочитать время {text!r}: используйте ЧЧ:ММ, ЧЧ:ММ:СС, "
            "дату-время ISO или +30m",
        ) from exc


def parse_duration(text: str) -> timedelta:
    """Parse ``1h30m``, ``45m``, ``90s``, ``2d`` or a bare number of minutes."""
    s = text.strip().lower()
    if not s:
        raise ClockError("Empty duration", ru="Пустая длительность")
    if s.isdigit():
        return timedelta(minutes=int(s))
    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    total, num = 0, ""
    for ch in s:
        if ch.isdigit():
            num += ch
        elif ch in units and num:
            total += int(num) * units[ch]
            num = ""
        else:
            raise ClockError(
                f"Cannot read the duration {text!r}: use e.g. 1h30m, 45m, 90s",
                ru=f"Не удалось прочитать длительность {text!r}: например 1h30m, 45m, 90s",
            )
    if num:
        raise ClockError(
            f"Cannot read the duration {text!r}: a number needs a unit (d, h, m, s)",
            ru=f"Не удалось прочитать длительность {text!r}: нужна единица (d, h, m, s)",
        )
    return timedelta(seconds=total)
