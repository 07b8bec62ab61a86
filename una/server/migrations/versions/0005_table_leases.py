"""A table's owner: the node that holds its lease, and until when (the multi-node mode).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL owner: nobody holds the table (one-process mode, or a lease given back).
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_tables_owner", ["owner"])


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_owner")
        batch.drop_column("lease_until")
        batch.drop_column("owner")
