"""Fault and abuse reproductions of issue 20 (items 1-5, 8, 9) and issue 16 (items 3-4).

Each function attacks a real ``una serve`` (a child process on a free 127.0.0.1 port, its own
database: a temporary SQLite file, or ``--db`` a PostgreSQL URL whose ``?schema=`` is made
fresh for each run) over real WebSockets, and returns what it measured; ``FAULTS`` names them
all, so the whole list can be rerun::

    python benchmarks/abuse_faults.py                   # every fault, SQLite
    python benchmarks/abuse_faults.py lobby_cost frozen_reader
    python benchmarks/abuse_faults.py crash_at_match_start \\
        --db postgresql://postgres@127.0.0.1:5432/test

Each prints one JSON line per fault. The scripted players are tests/server/serverkit.py's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from serverkit import (  # noqa: E402
    Player,
    Server,
    choose,
    frame_size,
    frozen,
    play_until_over,
    seated,
    seed_tables,
    sql,
    started,
)

Fault = Callable[[str], Awaitable[dict[str, Any]]]


# ------------------------------------------------------------------------------ helpers


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, in seconds (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pid_of(server: Server) -> int:
    assert server.process is not None
    return server.process.pid


def clients(server: Server) -> int:
    return int(json.loads(server.get("/health")[1])["clients"])


# ------------------------------------------------------------------------------- faults


async def crash_at_match_start(db: str, rounds: int = 10) -> dict[str, Any]:
    """Item 1: SIGKILL 0-30 ms after a public match's start, restart. Before the fix, the
    games row and the table's seats were two commits, and 8 kills in 30 bricked the server
    (``una serve`` exited 3 on every restart)."""
    rng = random.Random(20)
    bricked, stuck = 0, 0
    for _ in range(rounds):
        server = Server(db).start()
        code, people = await seated(server, ["Ann", "Bob"], public=True)
        await people[0].send({"type": "start"})
        time.sleep(rng.uniform(0, 0.030))
        server.kill()
        server = Server(db)
        try:
            server.start()
        except RuntimeError:
            bricked += 1
            continue
        try:
            again = [await Player(server, p.name).connect(p.token) for p in people]
            for person in again:
                await person.send({"type": "resume", "table": code, "version": 0, "epoch": ""})
                await person.expect("state")
            if again[0].view is None:
                await started(again)
            await play_until_over(again, moves=3, timeout=20)
        except (TimeoutError, AssertionError):
            stuck += 1
        finally:
            server.stop()
    return {"rounds": rounds, "bricked": bricked, "stuck": stuck}


async def unfinished_after_crash(db: str) -> dict[str, Any]:
    """Item 2: a match whose last action is stored but which was never marked finished (the
    state a SIGKILL between the two leaves, written by hand here): after a restart its record
    is readable (it answered 403 forever)."""
    server = Server(db).start()
    try:
        code, people = await seated(server, ["Ann"], rules={"preset": "standard", "target": 1})
        await started(people)
        game_id = people[0].state["game_id"]  # type: ignore[index]
        await play_until_over(people)
        server.kill()
    finally:
        server.stop()
    await sql(db, "UPDATE games SET finished_at = NULL, result = NULL WHERE id = :g", g=game_id)
    await sql(db, "UPDATE tables SET status = 'playing' WHERE code = :c", c=code)
    server = Server(db).start()
    try:
        status = server.get(f"/games/{game_id}.json")[0]
    finally:
        server.stop()
    return {"record_status_after_restart": status}


async def seat_change_freeze(db: str) -> dict[str, Any]:
    """Item 3: the player to act stands up, leaves or is kicked; seconds until the game moves
    on (it froze for good: the computer player that took the seat was never woken)."""
    found: dict[str, Any] = {}
    server = Server(db).start()
    try:
        for how in ("stand", "leave", "kick"):
            _, (ann, bob) = await seated(server, [f"Ann {how}", f"Bob {how}"])
            await started([ann, bob])
            deadline = time.monotonic() + 60
            while not (bob.view and bob.view["to_act"] == bob.view["seat"]):
                view = ann.view
                if view and view["to_act"] == view["seat"] and (code := choose(view)):
                    await ann.send({"type": "act", "action": code, "version": ann.version})
                await asyncio.sleep(0.05)
                assert time.monotonic() < deadline
            version, began = ann.version, time.monotonic()
            if how == "kick":
                await ann.send({"type": "kick", "player": bob.name})
            else:
                await bob.send({"type": how})
            try:
                while ann.version <= version:
                    await ann.expect("state", timeout=15 - (time.monotonic() - began))
                found[how] = round(time.monotonic() - began, 3)
            except TimeoutError:
                found[how] = "frozen 15 s"
    finally:
        server.stop()
    return {"seconds_to_the_next_action": found}


async def frozen_reader(db: str, seconds: float = 10.0) -> dict[str, Any]:
    """Item 4 / issue 16 item 4: two sockets that stop reading (one in the lobby, one
    watching a busy table) flood ``lobby``; another table's action rate, without them and with
    them, and how long until both are dropped."""
    server = Server(db).start()
    try:
        busy, (ann,) = await seated(server, ["Ann"], seats=4, bots=3, public=True)
        await started([ann])
        await ann.send({"type": "auto", "on": True})
        _, (bob, cat) = await seated(server, ["Bob", "Cat"], seats=2, bots=0)
        await started([bob, cat])

        async def rate() -> float:
            began, version = time.monotonic(), bob.version
            with contextlib.suppress(TimeoutError):
                await play_until_over([bob, cat], timeout=seconds)
            return (bob.version - version) / (time.monotonic() - began)

        alone = await rate()
        before = clients(server)
        watcher = await frozen(server, "Frozen watcher")
        await watcher.send(json.dumps({"type": "watch", "table": busy}))
        lobby = await frozen(server, "Frozen lobby")
        began = time.monotonic()

        async def until_dropped() -> float | None:
            while time.monotonic() - began < 60:
                if clients(server) <= before:
                    return time.monotonic() - began
                await asyncio.sleep(0.05)
            return None

        watching = asyncio.create_task(until_dropped())
        for _ in range(2000):
            await lobby.send(json.dumps({"type": "lobby"}))
            await watcher.send(json.dumps({"type": "lobby"}))
        beside = await rate()
        dropped = await watching
        for ws in (watcher, lobby):
            ws.transport.abort()
    finally:
        server.stop()
    return {
        "actions_per_s_alone": round(alone, 1),
        "actions_per_s_beside_frozen_readers": round(beside, 1),
        "seconds_until_both_dropped": None if dropped is None else round(dropped, 2),
    }


async def lobby_cost(db: str, tables: int = 5000, watchers: int = 200) -> dict[str, Any]:
    """Item 5: ``tables`` public tables and ``watchers`` clients in the lobby. One lobby page,
    what one ``create`` sends to the lobby and costs the server (CPU, over 20 creates), and,
    as the peer, the whole lobby (every page): what each lobby client was sent before, on
    every create."""
    await seed_tables(db, tables)
    began = time.monotonic()
    server = Server(db).start()
    starting = time.monotonic() - began
    try:
        lobby = [await Player(server, f"L{i}").connect() for i in range(watchers)]
        for client in lobby:
            await client.send({"type": "lobby"})
            first = await client.expect("lobby")
        whole = frame_size(first)
        for page in range(1, first["pages"]):
            await lobby[0].send({"type": "lobby", "page": page})
            whole += frame_size(await lobby[0].expect("lobby"))
        await lobby[0].send({"type": "lobby"})
        await lobby[0].expect("lobby")
        makers = [await Player(server, f"M{i}").connect() for i in range(20)]
        marks = [c.mark() for c in lobby]
        cpu = cpu_seconds(pid_of(server))
        for maker in makers:
            await maker.send({"type": "create", "rules": "standard", "seats": 2, "public": True})
            await maker.expect("joined")
        for client in lobby:
            while len(client.frames) - marks[lobby.index(client)] < 20:
                await client.expect("lobby_table")
        cpu = cpu_seconds(pid_of(server)) - cpu
        sent = sum(frame_size(f) for c, m in zip(lobby, marks, strict=True) for f in c.frames[m:])
    finally:
        server.stop()
    return {
        "tables": tables,
        "lobby_clients": watchers,
        "restore_and_start_s": round(starting, 2),
        "page_bytes": frame_size(first),
        "whole_lobby_bytes": whole,
        "per_create_bytes_to_lobby": sent // 20,
        "per_create_bytes_before (whole lobby x clients)": whole * watchers,
        "per_create_server_cpu_ms": round(cpu / 20 * 1000, 2),
    }


async def empty_tables(db: str, count: int = 10, seconds: float = 5.0) -> dict[str, Any]:
    """Item 8: tables of strong computer players (their person on auto); the server's CPU
    while the people are there, then after they all close their connection."""
    server = Server(db, bot_delay=0.05).start()
    try:
        people = []
        for i in range(count):
            _, (person,) = await seated(server, [f"P{i}"], seats=4, bots=3, bot="strong")
            await started([person])
            await person.send({"type": "auto", "on": True})
            people.append(person)
        cpu = cpu_seconds(pid_of(server))
        await asyncio.sleep(seconds)
        there = (cpu_seconds(pid_of(server)) - cpu) / seconds
        for person in people:
            await person.close()
        await asyncio.sleep(1.0)
        cpu = cpu_seconds(pid_of(server))
        await asyncio.sleep(seconds)
        gone = (cpu_seconds(pid_of(server)) - cpu) / seconds
    finally:
        server.stop()
    return {"tables": count, "server_cpu_people_there": round(there, 3),
            "server_cpu_nobody_there": round(gone, 3)}  # fmt: skip


async def small_holes(db: str) -> dict[str, Any]:
    """Item 9: kick up to case, the ban, the host handed on, the una chat rule and the
    /endhand rate."""
    found: dict[str, Any] = {}
    server = Server(db).start()
    try:
        code, (ann, bob, other) = await seated(server, ["Ann", "Bob", "ANN"])
        await started([ann, bob, other])
        await ann.send({"type": "kick", "player": "ann"})
        found["kick_up_to_case"] = (await other.expect("kicked", timeout=5))["table"] == code
        await other.send({"type": "join", "table": code})
        found["kicked_rejoins"] = (await other.expect("error"))["code"]
        await ann.send({"type": "leave"})
        await ann.expect("left")
        await asyncio.sleep(0.3)
        found["host_after_the_host_leaves"] = bob.state["table"]["host"]  # type: ignore[index]
        mark = bob.mark()
        await bob.send({"type": "chat", "text": "unabombers are wacky"})
        await asyncio.sleep(0.5)
        found["una_line_said_as"] = [f["text"] for f in bob.frames[mark:] if f["type"] == "chat"]
        _, (eve,) = await seated(server, ["Eve"])
        await started([eve])
        ended, began = 0, time.monotonic()
        while time.monotonic() - began < 20:
            game = eve.state["game_id"]  # type: ignore[index]
            await eve.send({"type": "chat", "text": "/endhand"})
            await asyncio.sleep(1.0)
            ended += eve.state["game_id"] != game  # type: ignore[index]
        found["hands_ended_in_20_s"] = ended
    finally:
        server.stop()
    return found


async def poisoned_log(db: str) -> dict[str, Any]:
    """Issue 16 item 3: one game's log no longer replays; the server starts, that game is
    quarantined, the other table plays on."""
    server = Server(db).start()
    try:
        _, ann = await seated(server, ["Ann"])
        good, bob = await seated(server, ["Bob"])
        await started(ann)
        await started(bob)
        await play_until_over(ann, moves=3)
        await play_until_over(bob, moves=3)
        game = ann[0].state["game_id"]  # type: ignore[index]
        server.kill()
    finally:
        server.stop()
    await sql(db, "UPDATE actions SET code = 'play ZZ9' WHERE game_id = :g AND seq = 1", g=game)
    server = Server(db)
    try:
        server.start()
        [(reason,)] = await sql(db, "SELECT quarantine_reason FROM games WHERE id = :g", g=game)
        again = await Player(server, "Bob").connect(bob[0].token)
        await again.send({"type": "resume", "table": good, "version": 0, "epoch": ""})
        await again.expect("state")
        await play_until_over([again], moves=3)
        plays_on = True
    except (RuntimeError, TimeoutError):
        reason, plays_on = None, False
    finally:
        server.stop()
    return {"server_started": server.process is not None and reason is not None,
            "quarantine_reason": reason, "other_table_plays_on": plays_on}  # fmt: skip


FAULTS: dict[str, Fault] = {
    "crash_at_match_start": crash_at_match_start,
    "unfinished_after_crash": unfinished_after_crash,
    "seat_change_freeze": seat_change_freeze,
    "frozen_reader": frozen_reader,
    "lobby_cost": lobby_cost,
    "empty_tables": empty_tables,
    "small_holes": small_holes,
    "poisoned_log": poisoned_log,
}


def fresh_db(base: str | None, directory: str, name: str) -> str:
    if base is None:
        return f"sqlite:///{Path(directory) / (name + '.db')}"
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}schema=abuse_{name}_{uuid.uuid4().hex[:8]}"


async def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("faults", nargs="*", help=f"of: {', '.join(FAULTS)} (default: all)")
    parser.add_argument("--db", help="a PostgreSQL URL (default: a temporary SQLite file)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.faults if name not in FAULTS]
    if unknown:
        parser.error(f"unknown fault {unknown[0]!r}: choose from {', '.join(FAULTS)}")
    with tempfile.TemporaryDirectory(prefix="una-abuse-") as directory:
        for name in args.faults or list(FAULTS):
            db = fresh_db(args.db, directory, name)
            began = time.monotonic()
            result = await FAULTS[name](db)
            took = round(time.monotonic() - began, 1)
            print(json.dumps({"fault": name, "seconds": took, **result}, ensure_ascii=False))
            if args.db is not None:
                schema = db.rsplit("schema=", 1)[1]
                await sql(args.db, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


if __name__ == "__main__":
    asyncio.run(main())
