"""Chat: messages of a table's players, and whether spectators may read them.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("chat_spectators_read", sa.Boolean, nullable=False,
                                   server_default=sa.true()))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_table", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat_spectators_read")
