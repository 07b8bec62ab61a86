"""A real ``una serve`` process on a free port, and scripted WebSocket players for it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Coroutine
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import jsonschema
import sqlalchemy as sa
from websockets.asyncio.client import ClientConnection, connect

from una.server.protocol import schema
from una.server.storage import create_engine

UNA = str(Path(sys.executable).parent / "una")
T = TypeVar("T")
#: Every frame a scripted player receives is checked against the protocol's own schema
#: (its type's part of it: the whole family's ``oneOf`` costs several milliseconds a frame).
SCHEMA = schema()
VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def check_frame(frame: dict[str, Any]) -> None:
    """Refuse a server message its schema does not allow (the error names the field)."""
    kind = frame.get("type")
    name = f"out_{kind}"
    if name not in SCHEMA["$defs"]:
        raise AssertionError(f"the server sent a message of no known type: {frame}")
    validator = VALIDATORS.get(name)
    if validator is None:
        validator = VALIDATORS[name] = jsonschema.Draft202012Validator(
            {**SCHEMA, "$ref": f"#/$defs/{name}"}
        )
    if not validator.is_valid(frame):
        error = jsonschema.exceptions.best_match(validator.iter_errors(frame))
        assert error is not None
        raise AssertionError(f"{kind!r} breaks the schema: {error.message}"
                             f" at {list(error.absolute_path)}")  # fmt: skip


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a test's scenario to its end."""
    return asyncio.run(coro)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``una serve`` in a child process, on a free port, with its own database."""

    def __init__(self, db_url: str, bot_delay: float = 0.0, **env: str) -> None:
        self.db_url = db_url
        self.port = free_port()
        self.bot_delay = bot_delay
        self.env = {**os.environ, **env}
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> Server:
        command = [UNA, "serve", "--port", str(self.port), "--db", self.db_url,
                   "--bot-delay", str(self.bot_delay), "--log-level", "warning"]  # fmt: skip
        self.process = subprocess.Popen(command, env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"una serve exited with {self.process.returncode}")
            try:
                self.get("/health")
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("una serve did not answer /health in 30 s")

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        """GET ``path``; with ``token``, as that player (``Authorization: Bearer``)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, like a crash."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class Player:
    """A scripted client: it keeps every frame it receives and the latest state."""

    def __init__(self, server: Server, name: str) -> None:
        self.server = server
        self.name = name
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.player_id = 0
        self._reader: asyncio.Task[None] | None = None
        self._new = asyncio.Event()
        #: how many frames were checked against the schema (``check``)
        self._checked = 0

    async def connect(self, token: str | None = None) -> Player:
        self.ws = await connect(self.server.ws, max_size=None)
        self._reader = asyncio.create_task(self._read())
        hello = {"type": "hello", "token": token} if token else {"type": "hello", "name": self.name}
        await self.send(hello)
        welcome = await self.expect("welcome")
        self.token = welcome["token"] or token
        self.player_id = welcome["player"]["id"]
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "state":
                    self.state = frame
                self._new.set()
        except Exception:  # the connection closed; the test looks at what it got
            self._new.set()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send(text)

    async def expect(
        self, kind: str, timeout: float = 10.0, since: int | None = None
    ) -> dict[str, Any]:
        """The first frame of type ``kind`` received from index ``since`` on (default: the
        frames not yet looked at by expect)."""
        start = self._seen if since is None else since
        deadline = time.monotonic() + timeout
        while True:
            for index in range(start, len(self.frames)):
                if self.frames[index]["type"] == kind:
                    self._seen = index + 1
                    check_frame(self.frames[index])
                    return self.frames[index]
            start = len(self.frames)
            left = deadline - time.monotonic()
            if left <= 0:
                types = [f["type"] for f in self.frames[-10:]]
                raise TimeoutError(f"{self.name}: no {kind!r} frame (last: {types})")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    _seen = 0

    def mark(self) -> int:
        """An index to look for frames after (``expect(..., since=mark)``)."""
        return len(self.frames)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)
        self.check()

    def check(self) -> None:
        """Check every frame received since the last check against the schema (``expect``
        checks the frames it returns at once; the rest wait: reading must stay fast)."""
        for frame in self.frames[self._checked :]:
            check_frame(frame)
        self._checked = len(self.frames)

    @property
    def view(self) -> dict[str, Any] | None:
        return self.state["view"] if self.state else None

    @property
    def version(self) -> int:
        return self.state["version"] if self.state else -1


