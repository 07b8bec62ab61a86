"""Load benchmark of ``una serve``: a fleet of scripted WebSocket players on loopback.

It starts ``una serve`` as a child process on a free 127.0.0.1 port with a fresh SQLite
database in a temporary directory (``--bot-delay 0 --log-level warning``), then a fleet of
asyncio clients: ``--tables`` private tables of ``--clients`` people each (the first creates
the table with no computer players, the others join, the first starts). Every client plays
from its own view, like a person with a think time (``--think``, default 0.5-1.5 s per
action): it acts only on its turn (a play, calling UNO when it can, else color, draw or
pass), and when a hand is over the hand's winner deals the next one (``start``); when a
match is over, the host starts another. ``--think 0`` measures raw throughput.

After the set-up and a warm-up (``--warmup``) it measures for ``--seconds``:

* actions acknowledged and actions/s;
* action-to-broadcast latency: from sending an ``act`` until the same client receives the
  ``state`` with a higher version; and fan-out latency: until the last other client at the
  table has that version;
* errors by code (``stale`` and ``rate_limited`` may occur; they are reported);
* the server's memory (VmRSS from /proc, at start and at the end) and CPU time
  (utime + stime from /proc/<pid>/stat) over the measured window;
* the client fleet's own CPU and event-loop lag: the fleet runs on the same machine and
  competes with the server for CPU (``--procs K`` splits it across K processes).

Then every client closes and the server is stopped. Traffic goes to 127.0.0.1 only.

Multi-node mode (``--nodes N``, docs/scaling.md): N ``una serve --redis`` nodes on one
PostgreSQL database (``--db``, a fresh schema of its own, dropped afterwards) and one Redis
(``--redis``). Table k is created on node k mod N, and its clients connect in turn to
node k, k+1, ...: with 2 nodes, half of every table's clients are on the node that does not
own it, so their actions are forwarded and their states relayed through Redis. Memory and
CPU are reported per node::

    python benchmarks/load.py --nodes 2 --tables 500 --clients 4 --procs 2
``--samples FILE`` writes every act's send time and latency (CSV), ``--py-spy FILE`` profiles
the server over the window, ``--db-dir /dev/shm`` takes the disk's fsync out::

    python benchmarks/load.py                       # the target: 250 tables x 4 clients, 60 s
    python benchmarks/load.py --tables 10 --seconds 15
    python benchmarks/load.py --tables 50 --think 0 --seconds 30 --json
    python benchmarks/load.py --py-spy /tmp/server.txt   # and profile the server (py-spy raw)

On a machine shared with other work the server's tail latency is mostly its wait for a CPU
(the report shows it, from /proc/<pid>/task/<pid>/schedstat). To measure the server rather
than its neighbours, give the run its own scheduler group (Linux autogroups, as root)::

    setsid -w sh -c 'echo -10 > /proc/self/autogroup; exec python benchmarks/load.py'
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
UNA = Path(sys.executable).parent / "una"
TARGET_TABLES, TARGET_CLIENTS, TARGET_P99_MS = 250, 1000, 100.0
KINDS = ("act", "deal", "match")
CLK_TCK = os.sysconf("SC_CLK_TCK")
MIB = 1024 * 1024
PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/test"


# ------------------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Server:
    """``una serve`` in a child process on a free loopback port, with its own database."""

    def __init__(
        self, directory: Path, db_url: str | None = None, redis: str | None = None, name: str = ""
    ) -> None:
        self.directory = directory
        self.port = free_port()
        self.db_url = db_url or f"sqlite:///{directory / 'load.db'}"
        self.redis = redis
        self.log_path = directory / f"server{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://{HOST}:{self.port}/ws"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 60.0) -> None:
        command = [
            str(UNA),
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ]
        # Private tables have no turn timer; a long public one keeps timeouts out of a run.
        # A thousand clients from one loopback address: per-address budgets off, as behind
        # a proxy (each client keeps its own).
        env = {**os.environ, "UNA_PUBLIC_TIMER": "600", "UNA_ADDRESS_LIMITS": "0"}
        if self.redis:
            env["UNA_REDIS"] = self.redis
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"una serve exited with {self.process.returncode}:\n{self.log()}"
                )
            try:
                url = f"http://{HOST}:{self.port}/health"
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        raise RuntimeError(f"una serve did not answer /health in {timeout:.0f} s")

    def stop(self) -> int | None:
        """SIGTERM, then SIGKILL after 20 s; the exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return self.process.returncode

    def status(self, key: str) -> float:
        """A /proc/<pid>/status size (VmRSS, VmHWM) in MiB."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024 / MIB
        return math.nan

    def cpu(self) -> float:
        """User + system CPU seconds of the server process (all its threads)."""
        stat = Path(f"/proc/{self.pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2 :].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def log(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def log_errors(self) -> list[str]:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return []
        return [ln for ln in text.splitlines() if "ERROR" in ln or ln.startswith("Traceback")]


def run_queue_wait(pid: int | str = "self") -> float:
    """Seconds the process's main thread has waited for a CPU while runnable (schedstat)."""
    try:
        tid = os.getpid() if pid == "self" else pid
        return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return math.nan


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine, all cores (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    total = sum(fields[:8])  # guest time is already counted in user
    idle = fields[3] + fields[4]
    return (total - idle) / CLK_TCK, total / CLK_TCK


# ------------------------------------------------------------------------------ the players


@dataclass
class Config:
    tables: int = 250
    clients: int = 4
    rules: Any = "standard"
    seconds: float = 60.0
    warmup: float = 5.0
    think: tuple[float, float] = (0.5, 1.5)
    procs: int = 1
    setup_concurrency: int = 16
    setup_timeout: float = 600.0
    compression: bool = True
    seed: int = 0
    postgresql: bool = False


def choose(view: dict[str, Any], seat: int, rng: random.Random) -> tuple[str, str] | None:
    """The scripted policy over the client's own view: ``(kind, action code)`` or None.

    On its turn: a play (an "... uno" variant when there is one), else color, draw, pass,
    else the first legal action. When a hand is over its winner deals (``start``); when the
    match is over the host (game seat 0) starts a new one. Out of turn it does nothing.
    """
    if view.get("match_winner") is not None:
        return ("match", "") if seat == 0 else None
    legal: list[str] = view.get("legal") or []
    if "deal" in legal:
        dealer = view.get("hand_winner")
        return ("deal", "") if seat == (dealer if dealer is not None else 0) else None
    if view.get("to_act") != seat or not legal:
        return None
    plays = [code for code in legal if code.startswith("play")]
    if plays:
        with_uno = [code for code in plays if code.endswith(" uno")]
        return ("act", rng.choice(with_uno or plays))
    for verb in ("color", "draw", "pass"):
        for code in legal:
            if code.startswith(verb):
                return ("act", code)
    return ("act", legal[0])


@dataclass
class Pending:
    kind: str  # act, deal (start after a hand), match (start after a match)
    version: int
    sent: float


class SetupError(Exception):
    pass


class TableRun:
    """One table of the fleet, and the fan-out tracking of its versions."""

    def __init__(self, index: int, size: int) -> None:
        self.index = index
        self.size = size
        self.code = ""
        self.people: list[Person] = []
        # version -> [sent at, actor index, clients that have it, last other arrival, kind]
        self.track: dict[int, list[Any]] = {}
        self.latest = 0

    def sent(self, version: int, at: float, actor: int, kind: str) -> None:
        self.track[version] = [at, actor, 0, at, kind]

    def cancel(self, version: int) -> None:
        self.track.pop(version, None)

    def arrived(self, fleet: Fleet, version: int, who: int, at: float) -> None:
        entry = self.track.get(version)
        if entry is not None:
            entry[2] += 1
            if who != entry[1] and at > entry[3]:
                entry[3] = at
            if entry[2] >= self.size:
                del self.track[version]
                if self.size > 1 and fleet.in_window(entry[0]):
                    fleet.fanout[entry[4]].append(entry[3] - entry[0])
        if version > self.latest:
            self.latest = version
            for old in [v for v in self.track if v < version - 64]:
                del self.track[old]


class Person:
    """One scripted client: a WebSocket, its latest state, at most one action in flight."""

    def __init__(self, fleet: Fleet, table: TableRun, index: int) -> None:
        self.fleet = fleet
        self.table = table
        self.index = index
        self.name = f"L{table.index}-{index}"
        self.rng = random.Random(f"{fleet.config.seed}/{table.index}/{index}")
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.closed = False
        self.version = -1
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.pending: Pending | None = None
        self.planned = -1
        self.waiter: tuple[str, asyncio.Future[dict[str, Any]]] | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.fleet.urls[(self.table.index + self.index) % len(self.fleet.urls)],
            max_size=1 << 22,
            ping_interval=None,
            open_timeout=60,
            close_timeout=2,
            compression="deflate" if self.fleet.config.compression else None,
        )
        self.reader = asyncio.create_task(self.read())
        await self.request({"type": "hello", "name": self.name}, "welcome")

    async def request(self, message: dict[str, Any], kind: str) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiter = (kind, future)
        try:
            await self.ws.send(json.dumps(message))
            reply = await asyncio.wait_for(future, 60)
        finally:
            self.waiter = None
        if reply["type"] == "error":
            raise SetupError(f"{message['type']}: {reply['code']}: {reply['message']}")
        return reply

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = time.monotonic()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    self.on_state(message, now)
                elif kind == "error":
                    self.on_error(message, now)
                waiter = self.waiter
                if waiter and kind in (waiter[0], "error") and not waiter[1].done():
                    waiter[1].set_result(message)
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            if not self.fleet.closing:
                self.fleet.dropped += 1
            if self.waiter and not self.waiter[1].done():
                self.waiter[1].set_exception(SetupError("the connection closed"))

    def on_state(self, message: dict[str, Any], now: float) -> None:
        version = message["version"]
        if version < self.version:
            return
        newer = version > self.version
        self.version = version
        self.view = message.get("view")
        self.seat = message.get("you", {}).get("game_seat")
        if newer:
            fleet = self.fleet
            if fleet.in_window(now):
                fleet.frames += 1
            self.table.arrived(fleet, version, self.index, now)
            pending = self.pending
            if pending is not None and version > pending.version:
                self.pending = None
                fleet.acknowledged(pending, now)
        self.plan()

    def on_error(self, message: dict[str, Any], now: float) -> None:
        code = message.get("code", "?")
        self.fleet.error(code, now)
        pending = self.pending
        if pending is None or message.get("about") not in ("act", "start"):
            return
        if code == "stale" and f"not {pending.version}" not in message.get("message", ""):
            return  # about an earlier action (already counted), not the one in flight
        self.pending = None
        self.table.cancel(pending.version + 1)
        # Try again at this version after a pause, unless the state moves on meanwhile.
        pause = 1.0 if code == "rate_limited" else 0.5
        asyncio.get_running_loop().call_later(pause, self.retry, pending.version)

    def retry(self, version: int) -> None:
        if self.version == version and self.pending is None:
            self.planned = -1
            self.plan()

    def plan(self) -> None:
        fleet = self.fleet
        if fleet.stopping or self.closed or self.pending is not None:
            return
        if self.view is None or self.seat is None or self.planned == self.version:
            return
        decision = choose(self.view, self.seat, self.rng)
        if decision is None:
            return
        self.planned = self.version
        fleet.spawn(self.act_later(self.version, decision, fleet.think_time()))

    async def act_later(self, version: int, decision: tuple[str, str], delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self.fleet.stopping or self.closed or self.pending is not None:
            return
        if self.version != version:
            return
        kind, code = decision
        if kind == "act":
            message: dict[str, Any] = {"type": "act", "action": code, "version": version}
        else:
            message = {"type": "start"}
        now = time.monotonic()
        self.pending = Pending(kind, version, now)
        self.table.sent(version + 1, now, self.index, kind)
        self.fleet.sent_actions += 1
        try:
            await self.ws.send(json.dumps(message))
        except Exception:
            self.pending = None
            self.table.cancel(version + 1)

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self.reader is not None:
            await asyncio.wait([self.reader], timeout=5)


class Fleet:
    """The clients of one process: set up its tables, play, measure, close."""

    def __init__(
        self, config: Config, tables: list[int], urls: list[str], conn: Connection
    ) -> None:
        self.config = config
        self.urls = urls  # the nodes: table k's clients go to node k, k+1, ... in turn
        self.conn = conn
        self.tables = [TableRun(index, config.clients) for index in tables]
        self.rng = random.Random(config.seed * 7919 + (tables[0] if tables else 0))
        self.window = (math.inf, math.inf)
        self.stopping = False
        self.closing = False
        self.latency: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.sent_at: list[float] = []  # when each act of self.latency["act"] was sent
        self.fanout: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.acked: Counter[str] = Counter()
        self.acked_total = 0
        self.errors: Counter[str] = Counter()
        self.errors_total: Counter[str] = Counter()
        self.setup_failures: list[str] = []
        self.sent_actions = 0
        self.frames = 0
        self.dropped = 0
        self.timeouts = 0
        self.lag: list[float] = []
        self.tasks: set[asyncio.Task[None]] = set()

    # -------------------------------------------------------------- bookkeeping

    def in_window(self, at: float) -> bool:
        return self.window[0] <= at < self.window[1]

    def think_time(self) -> float:
        low, high = self.config.think
        return low if high <= low else self.rng.uniform(low, high)

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def acknowledged(self, pending: Pending, now: float) -> None:
        self.acked_total += 1
        if self.in_window(pending.sent):
            self.acked[pending.kind] += 1
            self.latency[pending.kind].append(now - pending.sent)
            if pending.kind == "act":
                self.sent_at.append(pending.sent)

    def error(self, code: str, now: float) -> None:
        self.errors_total[code] += 1
        if self.in_window(now):
            self.errors[code] += 1

    def people(self) -> list[Person]:
        return [person for table in self.tables for person in table.people]

    # -------------------------------------------------------------- phases

    async def set_up(self, table: TableRun, gate: asyncio.Semaphore) -> None:
        async with gate:
            try:
                host = Person(self, table, 0)
                table.people.append(host)
                await host.connect()
                create = {
                    "type": "create",
                    "rules": self.config.rules,
                    "seats": table.size,
                    "bots": 0,
                    "timer": None,
                    "public": False,
                    "name": f"load {table.index}",
                }
                table.code = (await host.request(create, "joined"))["table"]
                for index in range(1, table.size):
                    person = Person(self, table, index)
                    table.people.append(person)
                    await person.connect()
                    joined = await person.request({"type": "join", "table": table.code}, "joined")
                    if joined.get("seat") is None:
                        raise SetupError(f"{person.name} was not seated at {table.code}")
                self.spawn(host.ws.send(json.dumps({"type": "start"})))
            except Exception as error:
                self.setup_failures.append(f"table {table.index}: {type(error).__name__}: {error}")
                for person in table.people:
                    await person.close()
                table.people.clear()

    async def watch_loop(self) -> None:
        """Event-loop lag samples (in the window) and a watchdog for lost actions."""
        tick, ticks = 0.05, 0
        while not self.stopping:
            start = time.monotonic()
            await asyncio.sleep(tick)
            now = time.monotonic()
            if self.in_window(start):
                self.lag.append(now - start - tick)
            ticks += 1
            if ticks % 20:
                continue
            for person in self.people():
                pending = person.pending
                if pending is not None and now - pending.sent > 15:
                    self.timeouts += 1
                    person.pending = None
                    person.table.cancel(pending.version + 1)
                    person.planned = -1
                    person.plan()

    async def run(self) -> dict[str, Any]:
        started = time.monotonic()
        watcher = asyncio.create_task(self.watch_loop())
        gate = asyncio.Semaphore(self.config.setup_concurrency)
        await asyncio.gather(*(self.set_up(table, gate) for table in self.tables))
        ready = [t for t in self.tables if t.people]
        connected = sum(1 for p in self.people() if not p.closed)
        self.conn.send(
            (
                "ready",
                {
                    "seconds": time.monotonic() - started,
                    "tables": len(ready),
                    "clients": connected,
                    "failures": self.setup_failures[:5],
                },
            )
        )
        deadline = time.monotonic() + self.config.setup_timeout + 60
        while not self.conn.poll():
            if time.monotonic() > deadline:
                raise TimeoutError("no go from the main process")
            await asyncio.sleep(0.02)
        _, window_start, window_end = self.conn.recv()
        self.window = (window_start, window_end)
        await asyncio.sleep(max(0.0, window_start - time.monotonic()))
        cpu_start, wait_start = time.process_time(), run_queue_wait()
        await asyncio.sleep(max(0.0, window_end - time.monotonic()))
        cpu = time.process_time() - cpu_start
        waited = run_queue_wait() - wait_start
        connected_end = sum(1 for p in self.people() if not p.closed)
        # Stop: no new actions; let those in flight land (at most 5 s); close everything.
        self.stopping = True
        drain = time.monotonic() + 5
        while any(p.pending for p in self.people()) and time.monotonic() < drain:
            await asyncio.sleep(0.05)
        in_flight = sum(1 for p in self.people() if p.pending)
        self.closing = True
        await watcher
        for task in list(self.tasks):
            task.cancel()
        people = self.people()
        for start in range(0, len(people), 100):
            await asyncio.gather(*(p.close() for p in people[start : start + 100]))
        return {
            "setup_seconds": time.monotonic() - started,
            "tables": len(ready),
            "clients": connected,
            "clients_end": connected_end,
            "latency": self.latency,
            "sent_at": self.sent_at,
            "fanout": self.fanout,
            "acked": dict(self.acked),
            "acked_total": self.acked_total,
            "sent_total": self.sent_actions,
            "errors": dict(self.errors),
            "errors_total": dict(self.errors_total),
            "frames": self.frames,
            "dropped": self.dropped,
            "timeouts": self.timeouts,
            "in_flight_at_stop": in_flight,
            "lag": self.lag,
            "cpu": cpu,
            "run_queue_wait": waited,
            "setup_failures": self.setup_failures,
        }


def fleet_process(config: Config, tables: list[int], urls: list[str], conn: Connection) -> None:
    """A client process: run its fleet, send the results back."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process decides when to stop
    try:
        result = asyncio.run(Fleet(config, tables, urls, conn).run())
        conn.send(("result", result))
    except BaseException:
        with contextlib.suppress(Exception):
            conn.send(("failed", traceback.format_exc()))
    finally:
        conn.close()


# ------------------------------------------------------------------------------ orchestration


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile of already sorted values."""
    if not values:
        return None
    rank = max(1, math.ceil(q / 100 * len(values)))
    return values[min(rank, len(values)) - 1]


def summary_ms(values: list[float]) -> dict[str, Any]:
    ordered = sorted(v * 1000 for v in values)
    out: dict[str, Any] = {"n": len(ordered)}
    for q in (50, 95, 99):
        value = percentile(ordered, q)
        out[f"p{q}"] = None if value is None else round(value, 2)
    out["max"] = round(ordered[-1], 2) if ordered else None
    return out


def receive(conn: Connection, deadline: float, process: multiprocessing.process.BaseProcess) -> Any:
    """The next message of a client process, before ``deadline`` (or an error)."""
    while time.monotonic() < deadline:
        if conn.poll(0.1):
            try:
                return conn.recv()
            except EOFError:
                break
        if not process.is_alive() and not conn.poll():
            break
    raise RuntimeError("a client process died or did not answer in time")


def py_spy_command(pid: int, seconds: float, output: str) -> list[str] | None:
    spy = Path(sys.executable).parent / "py-spy"
    found = str(spy) if spy.exists() else shutil.which("py-spy")
    if found is None:
        return None
    return [
        found,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, int(seconds))),
        "--rate",
        "100",
        "--format",
        "raw",
        "--function",
        "--nonblocking",
        "--output",
        output,
    ]


