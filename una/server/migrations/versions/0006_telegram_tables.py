"""The Telegram bot's tables (``una.telegram.store``) under Alembic; no clear tokens kept.

Before this revision the bot made ``tg_users`` and ``tg_chats`` itself, and ``tg_users`` held
each user's clear player token. Existing tables are kept and that column dropped: the bot
gives a user a new token (``Storage.new_token``) when it logs her in again.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if inspector.has_table("tg_users"):
        if "token" in {column["name"] for column in inspector.get_columns("tg_users")}:
            with op.batch_alter_table("tg_users") as batch:
                batch.drop_column("token")
    else:
        op.create_table(
            "tg_users",
            sa.Column("tg_id", sa.BigInteger, primary_key=True, autoincrement=False),
            sa.Column("player_id", sa.Integer, nullable=False),
            sa.Column("name", sa.Text, nullable=False),
            sa.Column("lang", sa.String(8), nullable=False),
        )
    if not inspector.has_table("tg_chats"):
        op.create_table(
            "tg_chats",
            sa.Column("chat_id", sa.BigInteger, primary_key=True, autoincrement=False),
            sa.Column("data", sa.Text, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("tg_chats")
    op.drop_table("tg_users")
