"""Lazaretto: a rules engine and game-master toolkit for health, medicine, injuries,
disease and survival in role-playing games."""

__version__ = "0.1.0"
