"""Undo by agreement: the take-back a person asked for (and who accepted), and how many
take-backs a table had (a worker holding an older position reads the table afresh).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("undo", sa.JSON, nullable=True))
        batch.add_column(sa.Column("undos", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("undos")
        batch.drop_column("undo")
