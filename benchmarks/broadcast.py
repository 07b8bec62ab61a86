"""Server CPU per action, in one process: a room service with ``--tables`` tables of
``--clients`` people each, driven without sockets or a second process.

Each person is a :class:`~una.server.rooms.Client` with a send queue, as a WebSocket's is,
whose socket turns every message into the frame's text exactly as ``una serve`` does
(``una.server.rooms.frame_text``) and keeps the last one. In each round every table's player to
act (the load benchmark's policy, ``benchmarks/load.py``'s ``choose``) sends her action
through ``RoomService.handle``, all tables at once, so the storage writer batches their
appends as under load. What the driver spends reading frames and choosing is timed apart and
taken out: the number is the server's own CPU per action (the room service, the engine, the
frames' text, the storage's appends), which the load benchmark's queueing multiplies.

    python benchmarks/broadcast.py                      # 200 tables x 4, 40 rounds
    python benchmarks/broadcast.py --profile 25         # and the top 25 of cProfile
    python benchmarks/broadcast.py --db postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import pstats
import random
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import choose  # the load benchmark's player policy

from una.server import protocol as p
from una.server.rooms import SEND_QUEUE, Client, RoomService
from una.server.storage import Storage

try:  # the socket's own frame text
    from una.server.rooms import frame_text
except ImportError:  # an older server, for a same-run peer: what its socket did
    from una.server.rooms import Encoded

    def frame_text(message: dict[str, Any]) -> str:
        if isinstance(message, Encoded):
            return message.text
        return json.dumps(message, ensure_ascii=False)


class Socket:
    """A person's connection: the frames' text, the last state kept (unread)."""

    def __init__(self) -> None:
        self.last_state: str | None = None
        self.frames = 0
        self.client = Client(self.send_json, queue_size=SEND_QUEUE)
        self._view: tuple[str, dict[str, Any]] | None = None

    async def send_json(self, message: dict[str, Any]) -> None:
        text = frame_text(message)
        self.frames += 1
        if message.get("type") == "state":
            self.last_state = text

    def state(self) -> dict[str, Any] | None:
        """The last state, parsed (by the driver: timed apart)."""
        if self.last_state is None:
            return None
        if self._view is None or self._view[0] is not self.last_state:
            self._view = (self.last_state, json.loads(self.last_state))
        return self._view[1]


async def set_up(service: RoomService, tables: int, size: int) -> list[list[Socket]]:
    out: list[list[Socket]] = []
    for index in range(tables):
        people = [Socket() for _ in range(size)]
        for n, person in enumerate(people):
            await service.handle(person.client, p.Hello(name=f"p{index}x{n}"))
        host = people[0].client
        create = p.Create(
            rules="standard", seats=size, bots=0, timer=None, public=False, name=f"t{index}"
        )
        await service.handle(host, create)
        code = host.table
        assert code is not None, "the table was not created"
        for person in people[1:]:
            await service.handle(person.client, p.Join(table=code))
        await service.handle(host, p.Start())
        out.append(people)
    await settle()
    return out


async def settle() -> None:
    """Let the send queues' writers run."""
    for _ in range(3):
        await asyncio.sleep(0)


async def play_round(
    service: RoomService, tables: list[list[Socket]], rng: random.Random, spent: list[float]
) -> int:
    """One action at every table (its player to act, or its dealer); the driver's own time
    goes to ``spent``."""
    start = time.process_time()
    moves: list[tuple[Client, p.Message]] = []
    for people in tables:
        for person in people:
            state = person.state()
            if state is None or state.get("view") is None:
                continue
            seat = state["you"]["game_seat"]
            decision = choose(state["view"], seat, rng)
            if decision is None:
                continue
            kind, code = decision
            message: p.Message = (
                p.Act(action=code, version=state["version"]) if kind == "act" else p.Start()
            )
            moves.append((person.client, message))
            break
    spent[0] += time.process_time() - start
    await asyncio.gather(*(service.handle(client, message) for client, message in moves))
    await settle()
    return len(moves)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    directory = tempfile.mkdtemp(prefix="una-broadcast-", dir="/dev/shm")
    schema = None
    url = args.db or f"sqlite:///{directory}/una.db"
    if args.db:
        schema = f"bench_{secrets.token_hex(4)}"
    storage = await Storage.open(url, schema=schema)
    service = RoomService(storage, bot_delay=0.0, idle_close=3600.0)
    await service.restore()
    try:
        tables = await set_up(service, args.tables, args.clients)
        rng = random.Random(args.seed)
        spent = [0.0]
        for _ in range(args.warmup):
            await play_round(service, tables, rng, spent)
        gc.collect()
        frames_before = sum(s.frames for people in tables for s in people)
        profiler = cProfile.Profile(time.process_time) if args.profile else None
        spent = [0.0]
        actions = 0
        wall, cpu = time.perf_counter(), time.process_time()
        if profiler is not None:
            profiler.enable()
        for _ in range(args.rounds):
            actions += await play_round(service, tables, rng, spent)
        if profiler is not None:
            profiler.disable()
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        frames = sum(s.frames for people in tables for s in people) - frames_before
        if profiler is not None:
            stats = pstats.Stats(profiler)
            stats.sort_stats("tottime").print_stats(args.profile)
            stats.sort_stats("cumulative").print_stats(args.profile)
    finally:
        await service.shutdown()
        await storage.close()
        if schema is not None:
            await drop_schema(url, schema)
        shutil.rmtree(directory, ignore_errors=True)
    server = cpu - spent[0]
    return {
        "tables": args.tables,
        "clients": args.clients,
        "actions": actions,
        "frames": frames,
        "server_cpu_s": round(server, 3),
        "driver_cpu_s": round(spent[0], 3),
        "wall_s": round(wall, 3),
        "server_ms_per_action": round(1000 * server / max(1, actions), 4),
        "server_us_per_frame": round(1e6 * server / max(1, frames), 2),
    }


async def drop_schema(url: str, schema: str) -> None:
    from sqlalchemy import text

    from una.server.storage import async_url, create_engine

    engine = create_engine(async_url(url))
    async with engine.begin() as conn:
        await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=40, help="measured rounds (default 40)")
    parser.add_argument("--warmup", type=int, default=5, help="rounds before (default 5)")
    parser.add_argument("--repeat", type=int, default=1, help="runs, each reported")
    parser.add_argument("--db", help="a PostgreSQL URL (a schema of its own; default SQLite)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile top N")
    args = parser.parse_args(argv)
    for _ in range(args.repeat):
        print(json.dumps(asyncio.run(run(args))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
