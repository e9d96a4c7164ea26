"""Boundaries of zone-larp rules that a one-step change of their data or code would move
unnoticed (issue 19, ``bench/mutate.py``): each test pins the value on both sides."""

from __future__ import annotations

from tests.game import Game
from tests.unit.zone_larp.conftest import ask


def test_the_catalogue_torso_regenerator_takes_exactly_five_minutes_off_its_zone(g: Game) -> None:
    for cid in ("C", "D"):
        g.act("mark-zone", character=cid, zone="torso", state="damaged")
        g.act("mark-zone", character=cid, zone="left_arm", state="damaged")
    g.act("install-implant", character="C", name="torso_regenerator")
    assert ask(g, "rehab-time", character="D")["minutes"] == 20  # A-Z-11, Z-ZONE-07: 10 a zone
    # Z-IMPL-01, A-Z-28: the torso's 10 minutes less 5; the 5-minute base does not hide it
    assert ask(g, "rehab-time", character="C")["minutes"] == 15
