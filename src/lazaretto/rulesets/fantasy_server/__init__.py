"""Ruleset ``fantasy-server``: the equipment, damage, crime and healing chapter of an
online fantasy role-play server (rules/002, checklist-002).

Modules: ``checks`` (every roll and the critical rules), ``crafting`` and ``artifacts``
(items, approval, slots, stat bonuses via ``statbonus`` and ``equipment``), ``breakage``
(wear and repair), ``damage`` (falls and collisions), ``combat`` (encounters and the
initiative), ``crime``, ``lockpicking``, ``evidence``, ``stealth``, ``torture``,
``trauma_care`` and ``treatments`` (the trauma lists), ``healing`` (HP, constructs,
regeneration), ``mutations``, ``addiction`` and ``withdrawal``; ``state``, ``reducers``,
``describe`` and ``texts``. Parameters and ambiguity defaults: ``params.yaml``; tables:
``traumas.yaml``, ``mutations.yaml``.
"""

from __future__ import annotations

from lazaretto.rulesets.fantasy_server.build import build, load_params

RULESET = build()

__all__ = ["RULESET", "load_params"]
