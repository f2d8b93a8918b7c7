"""Idle tables found by the bucket of their last move (``tables.idle_bucket``: a 64th of the
idle time, indexed; NULL once the table ended) instead of an index on ``(status,
updated_at)``, whose entry every move rewrote (a fifth of a move's CPU on SQLite; an index
holding ``status`` is rewritten by every move too, since each move's UPDATE sets it). Open
tables start in bucket 0: the first sweep gives each its own bucket (or expires it).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_tables_status_updated", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("idle_bucket", sa.Integer, nullable=True))
    op.execute("UPDATE tables SET idle_bucket = 0 WHERE status = 'playing'")
    op.create_index("ix_tables_idle", "tables", ["idle_bucket"])


def downgrade() -> None:
    op.drop_index("ix_tables_idle", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("idle_bucket")
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated_at"])
