"""``lazaretto serve --ssl-certfile --ssl-keyfile`` serves HTTPS (issue 14, phones
offline): a phone's browser runs the service worker that keeps offline copies of pages
only in a secure context, which a LARP's laptop at http://192.168.x.x is not.

The real server in a child process, with a throw-away self-signed certificate made for
the test (with the ``cryptography`` package when it is installed, else with the
``openssl`` command), one process and two.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from tests.process.server import LAZARETTO, free_port, seed_campaign

CAMPAIGN = "tls"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for localhost and 127.0.0.1, valid for a day, and its key (PEM)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ModuleNotFoundError:
        openssl = shutil.which("openssl") or "/usr/bin/openssl"
        if not Path(openssl).exists():
            pytest.fail("neither the cryptography package nor openssl: no certificate")
        subprocess.run(
            [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
             "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
             "-keyout", str(key), "-out", str(cert)],
            check=True,
            capture_output=True,
        )  # fmt: skip
        return cert, key
    secret = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(secret.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .sign(secret, hashes.SHA256())
    )
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key.write_bytes(
        secret.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, key


@pytest.fixture(params=[1, 2], ids=["one-process", "two-workers"])
def https(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """``lazaretto serve`` over TLS on a free port: (port, its log)."""
    db_url = f"sqlite:///{tmp_path / 'tls.db'}"
    seed_campaign(db_url, CAMPAIGN, {"a": 3})
    cert, key = self_signed(tmp_path)
    port, log = free_port(), tmp_path / "serve.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [LAZARETTO, "serve", "--port", str(port), "--workers", str(request.param),
             "--ssl-certfile", str(cert), "--ssl-keyfile", str(key)],
            env={**os.environ, "LAZARETTO_DB": db_url, "LAZARETTO_LANG": "en"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"serve exited: {log.read_text()[-2000:]}"
            assert time.monotonic() < deadline, f"no answer: {log.read_text()[-2000:]}"
            try:
                httpx.get(f"https://127.0.0.1:{port}/login", verify=False, timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield port, log
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)


def test_serve_answers_over_https_and_not_over_plain_http(https: tuple[int, Path]) -> None:
    port, log = https
    page = httpx.get(f"https://127.0.0.1:{port}/login", verify=False, timeout=10)
    assert page.status_code == 200
    assert 'name="password"' in page.text
    # a phone that reached the server safely once keeps to HTTPS (issue 28 L9)
    assert page.headers["strict-transport-security"] == "max-age=31536000"
    worker = httpx.get(f"https://127.0.0.1:{port}/sw.js", verify=False, timeout=10)
    assert worker.status_code == 200  # what a phone registers for offline copies
    assert "javascript" in worker.headers["content-type"]
    with pytest.raises(httpx.HTTPError):  # the same port speaks only TLS
        httpx.get(f"http://127.0.0.1:{port}/login", timeout=10)
    assert f"https://localhost:{port}/" in log.read_text()


def test_the_login_cookies_over_https_are_secure(https: tuple[int, Path]) -> None:
    """Served over HTTPS, the login cookies are never sent back over plain HTTP."""
    port, _ = https
    r = httpx.post(
        f"https://127.0.0.1:{port}/api/login",
        json={"username": f"gm-{CAMPAIGN}", "password": "process-test-password"},
        verify=False,
        timeout=10,
    )
    assert r.status_code == 200, r.text
    cookies = r.headers.get_list("set-cookie")
    assert cookies
    assert all("secure" in c.lower().split("; ") for c in cookies), cookies


def test_a_key_of_another_certificate_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    cert, _ = self_signed(tmp_path / "one")
    _, other_key = self_signed(tmp_path / "two")
    done = subprocess.run(
        [LAZARETTO, "serve", "--ssl-certfile", str(cert), "--ssl-keyfile", str(other_key)],
        env={**os.environ, "LAZARETTO_DB": str(tmp_path / "x.db"), "LAZARETTO_LANG": "en"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"error: {other_key} is not the private key of the certificate {cert}"
    ]
    assert not (tmp_path / "x.db").exists()
