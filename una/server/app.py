"""The ASGI application of ``una serve``: HTTP routes and one WebSocket per client.

The socket handler parses, checks and forwards; the room service decides with the engine.
Configuration comes from the environment (``UNA_DB``, ``UNA_BOT_DELAY``, ``UNA_IDLE_CLOSE``,
``UNA_PUBLIC_TIMER``, ``UNA_ADDRESS_LIMITS``; ``UNA_REDIS`` and ``UNA_LEASE`` for a node of
a cluster, see docs/scaling.md) or from :func:`create_app`'s arguments.
``UNA_ADDRESS_LIMITS=0`` turns the per-address rate budgets off: behind a reverse proxy every
client has the proxy's address (the per-connection and per-player budgets stay).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from una import __version__
from una.engine import PRESETS, SWITCHES, Record, RuleSet
from una.engine.effects import effect_table
from una.engine.events import Event
from una.server import protocol as p
from una.server.cluster import LEASE, Cluster
from una.server.labels import card_faces, labels
from una.server.rooms import SEND_QUEUE, Client, RoomService, frame_text
from una.server.storage import Storage

log = logging.getLogger("una.server")
STATIC = Path(__file__).parent / "static"
#: The protocol's JSON Schema, made once (it depends on the code only).
SCHEMA = p.schema()


#: The young generation's threshold while serving (CPython's default is 700). A server
#: allocates a few dicts per frame; collecting them less often cuts the collector's share
#: and how often it reaches the old generation (issue 16's latency tail).
GC_YOUNG_THRESHOLD = int(os.environ.get("UNA_GC_THRESHOLD", "10000"))


def settle_heap() -> None:
    """After start-up: move what start-up made (modules, classes, functions, the restored
    tables) out of the collector's reach, so that its full passes scan only what serving
    makes. Those passes, over every object, were the server's longest pauses: 230-650 ms
    at 250 tables under load (docs/benchmarks.md, issue 16)."""
    gc.collect()
    gc.freeze()
    if GC_YOUNG_THRESHOLD > 0:
        _, middle, old = gc.get_threshold()
        gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def default_db_url() -> str:
    """An SQLite file in the user's data directory (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite+aiosqlite:///{Path(base) / 'una' / 'una.db'}"