def run(config: Config, servers: list[Server], spy_output: str | None) -> dict[str, Any]:
    """Run the fleet against the nodes; the server figures are the first node's, and
    ``nodes`` has each node's memory and CPU."""
    server = servers[0]
    urls = [node.url for node in servers]
    node_rss_start = [node.status("VmRSS") for node in servers]
    node_cpu_start: list[float] = []
    context = multiprocessing.get_context("fork")
    procs = max(1, min(config.procs, config.tables))
    parts = [list(range(j, config.tables, procs)) for j in range(procs)]
    rss_start = server.status("VmRSS")
    cpu_boot = server.cpu()
    workers = []
    for part in parts:
        parent, child = context.Pipe()
        process = context.Process(target=fleet_process, args=(config, part, urls, child))
        process.start()
        child.close()
        workers.append((process, parent))
    try:
        setup_deadline = time.monotonic() + config.setup_timeout
        ready = []
        for process, conn in workers:
            kind, payload = receive(conn, setup_deadline, process)
            if kind != "ready":
                raise RuntimeError(f"a client process failed during set-up:\n{payload}")
            ready.append(payload)
        window_start = time.monotonic() + config.warmup
        window_end = window_start + config.seconds
        for _, conn in workers:
            conn.send(("go", window_start, window_end))
        rss_setup = server.status("VmRSS")
        time.sleep(max(0.0, window_start - time.monotonic()))
        cpu_start = server.cpu()
        node_cpu_start = [node.cpu() for node in servers]
        machine_start = machine_cpu()
        wait_start = run_queue_wait(server.pid)
        spy = None
        if spy_output:
            command = py_spy_command(server.pid, config.seconds, spy_output)
            if command is None:
                print("py-spy not found: pip install py-spy", file=sys.stderr)
            else:
                spy = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # Each second of the window: how long the server waited for a CPU (its worst second).
        worst_wait, mark, waited = 0.0, time.monotonic(), wait_start
        while (left := window_end - time.monotonic()) > 0:
            time.sleep(min(1.0, left))
            now, total = time.monotonic(), run_queue_wait(server.pid)
            if now - mark >= 0.5:
                worst_wait = max(worst_wait, (total - waited) / (now - mark))
            mark, waited = now, total
        cpu_window = server.cpu() - cpu_start
        wait_window = run_queue_wait(server.pid) - wait_start
        machine_end = machine_cpu()
        busy = machine_end[0] - machine_start[0]
        rss_end = server.status("VmRSS")
        rss_peak = server.status("VmHWM")
        nodes = [
            {
                "pid": node.pid,
                "rss_start_mib": round(node_rss_start[i], 1),
                "rss_end_mib": round(node.status("VmRSS"), 1),
                "rss_peak_mib": round(node.status("VmHWM"), 1),
                "cpu_window_percent": round(
                    100 * (node.cpu() - node_cpu_start[i]) / config.seconds, 1
                ),
            }
            for i, node in enumerate(servers)
        ]
        results = []
        for process, conn in workers:
            kind, payload = receive(conn, time.monotonic() + 120, process)
            if kind != "result":
                raise RuntimeError(f"a client process failed:\n{payload}")
            results.append(payload)
        if spy is not None:
            try:
                spy.wait(30)
            except subprocess.TimeoutExpired:
                spy.kill()
    finally:
        for process, conn in workers:
            process.join(10)
            if process.is_alive():
                process.terminate()
                process.join(5)
            conn.close()
    return merge(
        config,
        ready,
        results,
        {
            "pid": server.pid,
            "rss_start_mib": round(rss_start, 1),
            "rss_after_setup_mib": round(rss_setup, 1),
            "rss_end_mib": round(rss_end, 1),
            "rss_peak_mib": round(rss_peak, 1),
            "cpu_boot_seconds": round(cpu_boot, 2),
            "cpu_window_seconds": round(cpu_window, 2),
            "cpu_window_percent": round(100 * cpu_window / config.seconds, 1),
            "run_queue_wait_percent": round(100 * wait_window / config.seconds, 1),
            "run_queue_wait_worst_second_percent": round(100 * worst_wait, 1),
            "machine_busy_percent": round(100 * busy / config.seconds, 1),
            "loadavg_end": Path("/proc/loadavg").read_text().split()[0],
            "nodes": nodes,
        },
    )