def choose(view: dict[str, Any]) -> str | None:
    """A simple scripted policy over a view's legal actions: play (calling UNO), else the
    first turn action; deal when the hand is over. Out-of-turn actions are left alone."""
    legal = view["legal"]
    if not legal:
        return None
    if view["to_act"] != view["seat"]:
        return "deal" if "deal" in legal else None
    plays = [code for code in legal if code.startswith("play")]
    if plays:
        with_uno = [code for code in plays if code.endswith(" uno")]
        return (with_uno or plays)[0]
    for verb in ("color", "draw", "pass"):
        for code in legal:
            if code.startswith(verb):
                return code
    return legal[0]


async def play_until_over(
    players: list[Player], timeout: float = 120.0, moves: int | None = None
) -> dict[str, Any]:
    """Let the scripted players act on their states until the match is over (or, with
    ``moves``, until the table's version has moved on that many times)."""
    deadline = time.monotonic() + timeout
    start = max(player.version for player in players)
    last_sent: dict[str, tuple[int, float]] = {}
    while time.monotonic() < deadline:
        for player in players:
            state = player.state
            if state is None or state["view"] is None:
                continue
            view = state["view"]
            if view["match_winner"] is not None:
                return state
            if moves is not None and state["version"] >= start + moves:
                return state
            sent = last_sent.get(player.name)
            # One action per version; again after a second if it was refused (rate limit).
            if sent and sent[0] == state["version"] and time.monotonic() - sent[1] < 1.0:
                continue
            code = choose(view)
            if code is None:
                continue
            last_sent[player.name] = (state["version"], time.monotonic())
            if code == "deal":
                await player.send({"type": "start"})
            else:
                await player.send({"type": "act", "action": code, "version": state["version"]})
        await asyncio.sleep(0.005)
    raise TimeoutError("the match did not end in time")


async def sql(db: str, statement: str, **params: Any) -> list[Any]:
    """Run one statement against a server's database, on a connection of its own; its rows."""
    engine = create_engine(db)
    try:
        async with engine.begin() as conn:
            result = await conn.execute(sa.text(statement), params)
            return list(result.all()) if result.returns_rows else []
    finally:
        await engine.dispose()


