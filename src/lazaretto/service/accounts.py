"""Accounts, roles per campaign, invites and login sessions.

Passwords are hashed with scrypt (a memory-hard KDF from the standard library); a
login session is a random token whose SHA-256 alone is stored, with a CSRF token for
forms. A campaign's creator is its master; others join with an invite code that gives
a role (and, for a player or healer, a character).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from sqlalchemy import CursorResult, select, update
from sqlalchemy.orm import Session

from lazaretto.core.errors import Conflict, Forbidden, InvalidInput, LazarettoError, NotFound
from lazaretto.core.ruleset import Role
from lazaretto.service import login_limits
from lazaretto.service.login_limits import (  # re-exported: where callers find them
    LOGIN_CLIENT_FAILURES_ALLOWED as LOGIN_CLIENT_FAILURES_ALLOWED,
)
from lazaretto.service.login_limits import (
    LOGIN_FAILURES_ALLOWED as LOGIN_FAILURES_ALLOWED,
)
from lazaretto.service.login_limits import (
    LOGIN_WINDOW_SECONDS as LOGIN_WINDOW_SECONDS,
)
from lazaretto.service.login_limits import (
    TooManyAttempts as TooManyAttempts,
)
from lazaretto.store.db import Database
from lazaretto.store.models import (
    InviteRow,
    LoginSessionRow,
    MembershipRow,
    UserRow,
)

USERNAME = re.compile(r"^[A-Za-z0-9_.@-]{2,80}$")
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
SESSION_DAYS = 7


class Unauthenticated(LazarettoError):
    """Raised when a request needs a logged-in user and has none (or a bad password)."""

    exit_code = 6
    http_status = 401


def hash_password(password: str) -> str:
    """``scrypt$n$r$p$salt$hash`` of ``password``."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT, dklen=32)
    return f"scrypt${SCRYPT['n']}${SCRYPT['r']}${SCRYPT['p']}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches ``stored`` (constant-time comparison)."""
    try:
        _, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(
            password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


@functools.cache
def _stand_in_hash() -> str:
    """A hash no password matches, checked when a login names an unknown user."""
    return hash_password(secrets.token_urlsafe(16))


def _now() -> datetime:
    return datetime.now(UTC)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class User:
    """A logged-in user."""

    id: int
    username: str


@dataclass(frozen=True)
class Membership:
    """What a user is in one campaign."""

    campaign: str
    role: Role
    characters: tuple[str, ...] = field(default_factory=tuple)

    def owns(self, character: str) -> bool:
        """Whether this member plays ``character``."""
        return character in self.characters


@dataclass(frozen=True)
class LoginSession:
    """A session cookie's token (shown once), its CSRF token, and the browser's device
    token (for the device cookie: its next logins as this user are its own)."""

    token: str
    csrf: str
    user: User
    device: str = field(default="", repr=False)


def _not_registered() -> Conflict:
    """The one refusal of a registration whose name or invite code cannot be used: the
    same words, status and time whichever it was, so it tells nobody which names exist
    or which codes are valid."""
    return Conflict(
        "This username cannot be registered with this invite code: choose another name, "
        "or check the code",
        ru="С этим именем и кодом приглашения зарегистрироваться нельзя: выберите другое "
        "имя или проверьте код",
    )


def _unknown_invite() -> NotFound:
    return NotFound(
        "This invite code is unknown or already used",
        ru="Код приглашения неизвестен или уже использован",
    )


class AccountService:
    """Users, memberships, invites and sessions over one database."""

    CACHE_SECONDS = 5.0
    """How long a process trusts a looked-up session or membership (another process's
    logout or role change takes effect within this time)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[tuple[str, object], tuple[float, object]] = {}

    def _cached(self, key: tuple[str, object]) -> object | None:
        hit = self._cache.get(key)
        if hit is not None and time.monotonic() - hit[0] < self.CACHE_SECONDS:
            return hit[1]
        return None

    def _keep(self, key: tuple[str, object], value: object) -> None:
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (time.monotonic(), value)

    def create_user(self, username: str, password: str, *, invite: str | None = None) -> User:
        """A new account; refuses a taken or malformed name and short passwords.

        With ``invite``, the account joins the invite's campaign in the same
        transaction: a bad code creates no account (the name stays free to retry)."""
        if not USERNAME.match(username):
            raise InvalidInput(
                "A username is 2-80 letters, digits or . _ @ -",
                ru="Имя пользователя: 2-80 букв, цифр или . _ @ -",
            )
        if len(password) < 8:
            raise InvalidInput(
                "A password needs at least 8 characters", ru="Пароль — не короче 8 символов"
            )
        hashed = hash_password(password)  # first: a taken name costs the same time
        with self.db.transaction() as s:
            if s.scalar(select(UserRow).where(UserRow.username == username)) is not None:
                raise _not_registered()
            row = UserRow(username=username, password_hash=hashed, created_wall=_now().isoformat())
            s.add(row)
            s.flush()
            user = User(row.id, row.username)
            if invite is not None:
                try:
                    self._join(s, user, invite)
                except NotFound as exc:
                    raise _not_registered() from exc
            return user

    def register(
        self,
        username: str,
        password: str,
        *,
        invite: str | None = None,
        client: str = "",
        device: str | None = None,
    ) -> LoginSession:
        """Create an account (joining the invite's campaign) and log it in.

        Registrations from one ``client`` address are limited (TooManyAttempts) before
        anything is created or any invite used; the new session is opened in the same
        call, past the login limits (the password was just chosen)."""
        login_limits.count_registration(self.db, client[:64], _now())
        user = self.create_user(username, password, invite=invite)
        return self._open_session(user, device)

    def login(
        self, username: str, password: str, *, client: str = "", device: str | None = None
    ) -> LoginSession:
        """A new session for valid credentials; Unauthenticated otherwise.

        TooManyAttempts after repeated failures within a minute, for one username or
        from one ``client`` address — unless ``device`` (the device cookie) is one
        this user logged in from before: then only that device's own failures count
        (see :mod:`lazaretto.service.login_limits`). The failures are kept in the
        database, so every server process (``serve --workers N``) counts the same."""
        now = _now()
        tried, client = username[:80], client[:64]  # as stored
        with self.db.transaction(readonly=True) as s:
            row = s.scalar(select(UserRow).where(UserRow.username == username))
            user = User(row.id, row.username) if row is not None else None
            # an unknown name is checked against a stand-in hash, so that the answer takes
            # as long as for a wrong password and tells nobody which names exist
            stored = row.password_hash if row is not None else _stand_in_hash()
        known = login_limits.known_device(self.db, device, user.id if user else None, now)
        login_limits.count_attempt(self.db, tried, client, known, now)
        # the slow check holds no write lock: game changes go on meanwhile
        if not verify_password(password, stored) or user is None:
            # the attempt's row stays: it is the failure, counted for a minute
            raise Unauthenticated(
                "Wrong username or password", ru="Неверное имя пользователя или пароль"
            )
        login_limits.forget_failures(self.db, tried)
        return self._open_session(user, device)

    def _open_session(self, user: User, device: str | None) -> LoginSession:
        """A new login session for ``user``, and the device now known for them."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        with self.db.transaction() as s:
            s.add(
                LoginSessionRow(
                    token_hash=_token_hash(token),
                    user_id=user.id,
                    csrf=csrf,
                    expires_wall=(_now() + timedelta(days=SESSION_DAYS)).isoformat(),
                )
            )
        known = login_limits.remember_device(self.db, device, user.id, _now())
        return LoginSession(token, csrf, user, known)

    def session_cached(self, token: str) -> bool:
        """Whether :meth:`session` answers ``token`` from memory (no read)."""
        return self._cached(("session", _token_hash(token))) is not None

    def membership_cached(self, user: User, campaign: str) -> bool:
        """Whether :meth:`membership` answers from memory (no read)."""
        return isinstance(self._cached(("member", (user.id, campaign))), Membership)

    def session(self, token: str | None) -> tuple[User, str] | None:
        """The user and CSRF token of a session cookie, if it is valid."""
        if not token:
            return None
        key = ("session", _token_hash(token))
        hit = self._cached(key)
        if hit is not None:
            return hit  # type: ignore[return-value]
        with self.db.transaction(readonly=True) as s:
            row = s.get(LoginSessionRow, key[1])
            if row is None or datetime.fromisoformat(row.expires_wall) < _now():
                return None
            user = s.get(UserRow, row.user_id)
            found = (User(user.id, user.username), row.csrf) if user else None
        if found is not None:
            self._keep(key, found)
        return found

    def logout(self, token: str) -> None:
        """End a session."""
        self._cache.pop(("session", _token_hash(token)), None)
        with self.db.transaction() as s:
            row = s.get(LoginSessionRow, _token_hash(token))
            if row is not None:
                s.delete(row)

    def add_member(
        self, user: User, campaign: str, role: Role, characters: tuple[str, ...] = ()
    ) -> Membership:
        """Give ``user`` a role in ``campaign`` (adding characters to an existing one)."""
        with self.db.transaction() as s:
            member = self._add_member(s, user, campaign, role, characters)
        self._cache.pop(("member", (user.id, campaign)), None)  # once committed
        return member

    def _add_member(
        self, s: Session, user: User, campaign: str, role: Role, characters: tuple[str, ...]
    ) -> Membership:
        row = s.get(MembershipRow, (user.id, campaign))
        if row is None:
            row = MembershipRow(
                user_id=user.id,
                campaign_id=campaign,
                role=role.value,
                characters=list(characters),
            )
            s.add(row)
        else:
            row.role = role.value
            row.characters = sorted(set(row.characters) | set(characters))
        return Membership(campaign, Role(row.role), tuple(row.characters))

    def membership(self, user: User, campaign: str) -> Membership:
        """``user``'s role in ``campaign``; Forbidden if they have none."""
        key = ("member", (user.id, campaign))
        hit = self._cached(key)
        if isinstance(hit, Membership):
            return hit
        with self.db.transaction(readonly=True) as s:
            row = s.get(MembershipRow, (user.id, campaign))
        if row is None:
            raise Forbidden(
                f"You are not in campaign {campaign!r}",
                ru=f"Вы не участвуете в кампании {campaign!r}",
                tip="Ask a master for an invite code.",
                tip_ru="Попросите у мастера код приглашения.",
            )
        member = Membership(campaign, Role(row.role), tuple(row.characters))
        self._keep(key, member)
        return member

    def memberships(self, user: User) -> list[Membership]:
        """Every campaign ``user`` is in."""
        with self.db.transaction(readonly=True) as s:
            rows = s.scalars(select(MembershipRow).where(MembershipRow.user_id == user.id))
            return [Membership(r.campaign_id, Role(r.role), tuple(r.characters)) for r in rows]

    def invite(self, campaign: str, role: Role, character: str | None = None) -> str:
        """A one-use invite code."""
        code = secrets.token_urlsafe(9)
        with self.db.transaction() as s:
            s.add(
                InviteRow(
                    code=code,
                    campaign_id=campaign,
                    role=role.value,
                    character_id=character,
                    created_wall=_now().isoformat(),
                )
            )
        return code

    def join(self, user: User, code: str) -> Membership:
        """Use an invite code: one use, and never to change a role the user has."""
        with self.db.transaction() as s:
            member = self._join(s, user, code)
        self._cache.pop(("member", (user.id, member.campaign)), None)  # once committed
        return member

    def _join(self, s: Session, user: User, code: str) -> Membership:
        """Claim the invite and give its role, in the caller's transaction.

        The claim is one conditional UPDATE, so of two people using one code at once
        only one gets in. Someone already in the campaign joins only with an invite for
        the role they have (it adds the invite's character): an invite must not turn a
        master into a player, nor a player into a master."""
        row = s.get(InviteRow, code.strip())
        if row is None or row.used_by is not None:
            raise _unknown_invite()
        campaign, role, char = row.campaign_id, Role(row.role), row.character_id
        present = s.get(MembershipRow, (user.id, campaign))
        if present is not None and present.role != role.value:
            raise Conflict(
                f"You are already {present.role} in {campaign}; this invite is for a "
                f"{role.value}. Ask a master to change your role",
                ru=f"Вы уже {present.role} в {campaign}, а приглашение — для роли "
                f"{role.value}. Попросите мастера сменить вам роль",
            )
        claimed = cast(
            CursorResult[Any],
            s.execute(
                update(InviteRow)
                .where(InviteRow.code == row.code, InviteRow.used_by.is_(None))
                .values(used_by=user.id)
            ),
        )
        if claimed.rowcount != 1:  # someone else used it a moment ago
            raise _unknown_invite()
        return self._add_member(s, user, campaign, role, (char,) if char else ())
