"""Limits on failed logins and on registrations, counted in the database so that every
server process (``serve --workers N``) counts the same attempts.

Strangers' guesses are limited per name (5 a minute) and per client address (20 a
minute). Those limits must never lock out the owner of the right password from a
device they use, though (six wrong guesses a minute would keep a master out for a whole
game): a browser that has logged in as a user carries a random *device token* (its
hash alone is stored, like a session's), and that user's logins from it are counted
only against that device's own limit, not against the name's or the address's.
Registrations are limited per address, counted before anything is created.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select

from lazaretto.core.errors import LazarettoError
from lazaretto.store.db import Database
from lazaretto.store.models import KnownDeviceRow, LoginFailureRow, RegistrationAttemptRow

LOGIN_FAILURES_ALLOWED = 5
"""Failed logins for one username within the window before its logins are refused
(from a device known for that user: for that device's logins as that user)."""
LOGIN_CLIENT_FAILURES_ALLOWED = 20
"""Failed logins from one client address, whatever the names tried (guessing one
common password across many names), within the window."""
LOGIN_WINDOW_SECONDS = 60.0
REGISTRATIONS_ALLOWED = 30
"""Accounts one client address may try to create within the registration window: a
check-in desk registering a player every 20 seconds, not a script making thousands."""
REGISTRATION_WINDOW_SECONDS = 600.0
DEVICE_DAYS = 180
"""A device unused for this long is a stranger again."""
DEVICE_COOKIE = "lazaretto_device"
_DEVICE = "device:"  # how a known device's failures are marked in login_failures.client


class TooManyAttempts(LazarettoError):
    """Raised when a username, one client address or one device has failed to log in
    too often in a short time, or an address has tried to register too many accounts."""

    exit_code = 6
    http_status = 429


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def known_device(db: Database, token: str | None, user_id: int | None, at: datetime) -> str | None:
    """The mark of a device token known for ``user_id`` (None for a stranger)."""
    if not token or user_id is None:
        return None
    with db.transaction(readonly=True) as s:
        row = s.get(KnownDeviceRow, (_hash(token), user_id))
    if row is None or datetime.fromisoformat(row.last_used_wall) < at - timedelta(DEVICE_DAYS):
        return None
    return _DEVICE + row.token_hash[:40]


def count_attempt(db: Database, name: str, client: str, device: str | None, at: datetime) -> None:
    """Record this attempt, then count the recent ones; TooManyAttempts (and the
    attempt taken back) over the limits.

    The attempt is committed before the count and before the password check, so
    guesses sent at the same moment count each other: of any number sent at once
    past the limit, none gets its password checked. From a ``device`` known for this
    name, only that device's attempts at this name count; strangers' attempts at a
    name never count a known device's."""
    since = (at - timedelta(seconds=LOGIN_WINDOW_SECONDS)).isoformat()
    with db.transaction() as s:
        s.execute(delete(LoginFailureRow).where(LoginFailureRow.at_wall < since))
        row = LoginFailureRow(username=name, client=device or client, at_wall=at.isoformat())
        s.add(row)
        s.flush()
        attempt = row.id
    recent = select(func.count()).select_from(LoginFailureRow)
    recent = recent.where(LoginFailureRow.at_wall >= since, LoginFailureRow.username == name)
    with db.transaction(readonly=True) as s:
        if device is not None:
            mine = s.scalar(recent.where(LoginFailureRow.client == device)) or 0
            by_name, by_client = (mine, 0)
        else:
            strangers = ~LoginFailureRow.client.startswith(_DEVICE)
            by_name = s.scalar(recent.where(strangers)) or 0
            by_client = (
                s.scalar(
                    select(func.count())
                    .select_from(LoginFailureRow)
                    .where(LoginFailureRow.at_wall >= since, LoginFailureRow.client == client)
                )
                or 0
            )
    refusal = None
    if by_name > LOGIN_FAILURES_ALLOWED:
        refusal = TooManyAttempts(
            "Too many failed logins for this name; wait a minute",
            ru="Слишком много неудачных входов под этим именем; подождите минуту",
        )
    elif client and by_client > LOGIN_CLIENT_FAILURES_ALLOWED:
        refusal = TooManyAttempts(
            "Too many failed logins from this device; wait a minute",
            ru="Слишком много неудачных входов с этого устройства; подождите минуту",
        )
    if refusal is not None:
        with db.transaction() as s:
            s.execute(delete(LoginFailureRow).where(LoginFailureRow.id == attempt))
        raise refusal


def remember_device(db: Database, token: str | None, user_id: int, at: datetime) -> str:
    """After a successful login: the browser's device token, known for ``user_id``
    from now on. A token we never issued is replaced by a new one, so that nobody can
    plant a token of their choosing in someone else's browser."""
    with db.transaction() as s:
        issued = token is not None and s.scalar(
            select(KnownDeviceRow.token_hash).where(KnownDeviceRow.token_hash == _hash(token))
        )
        if not issued or token is None:
            token = secrets.token_urlsafe(32)
        row = s.get(KnownDeviceRow, (_hash(token), user_id))
        if row is None:
            s.add(
                KnownDeviceRow(
                    token_hash=_hash(token), user_id=user_id, last_used_wall=at.isoformat()
                )
            )
        else:
            row.last_used_wall = at.isoformat()
    return token


def forget_failures(db: Database, name: str) -> None:
    """Clear a name's failed logins (after its owner logged in)."""
    with db.transaction() as s:
        s.execute(delete(LoginFailureRow).where(LoginFailureRow.username == name))


def count_registration(db: Database, client: str, at: datetime) -> None:
    """Record an attempt to register from ``client``; TooManyAttempts over the limit.

    Counted before any account is created or invite used, and committed before the
    count, so attempts sent at once count each other; a refused one is not kept."""
    since = (at - timedelta(seconds=REGISTRATION_WINDOW_SECONDS)).isoformat()
    with db.transaction() as s:
        s.execute(delete(RegistrationAttemptRow).where(RegistrationAttemptRow.at_wall < since))
        row = RegistrationAttemptRow(client=client, at_wall=at.isoformat())
        s.add(row)
        s.flush()
        attempt = row.id
    count = select(func.count()).select_from(RegistrationAttemptRow)
    count = count.where(RegistrationAttemptRow.at_wall >= since)
    with db.transaction(readonly=True) as s:
        recent = s.scalar(count.where(RegistrationAttemptRow.client == client)) or 0
    if recent > REGISTRATIONS_ALLOWED:
        with db.transaction() as s:
            s.execute(delete(RegistrationAttemptRow).where(RegistrationAttemptRow.id == attempt))
        raise TooManyAttempts(
            "Too many accounts registered from this device; wait ten minutes",
            ru="Слишком много регистраций с этого устройства; подождите десять минут",
        )
