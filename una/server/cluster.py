"""Many ``una serve`` nodes on one PostgreSQL and one Redis (``una serve --redis URL``).

Each table has one owner, the node that holds its lease in the database (``tables.owner``,
``tables.lease_until``, renewed by a heartbeat every third of the lease). Only the owner has the
table in memory: it appends the actions, runs the bots and timers, closes it. Every other node
is a relay for its own sockets:

- a client's message for a table owned elsewhere is published on the owner's channel
  (``<prefix>:node:<node>``); the owner handles it for a *proxy* :class:`Client` of that
  socket, exactly as it handles its own clients' messages;
- what the owner sends a proxy is batched per node and published on the socket's node's
  channel, which hands it to the socket's send queue (a state as the owner encoded it: the
  socket's node neither decodes nor re-encodes it);
- the lobby: each owner keeps its tables' summaries in the hash ``<prefix>:lobby`` and
  publishes each change on the channel of the same name; every node mirrors them, so its
  lobby lists the tables of every node.

A node that dies (SIGKILL) stops renewing its leases; once they run out, another node claims
the tables (one ``UPDATE``: two nodes never claim one table), restores each from its action
log and publishes its summary; the nodes whose sockets were at such a table send a ``resume``
for them to the new owner, and clients of the dead node reconnect to any node and resume. No
acknowledged action is lost: an action is acknowledged only after its row is committed.

Writes are fenced: an owner appends an action or closes a table with its node id, and the
storage commits the write only if the table's row still names this node (checked and locked in
the write's transaction, so a claim cannot pass in between). A node that was paused past its
lease and then writes is refused (:class:`~una.server.storage.LeaseLost`); it drops the table,
and its sockets there resume with the new owner.

The nodes hold the room service's advisory lock *shared* (a single ``una serve`` or ``una
telegram`` takes it exclusively): a single service and nodes never run on one database.

``<prefix>`` is ``una:<database>:<schema>``: the nodes of one database form one cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import make_url

from una.server import protocol as p
from una.server.rooms import Client, Encoded, RoomService, Table, frame_text
from una.server.storage import StorageError

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger("una.server.cluster")

#: Seconds a lease lasts without a heartbeat (``UNA_LEASE``): how long a dead node's tables
#: wait before another node takes them over.
LEASE = 10.0

#: Client messages about the table the client is at: they go to the table's owner.
AT_TABLE = (p.Sit, p.Stand, p.Leave, p.Kick, p.Start, p.Act, p.Chat, p.Auto)
#: Client messages that take the client to a table (named in the message).
TO_TABLE = (p.Join, p.Watch, p.Resume)
#: How an encoded state message begins (``frame_text``; the room service puts ``type`` first).
_STATE = '{"type":"state"'


def _encode(message: p.Message) -> dict[str, Any]:
    return {"type": message.type, **dataclasses.asdict(message)}


def _decode(data: dict[str, Any]) -> p.Message:
    fields = dict(data)
    kind = fields.pop("type")
    return p.MESSAGES[kind](**fields)


class Cluster:
    """This node's part in the cluster: leases, routes, relays and the shared lobby."""

    def __init__(self, redis_url: str, lease: float = LEASE) -> None:
        if lease <= 0:
            raise ValueError(f"lease: a number of seconds above 0, not {lease}")
        self.redis_url = redis_url
        self.lease = lease
        self.node = secrets.token_hex(6)
        self.prefix = "una"
        self.redis: Redis | None = None
        self.service: RoomService | None = None
        #: The lobby entries of the tables other nodes own, by code.
        self.entries: dict[str, dict[str, Any]] = {}
        #: The proxies of other nodes' sockets at this node's tables, by (node, connection).
        self.proxies: dict[tuple[str, str], Client] = {}
        self._inboxes: dict[tuple[str, str], asyncio.Queue[tuple[str, Any]]] = {}
        #: This node's sockets that were ever routed elsewhere, by connection id.
        self.sockets: dict[str, Client] = {}
        self._out: list[tuple[str, Any]] = []
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._renewed = time.monotonic()
        #: Tables this node dropped whose new owner is not known yet: our sockets there
        #: resume with it when its lobby entry comes.
        self._dropped: set[str] = set()

    # ------------------------------------------------------------- lifecycle

    async def start(self, service: RoomService) -> None:
        """Join the cluster: connect to Redis, load the lobby, claim the free tables."""
        from redis.asyncio import Redis
        from redis.exceptions import RedisError

        storage = service.storage
        if storage.dialect != "postgresql":
            raise StorageError(
                "--redis needs a PostgreSQL database shared by the nodes "
                "(an SQLite file is for one process)"
            )
        # Shared with the other nodes; a single service (exclusive) keeps us out, and we it.
        await storage.lock_service(shared=True)
        url = make_url(storage.url)
        schema = url.query.get("schema")
        self.prefix = f"una:{url.database}:{schema if isinstance(schema, str) else 'public'}"
        self.service = service
        self.redis = Redis.from_url(self.redis_url)
        try:
            await self.redis.ping()
        except (RedisError, OSError) as error:
            raise StorageError(f"--redis {self.redis_url}: cannot reach Redis: {error}") from None
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self._channel(self.node), f"{self.prefix}:lobby")
        for code, raw in (await self.redis.hgetall(f"{self.prefix}:lobby")).items():
            entry = json.loads(raw)
            if entry["node"] != self.node:
                self.entries[code.decode() if isinstance(code, bytes) else code] = entry
        await self._alive()
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._send_loop()),
        ]
        await service.restore_tables(await storage.claim_tables(self.node, self.lease))
        self._renewed = time.monotonic()
        self._tasks.append(asyncio.create_task(self._heartbeat()))
        log.info("node %s joined cluster %s with %d tables", self.node, self.prefix,
                 len(service.tables))  # fmt: skip

    async def stop(self) -> None:
        """Leave: tell the owners our sockets are gone, give our leases back."""
        for client in list(self.sockets.values()):
            if client.elsewhere is not None:
                self._queue_to(client.elsewhere[1], "gone", client)
        await self._flush()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.service is not None:
            with contextlib.suppress(Exception):
                await self.service.storage.release_leases(self.node)
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.delete(self._alive_key(self.node))
            await self.redis.aclose()

    def _channel(self, node: str) -> str:
        return f"{self.prefix}:node:{node}"

    def _alive_key(self, node: str) -> str:
        return f"{self.prefix}:alive:{node}"

    async def _alive(self) -> None:
        assert self.redis is not None
        await self.redis.set(self._alive_key(self.node), b"1", px=int(self.lease * 1000))

    async def _heartbeat(self) -> None:
        """Renew the leases, drop the tables another node took, claim the free ones, and
        forget the proxies of dead nodes."""
        service = self.service
        assert service is not None
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                before = set(service.tables)
                held = await service.storage.renew_leases(self.node, self.lease)
                self._renewed = time.monotonic()
                try:
                    await self._alive()
                except Exception as error:  # Redis is down: the leases still hold the tables
                    log.warning("node %s: cannot tell Redis it is alive: %s", self.node, error)
                lost = [code for code in before - held if code in service.tables]
                if lost:
                    log.warning("node %s lost the leases of %s", self.node, ", ".join(lost))
                    await service.drop_tables(lost)
                claimed = await service.storage.claim_tables(self.node, self.lease)
                if claimed:
                    log.info("node %s takes over %s", self.node, ", ".join(claimed))
                    await service.restore_tables(claimed)
                await self._forget_dead_nodes()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: heartbeat failed", self.node)
                if time.monotonic() - self._renewed > self.lease and service.tables:
                    # Our leases may have run out: another node may own these tables now.
                    await service.drop_tables(list(service.tables))

    async def _forget_dead_nodes(self) -> None:
        assert self.redis is not None
        nodes = {node for node, _ in self.proxies}
        for node in nodes:
            if not await self.redis.exists(self._alive_key(node)):
                for key in [k for k in self.proxies if k[0] == node]:
                    self._inbox(key).put_nowait(("gone", None))

    # --------------------------------------------------------------- routing

    async def route(self, client: Client, message: p.Message) -> bool:
        """Send ``message`` to the owner of the table it is about, if that is another node
        (True); False: this node handles it."""
        service = self.service
        assert service is not None
        if client.via is not None:
            return False  # a proxy: its messages were routed here
        if isinstance(message, TO_TABLE):
            code = message.table.strip().upper()
            if code in service.tables:
                await self.detach(client)
                return False
            # No code is looked up once the socket's misses are spent (guessing private
            # codes), here as on one node: the owner is a database read.
            service._spend(client, "miss", take=False)
            owner = await service.storage.table_owner(code)
            if owner is None or owner == self.node:
                return False  # no such table (the service says so)
            if client.elsewhere is not None and client.elsewhere != (code, owner):
                await self.detach(client)
            if client.table is not None:
                await service._leave_current(client)
            client.elsewhere = (code, owner)
            self._forward(client, message)
            return True
        if isinstance(message, p.Create):
            await self.detach(client)
            return False
        if client.elsewhere is not None and isinstance(message, AT_TABLE):
            self._forward(client, message)
            return True
        return False

    def _forward(self, client: Client, message: p.Message) -> None:
        assert client.elsewhere is not None
        self._queue_to(client.elsewhere[1], "msg", client, _encode(message))

    def _queue_to(self, node: str, kind: str, client: Client, body: Any = None) -> None:
        conn = str(id(client))
        self.sockets[conn] = client
        assert self.service is not None
        # The icon's key goes along: the owner shows it in its states (it never saw her hello).
        icon = self.service.icons.get(client.player_id)
        envelope = {"k": kind, "from": self.node, "conn": conn, "player": client.player_id,
                    "name": client.name, "icon": icon, "m": body}  # fmt: skip
        self._out.append(("node", (node, envelope)))
        self._wake.set()

    def icon_changed(self, client: Client) -> None:
        """``client`` has a new icon: the owner of the table she is at shows it."""
        if client.elsewhere is not None:
            self._queue_to(client.elsewhere[1], "icon", client)

    async def detach(self, client: Client) -> None:
        """``client`` goes away from the table it was at on another node (she leaves it)."""
        if client.elsewhere is not None:
            self._queue_to(client.elsewhere[1], "detach", client)
            client.elsewhere = None

    async def disconnected(self, client: Client) -> None:
        """One of our sockets closed: the owner of its table marks it gone."""
        if client.elsewhere is not None:
            self._queue_to(client.elsewhere[1], "gone", client)
            client.elsewhere = None
        self.sockets.pop(str(id(client)), None)

    # ----------------------------------------------------------------- lobby

    def publish_table(self, table: Table, gone: bool, new: bool) -> None:
        """Share this node's table (its lobby entry) with the other nodes."""
        service = self.service
        assert service is not None
        entry = None
        if not gone:
            entry = {
                "code": table.code,
                "node": self.node,
                "created": table.created_at,
                "public": table.public,
                "humans": table.humans(),
                "members": [*table.humans(), *table.spectators],
                "summary": table.summary(len(service.connected(table))),
            }
        self._out.append(("lobby", (table.code, entry, new)))
        self._wake.set()

    def listed(self, player_id: int) -> list[tuple[float, str, Table | dict[str, Any]]]:
        """The other nodes' tables the lobby lists to this player: (created, code, entry)."""
        assert self.service is not None
        here = self.service.tables
        return [
            (entry["created"], code, entry)
            for code, entry in self.entries.items()
            if code not in here and (entry["public"] or player_id in entry["members"])
        ]

    def seated(self, player_id: int) -> list[str]:
        return [code for code, entry in self.entries.items() if player_id in entry["humans"]]

    async def _lobby_news(self, data: dict[str, Any]) -> None:
        service = self.service
        assert service is not None
        code, entry = data["code"], data["entry"]
        if entry is not None and entry["node"] == self.node:
            return  # our own
        old = self.entries.pop(code, None)
        if entry is None:
            self._dropped.discard(code)
            if old is not None and code not in service.tables:
                await service._tell_lobby(code, None, lambda pid: False, False)
            return
        self.entries[code] = entry
        members = set(entry["members"])
        await service._tell_lobby(
            code, entry["summary"], lambda pid: entry["public"] or pid in members, data["new"]
        )
        if old is not None and old["node"] != entry["node"]:
            await self._moved(code, entry["node"])
        elif code in self._dropped:  # it was ours: here is its new owner
            self._dropped.discard(code)
            await self._moved(code, entry["node"])

    async def dropped(self, codes: list[str]) -> None:
        """This node lost the tables of ``codes`` (a heartbeat or a fenced write found
        another owner): our sockets there resume with the new owner, now if the database
        names it, else when its lobby entry comes."""
        assert self.service is not None
        for code in codes:
            try:
                owner = await self.service.storage.table_owner(code)
            except Exception:  # the database is away: the lobby entry will tell
                owner = None
            if owner is None or owner == self.node:
                self._dropped.add(code)
            else:
                await self._moved(code, owner)

    async def _moved(self, code: str, owner: str) -> None:
        """Table ``code`` has a new owner (a takeover): our sockets there resume with it."""
        service = self.service
        assert service is not None
        for client in list(service.clients):
            at = client.elsewhere[0] if client.elsewhere else client.table
            if client.via is not None or at != code or code in service.tables:
                continue
            if client.table is not None:
                service._place(client, None)
            client.elsewhere = (code, owner)
            self._forward(client, p.Resume(table=code))

    # ---------------------------------------------------------------- Redis

    async def _listen(self, pubsub: Any) -> None:
        lobby = f"{self.prefix}:lobby".encode()
        sends = b"S "
        while True:
            try:
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    try:
                        if item["data"].startswith(sends):
                            await self._deliver(item["data"].decode())
                            continue
                        data = json.loads(item["data"])
                        if item["channel"] == lobby:
                            await self._lobby_news(data)
                        else:
                            await self._envelope(data)
                    except Exception:
                        log.exception("node %s: a bad cluster message", self.node)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: the client reconnects, resubscribed
                log.warning("node %s: Redis subscription lost (%s); retrying", self.node, error)
                await asyncio.sleep(1.0)

    async def _deliver(self, payload: str) -> None:
        """What an owner sent our sockets: ``S <node>`` and a line per message,
        ``<connection>\t<its JSON>``. A state goes to the socket as the owner encoded it;
        the rarer messages are read, for what they say about where the socket is."""
        head, _, body = payload.partition("\n")
        owner = head[2:]
        for line in body.split("\n"):
            conn, _, text = line.partition("\t")
            client = self.sockets.get(conn)
            if client is None or client.dropped:
                continue
            if text.startswith(_STATE) and client.queue_size:  # a socket (not in-process)
                await client.send(Encoded({"type": "state"}, text))
                continue
            message = json.loads(text)
            kind = message.get("type")
            if kind == "joined":
                client.elsewhere = (message["table"], owner)
            elif kind in ("left", "kicked"):
                # Away from that table: its owner forgets the proxy, the lobby is ours.
                await self.detach(client)
            elif kind == "error" and message.get("about") in ("join", "watch", "resume"):
                client.elsewhere = None
            elif kind == "lobby" and client.elsewhere is None and client.table is None:
                assert self.service is not None
                self.service.watch_lobby(client, message)
            await client.send(Encoded(message, text))

    async def _envelope(self, data: dict[str, Any]) -> None:
        kind = data["k"]
        self._inbox((data["from"], data["conn"])).put_nowait((kind, data))

    def _inbox(self, key: tuple[str, str]) -> asyncio.Queue[tuple[str, Any]]:
        """The ordered inbox of one socket of another node (a task of its own reads it)."""
        inbox = self._inboxes.get(key)
        if inbox is None:
            inbox = self._inboxes[key] = asyncio.Queue()
            self._tasks.append(asyncio.create_task(self._serve_proxy(key, inbox)))
        return inbox

    async def _serve_proxy(self, key: tuple[str, str], inbox: asyncio.Queue[Any]) -> None:
        service = self.service
        assert service is not None
        node, conn = key
        try:
            while True:
                kind, data = await inbox.get()
                proxy = self.proxies.get(key)
                if kind in ("gone", "detach"):
                    if proxy is not None:
                        if kind == "detach":
                            await service._leave_current(proxy)
                        del self.proxies[key]
                        await service.disconnect(proxy)
                    del self._inboxes[key]
                    return
                if proxy is None:

                    async def relay(message: dict[str, Any]) -> None:
                        self._out.append(("send", (node, conn, message)))
                        self._wake.set()

                    proxy = Client(relay, player_id=data["player"], name=data["name"], via=node)
                    self.proxies[key] = proxy
                    service.clients.add(proxy)
                    service.names[proxy.player_id] = proxy.name
                if service.icons.get(proxy.player_id) != data.get("icon"):
                    service.icons[proxy.player_id] = data.get("icon")
                    if proxy.table in service.tables:  # she changed it on her own node
                        await service._broadcast_state(service.tables[proxy.table], [])
                if kind == "msg":
                    await service.handle(proxy, _decode(data["m"]))
        finally:
            self._inboxes.pop(key, None)

    async def _send_loop(self) -> None:
        """The one sender: what was queued goes out in order, one pipeline per wake-up, the
        messages to each node's sockets in one publish."""
        while True:
            await self._wake.wait()
            await self._flush()

    async def _flush(self) -> None:
        self._wake.clear()
        out, self._out = self._out, []
        if not out or self.redis is None:
            return
        pipe = self.redis.pipeline(transaction=False)
        sends: dict[str, list[str]] = {}

        def flush_sends() -> None:
            for node, lines in sends.items():
                pipe.publish(self._channel(node), f"S {self.node}\n" + "\n".join(lines))
            sends.clear()

        for kind, body in out:
            if kind == "send":
                node, conn, message = body
                # JSON escapes every newline and tab inside it: one line per message.
                text = frame_text(message)
                sends.setdefault(node, []).append(f"{conn}\t{text}")
                continue
            flush_sends()  # keep the order of sends and the rest
            if kind == "node":
                node, envelope = body
                pipe.publish(self._channel(node), json.dumps(envelope))
            else:
                code, entry, new = body
                key = f"{self.prefix}:lobby"
                if entry is None:
                    pipe.hdel(key, code)
                else:
                    pipe.hset(key, code, json.dumps(entry))
                news = {"code": code, "entry": entry, "new": new}
                pipe.publish(key, json.dumps(news))
        flush_sends()
        try:
            await pipe.execute()
        except Exception:
            log.exception("node %s: publishing to Redis failed", self.node)

    async def took(self, codes: list[str]) -> None:
        """This node took tables over: our sockets that were there resume here."""
        service = self.service
        assert service is not None
        self._dropped.difference_update(codes)
        for client in list(service.clients):
            if client.via is not None:
                continue
            if client.elsewhere and client.elsewhere[0] in codes:
                code = client.elsewhere[0]
                client.elsewhere = None
                await service.handle(client, p.Resume(table=code))
            elif client.elsewhere is None and client.table in codes:
                # At a table this node dropped and took back: not in the new one's set.
                table = service.tables.get(client.table)
                if table is not None and client not in table.clients:
                    await service.handle(client, p.Resume(table=client.table))
