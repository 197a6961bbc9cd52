"""Alembic's entry point for cryptobench's store: always called by cryptobench.store.migrate with an
open connection (there is no alembic.ini: `cryptobench` migrates a store when it opens it)."""

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
