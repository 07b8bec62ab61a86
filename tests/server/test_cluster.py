"""One owner per table, and many nodes on PostgreSQL + Redis: real ``una serve`` processes.

Two services on one SQLite file (the second is refused), two nodes playing one table with a
client on each, and SIGKILL of the owner mid-game with a takeover by the other node, over
five rounds, keeping every acknowledged action.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from PIL import Image
from serverkit import UNA, Player, Server, choose, free_port, play_until_over, sql

from una.server.protocol import BUDGETS

LEASE = "2.0"  # seconds: a killed node's tables are taken over within about 3 s


def refusal(*args: str) -> str:
    """The one line a refused ``una ...`` prints (exit status 2)."""
    done = subprocess.run([UNA, *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_a_second_service_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'una.db'}"
    server = Server(db).start()
    try:
        line = refusal("serve", "--port", str(free_port()), "--db", db)
        assert "one process per SQLite file" in line
        assert str(tmp_path / "una.db") in line
        line = refusal("telegram", "--token", "1:x", "--db", db)
        assert line.startswith("una telegram: another Una service")
        status, _ = server.get("/health")
        assert status == 200  # the first one serves on, untouched
    finally:
        server.kill()
    # Killed, it lets the next one in (the lock goes with the process).
    Server(db).start().stop()


def test_a_second_service_on_one_postgresql_schema_without_redis_is_refused(
    postgres_url: str,
) -> None:
    server = Server(postgres_url).start()
    try:
        line = refusal("serve", "--port", str(free_port()), "--db", postgres_url)
        assert "run every node with --redis" in line
    finally:
        server.stop()


def test_a_single_service_and_cluster_nodes_refuse_each_other(
    postgres_url: str, redis_url: str
) -> None:
    # A node runs: a single una serve (or una telegram) on its database is refused.
    a = node(postgres_url, redis_url)
    try:
        line = refusal("serve", "--port", str(free_port()), "--db", postgres_url)
        assert line.startswith("una serve: Una cluster nodes (una serve --redis) use schema")
        line = refusal("telegram", "--token", "1:x", "--db", postgres_url)
        assert line.startswith("una telegram: Una cluster nodes")
        node_id(a)  # it serves on, untouched
    finally:
        a.stop()
    # A single una serve runs: a node on its database is refused.
    single = Server(postgres_url).start()
    try:
        args = ("serve", "--port", str(free_port()), "--db", postgres_url, "--redis", redis_url)
        line = refusal(*args)
        assert line.startswith("una serve: a single Una service (una serve or una telegram")
        status, _ = single.get("/health")
        assert status == 200
    finally:
        single.stop()
    node(postgres_url, redis_url).stop()  # once it stopped, nodes start


def node(db: str, redis: str, **env: str) -> Server:
    return Server(db, UNA_REDIS=redis, UNA_LEASE=LEASE, **env).start()


def nodes(db: str, redis: str, count: int = 2) -> list[Server]:
    return [node(db, redis) for _ in range(count)]


def node_id(server: Server) -> str:
    status, body = server.get("/health")
    assert status == 200
    node = json.loads(body)["node"]
    assert isinstance(node, str)
    return node


async def table_at(players: list[Player], code: str) -> None:
    """The first player created ``code``; the others join it (from whichever node)."""
    for player in players[1:]:
        await player.send({"type": "join", "table": code})
        await player.expect("joined")


def test_two_nodes_a_client_on_each_play_one_table_to_the_end(
    postgres_url: str, redis_url: str
) -> None:
    # Node B closes its idle tables after a second: it has none; node A's are not its own.
    a, b = node(postgres_url, redis_url), node(postgres_url, redis_url, UNA_IDLE_CLOSE="1")

    async def main() -> None:
        ann = await Player(a, "Ann").connect()
        bob = await Player(b, "Bob").connect()
        await ann.send({"type": "create", "rules": {"preset": "standard", "target": 1},
                        "seats": 3, "bots": 1, "name": "across"})  # fmt: skip
        code = (await ann.expect("joined"))["table"]
        # Node B's lobby lists node A's table.
        for _ in range(50):
            await bob.send({"type": "lobby"})
            lobby = await bob.expect("lobby")
            if any(t["code"] == code for t in lobby["tables"]):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError(f"node B's lobby never listed {code}")
        await table_at([ann, bob], code)
        await ann.send({"type": "start"})
        for player in (ann, bob):
            while player.view is None:
                await player.expect("state")
        assert bob.state is not None and bob.state["epoch"] == ann.state["epoch"]  # type: ignore[index]
        final = await play_until_over([ann, bob], timeout=60)
        assert final["view"]["match_winner"] is not None
        for player in (ann, bob):
            await wait_version(player, final["version"])
            assert player.view is not None and player.view["match_winner"] is not None
        await bob.send({"type": "chat", "text": "gg"})
        said = await ann.expect("chat")
        assert said["text"] == "gg" and said["from"] == "Bob"
        await asyncio.sleep(2.5)  # node B's janitor looks twice
        rows = await sql(postgres_url, "SELECT owner, closed_at FROM tables WHERE code = :code",
                         code=code)  # fmt: skip
        assert rows[0][0] == node_id(a)  # the table stayed with its owner, open
        assert rows[0][1] is None
        # Bob leaves for node B's lobby, which then follows node A's changes.
        await bob.send({"type": "leave"})
        await bob.expect("left")
        lobby = await bob.expect("lobby")
        assert code in [t["code"] for t in lobby["tables"]]
        await ann.send({"type": "leave"})
        await ann.send({"type": "create", "rules": "standard", "seats": 2, "name": "next"})
        fresh = (await ann.expect("joined"))["table"]
        while True:
            change = await bob.expect("lobby_table")
            if change["table"]["code"] == fresh:
                assert change.get("new") is True and change["table"]["name"] == "next"
                break
        await ann.close()
        await bob.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()


def test_across_nodes_an_icon_shows_and_a_look_alike_name_is_refused(
    postgres_url: str, redis_url: str
) -> None:
    a, b = nodes(postgres_url, redis_url)
    png = io.BytesIO()
    Image.new("RGB", (32, 32), "green").save(png, "PNG")

    async def main() -> None:
        ann = await Player(a, "Ann").connect()
        bob = await Player(b, "Bob").connect()
        await ann.send({"type": "create", "seats": 4, "name": "icons"})
        code = (await ann.expect("joined"))["table"]
        await table_at([ann, bob], code)
        # Bob's icon, changed on his own node, shows in the owner's states.
        await bob.send({"type": "set_icon", "image": base64.b64encode(png.getvalue()).decode()})
        key = (await bob.expect("icon"))["icon"]
        assert isinstance(key, str)
        for _ in range(50):
            await ann.expect("state")
            seats = ann.state["table"]["seats_detail"]  # type: ignore[index]
            if any(s.get("player_id") == bob.player_id and s["icon"] == key for s in seats):
                break
        else:
            raise AssertionError("the owner never showed Bob's new icon")
        # A name that looks like Ann's, on the other node, is refused by the owner.
        impostor = await Player(b, "\u0410nn").connect()
        await impostor.send({"type": "join", "table": code})
        error = await impostor.expect("error")
        assert error["code"] == "look_alike", error
        # And that socket is still its node's own: its lobby answers.
        await impostor.send({"type": "lobby"})
        assert code in [t["code"] for t in (await impostor.expect("lobby"))["tables"]]
        # Guessing codes on the other node: once its misses are spent, a right code is not
        # looked up either (the owner's own budget for that socket would still be fresh).
        guesser = await Player(b, "Cid").connect()
        for _ in range(int(BUDGETS["miss"].burst)):  # watch: join's own budget stays full
            await guesser.send({"type": "watch", "table": "ZZZZZ"})
            assert (await guesser.expect("error"))["code"] == "no_table"
        await guesser.send({"type": "join", "table": code})
        error = await guesser.expect("error")
        assert error["code"] == "rate_limited" and "table codes" in error["message"], error
        for player in (ann, bob, impostor, guesser):
            await player.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()


async def wait_version(player: Player, version: int, timeout: float = 15.0) -> dict[str, Any]:
    while player.version < version:
        await player.expect("state", timeout=timeout)
    assert player.state is not None
    return player.state


def test_sigkill_of_the_owner_mid_game_the_other_node_takes_over_5_rounds(
    postgres_url: str, redis_url: str
) -> None:
    servers = nodes(postgres_url, redis_url)

    async def main() -> None:
        ann = await Player(servers[0], "Ann").connect()
        bob = await Player(servers[1], "Bob").connect()
        await ann.send({"type": "create", "rules": "standard", "seats": 3, "bots": 1})
        code = (await ann.expect("joined"))["table"]
        await table_at([ann, bob], code)
        await ann.send({"type": "start"})
        for player in (ann, bob):
            while player.view is None:
                await player.expect("state")
        game_id = ann.state["game_id"]  # type: ignore[index]
        players = [ann, bob]
        for round_ in range(5):
            await play_until_over(players, timeout=30, moves=4)
            # What was acknowledged: the states the clients got (each after its commit).
            acked = max(player.version for player in players)
            owner = (await sql(postgres_url, "SELECT owner FROM tables WHERE code = :c",
                               c=code))[0][0]  # fmt: skip
            dead = next(i for i, s in enumerate(servers) if node_id(s) == owner)
            survivor = servers[1 - dead]
            marks = {player.name: player.mark() for player in players}
            servers[dead].kill()
            # The dead node's clients reconnect to the survivor and resume; the survivor's
            # client stays connected and is moved to the new owner by itself.
            moved: list[Player] = []
            reconnected: set[str] = set()
            for player in players:
                if player.server is servers[dead]:
                    await player.close()
                    again = await Player(survivor, player.name).connect(player.token)
                    await again.send({"type": "resume", "table": code, "version": -1,
                                      "epoch": ""})  # fmt: skip
                    moved.append(again)
                    reconnected.add(player.name)
                else:
                    moved.append(player)
            players = moved
            for player in players:
                since = 0 if player.name in reconnected else marks[player.name]
                # A fresh state from the new owner, which restored the game from its log.
                state = await player.expect("state", timeout=20, since=since)
                while not state["fresh"]:
                    state = await player.expect("state", timeout=20)
                assert state["game_id"] == game_id, round_
                assert state["version"] >= acked, (round_, state["version"], acked)
            rows = await sql(postgres_url, "SELECT owner FROM tables WHERE code = :c", c=code)
            assert rows[0][0] == node_id(survivor), round_
            servers[dead] = node(postgres_url, redis_url)
        # The game goes on, on the last owner.
        before = max(player.version for player in players)
        await play_until_over(players, timeout=30, moves=4)
        assert max(player.version for player in players) >= before + 4
        for player in players:
            await player.close()

    try:
        asyncio.run(main())
    finally:
        for server in servers:
            server.stop()


def test_a_node_paused_past_its_lease_is_fenced_off_and_its_client_moves(
    postgres_url: str, redis_url: str
) -> None:
    a, b = nodes(postgres_url, redis_url)
    first, second = node_id(a), node_id(b)
    assert a.process is not None

    async def count(game_id: int) -> int:
        rows = await sql(postgres_url, "SELECT count(*) FROM actions WHERE game_id = :g",
                         g=game_id)  # fmt: skip
        return int(rows[0][0])

    async def main() -> None:
        ann = await Player(a, "Ann").connect()
        await ann.send({"type": "create", "rules": "standard", "seats": 2, "bots": 1})
        code = (await ann.expect("joined"))["table"]
        await ann.send({"type": "start"})
        while True:  # until Ann has a turn action to send
            view = ann.view
            move = None if view is None else choose(view)
            if move == "deal":
                await ann.send({"type": "start"})
            elif move is not None and view is not None and view["to_act"] == view["seat"]:
                break
            await ann.expect("state")
        version, game_id = ann.version, ann.state["game_id"]  # type: ignore[index]
        logged = await count(game_id)
        a.process.send_signal(signal.SIGSTOP)  # type: ignore[union-attr]
        try:
            deadline = time.monotonic() + 20
            while (await sql(postgres_url, "SELECT owner FROM tables WHERE code = :c",
                             c=code))[0][0] != second:  # fmt: skip
                assert time.monotonic() < deadline, "node B never took the table over"
                await asyncio.sleep(0.2)
            await asyncio.sleep(0.5)  # B restores it (nobody there: its bot waits)
            # Ann's move reaches node A as it wakes, before its heartbeat learns it lost
            # the lease: the write is fenced off.
            mark = ann.mark()
            await ann.send({"type": "act", "action": move, "version": version})
        finally:
            a.process.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
        error = await ann.expect("error", timeout=15, since=mark)
        assert error["code"] == "moved" and error["about"] == "act", error
        # Node A dropped the table; Ann's socket resumes with the new owner.
        state = await ann.expect("state", timeout=15, since=mark)
        while not state["fresh"]:
            state = await ann.expect("state", timeout=15)
        assert state["version"] == version and state["game_id"] == game_id
        assert await count(game_id) == logged  # the new owner's log has none of A's writes
        rows = await sql(postgres_url, "SELECT owner FROM tables WHERE code = :c", c=code)
        assert rows[0][0] == second and first != second
        # The game goes on, at node B (through node A, where Ann's socket is).
        await play_until_over([ann], timeout=30, moves=3)
        assert await count(game_id) > logged
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        a.process.send_signal(signal.SIGCONT)
        a.stop()
        b.stop()
