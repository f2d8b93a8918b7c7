"""Invite links exchanged for a seat token only its holder knows: which seats' tokens are
still invites (derived from the host's secret).

The seats marked are those a host could derive: every person's seat but the host's at a
table with a host seat (made since 0010, when tokens began to derive from the host's).
Some of them were taken from the lobby or by a rematch and hold a token of their own
already; a page exchanging one of those gets a fresh token, which costs nothing but the
old token (a second device with it opens the seat no more). Tables made before 0010 drew
every token at random: none is an invite.

Revision ID: 0023
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invited", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    seats = sa.table("seats", sa.column("table_id", sa.String), sa.column("seat", sa.Integer),
                     sa.column("kind", sa.String), sa.column("token_hash", sa.String),
                     sa.column("invited", sa.Boolean))
    tables = sa.table("tables", sa.column("id", sa.String),
                      sa.column("host_seat", sa.Integer))
    op.execute(sa.update(seats).where(
        seats.c.kind == "human", seats.c.token_hash.is_not(None),
        sa.exists().where(tables.c.id == seats.c.table_id, tables.c.host_seat.is_not(None),
                          tables.c.host_seat != seats.c.seat))
        .values(invited=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invited")
