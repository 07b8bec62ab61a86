"""The fault items of the attack list: issue 20 items 1-5, 8 and 9, issue 16 item 3.

``benchmarks/abuse.py`` runs them with the rest of the list, in one table::

    python benchmarks/abuse.py                                # every attack and fault, SQLite
    python benchmarks/abuse.py --only lobby-cost,frozen-reader
    python benchmarks/abuse.py --db postgresql://postgres@127.0.0.1:5432/test  # PostgreSQL

Unlike the other attacks, a fault kills and restarts its server, so each one starts its own
``una serve`` (a child process on a free 127.0.0.1 port) on a database of its own: a file in
a temporary directory, or with ``--db`` a fresh ``?schema=`` of that PostgreSQL database
(dropped afterwards). With ``--url`` the faults still run on servers of their own.

Each fault is ``async def f(db, quick) -> (held, measured, data)``; ``quick`` uses tiny sizes
(the smoke test, tests/test_abuse_bench.py). The scripted players are
tests/server/serverkit.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))

from serverkit import (  # noqa: E402
    Player,
    Server,
    choose,
    finish_held,
    frame_size,
    frozen,
    play_until_over,
    seated,
    seed_tables,
    sql,
    started,
    until_the_finish_waits,
)

#: held, what was measured (one line), and the figures
Found = tuple[bool, str, dict[str, Any]]


@dataclass
class Fault:
    name: str
    issue: str
    what: str
    run: Callable[[str, bool], Awaitable[Found]]


#: Every fault, in the order they run.
FAULTS: dict[str, Fault] = {}


def fault(
    name: str, issue: str, what: str
) -> Callable[[Callable[[str, bool], Awaitable[Found]]], Callable[[str, bool], Awaitable[Found]]]:
    """Register a fault: ``@fault("name", "20.1", "what it does")`` on ``async def f(db, q)``."""

    def register(run: Callable[[str, bool], Awaitable[Found]]) -> Any:
        FAULTS[name] = Fault(name, issue, what, run)
        return run

    return register


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


async def connected(server: Server, names: list[str]) -> list[Player]:
    """Players connected one after the other, past the burst at the pace of one address's
    ``hello`` budget (they all come from 127.0.0.1)."""
    from una.server.protocol import BUDGETS

    hello = BUDGETS["hello"]
    burst, rate = hello.burst * hello.address_factor, hello.rate * hello.address_factor
    players = []
    for index, name in enumerate(names):
        if index >= burst - 5:
            await asyncio.sleep(1.2 / rate)
        players.append(await Player(server, name).connect())
    return players


# ------------------------------------------------------------------------------- faults


@fault("crash-at-match-start", "20.1", "SIGKILL 0-30 ms after a public match's start, restart")
async def crash_at_match_start(db: str, quick: bool) -> Found:
    """Before the fix, the games row and the table's seats were two commits, and 8 kills in
    30 bricked the server (``una serve`` exited 3 on every restart)."""
    rounds = 1 if quick else 10
    rng = random.Random(20)
    bricked, stuck = 0, 0
    for _ in range(rounds):
        server = Server(db).start()
        try:
            code, people = await seated(server, ["Ann", "Bob"], public=True)
            await people[0].send({"type": "start"})
            time.sleep(rng.uniform(0, 0.030))
            server.kill()
        finally:
            server.stop()
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
    return (
        bricked == 0 and stuck == 0,
        f"{rounds} kills: {bricked} restarts bricked, {stuck} tables stuck",
        {"rounds": rounds, "bricked": bricked, "stuck": stuck},
    )


@fault("unfinished-after-crash", "20.2", "SIGKILL after a match's last action, before its finish")
async def unfinished_after_crash(db: str, quick: bool) -> Found:
    """The finish of the match waits (``serverkit.finish_held``: a row lock on PostgreSQL, a
    busy trigger on SQLite) while its last action is stored; SIGKILL, restart. The record
    answered 403 forever."""
    server = Server(db).start()
    try:
        code, people = await seated(server, ["Ann"], rules={"preset": "standard", "target": 1})
        await started(people)
        game_id = people[0].state["game_id"]  # type: ignore[index]
        async with finish_held(db, game_id):
            playing = asyncio.create_task(play_until_over(people, timeout=60))
            await until_the_finish_waits(db, timeout=60)
            playing.cancel()
            server.kill()
    finally:
        server.stop()
    [(finished,)] = await sql(db, "SELECT finished_at FROM games WHERE id = :g", g=game_id)
    server = Server(db).start()
    try:
        status = server.get(f"/games/{game_id}.json")[0]
        [(table,)] = await sql(db, "SELECT status FROM tables WHERE code = :c", c=code)
    finally:
        server.stop()
    return (
        finished is None and status == 200 and table == "over",
        f"killed unfinished: {finished is None}; after the restart: record {status}, table {table}",
        {"record_status_after_restart": status},
    )


@fault("poisoned-log", "16.3", "one game's stored action corrupted, restart")
async def poisoned_log(db: str, quick: bool) -> Found:
    """The server starts, that game is quarantined, the other table plays on."""
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
    reason, started_up, plays_on = None, False, False
    try:
        server.start()
        started_up = True
        [(reason,)] = await sql(db, "SELECT quarantine_reason FROM games WHERE id = :g", g=game)
        again = await Player(server, "Bob").connect(bob[0].token)
        await again.send({"type": "resume", "table": good, "version": 0, "epoch": ""})
        await again.expect("state")
        await play_until_over([again], moves=3)
        plays_on = True
    except (RuntimeError, TimeoutError):
        pass
    finally:
        server.stop()
    return (
        started_up and reason is not None and plays_on,
        f"started: {started_up}; quarantined: {(reason or 'no')[:40]}; other table plays on: "
        f"{plays_on}",
        {"server_started": started_up, "other_table_plays_on": plays_on},
    )


@fault("seat-change-freeze", "20.3", "the player to act stands up, leaves, is kicked")
async def seat_change_freeze(db: str, quick: bool) -> Found:
    """Seconds until the game moves on (it froze for good: the computer player that took the
    seat was never woken)."""
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
                found[how] = None
    finally:
        server.stop()
    said = " / ".join(
        f"{how} {'frozen 15 s' if s is None else f'{s} s'}" for how, s in found.items()
    )
    return (
        all(s is not None and s < 5 for s in found.values()),
        f"next action after: {said}",
        {"seconds_to_the_next_action": found},
    )


@fault("frozen-reader", "20.4", "2 sockets stop reading and flood lobby; another table's rate")
async def frozen_reader(db: str, quick: bool) -> Found:
    """Issue 16 item 4 too: one frozen socket in the lobby, one watching a busy table; the
    action rate of another table without them and beside them, and when they were dropped
    (past the lobby's budget the answers are small errors, which their buffers may absorb:
    they need not be dropped)."""
    seconds = 2.0 if quick else 10.0
    server = Server(db).start()
    try:
        busy, (ann,) = await seated(server, ["Ann"], seats=4, bots=3, public=True)
        await started([ann])
        await ann.send({"type": "auto", "on": True})
        rules = {"preset": "standard", "target": 1000}
        _, (bob, cat) = await seated(server, ["Bob", "Cat"], seats=2, bots=0, rules=rules)
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

        async def until_dropped() -> float:
            while clients(server) > before:
                await asyncio.sleep(0.05)
            return time.monotonic() - began

        watching = asyncio.create_task(until_dropped())
        for _ in range(2000):
            await lobby.send(json.dumps({"type": "lobby"}))
            await watcher.send(json.dumps({"type": "lobby"}))
        beside = await rate()
        with contextlib.suppress(TimeoutError):  # (a second more, then no longer)
            await asyncio.wait_for(asyncio.shield(watching), 1.0)
        watching.cancel()
        dropped = watching.result() if watching.done() and not watching.cancelled() else None
        for ws in (watcher, lobby):
            ws.transport.abort()
    finally:
        server.stop()
    data = {
        "actions_per_s_alone": round(alone, 1),
        "actions_per_s_beside": round(beside, 1),
        "seconds_until_both_dropped": None if dropped is None else round(dropped, 2),
    }
    return (
        beside >= alone / 2,
        f"another table: {alone:.1f} actions/s alone, {beside:.1f} beside them; dropped "
        + ("no (absorbed)" if dropped is None else f"after {dropped:.2f} s"),
        data,
    )


@fault("lobby-cost", "20.5", "5,000 public tables, 200 lobby clients; what one create costs")
async def lobby_cost(db: str, quick: bool) -> Found:
    """One lobby page, what one ``create`` sends to the lobby and costs the server (CPU,
    over the creates), and, as the peer, the whole lobby (every page): what each lobby
    client was sent before, on every create."""
    tables, watchers, creates = (300, 10, 5) if quick else (5000, 200, 20)
    await seed_tables(db, tables)
    began = time.monotonic()
    server = Server(db).start()
    starting = time.monotonic() - began
    try:
        everyone = await connected(
            server, [f"L{i}" for i in range(watchers)] + [f"M{i}" for i in range(creates)]
        )
        lobby, makers = everyone[:watchers], everyone[watchers:]
        for client in lobby:
            await client.send({"type": "lobby"})
            first = await client.expect("lobby")
        # Every page, each from another client (the lobby's budget is per client), who then
        # goes back to the first page.
        whole = frame_size(first)
        for page in range(1, first["pages"]):
            client = lobby[page % len(lobby)]
            await client.send({"type": "lobby", "page": page})
            whole += frame_size(await client.expect("lobby"))
            await client.send({"type": "lobby"})
            await client.expect("lobby")
        marks = [c.mark() for c in lobby]
        cpu = cpu_seconds(pid_of(server))
        for maker in makers:
            await maker.send({"type": "create", "rules": "standard", "seats": 2, "public": True})
            await maker.expect("joined")
        for client, mark in zip(lobby, marks, strict=True):
            while sum(f["type"] == "lobby_table" for f in client.frames[mark:]) < creates:
                await client.expect("lobby_table")
        cpu = cpu_seconds(pid_of(server)) - cpu
        sent = sum(frame_size(f) for c, m in zip(lobby, marks, strict=True) for f in c.frames[m:])
    finally:
        server.stop()
    page, per_create = frame_size(first), sent // creates
    data = {
        "page_bytes": page,
        "whole_lobby_bytes": whole,
        "per_create_bytes_to_lobby": per_create,
        "per_create_server_cpu_ms": round(cpu / creates * 1000, 2),
        "restore_and_start_s": round(starting, 2),
    }
    return (
        page < 40_000 and per_create <= 1500 * watchers,
        f"{tables} tables, {watchers} clients: page {page / 1000:.1f} KB; one create sends "
        f"{per_create / 1000:.1f} KB (whole lobby to each: {whole * watchers / 1e6:.1f} MB), "
        f"{cpu / creates * 1000:.0f} ms CPU; restore+start {starting:.1f} s",
        data,
    )


@fault("empty-tables", "20.8", "tables of strong bots; server CPU before and after all leave")
async def empty_tables(db: str, quick: bool) -> Found:
    """Tables of strong computer players (their person on auto); the server's CPU while the
    people are there, then after they all close their connection (paused: about none)."""
    count, seconds = (2, 1.0) if quick else (10, 5.0)
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
    return (
        gone <= max(0.05, there / 4),
        f"{count} tables: server CPU {there:.2f} with their people, {gone:.3f} after they left",
        {"server_cpu_people_there": round(there, 3), "server_cpu_nobody_there": round(gone, 3)},
    )


@fault("small-holes", "20.9", "kick up to case, ban, host handed on, 'uno' chat, /endhand rate")
async def small_holes(db: str, quick: bool) -> Found:
    """Kick by the name up to case; the kicked cannot come back during the match; the host
    role goes on when the host leaves; a line starting "uno" is chat (only "una" and «уно»
    call UNO); how many hands a lone human ends with ``/endhand`` in 20 s (cooldown 15 s)."""
    seconds = 2.0 if quick else 20.0
    found: dict[str, Any] = {}
    server = Server(db).start()
    try:
        code, (ann, bob, cy) = await seated(server, ["Ann", "Bob", "Cy"], public=False)
        await started([ann, bob, cy])
        await ann.send({"type": "kick", "player": "cy"})
        found["kick_up_to_case"] = (await cy.expect("kicked", timeout=5))["table"] == code
        await cy.send({"type": "join", "table": code})
        found["kicked_rejoins"] = (await cy.expect("error"))["code"]
        await ann.send({"type": "leave"})
        await ann.expect("left")
        deadline = time.monotonic() + 5
        while bob.state["table"]["host_id"] != bob.player_id and time.monotonic() < deadline:  # type: ignore[index]
            with contextlib.suppress(TimeoutError):
                await bob.expect("state", timeout=1)
        found["host_after_the_host_leaves"] = bob.state["table"]["host"]  # type: ignore[index]
        mark = bob.mark()
        await bob.send({"type": "chat", "text": "unobtrusive remark"})
        try:
            said = (await bob.expect("chat", timeout=5, since=mark))["text"]
        except TimeoutError:
            said = None  # (an UNO call, no chat line)
        found["uno_line_said_as"] = said
        _, (eve,) = await seated(server, ["Eve"], public=False)
        await started([eve])
        ended, began = 0, time.monotonic()
        while time.monotonic() - began < seconds:
            await eve.send({"type": "chat", "text": "/endhand"})
            await asyncio.sleep(1.0)
            if eve.view is not None and eve.view["phase"] == "hand_over":
                ended += 1
                await eve.send({"type": "start"})  # the next hand
        found["hands_ended"] = ended
    finally:
        server.stop()
    allowed = 1 + int(seconds // 15)
    held = (
        found["kick_up_to_case"]
        and found["kicked_rejoins"] == "banned"
        and found["host_after_the_host_leaves"] == "Bob"
        and found["uno_line_said_as"] == "unobtrusive remark"
        and ended <= allowed
    )
    return (
        bool(held),
        f"kick 'cy': {found['kick_up_to_case']}, rejoin: {found['kicked_rejoins']}; host "
        f"after Ann: {found['host_after_the_host_leaves']}; 'uno...' said as "
        f"{found['uno_line_said_as']}; /endhand ended {ended} hands in {seconds:g} s",
        found,
    )
