"""The CLI's SQLite write path (``cli/fastwrite.py``, issue 17) racing a service in
another process on the same campaign: a game master types actions at the laptop while
the server records the healers' phones. SQLite's write lock and the version check
order the two; nothing is lost, doubled or numbered twice, and the state stays what
the records produce."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from lazaretto.cli import fastwrite
from tests.e2e.clitools import cli_runner, ok, ok_json

SERVICE_ACTS = 60

# the other process: a CampaignService of its own (a server's), wounding s0..s3 in turn
_SERVICE = """
import json, sys
from lazaretto.service.campaigns import CampaignService
from lazaretto.store.db import Database
svc = CampaignService(Database(sys.argv[1]))
svc.load("race")
print("READY", flush=True)
sys.stdin.readline()
nos = []
for i in range(int(sys.argv[2])):
    if i == int(sys.argv[2]) // 2:
        sys.stdin.readline()  # halfway: on once the CLI has written, so the two interleave
    done = svc.act("race", "lose-hits", {"character": f"s{i % 4}", "hits": 1, "location": "arm"})
    nos.append(done.record)
    if i == 0:
        print("FIRST", flush=True)  # one record before any of the CLI's
print(json.dumps(nos), flush=True)
sys.stdin.readline()  # the CLI is done: one more wound, on the service's working copy
done = svc.act("race", "lose-hits", {"character": "c0", "hits": 1, "location": "arm"})
state = svc.load("race")[1]
print(json.dumps({"record": done.record, "hits": {k: c.hits for k, c in state.characters.items()}}))
"""


def test_cli_actions_racing_a_service_process_lose_and_double_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process records 60 wounds through ``CampaignService``, the CLI
    records wounds of its own through the write path: every record is stored once,
    the numbers run without a hole, each side's answers name distinct records, every
    wound counts (no lost update of a character), the service process's working copy
    caught up with the CLI's writes (its next change sees them), and replaying the log
    gives the stored state."""
    db = tmp_path / "race.db"
    run = cli_runner(db)
    ok(run("campaign", "create", "race", "--ruleset", "warhammer-larp", "--clock", "realtime",
           "--seed", "3"))
    people = [f"{side}{i}" for side in "sc" for i in range(4)]
    for p in people:
        ok(run("character", "add", p, "--name", f"Soldier {p}", "--hits", "1000"))
    first = len(ok_json(run("records", "--json"))) + 1

    committed: list[int] = []
    real = fastwrite.Change.commit

    def counted(self: fastwrite.Change) -> None:
        real(self)
        committed.append(1)

    monkeypatch.setattr(fastwrite.Change, "commit", counted)
    service = subprocess.Popen(
        [sys.executable, "-c", _SERVICE, f"sqlite:///{db}", str(SERVICE_ACTS)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert service.stdout is not None and service.stdin is not None
        assert service.stdout.readline().strip() == "READY"
        service.stdin.write("go\n")
        service.stdin.flush()
        assert service.stdout.readline().strip() == "FIRST"
        answered: list[str] = []
        stdout = service.stdout
        reader = threading.Thread(target=lambda: answered.append(stdout.readline()))
        reader.start()
        mine: list[int] = []
        while reader.is_alive() or len(mine) < 20:
            p = f"c{len(mine) % 4}"
            shown = ok_json(run("act", "lose-hits", "--character", p, "--hits", "1",
                                "--location", "arm", "--json"))
            mine.append(shown["record"])
            if len(mine) == 1:  # the service goes on past its first half only now
                service.stdin.write("on\n")
                service.stdin.flush()
        reader.join()
        service.stdin.write("again\n")
        service.stdin.flush()
        out, _ = service.communicate(timeout=120)
    finally:
        if service.poll() is None:
            service.kill()
    assert service.returncode == 0
    theirs = {"records": json.loads(answered[0])}
    last = json.loads(out.splitlines()[-1])
    assert len(committed) == len(mine)  # the write path answered every CLI action
    numbers = mine + theirs["records"] + [last["record"]]
    assert len(set(numbers)) == len(numbers) == len(mine) + SERVICE_ACTS + 1
    with sqlite3.connect(db) as conn:
        stored = [r[0] for r in conn.execute("SELECT no FROM records ORDER BY no")]
        seqs = [r[0] for r in conn.execute("SELECT seq FROM events ORDER BY seq")]
        owners = {r[0] for r in conn.execute("SELECT DISTINCT record_no FROM events")}
    assert stored == list(range(1, first + len(numbers)))
    assert sorted(numbers) == list(range(first, first + len(numbers)))
    assert seqs == list(range(1, len(seqs) + 1))
    assert set(numbers) <= owners
    between = [n for n in mine if min(theirs["records"]) < n < max(theirs["records"])]
    assert between, "the two writers did not interleave"
    card = {c["id"]: c for c in ok_json(run("character", "list", "--json"))}
    for i in range(4):
        assert card[f"s{i}"]["hits"] == 1000 - SERVICE_ACTS // 4, i
        assert card[f"c{i}"]["hits"] == 1000 - len(mine[i::4]) - (i == 0), i
    # the service's working copy caught up with every CLI write before its last change
    assert last["hits"] == {k: c["hits"] for k, c in card.items()}
    assert "match" in ok(run("replay"))
