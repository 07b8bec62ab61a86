"""The attack list of issues 19 and 20 (and issue 16 item 3) against ``una serve``, on
loopback, as one table.

Each attack is an async function registered with ``@attack(name, issue, what)``: it gets a
:class:`Target` (the server's URLs, its pid when this script started it, and the size of
the run) and returns an :class:`Outcome` (whether the server held, and what was measured).
To add one, write the function below the others; ``--only NAME,...`` runs a few. The fault
items (crashes, restarts, a frozen reader, the lobby's cost...) are in abuse_faults.py: each
starts its own server on a database of its own, since it kills and restarts it.

By default a fresh ``una serve`` is started on a free 127.0.0.1 port with an SQLite file in
a temporary directory (``--bot-delay 0``); ``--db`` a PostgreSQL URL puts it, and every
fault's server, on a fresh ``?schema=`` of that database instead (dropped afterwards).
``--url http://127.0.0.1:PORT`` attacks a running one (loopback only; memory is measured
only with ``--pid``). Every loop is bounded::

    python benchmarks/abuse.py                  # the whole list, the issues' sizes
    python benchmarks/abuse.py --quick --json   # tiny counts (what the tests run)
    python benchmarks/abuse.py --only join-guess,budgets,crash-at-match-start
    python benchmarks/abuse.py --db postgresql://postgres@127.0.0.1:5432/test
    python benchmarks/abuse.py --flood-icons ws://127.0.0.1:8000/ws --seconds 6  # one flood
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abuse_faults import FAULTS, Fault

UNA = str(Path(sys.executable).parent / "una")


# ------------------------------------------------------------------ the target


class Client:
    """A scripted WebSocket client that keeps every frame it receives."""

    def __init__(self, target: Target, name: str) -> None:
        self.target, self.name = target, name
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self.token: str | None = None
        self.player_id = 0
        self.version = -1
        self._reader: asyncio.Task[None] | None = None
        self._new = asyncio.Event()

    async def connect(self, token: str | None = None) -> Client:
        self.ws = await connect(self.target.ws, max_size=None)
        self._reader = asyncio.create_task(self._read())
        await self.send({"type": "hello", **({"token": token} if token else {"name": self.name})})
        welcome = await self.expect("welcome")
        self.token = welcome.get("token", token)
        self.player_id = welcome["player"]["id"]
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                frame = json.loads(raw)
                if frame.get("type") == "state":
                    self.version = frame["version"]
                self.frames.append(frame)
                self._new.set()
        self._new.set()

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    def mark(self) -> int:
        return len(self.frames)

    async def expect(self, kind: str, since: int = 0, timeout: float = 20.0) -> dict[str, Any]:
        """The first frame of type ``kind`` from index ``since`` on."""
        deadline = time.monotonic() + timeout
        while True:
            for frame in self.frames[since:]:
                if frame.get("type") == kind:
                    return frame
            since = max(since, len(self.frames))
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {kind!r} frame")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def answers(self, since: int, count: int, timeout: float = 30.0) -> list[Any]:
        """The ``count`` frames after ``since``, other than table states."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = [f for f in self.frames[since:] if f.get("type") != "state"]
            if len(got) >= count:
                return got[:count]
            await asyncio.sleep(0.02)
        return [f for f in self.frames[since:] if f.get("type") != "state"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


@dataclass
class Target:
    """A running server, and how hard to attack it (``quick``: tiny counts)."""

    url: str
    pid: int | None = None
    quick: bool = False
    names: int = 0
    #: a PostgreSQL URL for the faults' databases (None: SQLite files in ``workdir``)
    db: str | None = None
    workdir: str = ""

    @property
    def ws(self) -> str:
        return self.url.replace("http", "ws", 1) + "/ws"

    def count(self, full: int, quick: int) -> int:
        return quick if self.quick else full

    async def client(self, prefix: str = "A", token: str | None = None) -> Client:
        self.names += 1  # every attacker has a name of her own (look-alikes are refused)
        return await Client(self, f"{prefix}{self.names}").connect(token)

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            request = urllib.request.Request(self.url + path, headers=headers)
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def rss_kib(self) -> int | None:
        if self.pid is None:
            return None
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return None

    async def table(self, people: int, bots: int = 0, start: bool = True) -> list[Client]:
        """A private table of ``people`` clients (and bots), its match started."""
        clients = [await self.client("P") for _ in range(people)]
        host = clients[0]
        mark = host.mark()
        rules = {"preset": "standard", "target": 30}
        await host.send({"type": "create", "seats": people + bots, "bots": bots,
                         "public": False, "rules": rules})  # fmt: skip
        code = (await host.expect("joined", mark))["table"]
        for other in clients[1:]:
            mark = other.mark()
            await other.send({"type": "join", "table": code})
            await other.expect("joined", mark)
        if start:
            await host.send({"type": "start"})
            for one in clients:
                while one.version < 0 or one.frames[-1].get("view") is None:
                    await asyncio.sleep(0.02)
        return clients


@dataclass
class Outcome:
    held: bool
    measured: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Attack:
    name: str
    issue: str
    what: str
    run: Callable[[Target], Awaitable[Outcome]]


#: Every attack, in the order they run.
ATTACKS: dict[str, Attack] = {}


def attack(
    name: str, issue: str, what: str
) -> Callable[[Callable[[Target], Awaitable[Outcome]]], Callable[[Target], Awaitable[Outcome]]]:
    """Register an attack: ``@attack("name", "19.1", "what it does")`` on ``async def f(t)``."""

    def register(
        run: Callable[[Target], Awaitable[Outcome]],
    ) -> Callable[[Target], Awaitable[Outcome]]:
        ATTACKS[name] = Attack(name, issue, what, run)
        return run

    return register


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)] if ordered else float("nan")


