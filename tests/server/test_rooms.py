"""Room internals that need no socket: the computer players a table keeps, game seeds."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from una.bots.heuristic import HeuristicBot
from una.bots.strong import StrongBot
from una.engine import Game, RuleSet
from una.server import protocol as p
from una.server.rooms import Client, RoomService, Table
from una.server.storage import Storage


def test_a_table_keeps_one_bot_per_seat_for_the_match() -> None:
    table = Table("ABCD", None, RuleSet.from_json("standard"), 3)
    table.game = Game("standard", players=3, seed=1)
    strong = table.agent(1, "strong:easy")
    assert isinstance(strong, StrongBot)
    assert table.agent(1, "strong:easy") is strong  # kept: its belief lives on
    assert isinstance(table.agent(2, "heuristic"), HeuristicBot)
    # Only bots with a memory watch every action.
    assert table.watchers() == [(1, strong)]
    # A seat put on another bot gets a new one; a new match starts afresh.
    assert isinstance(table.agent(1, "random"), type(table.agent(1, "random")))
    assert table.agent(1, "strong:easy") is not strong
    table.game = Game("standard", players=3, seed=2)
    assert table.watchers() == []
    assert table.agent(2, "heuristic") is not None and len(table.agents[1]) == 1


def test_game_seeds_do_not_come_from_the_tables_twister(tmp_path: Path) -> None:
    # Finished records publish their seeds; a Mersenne Twister's outputs predict its next
    # ones. Two tables whose generators are in the same state still deal different games.
    async def scenario() -> list[int]:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'una.db'}")
        service = RoomService(storage, bot_delay=60)
        seeds = []
        try:
            for name in ("Ann", "Bob"):
                sent: list[dict[str, Any]] = []

                async def send(message: dict[str, Any], box: list[Any] = sent) -> None:
                    box.append(message)

                client = Client(send)
                await service.handle(client, p.Hello(name=name))
                await service.handle(client, p.Create(seats=2, bots=1, public=False))
                table = service.tables[client.table or ""]
                table.rng = random.Random(7)
                await service.handle(client, p.Start())
                assert table.game is not None, sent[-1]
                seeds.append(table.game.seed)
        finally:
            await service.shutdown()
            await storage.close()
        return seeds

    first, second = asyncio.run(scenario())
    assert first != second
