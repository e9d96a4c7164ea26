"""``lazaretto serve``: the web app and HTTP API on one port."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lazaretto.cli.env import get_env, guarded
from lazaretto.core.errors import InvalidInput
from lazaretto.store.db import Database, database_url

SHUTDOWN_GRACE_SECONDS = 2
"""On SIGTERM, how long answers still in flight may take before they are cut. The live
streams end at once by themselves (api/live.py); this bounds anything else (a long
PDF), where uvicorn's default would wait for ever."""


def _read(path: Path, option: str, what: str, what_ru: str) -> bytes:
    """The file given to ``option``, refused in one line when it is not there or not
    readable."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InvalidInput(
            f"No {what} file {path} ({option})",
            ru=f"Нет файла {path} ({what_ru}, {option})",
        ) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidInput(
            f"Cannot read the {what} file {path} ({option}): {reason}",
            ru=f"Не удаётся прочитать файл {path} ({what_ru}, {option}): {reason}",
        ) from None


def tls_options(certfile: Path | None, keyfile: Path | None) -> dict[str, Any]:
    """uvicorn's HTTPS options for ``--ssl-certfile``/``--ssl-keyfile`` (none: plain
    HTTP), checked before anything starts, since uvicorn's own failure to load them is
    a traceback: both given, both readable, a PEM certificate and its unencrypted
    private key. Each refusal is one line."""
    if certfile is None and keyfile is None:
        return {}
    if certfile is None or keyfile is None:
        raise InvalidInput(
            "HTTPS needs both --ssl-certfile and --ssl-keyfile (a certificate and its key)",
            ru="Для HTTPS нужны оба параметра: --ssl-certfile и --ssl-keyfile "
            "(сертификат и его ключ)",
        )
    cert = _read(certfile, "--ssl-certfile", "certificate", "сертификат")
    key = _read(keyfile, "--ssl-keyfile", "key", "ключ")
    if b"-----BEGIN CERTIFICATE-----" not in cert:
        raise InvalidInput(
            f"{certfile} is not a PEM certificate (--ssl-certfile): "
            "it has no -----BEGIN CERTIFICATE----- line",
            ru=f"{certfile} — не сертификат PEM (--ssl-certfile): "
            "в нём нет строки -----BEGIN CERTIFICATE-----",
        )
    if b"PRIVATE KEY-----" not in key:
        raise InvalidInput(
            f"{keyfile} is not a PEM private key (--ssl-keyfile)",
            ru=f"{keyfile} — не закрытый ключ PEM (--ssl-keyfile)",
        )
    if b"ENCRYPTED" in key:
        raise InvalidInput(
            f"{keyfile} is protected by a password (--ssl-keyfile)",
            ru=f"{keyfile} защищён паролем (--ssl-keyfile)",
            tip="Give a copy without it: `openssl pkey -in KEY -out KEY-plain.pem`.",
            tip_ru="Дайте копию без пароля: `openssl pkey -in KEY -out KEY-plain.pem`.",
        )
    import ssl

    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(
            certfile, keyfile, password=lambda: b""
        )
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            raise InvalidInput(
                f"{keyfile} is not the private key of the certificate {certfile}",
                ru=f"{keyfile} — не закрытый ключ сертификата {certfile}",
            ) from None
        raise InvalidInput(
            f"{certfile} and {keyfile} do not load as a certificate and its key: {exc}",
            ru=f"{certfile} и {keyfile} не загружаются как сертификат и его ключ: {exc}",
        ) from None
    return {"ssl_certfile": str(certfile), "ssl_keyfile": str(keyfile)}


@guarded
def serve_cmd(
    host: Annotated[
        str, typer.Option(help="address to bind; 0.0.0.0 to serve the site's Wi-Fi")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    demo: Annotated[bool, typer.Option(help="load a demo campaign with demo accounts")] = False,
    secure_cookies: Annotated[
        bool, typer.Option(help="mark cookies Secure (behind HTTPS)")
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help="server processes sharing the database (PostgreSQL for large games); "
            "each countdown still fires once / процессов сервера",
        ),
    ] = 1,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="addresses of the reverse proxies whose X-Forwarded-For to believe "
            "(comma-separated); by default none is, and every client is its own address "
            "/ адреса прокси, которым верить в X-Forwarded-For",
        ),
    ] = None,
    ssl_certfile: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="serve HTTPS with this certificate (PEM), with --ssl-keyfile: phones keep "
            "offline copies of pages only over HTTPS (or on localhost), and only with a "
            "certificate they trust; cookies are then Secure "
            "/ сертификат (PEM) для HTTPS: копии страниц офлайн работают только по HTTPS",
        ),
    ] = None,
    ssl_keyfile: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="the certificate's private key (PEM, unencrypted) "
            "/ закрытый ключ сертификата (PEM, без пароля)",
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address phones reach this server at (printed QR codes open it), "
            "e.g. http://192.168.1.10:8000 / адрес сервера для QR-кодов",
        ),
    ] = None,
) -> None:
    """Serve the web app and the API (OpenAPI at /docs). / Веб-приложение и API."""
    import os

    import uvicorn

    from lazaretto.api.app import create_app, tune_gc
    from lazaretto.service.accounts import AccountService
    from lazaretto.service.campaigns import CampaignService
    from lazaretto.service.demo import seed

    env = get_env()
    tls = tls_options(ssl_certfile, ssl_keyfile)
    secure_cookies = secure_cookies or bool(tls)  # a cookie sent over HTTPS only
    if public_url:
        os.environ["LAZARETTO_PUBLIC_URL"] = public_url  # read by every worker's pages
    url = database_url(env.db)
    db = Database(url)
    if demo:
        logins = seed(CampaignService(db), AccountService(db))
        env.console.print(
            env.tr("Demo accounts (user / password):", "Демо-входы (логин / пароль):")
        )
        for login in logins:
            env.console.print(
                f"  {login.username:8} {login.password:14} {login.role}", markup=False
            )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    scheme = "https" if tls else "http"
    env.console.print(
        env.tr(
            f"Lazaretto is serving on {scheme}://{shown}:{port}/  (API docs: /docs)",
            f"Lazaretto работает: {scheme}://{shown}:{port}/  (API: /docs)",
        ),
        markup=False,
    )
    # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: then anyone
    # on this machine (or a proxy that passes the header through) could pick the client
    # address the login limits count by
    proxies: dict[str, Any] = (
        {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
        if forwarded_allow_ips
        else {"proxy_headers": False, "forwarded_allow_ips": ""}
    )
    if workers == 1:
        app = create_app(db, secure_cookies=secure_cookies, warm=True)
        tune_gc()
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            loop="auto",
            http="auto",
            timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
            **proxies,
            **tls,
        )
        return
    db.close()
    if url.startswith("sqlite"):
        env.console.print(
            env.tr(
                "Several processes on one SQLite file take turns to write; "
                "PostgreSQL (--db postgresql://…) scales better.",
                "Несколько процессов с одним файлом SQLite пишут по очереди; "
                "PostgreSQL (--db postgresql://…) масштабируется лучше.",
            ),
            markup=False,
        )
    os.environ["LAZARETTO_DB"] = url  # each worker process opens the database itself
    os.environ["LAZARETTO_SECURE_COOKIES"] = "1" if secure_cookies else "0"
    uvicorn.run(
        "lazaretto.api.app:app_from_env",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        **proxies,
        **tls,
    )


def register(app: typer.Typer) -> None:
    """Attach the serve command."""
    app.command("serve")(serve_cmd)
