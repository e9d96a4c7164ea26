"""Storage: SQLAlchemy models, the database handle and Alembic migrations."""
