"""The core: dice, clock and timers, events, characters, the ruleset protocol, errors.

Nothing here imports a web, database or CLI library.
"""