# -------------------------------------------------------------------- issue 19


@attack("crafted-codes", "19.1", "distinct `play R5 @1 ... @2000` codes from 10 seated players")
async def crafted_codes(t: Target) -> Outcome:
    per_player = t.count(100, 3)
    players = await t.table(10)
    before = t.rss_kib()
    targets = " ".join(f"@{seat}" for seat in range(1, 2001))

    async def flood(index: int, player: Client) -> None:
        for n in range(per_player):
            code = f"play R5 @{index} @{n} {targets}"
            await player.send({"type": "act", "action": code, "version": player.version})
            await asyncio.sleep(0.1)  # within the act budget: every code is parsed

    await asyncio.gather(*(flood(i, p) for i, p in enumerate(players)))
    await asyncio.sleep(0.5)
    after = t.rss_kib()
    for player in players:
        await player.close()
    sent = per_player * len(players)
    if before is None or after is None:
        return Outcome(True, f"{sent} codes; RSS not measured (no --pid)")
    grown = (after - before) / 1024
    return Outcome(grown < 25, f"{sent} codes: RSS +{grown:.1f} MiB", {"rss_growth_mib": grown})


def big_icon() -> str:
    """A 1024x1024 PNG of 5 KB, base64: costly to decode, cheap to send."""
    from PIL import Image

    out = io.BytesIO()
    Image.linear_gradient("L").resize((1024, 1024)).convert("RGB").save(out, "PNG", optimize=True)
    return base64.b64encode(out.getvalue()).decode()


