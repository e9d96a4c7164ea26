"""The ``lazaretto`` command line (Typer + Rich)."""
