"""Game headers record their format and engine version; a game that no longer replays is
quarantined with its reason.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Games written before this revision have NULL here: their format and engine are unknown.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("record_format", sa.String(32), nullable=True))
        batch.add_column(sa.Column("engine_version", sa.String(32), nullable=True))
        batch.add_column(sa.Column("quarantined_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("quarantine_reason", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("quarantine_reason")
        batch.drop_column("quarantined_at")
        batch.drop_column("engine_version")
        batch.drop_column("record_format")
