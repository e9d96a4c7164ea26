"""``lazaretto serve --ssl-certfile/--ssl-keyfile``: a certificate or key that is not
there, not readable or not PEM is refused in one line, in the caller's language, before
the server opens the database or starts (the HTTPS server itself: tests/process/test_tls.py).
"""

from __future__ import annotations

from pathlib import Path

from tests.e2e.clitools import Run, refused

CERT = """-----BEGIN CERTIFICATE-----
MIIBSDCB7qADAgECAhQ
-----END CERTIFICATE-----
"""
KEY = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49
-----END PRIVATE KEY-----
"""


def test_a_missing_certificate_is_refused_in_one_line_before_anything_starts(
    run: Run, tmp_path: Path
) -> None:
    key = tmp_path / "key.pem"
    key.write_text(KEY)
    missing = tmp_path / "nope.pem"
    args = ("serve", "--demo", "--ssl-certfile", str(missing), "--ssl-keyfile", str(key))
    assert refused(run(*args), 2) == f"error: No certificate file {missing} (--ssl-certfile)"
    assert refused(run(*args, lang="ru"), 2) == (
        f"ошибка: Нет файла {missing} (сертификат, --ssl-certfile)"
    )
    assert not (tmp_path / "c.db").exists()  # no database opened, no demo seeded


def test_a_missing_key_is_refused_naming_its_option(run: Run, tmp_path: Path) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text(CERT)
    missing = tmp_path / "key.pem"
    line = refused(run("serve", "--ssl-certfile", str(cert), "--ssl-keyfile", str(missing)), 2)
    assert line == f"error: No key file {missing} (--ssl-keyfile)"


def test_an_unreadable_certificate_says_why(run: Run, tmp_path: Path) -> None:
    key = tmp_path / "key.pem"
    key.write_text(KEY)
    line = refused(run("serve", "--ssl-certfile", str(tmp_path), "--ssl-keyfile", str(key)), 2)
    assert line == (
        f"error: Cannot read the certificate file {tmp_path} (--ssl-certfile): Is a directory"
    )


def test_a_certificate_needs_its_key_and_a_key_its_certificate(run: Run, tmp_path: Path) -> None:
    cert = tmp_path / "cert.pem"
    cert.write_text(CERT)
    for option in ("--ssl-certfile", "--ssl-keyfile"):
        line = refused(run("serve", option, str(cert)), 2)
        assert line == (
            "error: HTTPS needs both --ssl-certfile and --ssl-keyfile (a certificate and its key)"
        )


def test_files_that_are_not_pem_are_refused_before_uvicorn_would_trace_back(
    run: Run, tmp_path: Path
) -> None:
    cert, key, text = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "notes.txt"
    cert.write_text(CERT)
    key.write_text(KEY)
    text.write_text("not a certificate\n")
    swapped = refused(run("serve", "--ssl-certfile", str(key), "--ssl-keyfile", str(cert)), 2)
    assert swapped.startswith(f"error: {key} is not a PEM certificate (--ssl-certfile)")
    assert refused(run("serve", "--ssl-certfile", str(cert), "--ssl-keyfile", str(text)), 2) == (
        f"error: {text} is not a PEM private key (--ssl-keyfile)"
    )
    locked = tmp_path / "locked.pem"
    locked.write_text(KEY.replace("PRIVATE KEY", "ENCRYPTED PRIVATE KEY"))
    line = refused(run("serve", "--ssl-certfile", str(cert), "--ssl-keyfile", str(locked)), 2)
    assert line.startswith(f"error: {locked} is protected by a password (--ssl-keyfile)")
    # PEM-shaped but broken: what loading them says, still in one line
    broken = refused(run("serve", "--ssl-certfile", str(cert), "--ssl-keyfile", str(key)), 2)
    assert broken.startswith(f"error: {cert} and {key} do not load as a certificate and its key")
