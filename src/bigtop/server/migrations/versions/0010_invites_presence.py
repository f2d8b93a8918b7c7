"""Invites that work: the host's seat, whether the game has started (nothing is dealt for a
seat before its person arrives), the name a host gave an invited seat, and presence.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("host_seat", sa.Integer, nullable=True))
        # Tables made before this revision had started (their people played at once).
        batch.add_column(sa.Column("started", sa.Boolean, nullable=False,
                                   server_default=sa.true()))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite", sa.String(255), nullable=True))
        batch.add_column(sa.Column("here", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_seats_here_seen", "seats", ["here", "last_seen"])


def downgrade() -> None:
    op.drop_index("ix_seats_here_seen", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("here")
        batch.drop_column("invite")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("started")
        batch.drop_column("host_seat")
