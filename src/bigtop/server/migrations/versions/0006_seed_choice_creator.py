"""Who created a table (its address: open tables per client are capped), whether its
creator chose the seed (shown in every view), and an index to find tables nobody joined.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("seed_chosen", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=False,
                                   server_default=""))
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])
    op.create_index("ix_tables_status_created", "tables", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_status_created", "tables")
    op.drop_index("ix_tables_creator_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("creator")
        batch.drop_column("seed_chosen")
