"""How records, events and corrections read to a person: shared by the CLI, the HTTP
API and the web pages, below all of them (STYLE: what several entry points share lives
below them, not in one of them)."""