def merge(
    config: Config,
    ready: list[dict[str, Any]],
    results: list[dict[str, Any]],
    server: dict[str, Any],
) -> dict[str, Any]:
    latency: dict[str, list[float]] = {kind: [] for kind in KINDS}
    fanout: dict[str, list[float]] = {kind: [] for kind in KINDS}
    acked: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    errors_total: Counter[str] = Counter()
    lag: list[float] = []
    samples: list[tuple[float, float]] = []
    for result in results:
        samples += zip(result["sent_at"], result["latency"]["act"], strict=True)
        for kind in KINDS:
            latency[kind] += result["latency"][kind]
            fanout[kind] += result["fanout"][kind]
        acked.update(result["acked"])
        errors.update(result["errors"])
        errors_total.update(result["errors_total"])
        lag += result["lag"]
    acts = latency["act"]
    every = [v for kind in KINDS for v in latency[kind]]
    total = sum(acked.values())
    clients = sum(r["clients"] for r in results)
    tables = sum(r["tables"] for r in results)
    act = summary_ms(acts)
    # Per node, the single-node target: 250 tables and 1,000 clients (2 nodes: 500, 2,000).
    nodes = len(server["nodes"])
    want_tables, want_clients = TARGET_TABLES * nodes, TARGET_CLIENTS * nodes
    return {
        "config": {
            "tables": config.tables,
            "clients_per_table": config.clients,
            "rules": config.rules,
            "seconds": config.seconds,
            "warmup": config.warmup,
            "think": list(config.think),
            "procs": len(results),
            "compression": config.compression,
            "cpus": os.cpu_count(),
            "nodes": len(server["nodes"]),
            "postgresql": config.postgresql,
        },
        "tables": tables,
        "clients_connected": clients,
        "clients_connected_end": sum(r["clients_end"] for r in results),
        "setup_seconds": round(max(r["seconds"] for r in ready), 2),
        "setup_failures": [f for r in results for f in r["setup_failures"]][:10],
        "actions": total,
        "actions_by_kind": {kind: acked.get(kind, 0) for kind in KINDS},
        "actions_per_second": round(total / config.seconds, 1),
        "new_states_per_second": round(sum(r["frames"] for r in results) / config.seconds, 1),
        "latency_ms": act,
        "latency_all_ms": summary_ms(every),
        "latency_by_kind_ms": {kind: summary_ms(latency[kind]) for kind in ("deal", "match")},
        "fanout_ms": summary_ms(fanout["act"]),
        "errors": dict(sorted(errors.items())),
        "errors_whole_run": dict(sorted(errors_total.items())),
        "lost_actions": sum(r["timeouts"] for r in results),
        "dropped_connections": sum(r["dropped"] for r in results),
        "server": server,
        "client_cpu_percent": round(100 * sum(r["cpu"] for r in results) / config.seconds, 1),
        "other_cpu_percent": round(
            server["machine_busy_percent"]
            - server["cpu_window_percent"]
            - 100 * sum(r["cpu"] for r in results) / config.seconds,
            1,
        ),
        "client_loop_lag_ms": summary_ms(lag),
        "client_run_queue_wait_percent": round(
            100 * max(r["run_queue_wait"] for r in results) / config.seconds, 1
        ),
        "_samples": sorted(samples),
        "target": {
            "tables": want_tables,
            "clients": want_clients,
            "p99_ms": TARGET_P99_MS,
            "checked": tables >= want_tables and clients >= want_clients,
            "met": tables >= want_tables
            and clients >= want_clients
            and act["p99"] is not None
            and act["p99"] <= TARGET_P99_MS,
        },
    }


