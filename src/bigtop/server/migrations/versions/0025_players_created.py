"""Identities found by when they were made: the sweep forgets those nobody used
(``Limits.unused_player_seconds``) through this index.

Revision ID: 0025
Revises: 0024
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_players_created", "players", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_players_created", "players")
