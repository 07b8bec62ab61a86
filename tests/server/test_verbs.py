"""BYOND's verbs over real WebSockets, each with its exact effect (issue 17).

The seed (../shared/seeds/000_7a68ef9860db1f2b.txt) defines them; the engine judges every
move, so the scores are checked against the engine's replay of the stored record.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from serverkit import Player, Server, play_until_over, run, seated, started

from una.bots.registry import BOT_NAMES
from una.engine import Record
from una.server.icons import BUILTIN_ICONS
from una.server.verbs import HELP


async def say(player: Player, text: str) -> None:
    """A chat line, paced under the chat limit (about one a second, bursts of 8)."""
    await asyncio.sleep(0.15)
    await player.send({"type": "chat", "text": text})


async def reply(player: Player, text: str, kind: str = "reply") -> dict[str, Any]:
    mark = player.mark()
    await say(player, text)
    return await player.expect(kind, since=mark)


async def two_at(server: Server, rules: str | dict[str, Any] = "standard") -> tuple[Player, Player]:
    _, (ann, bob) = await seated(server, ["Ann", "Bob"], bots=0, rules=rules)
    await started([ann, bob])
    return ann, bob


def test_say_color_who_info_and_icons(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await two_at(server)
        cat = await Player(server, "Cat").connect()
        await cat.send({"type": "watch", "table": ann.state["table"]["code"]})  # type: ignore[index]
        await cat.expect("joined")
        # /say says it to everyone.
        mark = bob.mark()
        await say(ann, "/say hi")
        heard = await bob.expect("chat", since=mark)
        assert (heard["from"], heard["text"]) == ("Ann", "hi")
        # /color reports the current color; it names none.
        view = ann.view
        told = await reply(ann, "/color")
        assert (told["code"], told["args"]) == (
            "color",
            {"color": view["color"], "top": view["top"], "asked": False},  # type: ignore[index]
        )
        assert (await reply(ann, "/color red"))["args"]["asked"] is True
        # /who: one entry per person, players and watchers.
        people = (await reply(ann, "/who"))["args"]["people"]
        assert len(people) == 3
        # Seven cards each, or nine for whoever a turned-up Draw Two hit (the dealer is
        # drawn at random): the count each one's own view shows.
        held = [len(player.view["hand"]) for player in (ann, bob)]  # type: ignore[index]
        assert people[0] == {"name": "Ann", "role": "player", "seat": 0, "auto": False,
                             "away": False, "host": True, "stand_in": False, "cards": held[0],
                             "points": 0}  # fmt: skip
        assert (people[1]["name"], people[1]["seat"], people[1]["cards"]) == ("Bob", 1, held[1])
        assert sorted(held) in ([7, 7], [7, 9])
        assert (people[2]["name"], people[2]["role"], people[2]["seat"]) == ("Cat", "watcher", None)
        # /game-info: the table, its rules and every verb.
        info = (await reply(ann, "/game-info"))["args"]
        assert info["verbs"] == list(HELP) and info["preset"] == "standard"
        # /set-icon opens the icon chooser; /reset-icon gives a built-in icon, not stored.
        assert (await reply(ann, "/set-icon"))["code"] == "set_icon"
        mark = ann.mark()
        await say(ann, "/reset-icon")
        icon = await ann.expect("icon", since=mark)
        assert icon["icon"] is None and icon["builtin"] in BUILTIN_ICONS
        while True:
            detail = ann.state["table"]["seats_detail"][0]  # type: ignore[index]
            if detail.get("builtin_icon"):
                break
            await ann.expect("state")
        assert detail["builtin_icon"] == icon["builtin"]
        # Forgotten at the next login.
        again = await Player(server, "Ann").connect(ann.token)
        await again.send({"type": "resume", "table": ann.state["table"]["code"],  # type: ignore[index]
                          "version": -1, "epoch": ""})  # fmt: skip
        state = await again.expect("state")
        assert state["table"]["seats_detail"][0]["builtin_icon"] is None
        for player in (ann, bob, cat, again):
            await player.close()

    run(scenario())


def test_challenge_names_a_player_and_asks_when_no_name_is_given(server: Server) -> None:
    async def scenario() -> None:
        ann, _ = await two_at(server)
        assert (await reply(ann, "/challenge"))["code"] == "challenge_none"
        nobody = await reply(ann, "/challenge Zed")
        assert nobody["args"] == {"name": "Zed", "players": ["Bob"]}
        # Bob owes no UNO call: the engine refuses with its reason code and seats as numbers,
        # and its sentence for the logs names players, not seats.
        error = await reply(ann, "/challenge Bob", kind="error")
        assert error["code"] == "illegal" and error["args"]["reason"] == "holds_more"
        assert error["args"]["target"] == 1
        assert "Bob" in error["message"] and "seat 1" not in error["message"]

    run(scenario())


def test_challenge_catches_a_false_una_call_and_asks_whom_without_a_name(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await two_at(server, rules="byond")  # false_uno_penalty, own_turn window
        await say(bob, "una!")  # seven cards: a false call, catchable
        while 1 not in ann.view["catchable"]:  # type: ignore[index]
            await ann.expect("state")
        asked = await reply(ann, "/challenge")
        assert (asked["code"], asked["args"]) == ("challenge_whom", {"names": ["Bob"]})
        held = ann.view["hand_counts"][1]  # type: ignore[index]
        await say(ann, "/challenge bob")  # up to case
        while ann.view["hand_counts"][1] != held + 2:  # type: ignore[index]
            await ann.expect("state")
        assert 1 not in ann.view["catchable"]  # type: ignore[index]

    run(scenario())


def test_an_una_line_with_a_full_hand_is_silent_unless_it_can_be_caught(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await two_at(server, rules="byond")  # false_uno_penalty
        # Seven cards, or more if the turned-up card made Ann draw: the count her view shows.
        held = len(ann.view["hand"])  # type: ignore[index]
        mark = bob.mark()
        await say(ann, "unabombers are wacky")
        notice = await bob.expect("notice", since=mark)
        assert (notice["code"], notice["args"]) == ("false_uno", {"name": "Ann", "cards": held})
        while 0 not in bob.view["catchable"]:  # type: ignore[index]
            await bob.expect("state")
        assert not [f for f in bob.frames if f["type"] == "chat"]  # nothing said as chat

    run(scenario())


def test_endhand_scores_the_hand_and_deals_a_new_hand_of_the_same_game(server: Server) -> None:
    async def scenario() -> None:
        # A target no hand reaches: BYOND's Kobe alone is 666 points, so at the default 500
        # one unlucky hand would end the match, not the hand.
        ann, bob = await two_at(server, rules={"preset": "byond", "target": 100_000})
        game_id = ann.state["game_id"]  # type: ignore[index]
        await play_until_over([ann, bob], moves=4)
        await say(bob, "/endhand")
        await say(ann, "/endhand")
        while ann.view["phase"] != "hand_over":  # type: ignore[index]
            await ann.expect("state")
        scores = ann.view["scores"]  # type: ignore[index]
        assert ann.view["hand_points"] == scores  # type: ignore[index]  # the first hand
        await bob.send({"type": "start"})  # a new hand of the same game
        while ann.view["hand_number"] != 2:  # type: ignore[index]
            await ann.expect("state")
        assert ann.state["game_id"] == game_id  # type: ignore[index]
        assert any(scores)
        # /endgame: the final standings are those of the hands played, as after any match.
        await asyncio.sleep(1.0)
        await say(bob, "/endgame")
        await say(ann, "/endgame")
        while ann.state["table"]["status"] != "over":  # type: ignore[index]
            await ann.expect("state")
        view = ann.view
        assert view["phase"] == "match_over" and view["scores"] == scores  # type: ignore[index]
        assert view["match_winner"] == scores.index(min(scores))  # type: ignore[index]
        status, body = server.get(f"/games/{game_id}.json")
        assert status == 200
        record = Record.from_json(json.loads(body))
        codes = [code for _, code in record.actions]
        assert codes.count("endhand") == 1 and codes[-1] == "endgame"
        # The engine's own count: every player takes the points of the cards in her hand.
        game = record.new_game()
        for actor, code in record.actions[: codes.index("endhand")]:
            game.apply(actor, code)
        assert game.hand_scores() == scores
        # The game is in each player's list of finished games; its replay knows who sat where.
        await ann.send({"type": "games"})
        listed = (await ann.expect("games"))["games"]
        assert [g["id"] for g in listed] == [game_id] and listed[0]["players"] == ["Ann", "Bob"]
        status, body = server.get(f"/games/{game_id}/views")
        seats = json.loads(body)["seats"]
        assert [s["player_id"] for s in seats] == [ann.player_id, bob.player_id]
        for player in (ann, bob):
            await player.close()

    run(scenario())


def test_startgame_as_the_only_person_starts_a_new_game(server: Server) -> None:
    async def scenario() -> None:
        _, (ann,) = await seated(server, ["Ann"], public=False, seats=3, bots=2)
        names = [d["name"] for d in (await ann.expect("state"))["table"]["seats_detail"]]
        assert names == ["Ann", "Ada", "Bruno"]  # short, distinct, as una play names them
        assert set(names[1:]) <= set(BOT_NAMES)
        await started([ann])
        first = ann.state["game_id"]  # type: ignore[index]
        await say(ann, "/startgame")
        while ann.state["game_id"] == first:  # type: ignore[index]
            await ann.expect("state")
        assert ann.view["hand_number"] == 1  # type: ignore[index]
        await ann.close()

    run(scenario())


def test_lines_survive_a_reload_and_a_stand_in_says_whom_it_plays_for(server: Server) -> None:
    async def scenario() -> None:
        ann, bob = await two_at(server)
        code = ann.state["table"]["code"]  # type: ignore[index]
        await say(ann, "hello Bob")
        await bob.expect("chat")
        await bob.close()
        again = await Player(server, "Bob").connect(bob.token)
        await again.send({"type": "resume", "table": code, "version": -1, "epoch": ""})
        lines = (await again.expect("lines"))["lines"]
        assert {"type": "chat", "from": "Ann", "player_id": ann.player_id,
                "text": "hello Bob"} in lines  # fmt: skip
        assert any(
            line["type"] == "event" and line["event"]["type"] == "hand_started" for line in lines
        )
        await again.send({"type": "leave"})
        await again.expect("left")
        while True:
            detail = ann.state["table"]["seats_detail"][1]  # type: ignore[index]
            if detail["stand_in"]:
                break
            await ann.expect("state")
        assert detail["bot"] and detail["name"] == "Bob"
        bob_now = (await reply(ann, "/who"))["args"]["people"][1]
        assert (bob_now["name"], bob_now["role"], bob_now["stand_in"]) == ("Bob", "bot", True)
        await ann.close()

    run(scenario())
