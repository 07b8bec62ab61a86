"""Who played each seat of a game: a player's finished games, and icons in replays.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Games written before this revision have no rows: nobody's list shows them.
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
    )
    op.create_index("ix_game_players_player_id", "game_players", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_game_players_player_id", table_name="game_players")
    op.drop_table("game_players")
