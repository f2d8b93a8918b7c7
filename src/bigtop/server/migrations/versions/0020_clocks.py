"""Time controls: a table's clock, what a time-out does, the running turn's deadline
(indexed for the sweep) and each seat's game clock; whether the table is rated.

Revision ID: 0020
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.JSON, nullable=True))
        batch.add_column(sa.Column("on_timeout", sa.String(8), nullable=False,
                                   server_default="bot"))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("turn_started", sa.Float, nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.Float, nullable=True))
        batch.create_index("ix_tables_clock_deadline", ["clock_deadline"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("clock_left", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("clock_left")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_clock_deadline")
        for name in ("clock_deadline", "turn_started", "rated", "on_timeout", "clock"):
            batch.drop_column(name)
