"""Players (identities without passwords) and the identity of a person's seat.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(32), nullable=True))
        batch.create_foreign_key("fk_seats_player", "players", ["player_id"], ["id"],
                                 ondelete="SET NULL")
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_constraint("fk_seats_player", type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_table("players")