# ------------------------------------------------------------------------------ reporting


def fmt_ms(summary: dict[str, Any]) -> str:
    if not summary["n"]:
        return "no samples"
    return (
        f"p50 {summary['p50']:.1f}  p95 {summary['p95']:.1f}  p99 {summary['p99']:.1f}  "
        f"max {summary['max']:.1f}  (n={summary['n']:,})"
    )


def report(result: dict[str, Any]) -> str:
    c, s = result["config"], result["server"]
    low, high = c["think"]
    think = (
        "0 (raw throughput)" if high == 0 else f"{low:g}-{high:g} s" if high > low else f"{low:g} s"
    )
    errors = ", ".join(f"{k} {v}" for k, v in result["errors"].items()) or "none"
    errors_run = ", ".join(f"{k} {v}" for k, v in result["errors_whole_run"].items()) or "none"
    deal, match = result["latency_by_kind_ms"]["deal"], result["latency_by_kind_ms"]["match"]
    target = result["target"]
    wanted = f"{target['tables']} tables, {target['clients']:,} clients"
    if not target["checked"]:
        verdict = f"not checked (it needs {wanted})"
    else:
        verdict = "MET" if target["met"] else "MISSED"
    on = f" on {c['nodes']} nodes (PostgreSQL + Redis)" if c["nodes"] > 1 else ""
    on = on or (" (one node on PostgreSQL)" if c["postgresql"] else "")
    lines = [
        f"Una load benchmark: {c['tables']} tables x {c['clients_per_table']} clients{on}, "
        f"rules {json.dumps(c['rules'])}, think {think}, {c['seconds']:g} s measured after "
        f"a {c['warmup']:g} s warm-up",
        f"  NOTE: server and client fleet share this {c['cpus']}-CPU machine; the fleet "
        f"({c['procs']} process{'es' if c['procs'] > 1 else ''}, permessage-deflate "
        f"{'on' if c['compression'] else 'off'}) competes with the server for CPU",
        f"clients connected     {result['clients_connected']:,} at {result['tables']} tables "
        f"(set up in {result['setup_seconds']:.1f} s; {result['clients_connected_end']:,} "
        f"still connected at the end, {result['dropped_connections']} dropped)",
        f"actions acknowledged  {result['actions']:,} ({result['actions_per_second']:,.1f}/s; "
        f"act {result['actions_by_kind']['act']:,}, deal {result['actions_by_kind']['deal']}, "
        f"new match {result['actions_by_kind']['match']}); "
        f"{result['new_states_per_second']:,.0f} new states/s received",
        f"act -> own state ms   {fmt_ms(result['latency_ms'])}",
        f"act -> last other ms  {fmt_ms(result['fanout_ms'])}",
        f"deal -> own state ms  {fmt_ms(deal)}",
        f"new match ms          {fmt_ms(match)}",
        f"errors (window)       {errors}   (whole run: {errors_run}; "
        f"lost actions {result['lost_actions']})",
        f"server memory         VmRSS {s['rss_start_mib']:.1f} MiB at start, "
        f"{s['rss_after_setup_mib']:.1f} after set-up, {s['rss_end_mib']:.1f} at the end "
        f"(peak {s['rss_peak_mib']:.1f})",
        f"server CPU            {s['cpu_window_seconds']:.1f} s in the {c['seconds']:g} s window "
        f"= {s['cpu_window_percent']:.0f}% of one core; its event loop waited for a CPU "
        f"{s['run_queue_wait_percent']:.0f}% of the time (worst second "
        f"{s['run_queue_wait_worst_second_percent']:.0f}%)",
        *(
            f"node {i}                VmRSS {n['rss_start_mib']:.1f} MiB at start, "
            f"{n['rss_end_mib']:.1f} at the end (peak {n['rss_peak_mib']:.1f}); CPU "
            f"{n['cpu_window_percent']:.0f}% of one core"
            for i, n in enumerate(s["nodes"])
            if c["nodes"] > 1
        ),
        f"client fleet          CPU {result['client_cpu_percent']:.0f}% of one core; "
        f"waited for a CPU {result['client_run_queue_wait_percent']:.0f}% of the time; "
        f"event-loop lag {fmt_ms(result['client_loop_lag_ms'])}",
        f"machine               {s['machine_busy_percent']:.0f}% busy of {100 * c['cpus']}% "
        f"({result['other_cpu_percent']:.0f}% by other processes; load average "
        f"{s['loadavg_end']})",
        f"target ({wanted}, act p99 <= 100 ms): {verdict}",
    ]
    if result["setup_failures"]:
        lines.append("set-up failures: " + "; ".join(result["setup_failures"][:3]))
    return "\n".join(lines)