def create_app(
    db_url: str | None = None,
    bot_delay: float | None = None,
    idle_close: float | None = None,
    public_timer: int | None = None,
    redis_url: str | None = None,
    lease: float | None = None,
) -> Starlette:
    """The application; each argument falls back to its environment variable."""
    url = db_url or os.environ.get("UNA_DB") or default_db_url()
    redis_url = redis_url or os.environ.get("UNA_REDIS") or None
    lease = lease if lease is not None else float(os.environ.get("UNA_LEASE", str(LEASE)))
    options: dict[str, Any] = {
        "bot_delay": bot_delay if bot_delay is not None
        else float(os.environ.get("UNA_BOT_DELAY", "0.6")),
        "idle_close": idle_close if idle_close is not None
        else float(os.environ.get("UNA_IDLE_CLOSE", "900")),
        "public_timer": public_timer if public_timer is not None
        else int(os.environ.get("UNA_PUBLIC_TIMER", "30")),
    }  # fmt: skip

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        storage = await Storage.open(url)
        cluster = Cluster(redis_url, lease) if redis_url else None
        service = RoomService(storage, cluster=cluster, **options)
        try:
            await service.restore()
        except BaseException:
            await service.shutdown()
            await storage.close()
            raise
        stop_telegram: Callable[[], Awaitable[None]] | None = None
        if os.environ.get("UNA_TELEGRAM_POLLING") and os.environ.get("UNA_TELEGRAM_TOKEN"):
            # The Telegram bot polling for updates, on this service's tables.
            from una.telegram.bridge import Options
            from una.telegram.runner import PollingBot
            from una.telegram.webhook import serve_cards

            # the card faces of the inline mode, at UNA_TELEGRAM_PUBLIC_URL/telegram/cards
            public_url = os.environ.get("UNA_TELEGRAM_PUBLIC_URL")
            tg_options = serve_cards(app, Options(bot_delay=service.bot_delay), public_url)
            poller = PollingBot(
                os.environ["UNA_TELEGRAM_TOKEN"], url,
                os.environ.get("UNA_TELEGRAM_API_URL"), tg_options, service=service,
            )  # fmt: skip
            await poller.start()
            stop_telegram = poller.stop
        elif os.environ.get("UNA_TELEGRAM_TOKEN"):
            # The Telegram bot in webhook mode, on the same tables (see docs/telegram.md).
            from una.telegram.webhook import mount

            stop_telegram = (await mount(app, service, os.environ["UNA_TELEGRAM_TOKEN"])).close
        app.state.storage = storage
        app.state.service = service
        app.state.address_limits = os.environ.get("UNA_ADDRESS_LIMITS", "1") not in ("0", "off")
        log.info("una serve: %d tables restored from %s", len(service.tables), storage.dialect)
        settle_heap()
        try:
            yield
        finally:
            if stop_telegram is not None:
                await stop_telegram()
            await service.shutdown()
            await storage.close()

    async def health(request: Request) -> Response:
        service: RoomService = request.app.state.service
        return JSONResponse(
            {
                "status": "ok",
                "version": __version__,
                "tables": len(service.tables),
                "clients": len(service.clients),
                "database": service.storage.dialect,
                "epoch": service.epoch,
                "node": service.cluster.node if service.cluster else None,
            }
        )

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if page.exists():
            return FileResponse(page)
        return HTMLResponse(PLACEHOLDER)

    async def icon(request: Request) -> Response:
        """A player's icon, under the random key the state messages give (not her id)."""
        storage: Storage = request.app.state.storage
        key = request.path_params["key"]
        row = await storage.player_by_icon_key(key) if ICON_KEY.fullmatch(key) else None
        if row is None or row.icon is None:
            return _error(404, f"no icon {key[:40]!r}")
        # The key changes with the icon, so a served icon never changes.
        return Response(row.icon, media_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400, immutable"})  # fmt: skip

    async def finished_record(request: Request) -> dict[str, Any] | Response:
        """The record of the game in the path, if it is finished (live hands stay hidden)
        and the caller may read it (a private table's games are for their players, who
        send their token: ``Authorization: Bearer TOKEN``); else the error response."""
        storage: Storage = request.app.state.storage
        game_id = _row_id(request.path_params["game_id"])
        if game_id is None:
            return _error(404, f"no game {request.path_params['game_id'][:40]!r}: ids are numbers")
        row = await storage.game(game_id)
        if row is None:
            return _error(404, f"no game {game_id}")
        if not row.finished:
            return _error(403, "this game is still being played")
        if row.private:
            reader = await _reader(request, storage)
            if reader is None:
                return _error(
                    401, "this game was played at a private table: only its players may read "
                    "it (send your token as Authorization: Bearer TOKEN)",
                )  # fmt: skip
            if reader not in (row.player_ids or []):
                return _error(403, "this game was played at a private table you did not play at")
        return row.to_record()

    async def game_record(request: Request) -> Response:
        """A finished game's record, for replays."""
        found = await finished_record(request)
        return found if isinstance(found, Response) else JSONResponse(found)

    async def game_views(request: Request) -> Response:
        """A finished game, action by action: the view of ``?seat=N`` (a spectator's without
        it) after 0, 1, ... actions, and the events each action caused as that seat sees
        them (``Event.json_for``), for replays."""
        seat_text = request.query_params.get("seat")
        if seat_text and not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) < 4):
            return _error(400, f"seat: a seat number, not {seat_text[:20]!r}")
        seat = int(seat_text) if seat_text else None
        found = await finished_record(request)
        if isinstance(found, Response):
            return found
        record = Record.from_json(found)
        game = record.new_game()
        if seat is not None and not 0 <= seat < game.n:
            return _error(400, f"no seat {seat} in this game")

        def lines(events: list[Event]) -> list[dict[str, Any]]:
            return [event.json_for(seat) for event in events]

        storage: Storage = request.app.state.storage
        people = await storage.game_seats(int(request.path_params["game_id"]))
        views = [game.view_for(seat).to_json()]
        events: list[list[dict[str, Any]]] = []  # events[k]: what action k caused
        for actor, code in record.actions:
            events.append(lines(game.apply(actor, code)))
            views.append(game.view_for(seat).to_json())
        return JSONResponse(
            {
                "game_id": _row_id(request.path_params["game_id"]),
                "seat": seat,
                "players": game.names,
                # who played each seat (null: a computer), for the players' icons
                "seats": [
                    {"player_id": people[i][0], "icon": people[i][1]} if i in people else None
                    for i in range(game.n)
                ],
                "rules": record.rules.to_json(),
                "actions": [[actor, code] for actor, code in record.actions],
                "views": views,
                "events": events,
            }
        )

    async def protocol_schema(request: Request) -> Response:
        """The JSON Schema of every WebSocket message both ways (``protocol.schema``)."""
        return JSONResponse(SCHEMA, headers={"Cache-Control": "public, max-age=3600"})

    async def rules_catalog(request: Request) -> Response:
        """Presets and switches, for the table-creation form."""
        return JSONResponse(catalog())

    routes = [
        Route("/", index),
        Route("/api/rules", rules_catalog),
        Route("/api/protocol.schema.json", protocol_schema),
        Route("/games/{game_id}/views", game_views),
        Route("/health", health),
        Route("/icons/{key}.png", icon),
        Route("/games/{game_id}.json", game_record),
        WebSocketRoute("/ws", socket),
    ]
    if STATIC.exists():
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    return Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error}
    )


#: An icon key: what ``secrets.token_urlsafe(16)`` makes.
ICON_KEY = re.compile(r"[A-Za-z0-9_-]{16,32}")
#: Row ids are 32-bit on PostgreSQL (SERIAL): a larger number names no row.
MAX_ROW_ID = 2**31 - 1


