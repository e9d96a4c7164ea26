"""The HTTP API (FastAPI): the same actions as the CLI, generated from the declarations."""
