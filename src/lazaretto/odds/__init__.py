"""Exact odds (точные шансы) for dice expressions and the rulesets' rolls.

Every function here answers "what are the odds" as exact Fractions in one small typed
:class:`~lazaretto.odds.result.Odds` (outcomes with labels in English and Russian,
derived events such as "success", notes and rule IDs), computed from the rulesets' own
pure functions so the odds and the rolls follow one rule text:

* :mod:`~lazaretto.odds.dice` — any dice expression;
* :mod:`~lazaretto.odds.checks` — a check against a threshold with a ruleset's criticals
  (fantasy-server d20, ide4-survival d100 bands) and opposed rolls;
* :mod:`~lazaretto.odds.injury` — the dnd5e-injuries severity of a damage expression;
* :mod:`~lazaretto.odds.sleep` — the ide4-survival sleep and interrupted-sleep rolls;
* :mod:`~lazaretto.odds.crime` — the fantasy-server theft, lockpicking and torture rounds;
* :mod:`~lazaretto.odds.plot` — a bar chart of any result (matplotlib, imported lazily).

Import the submodule you need: this package imports no ruleset by itself, so asking for
the odds of ``3d6`` does not build every ruleset.
"""
