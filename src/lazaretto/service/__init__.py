"""Use cases: run an action or move the clock in one transaction; queries."""
