"""What every command shares: database, language, the chosen campaign, output."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

import typer
from rich.console import Console

from lazaretto.core.errors import InvalidInput, LazarettoError, NotFound
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database, database_url


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
    console: Console = field(default_factory=lambda: Console(highlight=False, soft_wrap=True))

    @property
    def service(self) -> CampaignService:
        if self._service is None:
            self._service = CampaignService(Database(database_url(self.db)))
        return self._service

    def tr(self, en: str, ru: str) -> str:
        """Pick the text for the user's language."""
        return ru if self.lang == "ru" else en

    def campaign_name(self) -> str:
        """The campaign to work on: ``--campaign``, ``LAZARETTO_CAMPAIGN`` or the only one."""
        if self.campaign:
            return self.campaign
        names = [c.id for c in self.service.campaigns()]
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
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))

    def fail(self, err: LazarettoError, as_json: bool) -> None:
        """Report a refusal or error in one line (or JSON) and exit non-zero."""
        if as_json:
            self.emit_json(err.to_dict(self.lang))
        else:
            label = self.tr("error", "ошибка")
            typer.echo(f"{label}: {err.text(self.lang)}", err=True)
        sys.exit(err.exit_code)


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
        except Exception as exc:
            typer.echo(
                f"internal error: {type(exc).__name__}: {exc} "
                "(please report it with the command you ran)",
                err=True,
            )
            sys.exit(70)

    return wrapper  # type: ignore[return-value]
