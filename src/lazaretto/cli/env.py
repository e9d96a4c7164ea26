"""What every command shares: database, language, the chosen campaign, output.

Nothing heavy is imported here: the database and the service layer are imported the
first time a command asks for them, Rich the first time :attr:`Env.console` prints (a
table and a line printed through :meth:`Env.table` and :meth:`Env.show` come out as
Rich draws them, without it, when they can), so that ``roll`` or ``--help`` never pay
for SQLAlchemy; a command that only reads (``timers``,
``character show``) gets its campaign through :meth:`Env.load`, which on SQLite reads
it without SQLAlchemy (:mod:`lazaretto.cli.fastread`). Every line a person reads goes through
:meth:`Env.say` or :attr:`Env.console`, which pass it through
:func:`lazaretto.cli.render.clean`: no terminal control character from a name, a note
or a correction reaches the terminal.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import typer

from lazaretto.cli.render import clean, safe_console
from lazaretto.core.errors import InvalidInput, LazarettoError, NotFound

if TYPE_CHECKING:
    from rich.console import Console

    from lazaretto.cli.fastread import Reader
    from lazaretto.core.ruleset import Ruleset
    from lazaretto.core.state import CampaignState
    from lazaretto.service.campaigns import CampaignService

# JSON escapes C0 itself; DEL, C1 and the bidirectional overrides are legal in a JSON
# string but still act on a terminal, so they are written as \u escapes too.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def default_lang() -> str:
    """``LAZARETTO_LANG``, else Russian if the locale is Russian, else English."""
    lang = os.environ.get("LAZARETTO_LANG") or ""
    if not lang:
        lang = "ru" if os.environ.get("LANG", "").lower().startswith("ru") else "en"
    return lang


@dataclass
class Env:
    """Shared state of one CLI invocation."""

    db: str | None = None
    lang: str = "en"
    campaign: str | None = None
    _service: CampaignService | None = field(default=None, repr=False)
    _console: Console | None = field(default=None, repr=False)
    _reader: Reader | bool | None = field(default=False, repr=False)  # False: not tried yet

    @property
    def service(self) -> CampaignService:
        if self._service is None:
            from lazaretto.service.campaigns import CampaignService
            from lazaretto.store.db import Database, database_url

            self._service = CampaignService(Database(database_url(self.db)))
        return self._service

    @property
    def has_service(self) -> bool:
        """Whether this invocation has opened the service already (it migrated the
        database, or the read path could not answer)."""
        return self._service is not None

    @property
    def console(self) -> Console:
        """Rich's console, for tables (made on first use); it cleans what it prints."""
        if self._console is None:
            self._console = safe_console()
        return self._console

    def show(self, text: str) -> None:
        """Print a line as :attr:`console` prints it (``console.print(text,
        markup=False)``: cleaned, Rich's ``:emoji:`` codes replaced), without importing
        Rich; a text with a tab, which Rich expands, goes to Rich."""
        text = clean(text)
        if "\t" in text:
            self.console.print(text, markup=False)
            return
        if any(_may_be_emoji(m.group(2)) for m in _EMOJI_CODE.finditer(text)):
            from rich._emoji_replace import _emoji_replace

            text = _emoji_replace(text)
        typer.echo(text)

    def table(self, headers: list[str], rows: list[list[str]], *, title: str | None = None) -> None:
        """Print a table of texts as :attr:`console` prints a Rich ``Table(*headers,
        title=title)`` of them (issue 17: a command that shows a table need not import
        Rich): the same characters, as long as the table fits the terminal and every
        text is one line of characters one column wide each. Otherwise (a table to
        crop, a wide character, a line break in a cell) Rich draws it. Rich's bold
        header and italic title, on a terminal, are not drawn."""
        columns = [[clean(h), *(clean(r[i]) for r in rows)] for i, h in enumerate(headers)]
        texts = [clean(title or ""), *(t for column in columns for t in column)]
        width = sum(max(map(len, column)) + 3 for column in columns) + 1
        if all(_ONE_COLUMN_EACH.fullmatch(t) for t in texts) and _fits(max(width, len(texts[0]))):
            from lazaretto.cli.render import plain_table

            if title:
                typer.echo(texts[0])
            typer.echo(plain_table(headers, rows))
            return
        from rich.table import Table

        drawn = Table(*headers, title=title)
        for row in rows:
            drawn.add_row(*row)
        self.console.print(drawn)

    def tr(self, en: str, ru: str) -> str:
        """Pick the text for the user's language."""
        return ru if self.lang == "ru" else en

    def say(self, text: object = "", *, one_line: bool = False) -> None:
        """Print text for a person, stripped of terminal control characters.

        ``one_line`` also escapes line breaks: for a line built from data (an event, a
        name), where a newline in a value could forge a second line.
        """
        typer.echo(clean(str(text), keep_newlines=not one_line))

    @property
    def reader(self) -> Reader | None:
        """The SQLite read path (:mod:`lazaretto.cli.fastread`), opened on first use;
        None when the service must read (PostgreSQL, a database to migrate...)."""
        if self._reader is False:
            from lazaretto.cli.fastread import open_reader

            try:
                self._reader = open_reader(self.db)
            except Exception:  # whatever it is, the service opens the database its way
                self._reader = None
        return self._reader if not isinstance(self._reader, bool) else None

    def close(self) -> None:
        """The invocation is over: release the database. A command run in-process (a
        test's runner, a script) leaves no connection behind to keep the file's WAL
        and shared memory open for the next one in the same process."""
        reader = self._reader if not isinstance(self._reader, bool) else None
        if reader is not None:
            reader.close()
        self._reader = False
        if self._service is not None:
            self._service.db.close()
            self._service = None

    def _read(self, ask: Callable[[Reader], Any]) -> Any:
        """``ask`` the reader; None when there is none or it cannot answer. A reader
        that fails is not asked again: the service answers from then on."""
        reader = self.reader
        if reader is None:
            return None
        try:
            return ask(reader)
        except Exception:  # whatever it is, the service's answer stands
            reader.close()
            self._reader = None
            return None

    def load(self, name: str) -> tuple[Ruleset, CampaignState, int]:
        """The campaign's ruleset, state and version, for reading only (the state may be
        shared: do not modify it). On SQLite without SQLAlchemy when it can be."""
        got = self._read(lambda r: r.load(name))
        return got if got is not None else self.service.load(name)

    def catch_up(self, name: str) -> None:
        """Fire the countdowns a running realtime clock has brought due. A manual or
        paused clock has none (every change fires what is due at its time), so it
        costs no write transaction; nor does a running one with nothing due yet."""
        from lazaretto.core.clock import ClockMode

        got = self._read(lambda r: r.load(name))
        if got is None:
            clock = self.service.clock(name)
            if clock.mode is ClockMode.REALTIME and not clock.paused:
                self.service.catch_up(name)
            return
        state = got[1]
        clock = state.clock
        if clock is None or clock.mode is not ClockMode.REALTIME or clock.paused:
            return
        first = state.next_timer()
        if first is not None and first.deadline <= clock.now():  # engine.fire_due's test
            self.service.catch_up(name)

    def campaign_ids(self) -> list[str]:
        """Every campaign's id, without parsing any state."""
        ids = self._read(lambda r: r.campaign_ids())
        if ids is not None:
            return list(ids)
        from sqlalchemy import select

        from lazaretto.store.models import CampaignRow

        with self.service.db.transaction(readonly=True) as s:
            return list(s.scalars(select(CampaignRow.id).order_by(CampaignRow.id)))

    def campaign_ruleset_id(self) -> str | None:
        """The chosen campaign's ruleset id; None when no campaign is chosen (no database
        yet, none created, or several and no ``--campaign``). Creates no database."""
        if self.reader is None:  # a reader exists only for an existing SQLite file
            from lazaretto.store.db import database_url

            url = database_url(self.db)
            if url.startswith("sqlite:///") and not os.path.exists(url.removeprefix("sqlite:///")):
                return None
        try:
            name = self.campaign_name()
        except (NotFound, InvalidInput):
            return None
        found = self._read(lambda r: r.ruleset_id(name))
        return str(found) if found is not None else self.service.ruleset(name).id

    def campaign_name(self) -> str:
        """The campaign to work on: ``--campaign``, ``LAZARETTO_CAMPAIGN`` or the only one."""
        if self.campaign:
            return self.campaign
        names = self.campaign_ids()
        if len(names) == 1:
            return names[0]
        if not names:
            raise NotFound(
                "There is no campaign yet",
                ru="Кампаний пока нет",
                tip="Create one: `lazaretto campaign create NAME`.",
                tip_ru="Создайте: `lazaretto campaign create ИМЯ`.",
            )
        raise InvalidInput(
            f"Several campaigns exist ({', '.join(names)}): choose one with "
            "--campaign or LAZARETTO_CAMPAIGN",
            ru=f"Кампаний несколько ({', '.join(names)}): выберите через "
            "--campaign или LAZARETTO_CAMPAIGN",
        )

    def emit_json(self, data: Any) -> None:
        """Print ``data`` as JSON on stdout."""
        text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
        typer.echo(_JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))

    def fail(self, err: LazarettoError, as_json: bool) -> None:
        """Report a refusal or error in one line (or JSON) and exit non-zero."""
        if as_json:
            self.emit_json(err.to_dict(self.lang))
        else:
            label = self.tr("error", "ошибка")
            typer.echo(clean(f"{label}: {err.text(self.lang)}", keep_newlines=False), err=True)
        sys.exit(err.exit_code)


