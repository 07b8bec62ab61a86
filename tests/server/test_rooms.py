"""Room internals that need no socket: the computer players a table keeps, a client's send
queue, whom a kick means, game seeds."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from una.bots.heuristic import HeuristicBot
from una.bots.strong import StrongBot
from una.engine import Game, RuleSet
from una.server import protocol as p
from una.server.rooms import Client, RoomError, RoomService, SeatInfo, Table
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


def test_a_socket_that_falls_behind_is_dropped_and_holds_nobody_up() -> None:
    async def scenario() -> None:
        stuck = asyncio.Event()  # never set: a reader that stopped
        sent: list[dict[str, Any]] = []
        closed: list[bool] = []
        dropped: list[Client] = []

        async def send_json(message: dict[str, Any]) -> None:
            sent.append(message)
            await stuck.wait()

        async def close() -> None:
            closed.append(True)

        def gone(n: int) -> p.LobbyGone:
            return p.LobbyGone(str(n))

        client = Client(send_json, close=close, queue_size=3, on_drop=dropped.append)
        for n in range(4):  # one is being written, three wait
            await asyncio.wait_for(client.send(gone(n)), 0.1)  # never waits for the socket
            await asyncio.sleep(0)
        assert sent == [{"type": "lobby_gone", "code": "0"}] and not client.dropped
        await asyncio.wait_for(client.send(gone(4)), 0.1)
        await asyncio.sleep(0.01)
        assert client.dropped and closed == [True] and dropped == [client]
        await client.send(gone(5))  # after the drop: nothing more
        assert sent == [{"type": "lobby_gone", "code": "0"}]

        direct: list[dict[str, Any]] = []

        async def deliver(message: dict[str, Any]) -> None:
            direct.append(message)

        in_process = Client(deliver)  # no queue: delivered before send returns
        await in_process.send(gone(1))
        assert direct == [{"type": "lobby_gone", "code": "1"}]

    asyncio.run(scenario())


def test_kick_names_exactly_then_up_to_case_never_the_host() -> None:
    service = RoomService(storage=None)  # type: ignore[arg-type]  # names only, no storage
    table = Table("ABCD", 1, RuleSet.from_json("standard"), 4)
    table.seats = [SeatInfo("Ann", player_id=1), SeatInfo("ann", player_id=2),
                   SeatInfo("Bob", player_id=3), None]  # fmt: skip
    table.spectators = {4, 5}
    service.names = {1: "Ann", 2: "ann", 3: "Bob", 4: "Eve", 5: "EVE"}
    assert service._player_named(table, "ann", host=1) == 2
    assert service._player_named(table, "ANN", host=1) == 2  # the host never
    assert service._player_named(table, "@bob", host=1) == 3
    assert service._player_named(table, "Eve", host=1) == 4
    with pytest.raises(RoomError, match="cannot be told apart") as refused:
        service._player_named(table, "eve", host=1)
    assert refused.value.code == "ambiguous_player"
    assert service._player_named(table, "ann", host=2) == 1  # "ann" hosts: the other one
    with pytest.raises(RoomError, match="cannot kick herself"):
        service._player_named(table, "bob", host=3)
    with pytest.raises(RoomError, match="nobody called 'Zed'"):
        service._player_named(table, "Zed", host=1)


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


def test_a_computer_player_named_like_a_person_who_sits_down_is_renamed(tmp_path: Path) -> None:
    # "Ada" and "Bruno" are the first bots' names: a person called "ada" who joins, or
    # "brunо" (a Cyrillic o) who sits down, before the match makes that bot take another
    # name, so that no two seats read the same.
    async def scenario() -> list[str]:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'una.db'}")
        service = RoomService(storage, bot_delay=60)
        try:
            clients = []
            for name in ("Ann", "ada", "brun\u043e"):

                async def send(message: dict[str, Any]) -> None:
                    return None

                client = Client(send)
                await service.handle(client, p.Hello(name=name))
                clients.append(client)
            await service.handle(clients[0], p.Create(seats=5, bots=2, public=False))
            table = service.tables[clients[0].table or ""]
            assert [s.name for s in table.seats if s is not None] == ["Ann", "Ada", "Bruno"]
            await service.handle(clients[1], p.Join(table=table.code))
            await service.handle(clients[2], p.Watch(table=table.code))
            await service.handle(clients[2], p.Sit())
            return [s.name if s is not None else "-" for s in table.seats]
        finally:
            await service.shutdown()
            await storage.close()

    assert asyncio.run(scenario()) == ["Ann", "ada", "brun\u043e", "Chen", "Dita"]


def test_a_broadcast_gives_each_seat_its_own_view_and_events(tmp_path: Path) -> None:
    # A broadcast makes the table's part once and each seat's view and events once: every
    # client still gets exactly what its seat may see, as JSON data (sent as it is).
    async def scenario() -> int:
        storage = await Storage.open(f"sqlite:///{tmp_path / 'una.db'}")
        service = RoomService(storage, bot_delay=60)
        checked = 0

        def client_of(name: str) -> Client:
            async def send(message: dict[str, Any]) -> None:
                nonlocal checked
                assert json.loads(json.dumps(message)) == message
                if message["type"] != "state" or message["view"] is None:
                    return
                table = service.tables[message["table"]["code"]]
                assert table.game is not None
                seat = message["you"]["game_seat"]
                assert message["view"] == table.game.view_for(seat).to_json()
                last = table.history[-1][1] if message["events"] else []
                assert message["events"] == [event.json_for(seat) for event in last]
                checked += 1

            return Client(send)

        ann, bob, cy = client_of("Ann"), client_of("Bob"), client_of("Cy")
        try:
            for client, name in ((ann, "Ann"), (bob, "Bob"), (cy, "Cy")):
                await service.handle(client, p.Hello(name=name))
            await service.handle(ann, p.Create(seats=2, bots=0, public=False))
            code = ann.table or ""
            await service.handle(bob, p.Join(table=code))
            await service.handle(cy, p.Watch(table=code))
            await service.handle(ann, p.Start())
            table = service.tables[code]
            for _ in range(40):
                game = table.game
                assert game is not None
                if game.match_over:
                    break
                if game.hand_over:
                    await service.handle(ann, p.Start())  # the next hand
                    continue
                seat = game.to_act
                assert seat is not None
                client = (ann, bob)[table.game_seats[seat]]
                action = game.legal_actions(seat)[0]
                await service.handle(client, p.Act(action=action.code, version=table.version))
        finally:
            await service.shutdown()
            await storage.close()
        return checked

    assert asyncio.run(scenario()) >= 3 * 20  # three clients, every action told