def flood_icons(ws: str, seconds: float, sockets: int = 3, every: float = 0.01) -> int:
    """Icons from ``sockets`` players, one each ``every`` seconds for ``seconds`` (in threads
    of this process, with a synchronous client); the icons sent."""
    import threading

    from websockets.sync.client import connect as connect_sync

    frame = json.dumps({"type": "set_icon", "image": big_icon()})
    sent = [0] * sockets

    def flood(index: int) -> None:
        with connect_sync(ws, max_size=None) as conn:
            conn.send(json.dumps({"type": "hello", "name": f"Flood{index}"}))
            conn.recv()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                conn.send(frame)
                sent[index] += 1
                time.sleep(every)
            for _ in range(sent[index]):
                conn.recv()

    threads = [threading.Thread(target=flood, args=(i,)) for i in range(sockets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(sent)


@attack("icon-flood", "19.2", "1024x1024 icons from 3 players; another table's pings")
async def icon_flood(t: Target) -> Outcome:
    seconds = t.count(6, 1)
    probers = [await t.client("Probe") for _ in range(3)]
    mark = probers[0].mark()
    await probers[0].send({"type": "create", "seats": 4, "public": False})
    code = (await probers[0].expect("joined", mark))["table"]
    for prober in probers[1:]:
        await prober.send({"type": "watch", "table": code})
    # The flood runs in a process of its own, so that it does not delay these pings.
    flood = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--flood-icons", t.ws, "--seconds", str(seconds)
    )
    samples: list[float] = []

    async def probe(player: Client) -> None:
        while flood.returncode is None:
            mark = player.mark()
            sent = time.perf_counter()
            await player.send({"type": "ping"})
            await player.expect("pong", mark)
            samples.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(0.15)

    probes = [asyncio.create_task(probe(p)) for p in probers]
    await flood.wait()
    await asyncio.gather(*probes)
    for prober in probers:
        await prober.close()
    p50, p90, p99 = (percentile(samples, q) for q in (0.5, 0.9, 0.99))
    return Outcome(
        p90 < 15 and flood.returncode == 0,
        f"{len(samples)} pings: p50 {p50:.1f} p90 {p90:.1f} p99 {p99:.1f} ms",
        {"p50_ms": p50, "p90_ms": p90, "p99_ms": p99},
    )


@attack("settings-flood", "19.3", "settings messages as fast as one socket sends them")
async def settings_flood(t: Target) -> Outcome:
    count = t.count(2000, 50)
    ann = await t.client()
    mark = ann.mark()
    start = time.monotonic()
    for i in range(count):
        await ann.send({"type": "settings", "settings": {"n": i}})
    frames = await ann.answers(mark, count, timeout=60)
    elapsed = time.monotonic() - start
    written = sum(1 for f in frames if f.get("type") == "settings")
    await ann.close()
    return Outcome(
        written <= 8 + 2 * elapsed + 2,
        f"{count} sent in {elapsed:.1f} s: {written} written",
        {"written": written},
    )


BAD_PATHS = [
    "/games/99999999999999999999.json",
    "/icons/99999999999999999999.png",
    "/games/1/views?seat=%C2%B2",
    "/games/%EF%BC%91.json",
    "/games/1/views?seat=99999999999999999999",
    "/no/such/page",
]


@attack("http-500s", "19.4", "bad ids and parameters over HTTP")
async def http_500s(t: Target) -> Outcome:
    statuses = {}
    for path in BAD_PATHS:
        status, body = t.get(path)
        try:
            reason = json.loads(body).get("error")
        except ValueError:
            reason = None
        statuses[path] = status if reason else f"{status} without a JSON reason"
    bad = {p: s for p, s in statuses.items() if s not in (400, 404)}
    return Outcome(not bad, f"{len(BAD_PATHS)} paths: {bad or 'all 400/404 with a reason'}")


@attack("look-alike", "19.5", "names that look like a seated player's")
async def look_alike(t: Target) -> Outcome:
    victim = await Client(t, "VictimA").connect()
    mark = victim.mark()
    await victim.send({"type": "create", "seats": 6, "public": False})
    code = (await victim.expect("joined", mark))["table"]
    accepted = []
    for name in ("Victim\u0410", "victima", "VICTIMA", "\u2164ictim\uff21"):
        impostor = await Client(t, name).connect()
        mark = impostor.mark()
        await impostor.send({"type": "join", "table": code})
        (frame,) = await impostor.answers(mark, 1)
        if frame.get("type") == "joined":
            accepted.append(name)
        await impostor.close()
    await victim.close()
    return Outcome(not accepted, f"4 impostors: {len(accepted)} sat ({accepted})")


@attack("cli-traceback", "19.6", "una serve --db mysql://x@y/z")
async def cli_traceback(t: Target) -> Outcome:
    result = subprocess.run([UNA, "serve", "--db", "mysql://x@y/z"], capture_output=True,
                            text=True, timeout=60, check=False)  # fmt: skip
    lines = result.stderr.splitlines()
    held = result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr
    return Outcome(held, f"exit {result.returncode}, {len(lines)} line(s) on stderr")


@attack("players-string", "19.7", 'Game("standard", players="Ann")')
async def players_string(t: Target) -> Outcome:
    from una.engine import Game, UnaError

    try:
        game = Game("standard", players="Ann")
    except UnaError as error:
        return Outcome(True, f"refused: {error}"[:80])
    return Outcome(False, f"made {game.n} seats: {game.names}")


# -------------------------------------------------------------------- issue 20


@attack("join-guess", "20.6", "5 sockets guess private table codes")
async def join_guess(t: Target) -> Outcome:
    per_socket = t.count(200, 20)
    host = await t.client()
    mark = host.mark()
    await host.send({"type": "create", "seats": 4, "public": False})
    code = (await host.expect("joined", mark))["table"]
    guessers = [await t.client("G") for _ in range(5)]
    marks = [g.mark() for g in guessers]
    start = time.monotonic()
    for n in range(per_socket):
        for g in guessers:
            await g.send({"type": "join", "table": f"GUESS{n:05d}"})
    looked_up = 0
    for g, mark in zip(guessers, marks, strict=True):
        frames = await g.answers(mark, per_socket)
        looked_up += sum(1 for f in frames if f.get("code") == "no_table")
    elapsed = time.monotonic() - start
    for one in (host, *guessers):
        await one.close()
    from una.server.protocol import BUDGETS

    # Past the bursts, an address looks up misses at its sustained rate: at that rate, one
    # of 200 private tables among 32**10 codes takes this long to find, on average.
    miss = BUDGETS["miss"]
    sustained = miss.rate * miss.address_factor
    years = 32 ** len(code) / 200 / sustained / 3.15e7
    return Outcome(
        len(code) >= 10 and looked_up <= 5 * (miss.burst + miss.rate * elapsed) + 5,
        f"code of {len(code)}; {looked_up} of {5 * per_socket} guesses looked up in "
        f"{elapsed:.1f} s; sustained {sustained:g}/s per address: ~{years:.0e} years for 1 of 200",
        {"looked_up": looked_up, "code_length": len(code)},
    )


BUDGETED = [
    {"type": "ping"},
    {"type": "lobby"},
    {"type": "join", "table": "NOPE1"},
    {"type": "watch", "table": "NOPE1"},
    {"type": "resume", "table": "NOPE1", "version": 0},
    {"type": "settings", "settings": {"sound": False}},
    {"type": "auto", "on": True},
    {"type": "reset_icon"},
    {"type": "create", "seats": 2, "public": False},
]


@attack("budgets", "20.7", "each message type, 60 at once from one socket")
async def budgets(t: Target) -> Outcome:
    count = 60
    served = {}
    for message in BUDGETED:
        ann = await t.client()
        mark = ann.mark()
        for _ in range(count):
            await ann.send(message)
        frames = await ann.answers(mark, count)
        served[message["type"]] = sum(1 for f in frames if f.get("code") != "rate_limited")
        await ann.close()
    unlimited = [kind for kind, n in served.items() if n >= count]
    summary = " ".join(f"{kind}:{n}" for kind, n in served.items())
    return Outcome(not unlimited, f"served of {count}: {summary}", {"served": served})


@attack("private-records", "20.10", "a finished private game and an icon, by sequential id")
async def private_records(t: Target) -> Outcome:
    (ann,) = await t.table(1, bots=1, start=True)
    await ann.send({"type": "auto", "on": True})
    deadline = time.monotonic() + t.count(120, 60)
    game_id = None
    while time.monotonic() < deadline and game_id is None:
        for frame in reversed(ann.frames):
            if frame.get("type") == "state":
                if (frame.get("view") or {}).get("match_winner") is not None:
                    game_id = frame["game_id"]
                break
        await asyncio.sleep(0.1)
    if game_id is None:
        await ann.close()
        return Outcome(False, "the match did not end in time")
    await ann.send({"type": "set_icon", "image": small_icon()})
    await ann.expect("icon")
    record = t.get(f"/games/{game_id}.json")[0]
    mine = t.get(f"/games/{game_id}.json", ann.token)[0]
    icon = t.get(f"/icons/{ann.player_id}.png")[0]
    await ann.close()
    return Outcome(
        record in (401, 403) and mine == 200 and icon == 404,
        f"record: {record} to strangers, {mine} to its player; icon by player id: {icon}",
    )


def small_icon() -> str:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 64), "teal").save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