#: What Rich reads as an emoji code (``:smile:``), as in ``rich._emoji_replace``.
_EMOJI_CODE = re.compile(r"(:(\S*?)(?:(?:\-)(emoji|text))?:)")


def _may_be_emoji(name: str) -> bool:
    """Whether Rich may know ``name`` as an emoji: of its names made of digits alone,
    only ``100`` and ``1234`` are (so the ``:50:`` of a time is none)."""
    return not name.isdigit() or name in ("100", "1234")


#: Texts whose every character Rich draws one column wide (Latin, Cyrillic and the
#: punctuation Lazaretto prints; tests/unit/test_cli_plain_output.py checks with Rich).
_ONE_COLUMN_EACH = re.compile(
    "[\x20-\x7e\xa0-\xac\xae-\u02ff\u0400-\u0482\u048a-\u052f"
    "\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2116]*"
)


def _fits(width: int) -> bool:
    """Whether Rich, printing on this terminal, has ``width`` columns for a table (then
    it draws it whole; else it crops): what ``rich.console.Console.size`` finds, without
    importing Rich. Conservative: at most 80 columns, Rich's width without a terminal."""
    if width > 80:
        return False
    columns = os.environ.get("COLUMNS")
    if columns is not None:
        return columns.isdigit() and int(columns) >= width
    for fd in (0, 1, 2):  # Rich asks stdin, stdout and stderr in this order
        try:
            size = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):
            continue
        return (size or 80) >= width
    return True


