"""``una serve`` over real WebSockets: a real server process (uvicorn on a free port)."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from serverkit import Player, Server, play_until_over, run

from una.engine import PRESETS, Record
from una.engine.cards import ALL_CARDS
from una.engine.events import Event, FirstCardReturned


async def table_with(
    server: Server, rules: Any, humans: int, bots: int, bot: str = "heuristic"
) -> list[Player]:
    """A table created by the first player, joined by the others, started."""
    players = [await Player(server, f"P{i}").connect() for i in range(humans)]
    seats = humans + bots
    await players[0].send({"type": "create", "rules": rules, "seats": seats, "bots": bots,
                           "bot": bot, "public": False})  # fmt: skip
    joined = await players[0].expect("joined")
    for player in players[1:]:
        await player.send({"type": "join", "table": joined["table"]})
        await player.expect("joined")
    await players[0].send({"type": "start"})
    for player in players:
        while player.view is None:
            await player.expect("state")
    return players


# ----------------------------------------------------------------- http


def test_health_and_the_page(server: Server) -> None:
    status, body = server.get("/health")
    assert status == 200
    health = json.loads(body)
    assert health["status"] == "ok" and health["database"] == "sqlite"
    status, body = server.get("/")
    assert status == 200 and b"Una" in body


# ------------------------------------------------------------ full games


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_full_match_between_scripted_players_and_a_bot(server: Server, preset: str) -> None:
    async def scenario() -> None:
        rules = {"preset": preset, "target": 60}
        players = await table_with(server, rules, humans=2, bots=1)
        final = await play_until_over(players)
        assert final["view"]["match_winner"] is not None
        assert final["table"]["status"] == "over"
        # Every seat saw the same end.
        for player in players:
            while player.state["view"]["match_winner"] is None:  # type: ignore[index]
                await player.expect("state")
            assert player.state["view"]["match_winner"] == final["view"]["match_winner"]  # type: ignore[index]
        for player in players:
            await player.close()
        tokens.append(players[0].token)

    tokens: list[str | None] = []
    run(scenario())
    # The finished game is served for replays to its players (the table was private): its
    # record, and its views step by step.
    token = tokens[0]
    assert server.get("/games/1.json")[0] == 401
    status, body = server.get("/games/1.json", token)
    record = Record.from_json(json.loads(body))
    assert status == 200 and record.replay().match_over
    status, body = server.get("/games/1/views?seat=0", token)
    replay = json.loads(body)
    views = replay["views"]
    assert status == 200 and len(views) == len(replay["events"]) + 1 == len(record.actions) + 1
    assert all(view["seat"] == 0 and view["hand"] is not None for view in views)
    assert views[-1]["match_winner"] is not None
    status, body = server.get("/games/1/views", token)
    assert all(view["hand"] is None for view in json.loads(body)["views"])
    assert server.get("/games/1/views")[0] == 401
    assert server.get("/games/99/views", token)[0] == 404
    assert server.get("/games/1/views?seat=x", token)[0] == 400


@pytest.mark.parametrize("preset", ["standard", "telegram"])
def test_a_match_against_strong_bots(server: Server, preset: str) -> None:
    # The searching bot in a room: one per seat for the whole match, watching every action
    # (its belief), thinking off the event loop; a full match ends, every seat agrees.
    async def scenario() -> None:
        rules = {"preset": preset, "target": 40}
        players = await table_with(server, rules, humans=1, bots=2, bot="strong:easy")
        final = await play_until_over(players)
        assert final["view"]["match_winner"] is not None
        seats = final["table"]["seats_detail"]
        assert [seat.get("bot") for seat in seats].count("strong:easy") == 2
        await players[0].close()

    run(scenario())


def test_the_rules_catalog(server: Server) -> None:
    status, body = server.get("/api/rules")
    catalog = json.loads(body)
    assert status == 200 and set(catalog["presets"]) == set(PRESETS)
    assert catalog["switches"]["jump_in"]["description"]
    assert catalog["presets"]["byond"]["players"] == [2, 8]


# ------------------------------------------------------------ chat, verbs


def test_chat_and_every_verb(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await table_with(server, "standard", humans=2, bots=0)
        original = ann.send

        async def paced(message: dict[str, Any]) -> None:
            # Chat is limited to about one message a second (bursts of 8): at one a second
            # the bucket never empties, however many lines the scenario sends (16 at 0.5 s
            # emptied it on a fast machine and /leave was refused).
            if message["type"] == "chat":
                await asyncio.sleep(1.0)
            await original(message)

        ann.send = paced  # type: ignore[method-assign]
        mark = bob.mark()
        await ann.send({"type": "chat", "text": "hello <b>table</b>"})
        said = await bob.expect("chat", since=mark)
        assert said["text"] == "hello <b>table</b>" and said["from"] == "P0"
        for verb, code in (("/who", "who"), ("/game-info", "game_info"), ("/set-icon", "set_icon"),
                           ("/nosuchverb", "unknown_verb")):  # fmt: skip
            mark = ann.mark()
            await ann.send({"type": "chat", "text": verb})
            reply = await ann.expect("reply", since=mark)
            assert reply["code"] == code
        assert reply["args"]["verb"] == "nosuchverb" and "who" in reply["args"]["verbs"]
        mark = ann.mark()
        await ann.send({"type": "chat", "text": "/who"})
        who = await ann.expect("reply", since=mark)
        assert [person["name"] for person in who["args"]["people"]] == ["P0", "P1"]
        # Play from the chat line: whoever is to act draws, then passes or plays.
        seat_to_act = ann.view["to_act"]  # type: ignore[index]
        actor = ann if ann.view["seat"] == seat_to_act else bob  # type: ignore[index]
        if actor.view["phase"] == "color":  # type: ignore[index]  # a Wild turned up first
            version = actor.version
            await actor.send({"type": "chat", "text": "/pick red"})
            while actor.version == version:
                await actor.expect("state")
        version = actor.version
        await actor.send({"type": "chat", "text": "/draw"})
        while actor.version == version:
            await actor.expect("state")
        assert actor.view["phase"] in ("drawn", "play")  # type: ignore[index]
        # /auto hands the seat to the computer, and back.
        mark = ann.mark()
        await ann.send({"type": "chat", "text": "/auto"})
        auto = await ann.expect("notice", since=mark)
        assert (auto["code"], auto["args"]) == ("auto", {"name": "P0", "on": True})
        await ann.send({"type": "auto", "on": False})
        # /endgame needs both seated people.
        mark = ann.mark()
        await bob.send({"type": "chat", "text": "/endgame"})
        vote = await ann.expect("notice", since=mark)
        while vote["code"] != "vote":
            vote = await ann.expect("notice")
        assert vote["args"] == {"name": "P1", "kind": "endgame", "waiting": ["P0"]}
        await ann.send({"type": "chat", "text": "/endgame"})
        while ann.state["table"]["status"] != "over":  # type: ignore[index]
            await ann.expect("state")
        assert ann.view["phase"] == "match_over"  # type: ignore[index]  # its standings shown
        # A chat line that begins with "una" or «уно» is the una command, not chat (BYOND's
        # rule): with seven cards and no false_uno_penalty it changes nothing, so the table
        # hears nothing. Begun with a space it is chat; "uno" is chat.
        await ann.send({"type": "chat", "text": "/startgame"})
        while ann.state["table"]["status"] != "playing":  # type: ignore[index]
            await ann.expect("state")
        for line in ("уно!", "Unabombers are wacky"):
            mark = ann.mark()
            await ann.send({"type": "chat", "text": line})
            told = await ann.expect("reply", since=mark)
            # Seven cards, or nine when the turned card was a Draw Two against her.
            held = len(ann.view["hand"])  # type: ignore[index]
            assert held > 1 and (told["code"], told["args"]) == ("uno_nothing", {"cards": held})
        for line, said in ((" unabombers are wacky", "unabombers are wacky"),
                           ("uno, dos", "uno, dos")):  # fmt: skip
            mark = bob.mark()
            await ann.send({"type": "chat", "text": line})
            assert (await bob.expect("chat", since=mark))["text"] == said
        chats = [f["text"] for f in bob.frames if f["type"] == "chat"]
        assert "уно!" not in chats and "Unabombers are wacky" not in chats and "UNA!" not in chats
        events = [line for f in bob.frames if f["type"] == "state" for line in f["events"]]
        assert not any(event["type"] == "uno_called" for event in events)
        await ann.send({"type": "chat", "text": "/leave"})
        await ann.expect("left")
        for player in (ann, bob):
            await player.close()

    run(scenario())


# ------------------------------------------------------------- reconnect


def test_reconnect_resumes_with_what_was_missed(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await table_with(server, "standard", humans=2, bots=1)
        code = ann.state["table"]["code"]  # type: ignore[index]
        # Bob lets the computer play for him while he is away.
        await bob.send({"type": "auto", "on": True})
        await bob.expect("notice")
        token, version = bob.token, bob.version
        await bob.close()
        # Ann and the computer players move on while Bob is away.
        await play_until_over([ann], moves=3)
        again = await Player(server, "P1").connect(token)
        await again.send({"type": "resume", "table": code, "version": version,
                          "epoch": ann.state["epoch"]})  # type: ignore[index]  # fmt: skip
        state = await again.expect("state")
        assert state["view"]["seat"] is not None and state["version"] > version
        assert state["view"]["hand"] is not None and not state["fresh"]
        assert len(state["events"]) >= 3  # what happened while he was away
        for player in (ann, again):
            await player.close()

    run(scenario())


# ---------------------------------------------------------- kill, restart


def test_a_killed_server_restarts_and_the_same_game_goes_on(storage_url: str) -> None:
    """On SQLite and on PostgreSQL: SIGKILL in the middle of a game, restart, finish it."""
    db = storage_url

    async def first_half() -> tuple[str, list[str | None], dict[str, Any]]:
        server = Server(db).start()
        try:
            players = await table_with(server, {"preset": "standard", "target": 80}, 2, 1)
            await play_until_over(players, moves=8)
            await asyncio.sleep(0.2)
            before = players[0].state
            assert before is not None
            server.kill()
            return before["table"]["code"], [p.token for p in players], before
        finally:
            server.stop()

    code, tokens, before = run(first_half())

    async def second_half() -> None:
        server = Server(db).start()
        try:
            players = [await Player(server, f"P{i}").connect(t) for i, t in enumerate(tokens)]
            for player in players:
                await player.send({"type": "resume", "table": code, "version": 0, "epoch": ""})
                await player.expect("state")
            view = players[0].view
            assert view is not None
            # The same game: the same hand number and scores, at least the same actions.
            assert view["hand_number"] >= before["view"]["hand_number"]
            assert players[0].version >= before["version"]
            if view["hand_number"] == before["view"]["hand_number"]:
                assert Counter(view["hand"]) == Counter(before["view"]["hand"]) or (
                    players[0].version > before["version"]
                )
            final = await play_until_over(players)
            assert final["view"]["match_winner"] is not None
        finally:
            server.stop()

    run(second_half())


# ---------------------------------------------------------- hidden cards

CARD = re.compile(r"\b(" + "|".join(sorted((c.code for c in ALL_CARDS), key=len, reverse=True))
                  + r")\b")  # fmt: skip


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_seat_receives_no_card_it_may_not_see(server: Server, preset: str) -> None:
    """Every frame seat 0 receives in a whole match, checked against the stored record:
    each card it names was in her hand, on the discard pile, or shown to her by a rule."""

    async def scenario() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        players = await table_with(server, {"preset": preset, "target": 150}, 2, 1)
        await play_until_over(players)
        for player in players:
            await player.close()
        tokens.append(players[0].token)
        return players[0].frames, players[0].state  # type: ignore[return-value]

    tokens: list[str | None] = []
    frames, final = run(scenario())
    records = []
    for game in range(1, 50):
        status, body = server.get(f"/games/{game}.json", tokens[0])  # a private table's
        if status == 200:
            records.append((game, json.loads(body)))
    assert records, "the finished game's record is served"
    # The match may span several records (a blocked hand goes on in a new one): the last
    # one's frames are checked, its versions being its own.
    game_id, last = records[-1]
    frames = [f for f in frames if f["type"] != "state" or f["game_id"] == game_id]
    record = Record.from_json(last)
    me = final["view"]["seat"]
    # Replay the record, and for every version collect what seat `me` is entitled to.
    game = record.new_game()
    entitled: dict[int, set[str]] = {}
    seen_pile: set[str] = set()

    def snapshot(version: int) -> None:
        seen_pile.update(card.code for card in game.discard)
        allowed = set(seen_pile) | {card.code for card in game.hands[me]}
        if game.hand_over:  # every hand is laid open to be scored
            allowed.update(card.code for hand in game.hands for card in hand)
        for viewer, seat, cards in game.reveals:
            if viewer == me:
                shown = game.hands[seat] if cards is None else cards
                allowed.update(card.code for card in shown)
        entitled[version] = entitled.get(version, set()) | allowed

    def turned_up(events: Sequence[Event]) -> None:
        # A first card that may not start the pile was turned face up before it went back.
        seen_pile.update(e.card.code for e in events if isinstance(e, FirstCardReturned))

    first_version = min(f["version"] for f in frames if f["type"] == "state" and f["view"])
    turned_up(game.start_events)
    snapshot(first_version)
    for index, (seat, code) in enumerate(record.actions):
        turned_up(game.apply(seat, code))
        snapshot(first_version + index + 1)
    checked = 0
    for frame in frames:
        if frame["type"] != "state" or frame["view"] is None:
            continue
        allowed = entitled.get(frame["version"])
        if allowed is None:
            continue
        text = json.dumps({"view": frame["view"], "events": frame["events"]})
        named = set(CARD.findall(text))
        assert named <= allowed, (frame["version"], named - allowed)
        checked += 1
    assert checked > 10


# ------------------------------------------------------------- bad input


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await table_with(server, "standard", humans=2, bots=0)
        version = ann.version
        cases: list[tuple[Player, str, str]] = [
            (ann, "{not json", "not valid JSON"),
            (ann, json.dumps({"type": "dance"}), "unknown message type 'dance'"),
            (ann, json.dumps({"type": "act", "action": "draw"}), "missing field 'version'"),
            (ann, json.dumps({"type": "act", "action": 5, "version": 1}), "must be str"),
            (ann, json.dumps({"type": "chat", "text": "x", "seat": 1}), "unknown field 'seat'"),
            (
                ann,
                json.dumps({"type": "act", "action": "draw", "version": version - 1}),
                "stale action",
            ),
            (
                ann,
                json.dumps({"type": "act", "action": "jump", "version": version}),
                "unknown verb",
            ),
            (ann, json.dumps({"type": "hello", "name": "again"}), "hello was said already"),
            (ann, json.dumps({"type": "kick", "player": "nobody"}), "nobody called"),
            (bob, json.dumps({"type": "kick", "player": "P0"}), "only the host may kick"),
        ]
        for player, frame, expected in cases:
            mark = player.mark()
            await player.send_raw(frame)
            error = await player.expect("error", since=mark)
            assert expected in error["message"], (frame, error)
        # Not her turn: refused, with the engine's reason.
        view = ann.view
        assert view is not None
        off_turn = bob if view["to_act"] == view["seat"] else ann
        mark = off_turn.mark()
        await off_turn.send({"type": "act", "action": "draw", "version": off_turn.version})
        error = await off_turn.expect("error", since=mark)
        assert "turn" in error["message"]
        assert ann.version == version
        # A spectator cannot act for anybody.
        eve = await Player(server, "Eve").connect()
        await eve.send({"type": "watch", "table": ann.state["table"]["code"]})  # type: ignore[index]
        await eve.expect("state")
        await eve.send({"type": "act", "action": "draw", "version": eve.version})
        assert "spectators only watch" in (await eve.expect("error"))["message"]
        assert eve.view["hand"] is None  # type: ignore[index]
        # An oversized frame.
        mark = ann.mark()
        await ann.send_raw(json.dumps({"type": "chat", "text": "x" * 200_000}))
        assert "over the" in (await ann.expect("error", since=mark))["message"]
        # A flood of chat is cut.
        mark = ann.mark()
        for i in range(15):
            await ann.send({"type": "chat", "text": f"spam {i}"})
        assert "slow down" in (await ann.expect("error", since=mark))["message"]
        # Hostile icons: not an image, a decompression bomb, too many bytes.
        bomb = io.BytesIO()
        Image.new("1", (20000, 20000)).save(bomb, "PNG")
        for data, expected in [
            (b"GIF89a not really", "not a readable image"),
            (bomb.getvalue(), "too large"),
            (b"\x89PNG" + b"0" * 70_000, "at most 64 KiB"),
        ]:
            mark = ann.mark()
            await ann.send({"type": "set_icon", "image": base64.b64encode(data).decode()})
            error = await ann.expect("error", since=mark)
            while error["about"] != "set_icon":  # the flood's refusals may still arrive
                error = await ann.expect("error")
            assert expected in error["message"], error
        good = io.BytesIO()
        Image.new("RGB", (64, 64), "blue").save(good, "PNG")
        mark = ann.mark()
        await ann.send({"type": "set_icon", "image": base64.b64encode(good.getvalue()).decode()})
        key = (await ann.expect("icon", since=mark))["icon"]
        status, body = server.get(f"/icons/{key}.png")
        assert status == 200 and Image.open(io.BytesIO(body)).size == (32, 32)
        assert ann.version == version
        for player in (ann, bob, eve):
            await player.close()

    run(scenario())


# ------------------------------------------------ timers, settings, idle tables


def test_the_turn_timer_plays_for_the_absent_then_switches_her_to_auto(server: Server) -> None:
    async def scenario() -> None:
        ann = await Player(server, "Ann").connect()
        await ann.send({"type": "create", "rules": "standard", "seats": 2, "bots": 1,
                        "timer": 1, "public": False})  # fmt: skip
        await ann.expect("joined")
        await ann.send({"type": "start"})
        told: list[dict[str, Any]] = []
        for _ in range(400):
            frame = await ann.expect("notice", timeout=20)
            told.append(frame["args"])
            if frame["code"] == "timed_out" and frame["args"]["auto"]:
                break
        assert told[0] == {"name": "Ann", "times": 1, "auto": False}
        assert told[-1] == {"name": "Ann", "times": 3, "auto": True}
        await ann.close()

    run(scenario())


def test_settings_are_remembered_for_the_next_visit(server: Server) -> None:
    async def scenario() -> None:
        ann = await Player(server, "Ann").connect()
        await ann.send({"type": "settings", "settings": {"lang": "ru", "sound": False}})
        await ann.expect("settings")
        await ann.close()
        again = Player(server, "Ann")
        await again.connect(ann.token)
        welcome = next(f for f in again.frames if f["type"] == "welcome")
        assert welcome["settings"] == {"lang": "ru", "sound": False}
        assert welcome["player"]["name"] == "Ann"
        await again.close()

    run(scenario())


def test_an_empty_table_closes_after_a_while(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'idle.db'}", UNA_IDLE_CLOSE="1").start()

    async def scenario() -> None:
        ann = await Player(server, "Ann").connect()
        await ann.send({"type": "create", "rules": "standard", "seats": 2, "public": True})
        code = (await ann.expect("joined"))["table"]
        await ann.close()
        bob = await Player(server, "Bob").connect()
        # The lobby once, then its changes: the empty table goes.
        await bob.send({"type": "lobby"})
        lobby = await bob.expect("lobby")
        if code in [t["code"] for t in lobby["tables"]]:
            while (await bob.expect("lobby_gone", timeout=20))["code"] != code:
                pass
        await bob.send({"type": "join", "table": code})
        assert (await bob.expect("error"))["code"] == "no_table"
        await bob.close()

    try:
        run(scenario())
    finally:
        server.stop()
