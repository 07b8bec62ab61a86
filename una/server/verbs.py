"""Chat and slash verbs, BYOND's IRC style.

Plain text is said to the table. A line that begins with the letters "una" (BYOND's rule) or
«уно» (the RU bot's) is the una command and is not said as chat: "unabombers are wacky" calls
UNO. Begun with a space (" una ..."), it is ordinary chat. A leading slash makes a verb; an
unknown verb gets a list of the known ones and the closest match.
"""

from __future__ import annotations

import difflib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from una.engine import Action, Kind

if TYPE_CHECKING:
    from una.server.rooms import Client, RoomService, Table

Handler = Callable[["RoomService", "Table", "Client", str], Awaitable[None]]

HELP = {
    "una": "call UNO (so does any line that starts with una or уно; a leading space makes it chat)",
    "challenge": "challenge the Wild Draw Four played on you (/challenge [name])",
    "draw": "draw a card, take a pending draw, or pass after drawing",
    "pass": "pass after drawing",
    "play": "play a card: /play R5, /play W G, /play R7 @2",
    "color": "name the color of a Wild turned up first: /color red",
    "catch": "catch a player who did not call UNO: /catch NAME",
    "who": "who is at the table: seats, cards, scores, spectators",
    "auto": "let the computer play for you until you turn it off (/auto again)",
    "startgame": "start the game, or deal the next hand",
    "endgame": "vote to end the game (every seated person must agree)",
    "endhand": "vote to end the hand (every seated person must agree)",
    "game-info": "this help",
    "set-icon": "set your icon (upload it with the icon button: PNG, GIF or BMP, 64 KiB)",
    "reset-icon": "go back to the default icon",
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


async def _tell(service: RoomService, client: Client, text: str) -> None:
    await client.send({"type": "system", "text": text})


async def _unknown(service: RoomService, table: Table, client: Client, verb: str) -> None:
    close = difflib.get_close_matches(verb.lower(), list(VERBS), n=1)
    hint = f" Did you mean /{close[0]}?" if close else ""
    await _tell(
        service, client, f"Unknown verb /{verb}.{hint} Verbs: " + ", ".join(f"/{v}" for v in HELP)
    )


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


async def verb_una(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.say(table, client, "UNA!")
    await _act(service, table, client, "uno")


async def verb_challenge(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await _act(service, table, client, "challenge")


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
        await _tell(service, client, "Usage: /play CARD [COLOR] [@SEAT ...] [uno]")
        return
    await _act(service, table, client, f"play {rest}")


async def verb_color(service: RoomService, table: Table, client: Client, rest: str) -> None:
    if not rest:
        await _tell(service, client, "Usage: /color red|yellow|green|blue")
        return
    await _act(service, table, client, f"color {rest}")


async def verb_catch(service: RoomService, table: Table, client: Client, rest: str) -> None:
    seat = _named_seat(table, rest)
    if seat is None:
        await _tell(service, client, f"Nobody called {rest!r} plays here. Usage: /catch NAME")
        return
    await _act(service, table, client, str(Action.catch(seat)))


async def verb_who(service: RoomService, table: Table, client: Client, rest: str) -> None:
    game = table.game
    lines = []
    for index, info in enumerate(table.seats):
        if info is None:
            lines.append(f"seat {index}: (empty)")
            continue
        what = f"computer ({info.bot})" if info.bot else ("auto" if info.auto else "player")
        extra = ""
        if game is not None and index in table.game_seats:
            gs = table.game_seats.index(index)
            extra = f", {len(game.hands[gs])} cards, {game.scores[gs]} points"
        lines.append(f"seat {index}: {info.name} [{what}]{extra}")
    watchers = sorted(service.names.get(s, "?") for s in table.spectators)
    lines.append("watching: " + (", ".join(watchers) if watchers else "nobody"))
    await _tell(service, client, "\n".join(lines))


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
    text = "\n".join(f"/{verb}: {what}" for verb, what in HELP.items())
    await _tell(service, client, f"Table {table.code}, rules: {table.rules}\n{text}")


async def verb_set_icon(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await _tell(service, client, HELP["set-icon"])


async def verb_reset_icon(service: RoomService, table: Table, client: Client, rest: str) -> None:
    await service.reset_icon(client)


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
    "catch": verb_catch,
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