CURRENT: ContextVar[Env | None] = ContextVar("lazaretto_env", default=None)
F = TypeVar("F", bound=Callable[..., Any])


def get_env() -> Env:
    """The Env of the current invocation (set by the main callback)."""
    env = CURRENT.get()
    if env is None:
        env = Env(lang=default_lang())
        CURRENT.set(env)
    return env


def guarded(fn: F) -> F:
    """Wrap a command: our errors become one clear line and an exit code, and so does
    anything unexpected (never a traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        env = get_env()
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except LazarettoError as err:
            env.fail(err, as_json)
        except (typer.Exit, typer.Abort, typer.BadParameter):
            raise
        except OverflowError:  # a date past the calendar's end, a number too large
            env.fail(
                InvalidInput(
                    "A date or number is out of range (too far in the future, or too large)",
                    ru="Дата или число вне допустимого (слишком далеко в будущем или "
                    "слишком велико)",
                ),
                as_json,
            )
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:  # `lazaretto log | head`: the reader has had enough
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except ModuleNotFoundError as exc:
            missing = (exc.name or "").split(".")[0]
            if missing not in SIM_EXTRA:
                _internal(exc)
            env.fail(sim_extra_missing(missing), as_json)
        except Exception as exc:
            _internal(exc)

    return wrapper  # type: ignore[return-value]


#: The packages of the ``lazaretto[sim]`` extra (Dask and Matplotlib, and what they bring).
SIM_EXTRA = frozenset({"matplotlib", "dask", "distributed"})


def sim_extra_missing(package: str) -> LazarettoError:
    """The one-line error for a command that needs the ``sim`` extra's ``package``."""
    return LazarettoError(
        f"This needs {package}, part of Lazaretto's simulation and plotting extra, "
        "which is not installed",
        ru=f"Для этого нужен {package} из дополнения Lazaretto для моделирования и "
        "графиков, а оно не установлено",
        tip="Install it: pip install 'lazaretto[sim]' (make run and make test install it).",
        tip_ru="Установите: pip install 'lazaretto[sim]' (make run и make test ставят его).",
    )


def require_sim(package: str) -> None:
    """Refuse at once, before any work, when the ``sim`` extra's ``package`` is missing."""
    import importlib.util

    try:
        found = importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a module blocked in sys.modules
        found = False
    if not found:
        raise sim_extra_missing(package)


def _internal(exc: Exception) -> NoReturn:
    """Report a bug in one line and exit 70 (never a traceback)."""
    typer.echo(
        clean(
            f"internal error: {type(exc).__name__}: {exc} "
            "(please report it with the command you ran)",
            keep_newlines=False,
        ),
        err=True,
    )
    sys.exit(70)
