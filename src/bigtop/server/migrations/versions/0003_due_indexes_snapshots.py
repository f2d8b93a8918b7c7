"""What the periodic tasks look for, indexed (so a sweep touches only what is due), and
position snapshots of long games.

- ``seats.away_at``: when a person's seat may be taken over (last seen + the table's
  ``takeover_after``; NULL: never, or a bot plays it already), indexed.
- ``tables.bot_waiting_since``: since when a bot is to move (NULL: a person is, or the game
  is over), indexed: a bot turn nobody took is found without loading any other table.
- ``ix_tables_status_updated``: idle tables by status and last move.
- ``snapshots``: the position (without its history) after every ``Settings.snapshot_every``
  moves, so a replay at move K and a table rebuilt after a restart apply at most that many
  moves.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("away_at", sa.Float, nullable=True))
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("bot_waiting_since", sa.Float, nullable=True))
    op.create_index("ix_seats_away_at", "seats", ["away_at"])
    op.create_index("ix_tables_bot_waiting", "tables", ["bot_waiting_since"])
    op.create_index("ix_tables_status_updated", "tables", ["status", "updated_at"])
    # Tables already there: people's seats at open tables with a takeover time get theirs;
    # every open table with a bot seat is looked at once by the next sweep.
    op.execute(
        "UPDATE seats SET away_at = last_seen + (SELECT takeover_after FROM tables "
        "WHERE tables.id = seats.table_id AND tables.status = 'playing') "
        "WHERE kind = 'human' AND bot_playing IS NULL")
    op.execute(
        "UPDATE tables SET bot_waiting_since = 0 WHERE status = 'playing' AND EXISTS "
        "(SELECT 1 FROM seats WHERE seats.table_id = tables.id AND "
        "(seats.kind = 'bot' OR seats.bot_playing IS NOT NULL))")
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("position", sa.JSON, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "idx", name="pk_snapshots"),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_index("ix_tables_status_updated", "tables")
    op.drop_index("ix_tables_bot_waiting", "tables")
    op.drop_index("ix_seats_away_at", "seats")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_waiting_since")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("away_at")