async def frozen(server: Server, name: str) -> ClientConnection:
    """A client that says hello and then never reads again: its receive buffer is tiny and
    its library stops reading while one message waits."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    ws = await connect(server.ws, sock=sock, max_queue=1, ping_interval=None, max_size=None)
    await ws.send(json.dumps({"type": "hello", "name": name}))
    return ws


def frame_size(frame: dict[str, Any]) -> int:
    """The bytes of a frame as the server sends it."""
    return len(json.dumps(frame, ensure_ascii=False).encode())


async def seated(server: Server, names: list[str], **create: Any) -> tuple[str, list[Player]]:
    """A table created by the first player and joined by the others; its code."""
    players = [await Player(server, name).connect() for name in names]
    await players[0].send({"type": "create", "rules": "standard", "seats": len(names) + 1,
                           "bots": 1, **create})  # fmt: skip
    code = (await players[0].expect("joined"))["table"]
    for player in players[1:]:
        await player.send({"type": "join", "table": code})
        await player.expect("joined")
    return code, players


async def started(players: list[Player]) -> None:
    await players[0].send({"type": "start"})
    for player in players:
        while player.view is None:
            await player.expect("state")


async def seed_tables(db: str, count: int) -> None:
    """``count`` open public tables, written straight into the database (as if 5,000 people
    had each made one), in one transaction."""
    from una.engine import RuleSet
    from una.server.rooms import Table
    from una.server.storage import Storage
    from una.server.storage import tables as tables_table

    config = Table("X", None, RuleSet.from_json("standard"), 4, public=True)
    config.seats = [None] * 4
    text = json.dumps(config.config())
    now = datetime.now(UTC)
    rows = [{"code": f"S{i:04d}", "host_id": None, "config": text, "status": "open",
             "created_at": now} for i in range(count)]  # fmt: skip
    async with await Storage.open(db) as storage, storage.engine.begin() as conn:
        await conn.execute(tables_table.insert(), rows)


def sqlite_path(db: str) -> str | None:
    """The file of an SQLite URL (``sqlite:///...``, ``sqlite+aiosqlite:///...``), else None."""
    return db.split("///", 1)[1] if db.startswith("sqlite") else None


@contextlib.asynccontextmanager
async def finish_held(db: str, game_id: int) -> AsyncIterator[None]:
    """Make the server's ``finish_game`` of ``game_id`` wait (until the server is killed),
    while its other writes, the match's last action among them, go through.

    PostgreSQL: the game's row is held ``FOR NO KEY UPDATE``; the finish waits for it.
    SQLite has one write lock for the whole file, so holding it would hold the last action
    too; instead a trigger on the game's ``finished_at`` keeps the finish's transaction busy
    (a cross join of a helper table that never ends), with the write lock, until SIGKILL.
    Both are gone afterwards.
    """
    path = sqlite_path(db)
    if path is None:
        engine = create_engine(db)
        try:
            async with engine.connect() as conn:
                await conn.execute(
                    sa.text("SELECT 1 FROM games WHERE id = :g FOR NO KEY UPDATE"), {"g": game_id}
                )
                try:
                    yield
                finally:
                    await conn.rollback()
        finally:
            await engine.dispose()
        return
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=30)) as conn:
        conn.executescript(f"""
            CREATE TABLE held_spin (n INTEGER);
            WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000)
            INSERT INTO held_spin SELECT n FROM c;
            CREATE TRIGGER held_finish BEFORE UPDATE OF finished_at ON games
            WHEN NEW.id = {int(game_id)} AND NEW.finished_at IS NOT NULL
            BEGIN SELECT count(*) FROM held_spin a, held_spin b, held_spin c, held_spin d; END;
        """)  # fmt: skip
    try:
        yield
    finally:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=30)) as conn:
            conn.executescript("DROP TRIGGER held_finish; DROP TABLE held_spin;")


async def lock_waiters(db: str) -> int:
    """How many PostgreSQL sessions of this database wait for a lock (``pg_stat_activity``)."""
    rows = await sql(
        db,
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
        "AND datname = current_database()",
    )
    return int(rows[0][0])


async def until_the_finish_waits(db: str, timeout: float = 60.0) -> None:
    """Until the server's transaction waits in :func:`finish_held`: on PostgreSQL, for the
    row lock (``pg_stat_activity``); on SQLite, the write lock is held for a second on end
    (an append holds it for a few milliseconds)."""
    deadline = time.monotonic() + timeout
    path = sqlite_path(db)
    held_since: float | None = None
    while time.monotonic() < deadline:
        if path is None:
            if await lock_waiters(db) >= 1:
                return
        else:
            now = time.monotonic()
            if write_locked(path):
                held_since = held_since or now
                if now - held_since >= 1.0:
                    return
            else:
                held_since = None
        await asyncio.sleep(0.05)
    raise TimeoutError("the server's finish never waited")


def write_locked(path: str) -> bool:
    """Whether another connection holds the SQLite file's write lock (tried without waiting)."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=0)) as conn:
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                return True
            raise
        conn.rollback()
        return False
