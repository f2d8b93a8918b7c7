"""Identities the server's host blocked (``bigtop host block``): their key's hash, kept
aside while the player's row holds one that no key hashes to.

Revision ID: 0024
Revises: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "blocked_players",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("blocked_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("blocked_players")
