"""One install command for a field laptop (issue 26, item 3): the wheel carries every
file the package reads (templates, static files, rule texts, ruleset data, migrations),
and once installed in a fresh venv with no checkout, ``lazaretto serve --demo`` started
from another folder answers the login page, ``/docs`` and a card of the demo campaign.

The wheel is built from a copy of the source in a temporary folder (no ``build/`` or
``*.egg-info`` is left in the repository), offline: ``--no-isolation`` uses the setuptools
of this venv (requirements-dev.lock). The fresh venv takes the dependencies from
requirements.lock with their hashes, then the wheel with ``--no-deps``."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

from lazaretto.service.demo import CAMPAIGN
from tests.process.server import free_port

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


def _run(args: list[str | Path], *, cwd: Path, env: dict[str, str]) -> str:
    """Run ``args``; its output, or a failure that shows the end of it."""
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=240, cwd=cwd, env=env
    )
    out: str = done.stdout + done.stderr
    assert done.returncode == 0, f"{args[:4]} exited {done.returncode}:\n{out[-3000:]}"
    return out


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would point Python at the checkout."""
    drop = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP", "PYTHONSAFEPATH"}
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST")}
    return {**env, **extra}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the copied source tree it was built from)."""
    work = tmp_path_factory.mktemp("wheel")
    tree = work / "tree"
    tree.mkdir()
    shutil.copy2(ROOT / "pyproject.toml", tree)
    shutil.copy2(ROOT / "README.md", tree)
    shutil.copytree(ROOT / "src", tree / "src", ignore=SKIP)
    dist = work / "dist"
    _run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, tree],
        cwd=work,
        env=_clean_env(),
    )
    (wheel,) = dist.glob("lazaretto-*.whl")
    return wheel, tree


def test_the_wheel_carries_every_file_of_the_package(built: tuple[Path, Path]) -> None:
    wheel, tree = built
    with zipfile.ZipFile(wheel) as z:
        inside = set(z.namelist())
    src = tree / "src"
    files = {
        p.relative_to(src).as_posix() for p in src.joinpath("lazaretto").rglob("*") if p.is_file()
    }
    missing = sorted(files - inside)
    assert not missing, f"not in the wheel (add the suffix to package-data): {missing}"
    for needed in (
        "lazaretto/store/migrations/env.py",
        "lazaretto/store/migrations/script.py.mako",
        "lazaretto/web/templates/card.html",
        "lazaretto/web/static/app.css",
        "lazaretto/rules_text/docs/checklist-000.md",
        "lazaretto/rulesets/warhammer_larp/params.yaml",
    ):
        assert needed in inside, needed
    entry_points = next(n for n in inside if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as z:
        text = z.read(entry_points).decode()
    assert "lazaretto = lazaretto.cli.app:main" in text and "warhammer-larp" in text


def _login(client: httpx.Client) -> None:
    """The demo healer logs in through the web form, as a phone would."""
    form = client.get("/login")
    assert form.status_code == 200, form.text[-500:]
    pre = re.search(r'name="pre" value="([^"]*)"', form.text)
    assert pre, "no pre field on the login form"
    r = client.post(
        "/login",
        data={"username": "healer", "password": "healer-demo", "pre": pre.group(1)},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text[-500:]


def test_installed_in_a_fresh_venv_serve_demo_works_from_any_folder(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    wheel, _ = built
    venv = tmp_path / "laptop"
    env = _clean_env()
    _run([sys.executable, "-m", "venv", venv], cwd=tmp_path, env=env)
    pip: list[str | Path] = [venv / "bin" / "python", "-m", "pip", "install", "--quiet"]
    _run([*pip, "--require-hashes", "-r", ROOT / "requirements.lock"], env=env, cwd=tmp_path)
    _run([*pip, "--no-deps", wheel], env=env, cwd=tmp_path)

    field = tmp_path / "field"  # somewhere with no checkout in sight
    field.mkdir()
    where = _run(
        [venv / "bin" / "python", "-c", "import lazaretto; print(lazaretto.__file__)"],
        env=env,
        cwd=field,
    )
    assert Path(where.strip()).is_relative_to(venv), where

    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [venv / "bin" / "lazaretto", "serve", "--demo", "--port", str(port)],
            env=_clean_env(LAZARETTO_DB=str(field / "field.db"), LAZARETTO_LANG="en"),
            cwd=field,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, f"serve exited: {log.read_text()[-3000:]}"
            try:
                status = httpx.get(f"{url}/login", timeout=1).status_code
            except httpx.HTTPError:
                status = None
            if status is not None:  # up: a broken page fails at once, with the log
                assert status == 200, f"/login answered {status}: {log.read_text()[-3000:]}"
                break
            assert time.monotonic() < deadline, f"serve did not answer: {log.read_text()[-3000:]}"
            time.sleep(0.2)

        with httpx.Client(base_url=url, timeout=30) as client:
            docs = client.get("/docs")
            assert docs.status_code == 200 and "swagger" in docs.text.lower(), docs.text[-500:]
            asset = re.search(r'(/docs-assets/[^"\']+\.js)', docs.text)
            assert asset and client.get(asset.group(1)).status_code == 200
            assert client.get("/openapi.json").status_code == 200

            _login(client)
            card = client.get(f"/c/{CAMPAIGN}/ch/1002")
            assert card.status_code == 200 and "Boris" in card.text, card.text[-1000:]
            css = re.search(r'href="(/[^"]*app\.css[^"]*)"', card.text)
            assert css, "no stylesheet on the card page"
            assert client.get(css.group(1)).status_code == 200
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
