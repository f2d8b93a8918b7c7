"""Per-client rate limits shared by every worker: one token bucket a row.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("bucket", sa.String(128), primary_key=True),
        sa.Column("full_at", sa.Float, nullable=False),
    )
    op.create_index("ix_rate_buckets_full_at", "rate_buckets", ["full_at"])


def downgrade() -> None:
    op.drop_index("ix_rate_buckets_full_at", "rate_buckets")
    op.drop_table("rate_buckets")
