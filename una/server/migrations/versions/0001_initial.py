"""Players, tables, games and the append-only action log.

Revision ID: 0001
Revises:
Create Date: 2026-05-10
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("icon", sa.LargeBinary, nullable=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_table(
        "tables",
        sa.Column("code", sa.String(16), nullable=False),
        sa.Column("host_id", sa.Integer, nullable=True),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("code", name="pk_tables"),
        sa.ForeignKeyConstraint(
            ["host_id"], ["players.id"], name="fk_tables_host_id_players", ondelete="SET NULL"
        ),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("table_code", sa.String(16), nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_games"),
        sa.ForeignKeyConstraint(["table_code"], ["tables.code"], name="fk_games_table_code_tables"),
    )
    op.create_index("ix_games_table_code", "games", ["table_code"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("auto", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seq", name="pk_actions"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name="fk_actions_game_id_games"),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_table_code", table_name="games")
    op.drop_table("games")
    op.drop_table("tables")
    op.drop_table("players")
