"""Chat and slash verbs, BYOND's IRC style.

Plain text is said to the table. A line that begins with the letters "una" (BYOND's rule) or
«уно» (the RU bot's) is the una command and is not said as chat: "unabombers are wacky" calls
UNO. Begun with a space (" una ..."), it is ordinary chat. A leading slash makes a verb; an
unknown verb gets a list of the known ones and the closest match.

Every answer is a typed ``protocol.Reply`` (a code and its arguments); :data:`HELP` says in
English what each verb does (for logs and the docs), and front ends word it themselves.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from una.engine import Action, Kind
from una.server import protocol as p
from una.server.rooms import uno_call

if TYPE_CHECKING:
    from una.server.rooms import Client, RoomService, Table

Handler = Callable[["RoomService", "Table", "Client", str], Awaitable[None]]

HELP = {
    "say": "say something to everyone at the table (/say hi; plain text does the same)",
    "una": "call UNO (so does any line that starts with una or уно; a leading space makes it chat)",
    "challenge": "challenge a player who did not call UNO, or called it holding more than one "
    "card (/challenge NAME; without a name you pick one); on a Wild Draw Four played on you, "
    "challenge it",
    "draw": "draw a card, take a pending draw, or pass after drawing",
    "pass": "pass after drawing",
    "play": "play a card: /play R5, /play W G, /play R7 @2",
    "color": "report the current color",
    "pick": "name the color of a Wild turned up first: /pick red",
    "who": "everyone here, one line each: players and watchers",
    "auto": "let the computer play for you until you turn it off (/auto again)",
    "startgame": "start the game, or deal the next hand; the only person here may also end "
    "the game and start a new one",
    "endgame": "vote to end the game (final scores: those of the hands played)",
    "endhand": "vote to end the hand (everyone takes the points in her hand; deal the next)",
    "game-info": "this help",
    "set-icon": "set your icon (choose a PNG, GIF or BMP of up to 64 KiB)",
    "reset-icon": "a random icon of the game's own, until you log in again",
    "leave": "leave the table",
}


#: Line starts that make a chat line the una command (compared in lower case).
UNA_PREFIXES = ("una", "уно")


def calls_una(text: str, spaced: bool = False) -> bool:
    """Whether a chat line is the una command rather than chat.

    >>> calls_una("Unabombers are wacky"), calls_una("уно!"), calls_una("uno")
    (True, True, False)
    >>> calls_una("una", spaced=True), calls_una("I said una")
    (False, False)
    """
    return not spaced and text.lower().startswith(UNA_PREFIXES)


async def run_chat(
    service: RoomService, table: Table, client: Client, text: str, spaced: bool = False
) -> None:
    """Say ``text`` at the table, or run the verb it holds; ``spaced``: the line began with
    a space (so it is chat, whatever its first letters)."""
    if calls_una(text, spaced):
        await verb_una(service, table, client, text)
        return
    if text.startswith("/"):
        verb, _, rest = text[1:].partition(" ")
        handler = VERBS.get(verb.lower())
        if handler is None:
            await _unknown(service, table, client, verb)
            return
        await handler(service, table, client, rest.strip())
        return
    await service.say(table, client, text)


async def _act(service: RoomService, table: Table, client: Client, code: str) -> None:
    await service.act(client, code, table.version)


async def _tell(client: Client, code: str, **args: object) -> None:
    await client.send(p.Reply(code, args))


async def _unknown(service: RoomService, table: Table, client: Client, verb: str) -> None:
    close = difflib.get_close_matches(verb.lower(), list(VERBS), n=1)
    suggestion = close[0] if close else None
    await _tell(client, "unknown_verb", verb=verb[:40], suggestion=suggestion, verbs=list(HELP))


def _named_seat(table: Table, name: str) -> int | None:
    game = table.game
    if game is None or not name:
        return None
    wanted = name.strip().lstrip("@").lower()
    if wanted.isdigit() and int(wanted) < game.n:
        return int(wanted)
    for seat, player in enumerate(game.names):
        if player.lower() == wanted:
            return seat
    return None


async def verb_say(service: RoomService, table: Table, client: Client, rest: str) -> None:
    if not rest:
        await _tell(client, "usage", verb="say")
        return
    await service.say(table, client, rest)


async def verb_una(service: RoomService, table: Table, client: Client, rest: str) -> None:
    """Call UNO. The table hears it only when it does something (``rooms.uno_call``): the
    call owed with one card, or a false one under ``false_uno_penalty``, which is announced
    as catchable. A call that changes nothing is told to the caller alone."""
    game = table.game
    seat = table.engine_seat(client.player_id)
    if game is None or seat is None or game.hand_over:
        await _tell(client, "uno_no_hand")
        return
    if uno_call(game, seat) is None:
        await _tell(client, "uno_nothing", cards=len(game.hands[seat]))
        return
    await _act(service, table, client, "uno")


async def verb_challenge(service: RoomService, table: Table, client: Client, rest: str) -> None:
    """BYOND's challenge: a Wild Draw Four played on you, else a player who owes an UNO
    call or made a false one (the engine's catch). Without a name, you are asked whom."""
    game = table.game
    seat = table.engine_seat(client.player_id)
    if game is None or seat is None:
        await _tell(client, "challenge_not_player")
        return
    legal = game.legal_actions(seat)
    named = _named_seat(table, rest) if rest else None
    if Action.parse("challenge") in legal and (not rest or named == game.pending_source):
        await _act(service, table, client, "challenge")
        return
    if rest:
        if named is None or named == seat:
            others = [n for i, n in enumerate(game.names) if i != seat]
            await _tell(client, "challenge_nobody", name=rest[:40], players=others)
            return
        await _act(service, table, client, str(Action.catch(named)))
        return
    catchable = [game.names[a.targets[0]] for a in legal if a.kind is Kind.CATCH]
    if not catchable:
        await _tell(client, "challenge_none")
        return
    await _tell(client, "challenge_whom", names=catchable)


async def verb_draw(service: RoomService, table: Table, client: Client, rest: str) -> None:
    game = table.game
    seat = table.engine_seat(client.player_id)
    code = "draw"
    if game is not None and seat is not None:
        legal = {a.kind for a in game.legal_actions(seat)}
        if Kind.DRAW not in legal and Kind.PASS in legal:
            code = "pass"  # BYOND: clicking the deck again after drawing passes
    await _act(service, table, client, code)


async def verb_pass(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await _act(service, table, client, "pass")


async def verb_play(service: RoomService, table: Table, client: Client, rest: str) -> None:
    if not rest:
        await _tell(client, "usage", verb="play")
        return
    await _act(service, table, client, f"play {rest}")


async def verb_color(service: RoomService, table: Table, client: Client, rest: str) -> None:
    """Report the current color (BYOND's /color); naming one is the picker's (/pick)."""
    game = table.game
    if game is None:
        await _tell(client, "color_no_game")
        return
    color = game.color.value if game.color is not None else None
    await _tell(client, "color", color=color, top=game.discard[-1].code, asked=bool(rest))


async def verb_pick(service: RoomService, table: Table, client: Client, rest: str) -> None:
    if not rest:
        await _tell(client, "usage", verb="pick")
        return
    await _act(service, table, client, f"color {rest}")


async def verb_who(service: RoomService, table: Table, client: Client, rest: str) -> None:
    """One entry per person: the seated (cards and points during a game), then watchers."""
    game = table.game
    here = {c.player_id for c in service.connected(table)}
    people = []
    for index, info in enumerate(table.seats):
        if info is None:
            continue
        cards = points = None
        if game is not None and index in table.game_seats:
            gs = table.game_seats.index(index)
            cards, points = len(game.hands[gs]), game.scores[gs]
        people.append(
            p.Who(
                info.name,
                "bot" if info.bot else "player",
                seat=index,
                auto=info.auto,
                away=not info.bot and info.player_id not in here,
                host=info.player_id is not None and info.player_id == table.host_id,
                stand_in=info.stand_in,
                cards=cards,
                points=points,
            )
        )
    for watcher in sorted(table.spectators, key=lambda s: service.names.get(s, "?").casefold()):
        name = service.names.get(watcher, "?")
        people.append(p.Who(name, "watcher", away=watcher not in here))
    await _tell(client, "who", people=people)


async def verb_auto(service: RoomService, table: Table, client: Client, rest: str) -> None:
    seat = table.seat_of(client.player_id)
    info = table.seats[seat] if seat is not None else None
    on = rest.lower() in ("on", "1", "yes") if rest else not (info is not None and info.auto)
    await service.set_auto(client, on)


async def verb_startgame(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.start(client)


async def verb_endgame(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.vote(table, client, "endgame")


async def verb_endhand(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.vote(table, client, "endhand")


async def verb_info(service: RoomService, table: Table, client: Client, rest: str) -> None:
    """The help: the table, its rules, and every verb (each front end says what it does)."""
    rules = table.rules.to_json()
    await _tell(
        client, "game_info", table=table.code, preset=table.rules.preset, rules=rules,
        verbs=list(HELP),
    )  # fmt: skip


async def verb_set_icon(service: RoomService, table: Table, client: Client, rest: str) -> None:
    # A client with an icon chooser opens it; the others say how to set one.
    await _tell(client, "set_icon")


async def verb_reset_icon(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.reset_icon(client)
    await _tell(client, "icon_reset")


async def verb_leave(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.leave(client)


VERBS: dict[str, Handler] = {
    "una": verb_una,
    "uno": verb_una,
    "уно": verb_una,
    "challenge": verb_challenge,
    "draw": verb_draw,
    "pass": verb_pass,
    "play": verb_play,
    "color": verb_color,
    "pick": verb_pick,
    "catch": verb_challenge,
    "say": verb_say,
    "who": verb_who,
    "auto": verb_auto,
    "startgame": verb_startgame,
    "deal": verb_startgame,
    "endgame": verb_endgame,
    "endhand": verb_endhand,
    "game-info": verb_info,
    "help": verb_info,
    "set-icon": verb_set_icon,
    "reset-icon": verb_reset_icon,
    "leave": verb_leave,
}