def profile_summary(path: str, top: int = 25) -> str:
    """The hot spots of a py-spy raw (collapsed stacks) profile: self and inclusive shares."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        samples = int(count)
        total += samples
        frames = [shorten(frame) for frame in stack.split(";")]
        own[frames[-1]] += samples
        for frame in set(frames):
            inclusive[frame] += samples
    if not total:
        return "py-spy: no samples"
    out = [f"py-spy: {total} samples of the server (100 Hz, active threads only)", "self:"]
    out += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in own.most_common(top)]
    out.append("inclusive:")
    out += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(top * 2)]
    return "\n".join(out)


def shorten(frame: str) -> str:
    for marker in ("site-packages/", "/work/main/", "lib/python3.11/"):
        if marker in frame:
            head, _, tail = frame.partition("(")
            return f"{head}({tail.split(marker, 1)[1]}"
    return frame


# ------------------------------------------------------------------------------ command line


def parse_think(text: str) -> tuple[float, float]:
    """``0.5-1.5`` (uniform), ``1`` (fixed) or ``0`` (none)."""
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError(f"think: LOW-HIGH seconds, not {text!r}")
    return pair


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250, help="tables (default 250)")
    parser.add_argument("--clients", type=int, default=4, help="clients per table (default 4)")
    parser.add_argument("--rules", default="standard", help="a preset, or a JSON rules object")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured (default 60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="after set-up (default 5)")
    parser.add_argument(
        "--think",
        type=parse_think,
        default=(0.5, 1.5),
        help="think time per action: LOW-HIGH s, or one value; 0 for raw "
        "throughput (default 0.5-1.5)",
    )
    parser.add_argument("--procs", type=int, default=1, help="client processes (default 1)")
    parser.add_argument(
        "--setup-concurrency", type=int, default=16, help="tables set up at once (default 16)"
    )
    parser.add_argument("--setup-timeout", type=float, default=600.0)
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="do not offer permessage-deflate (browsers do)",
    )
    parser.add_argument(
        "--db-dir",
        metavar="DIR",
        help="where the temporary database goes (default: the system's temp "
        "dir; e.g. /dev/shm to take the disk's fsync out)",
    )
    parser.add_argument(
        "--nodes", type=int, default=1, help="una serve nodes (default 1; 2+: --redis mode)"
    )
    parser.add_argument(
        "--db",
        help="a PostgreSQL URL (a schema of its own is made and dropped); default with --nodes "
        f"2+: {PG_DEFAULT}; with one node: a temporary SQLite file",
    )
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/0", help="the nodes' Redis (--nodes 2+)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="profile the server with py-spy over the window (raw format)",
    )
    parser.add_argument(
        "--samples", metavar="FILE", help="write every act's send time and latency (CSV)"
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the servers' logs in DIR")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.tables < 1 or not 2 <= args.clients <= 10 or args.seconds <= 0 or args.procs < 1:
        parser.error("need tables >= 1, 2 <= clients <= 10, seconds > 0, procs >= 1")
    if args.nodes < 1:
        parser.error(f"--nodes: 1 or more, not {args.nodes}")
    return args


def drop_schema(db: str, schema: str) -> None:
    """Drop the multi-node run's schema (its tables, games and actions)."""
    import sqlalchemy as sa

    from una.server.storage import create_engine

    async def drop() -> None:
        engine = create_engine(db)
        try:
            async with engine.begin() as conn:
                await conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        finally:
            await engine.dispose()

    asyncio.run(drop())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rules = json.loads(args.rules) if args.rules.lstrip().startswith("{") else args.rules
    config = Config(
        tables=args.tables,
        clients=args.clients,
        rules=rules,
        seconds=args.seconds,
        warmup=args.warmup,
        think=args.think,
        procs=args.procs,
        setup_concurrency=args.setup_concurrency,
        setup_timeout=args.setup_timeout,
        compression=not args.no_compression,
        seed=args.seed,
        postgresql=bool(args.db) or args.nodes > 1,
    )
    with tempfile.TemporaryDirectory(prefix="una-load-", dir=args.db_dir) as directory:
        schema = f"una_load_{os.getpid()}"
        db = args.db or (PG_DEFAULT if args.nodes > 1 else None)
        if db is None:
            servers = [Server(Path(directory))]
        else:
            separator = "&" if "?" in db else "?"
            db_url = f"{db}{separator}schema={schema}"
            redis = args.redis if args.nodes > 1 else None
            servers = [
                Server(Path(directory), db_url, redis, name=str(i)) for i in range(args.nodes)
            ]
        try:
            for server in servers:
                server.start()
            result = run(config, servers, args.py_spy)
        except BaseException:
            for server in servers:
                print(server.log(), file=sys.stderr)
            raise
        finally:
            codes = [server.stop() for server in servers]
            if db is not None:
                drop_schema(db, schema)
        if args.logs:
            Path(args.logs).mkdir(parents=True, exist_ok=True)
            for server in servers:
                shutil.copy(server.log_path, Path(args.logs) / server.log_path.name)
        code = codes[0]
        result["server"]["exit_code"] = code
        problems = [line for server in servers for line in server.log_errors()]
        result["server"]["log_errors"] = len(problems)
        if problems:
            print("server log errors:\n  " + "\n  ".join(problems[:10]), file=sys.stderr)
    samples = result.pop("_samples")
    if args.samples:
        start = samples[0][0] if samples else 0.0
        lines = [f"{sent - start:.4f},{latency * 1000:.2f}" for sent, latency in samples]
        Path(args.samples).write_text("sent_s,latency_ms\n" + "\n".join(lines) + "\n")
    if args.json:
        print(json.dumps(result))
    else:
        print(report(result))
        # uvicorn shuts down gracefully on SIGTERM, then re-raises it: -15 is the normal end.
        how = "on SIGTERM" if code == -signal.SIGTERM else f"with exit code {code}"
        print(f"server stopped {how}; {len(problems)} error lines in its log")
    if args.py_spy and Path(args.py_spy).exists():
        print(profile_summary(args.py_spy), file=sys.stderr if args.json else sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