def _error(status: int, reason: str) -> Response:
    return JSONResponse({"error": reason}, status_code=status)


def _row_id(text: str) -> int | None:
    """The row id in a path segment, or None when it is not one (it names no row)."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_ROW_ID)):
        return None
    value = int(text)
    return value if 0 < value <= MAX_ROW_ID else None


async def _reader(request: Request, storage: Storage) -> int | None:
    """The player whose token the request carries (``Authorization: Bearer TOKEN``)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    row = await storage.player_by_token(token.strip())
    return None if row is None else row.id


async def http_error(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such route, wrong method) as JSON with a reason."""
    assert isinstance(error, HTTPException)
    reasons = {404: f"no such page {request.url.path[:80]!r}",
               405: f"{request.method} is not allowed on {request.url.path[:80]!r}"}  # fmt: skip
    reason = reasons.get(error.status_code, str(error.detail))
    return JSONResponse({"error": reason}, status_code=error.status_code, headers=error.headers)


def catalog() -> dict[str, Any]:
    """Every preset (title, description, seats, its switch values) and switch (default,
    choices, a one-line description), every card code's facts for drawing it (``faces``),
    and the words of all of them and of every card in English and Russian (``labels``)."""
    presets = {}
    for name, preset in PRESETS.items():
        rules = RuleSet.preset_named(name)
        presets[name] = {
            "title": preset.title,
            "description": preset.description,
            "players": list(rules.players),
            "deck_size": len(rules.deck()),
            "switches": {k: v for k, v in rules.to_dict().items() if k != "preset"},
        }
    switches = {}
    for name, switch in SWITCHES.items():
        default = switch.default
        switches[name] = {
            "type": switch.type.__name__,
            "default": list(default) if isinstance(default, tuple) else default,
            "choices": list(switch.choices),
            "description": switch.description,
        }
    from una.bots.registry import BOTS

    bots = {
        name: {"levels": list(entry.levels), "description": entry.description}
        for name, entry in BOTS.items()
    }
    return {
        "presets": presets,
        "switches": switches,
        "bots": bots,
        "cards": special_cards(),
        # every card code's color, symbol, wildness and parent face, for drawing it
        "faces": card_faces(),
        # every card's name, switch label and value word, in each language (una.server.labels)
        "labels": labels(),
    }


def special_cards() -> dict[str, dict[str, Any]]:
    """Each special card of the Alupula and BYOND decks (its own effect, beyond the classic
    deck): its name, points and what it does, from its effect's description (one source:
    the engine's docstring).

    >>> special_cards()["KOBE"]["points"], special_cards()["KOBE"]["description"][:18]
    (666, 'While held, its ho')
    """
    cards: dict[str, dict[str, Any]] = {}
    for name in ("alupula", "byond"):
        rules = RuleSet.preset_named(name)
        for card, effect in effect_table(rules).items():
            module = type(effect).__module__.rsplit(".", 1)[-1]
            if module not in ("alupula", "byond") or card.code in cards:
                continue
            first = (type(effect).__doc__ or "").split("\n\n")[0]
            text = " ".join(first.replace("``", "").split())
            cards[card.code] = {
                "name": card.name,
                "points": rules.points(card),
                "description": text,
                "presets": [],
            }
        for card in set(rules.deck()):
            if card.code in cards and name not in cards[card.code]["presets"]:
                cards[card.code]["presets"].append(name)
    return dict(sorted(cards.items()))


async def socket(websocket: WebSocket) -> None:
    """One client: every frame is parsed, checked and handed to the room service."""
    await websocket.accept()
    service: RoomService = websocket.app.state.service

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(frame_text(message))

    async def refuse(code: str, message: str) -> None:
        await client.send(p.Error(code, message))

    async def close() -> None:
        await websocket.close(code=1008, reason="too slow: messages piled up")

    # Every message to this socket goes through its own queue and writer task: nobody
    # waits for a client that stopped reading, and one that falls too far behind is closed.
    peer = websocket.client.host if websocket.client else None
    client = Client(
        send,
        close=close,
        queue_size=SEND_QUEUE,
        address=peer if websocket.app.state.address_limits else None,
    )
    # the refusals below go through client.send: they keep their order behind what is queued
    try:
        while True:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            frame = received.get("text")
            if frame is None:
                await refuse("bad_message", "frames must be JSON text, not binary")
                continue
            # One frame at a time, then the other clients' turn: a socket with a backlog of
            # frames (a flood) would otherwise be served without a pause while they wait.
            await asyncio.sleep(0)
            try:
                message = p.parse(frame)
            except p.ProtocolError as error:
                await refuse(error.code, str(error))
                continue
            await service.handle(client, message)
    except WebSocketDisconnect:
        pass
    finally:
        await service.disconnect(client)


PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Una</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Una</h1>
<p>The Una server is running. The browser client is on its way; until it lands, play from
the terminal (<code>una play</code>) or connect any WebSocket client to <code>/ws</code>
(see docs/protocol.md).</p>
<p><a href="/health">Server status</a></p>
</body></html>
"""