# --------------------------------------- issue 20 items 1-5, 8, 9 and issue 16 item 3


def fresh_db(base: str | None, directory: str, name: str) -> str:
    """A database of its own: an SQLite file in ``directory``, or a new schema of ``base``."""
    if base is None:
        return f"sqlite:///{Path(directory) / (name + '.db')}"
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}schema=abuse_{name.replace('-', '_')}_{uuid.uuid4().hex[:8]}"


async def drop_db(base: str | None, db: str) -> None:
    """Drop a :func:`fresh_db` schema (an SQLite file goes with its directory)."""
    if base is not None:
        from serverkit import sql

        schema = db.rsplit("schema=", 1)[1]
        await sql(base, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def fault_attack(item: Fault) -> Callable[[Target], Awaitable[Outcome]]:
    """A fault of abuse_faults.py as an attack: on a server and database of its own."""

    async def run(t: Target) -> Outcome:
        db = fresh_db(t.db, t.workdir, item.name)
        try:
            # In a thread, on an event loop of its own: a fault blocks while its servers
            # start, and the quick run has several side by side.
            held, measured, data = await asyncio.to_thread(asyncio.run, item.run(db, t.quick))
        finally:
            await drop_db(t.db, db)
        return Outcome(held, measured, data)

    return run


for _item in FAULTS.values():
    ATTACKS[_item.name] = Attack(_item.name, _item.issue, _item.what, fault_attack(_item))
#: In the issues' order (16.3, 19.1, ..., 20.10).
ATTACKS = dict(sorted(ATTACKS.items(), key=lambda kv: [int(n) for n in kv[1].issue.split(".")]))


# ------------------------------------------------------------------------ main


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def own_server(base: str | None, tmp: str) -> Any:
    """``una serve`` on a free loopback port with a fresh database: (url, pid)."""
    db = fresh_db(base, tmp, "server")
    port = free_port()
    command = [UNA, "serve", "--port", str(port), "--db", db,
               "--bot-delay", "0", "--log-level", "warning"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/health", timeout=2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("una serve did not start") from None
                time.sleep(0.1)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(10)
        asyncio.run(drop_db(base, db))


async def run_one(target: Target, name: str) -> dict[str, Any]:
    entry = ATTACKS[name]
    start = time.monotonic()
    try:
        outcome = await asyncio.wait_for(entry.run(target), 300)
    except Exception as error:  # an attack that breaks is a result too
        outcome = Outcome(False, f"the attack failed: {type(error).__name__}: {error}"[:120])
    return {"attack": name, "issue": entry.issue, "what": entry.what,
            "held": outcome.held, "measured": outcome.measured,
            "seconds": round(time.monotonic() - start, 2), **outcome.data}  # fmt: skip


async def run_all(target: Target, names: list[str]) -> list[dict[str, Any]]:
    """One after the other; with ``quick`` (a smoke run, nothing measured for good), the
    faults run side by side, and beside the other attacks: each has its own servers."""
    beside = [name for name in names if name in FAULTS] if target.quick else []
    running = {name: asyncio.create_task(run_one(target, name)) for name in beside}
    rows = {name: await run_one(target, name) for name in names if name not in running}
    rows |= {name: await task for name, task in running.items()}
    return [rows[name] for name in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", help="a running server on loopback (default: start one)")
    parser.add_argument("--pid", type=int, help="its process id (to measure its memory)")
    parser.add_argument("--db", help="a PostgreSQL URL (default: temporary SQLite files)")
    parser.add_argument("--only", help="comma-separated attack names")
    parser.add_argument("--quick", action="store_true", help="tiny counts (a smoke run)")
    parser.add_argument("--json", action="store_true", help="print one JSON list")
    parser.add_argument("--flood-icons", metavar="WS_URL", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=6.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood_icons:
        flood_icons(args.flood_icons, args.seconds)
        return
    names = args.only.split(",") if args.only else list(ATTACKS)
    unknown = [name for name in names if name not in ATTACKS]
    if unknown:
        parser.error(f"unknown attack {unknown[0]!r} (attacks: {', '.join(ATTACKS)})")
    if args.db is not None and not args.db.startswith("postgresql"):
        parser.error("--db: a postgresql:// URL (the default is SQLite)")
    with tempfile.TemporaryDirectory(prefix="una-abuse-") as tmp:
        if args.url:
            host = urllib.parse.urlsplit(args.url).hostname
            if host not in ("127.0.0.1", "localhost", "::1"):
                parser.error(f"--url: loopback only, not {host!r}")
            servers: Any = contextlib.nullcontext((args.url.rstrip("/"), args.pid))
        else:
            servers = own_server(args.db, tmp)
        # The servers' own lines go to stderr: stdout is the table (or the JSON) alone.
        out = os.fdopen(os.dup(1), "w")
        sys.stdout.flush()
        os.dup2(2, 1)
        with servers as (url, pid):
            target = Target(url, pid, args.quick, db=args.db, workdir=tmp)
            rows = asyncio.run(run_all(target, names))
    if args.json:
        print(json.dumps(rows), file=out)
        return
    print(f"{'attack':<22} {'issue':<6} {'held':<5} measured", file=out)
    for row in rows:
        print(f"{row['attack']:<22} {row['issue']:<6} {'yes' if row['held'] else 'NO':<5} "
              f"{row['measured']}", file=out)  # fmt: skip
    out.flush()
    sys.exit(0 if all(row["held"] for row in rows) else 1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
