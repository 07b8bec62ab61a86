"""Private games readable by their players only; unguessable icon URLs.

``games.private`` and ``games.player_ids`` say who may read a finished record;
``players.icon_key`` is the random name an icon is served under. Games of private tables
played before this revision get the players seated at their table when it was last saved
(the best the old rows tell), and every stored icon gets a key.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import json
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("player_ids", sa.Text, nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("icon_key", sa.String(32), nullable=True))
        batch.create_unique_constraint("uq_players_icon_key", ["icon_key"])
    connection = op.get_bind()
    games = sa.table(
        "games",
        sa.column("id", sa.Integer),
        sa.column("table_code", sa.String),
        sa.column("private", sa.Boolean),
        sa.column("player_ids", sa.Text),
    )
    tables = sa.table("tables", sa.column("code", sa.String), sa.column("config", sa.Text))
    players = sa.table(
        "players", sa.column("id", sa.Integer), sa.column("icon", sa.LargeBinary),
        sa.column("icon_key", sa.String),
    )  # fmt: skip
    rows = connection.execute(
        sa.select(games.c.id, tables.c.config).join(tables, games.c.table_code == tables.c.code)
    ).all()
    for game_id, config_text in rows:
        config = json.loads(config_text)
        if config.get("public", True):
            continue
        seated = [seat.get("player_id") for seat in config.get("seats", []) if seat]
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(private=True, player_ids=json.dumps(seated))
        )
    for (player_id,) in connection.execute(
        sa.select(players.c.id).where(players.c.icon.is_not(None))
    ).all():
        connection.execute(
            players.update()
            .where(players.c.id == player_id)
            .values(icon_key=secrets.token_urlsafe(16))
        )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("uq_players_icon_key", type_="unique")
        batch.drop_column("icon_key")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("player_ids")
        batch.drop_column("private")
