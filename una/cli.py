"""The ``una`` command: ``una replay``, ``una rules``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from una.engine import PRESETS, SWITCHES, Action, Card, Game, Record, RuleSet, UnaError
from una.engine.record import ReplayError

app = typer.Typer(
    name="una",
    help="Una: an open-source UNO platform.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _fail(message: str) -> NoReturn:
    """One line on standard error, exit status 2 (bad input)."""
    typer.echo(message, err=True)
    raise typer.Exit(2)


@app.callback()
def main() -> None:
    """Una: an open-source UNO platform."""


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, NOTATION.md); - for stdin.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the state after the last action as JSON.")
    ] = False,
    upto: Annotated[
        int | None, typer.Option("--upto", help="Replay only the first K actions.")
    ] = None,
) -> None:
    """Replay a game record: a readable account, or the final state with --json."""
    if upto is not None and upto < 0:
        _fail(f"--upto: must be 0 or more, not {upto}")
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as error:
        _fail(f"{file}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        _fail(f"{file}: not UTF-8 text ({error.reason} at byte {error.start})")
    try:
        record = Record.loads(text)
        if as_json:
            game = record.replay(upto)
            typer.echo(json.dumps(game.state_json()))
            return
        _account(record, upto)
    except ReplayError as error:
        _fail(str(error))
    except UnaError as error:
        _fail(f"{file}: {error}")


def _account(record: Record, upto: int | None) -> None:
    """Print the game action by action, with what each caused; stop at the first bad one."""
    game = record.new_game()
    names = game.names
    typer.echo(f"Rules: {game.rules}   Players: {', '.join(names)}   Seed: {record.seed}")
    for event in game.start_events:
        typer.echo(f"  {event.describe(names)}")
    _table(game)
    actions = record.actions if upto is None else record.actions[:upto]
    for index, (seat, code) in enumerate(actions):
        try:
            events = game.apply(seat, Action.parse(code))
        except UnaError as error:
            reason = getattr(error, "reason", None)
            raise ReplayError(
                index, seat, code, f"illegal: {reason}" if reason else str(error)
            ) from None
        typer.echo(f"{index:>4}  {names[seat]}: {code}")
        for event in events:
            typer.echo(f"        {event.describe(names)}")
    typer.echo("")
    _table(game)


def _table(game: Game) -> None:
    color = game.color.word if game.color else "not named yet"
    typer.echo(f"  Top card: {game.top.name}, color {color}, hand {game.hand_number}")
    for seat, hand in enumerate(game.hands):
        mark = "*" if seat == game.to_act and not game.hand_over else " "
        cards = " ".join(card.code for card in sorted(hand, key=lambda c: c.sort_key))
        typer.echo(f"  {mark} {game.names[seat]:<12} {game.scores[seat]:>4} pts  {cards}")
    if game.match_over and game.winner is not None:
        typer.echo(f"  Match over: {game.names[game.winner]} wins.")
    elif game.hand_over:
        typer.echo("  Hand over: any player may deal the next one.")


@app.command()
def rules(
    name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the presets and switches, or show one preset: deck, point values, switches."""
    if name is None:
        data: Any = {
            "presets": {p.name: p.title for p in PRESETS.values()},
            "switches": {s.name: _switch_json(s.name) for s in SWITCHES.values()},
        }
        if as_json:
            typer.echo(json.dumps(data, indent=2))
            return
        typer.echo("Presets:")
        for preset in PRESETS.values():
            typer.echo(f"  {preset.name:<12} {preset.title}")
        typer.echo("\nSwitches (name, default, meaning):")
        for switch in SWITCHES.values():
            default = json.dumps(list(switch.default) if switch.type is tuple else switch.default)
            typer.echo(f"  {switch.name:<20} {default:<20} {switch.description}")
        typer.echo("\n`una rules NAME` shows a preset in full.")
        return
    try:
        ruleset = RuleSet.preset_named(name)
    except UnaError as error:
        _fail(str(error))
    _show_preset(ruleset, as_json)


def _show_preset(ruleset: RuleSet, as_json: bool) -> None:
    from collections import Counter

    from una.engine.cards import MUTANTS
    from una.engine.effects import card_summary

    preset = ruleset.preset_data
    deck = ruleset.deck()
    counts = Counter(card.code for card in deck)
    unique = sorted(dict.fromkeys(deck), key=_display_key)
    values = {card.code: ruleset.points(card) for card in unique}
    settings = {k: v for k, v in ruleset.to_dict().items() if k != "preset"}
    # Cards beyond the classic ones, with what they do.
    special = {
        card.code: card_summary(card)
        for card in unique
        if card.effect not in ("N", "S", "R", "D2", "W", "W4")
    }
    first_card = dict(preset.first_card)
    if any(card.effect in MUTANTS for card in unique):
        first_card["every mutant"] = "reshuffle"
    if as_json:
        data = {
            "name": preset.name,
            "title": preset.title,
            "description": preset.description,
            "deck_size": len(deck),
            "hand_size": preset.hand_size,
            "deck": dict(counts),
            "first_card": first_card,
            "points": values,
            "per_opponent": sorted(preset.per_opponent),
            "special_cards": special,
            "switches": settings,
        }
        typer.echo(json.dumps(data, indent=2))
        return
    typer.echo(f"{preset.name}: {preset.title}\n  {preset.description}\n")
    typer.echo(f"Deck: {len(deck)} cards, {preset.hand_size} dealt to each player")
    by_family: dict[str, list[str]] = {}
    for card in unique:
        count = counts[card.code]
        by_family.setdefault(_family(card), []).append(
            f"{card.code}x{count}" if count > 1 else card.code
        )
    for family, codes in by_family.items():
        typer.echo(f"  {family:<30} {' '.join(codes)}")
    returned = ", ".join(f"{what} ({where})" for what, where in first_card.items())
    typer.echo(f"Turned up first, these go back: {returned}")
    typer.echo("\nPoints:")
    shown: set[str] = set()
    for card in unique:
        family = _family(card)
        if family in shown:
            continue
        shown.add(family)
        if card.symbol.isdigit():
            value = "face value"
        elif card.symbol in preset.per_opponent:
            value = f"{preset.points[card.symbol]} per opponent"
        else:
            value = str(values[card.code]) + _POINT_NOTES.get(card.symbol, "")
        typer.echo(f"  {family:<30} {value}")
    if special:
        typer.echo("\nCards with rules of their own:")
        for code, text in special.items():
            card = Card.parse(code)
            if card.color is not None and card.symbol not in (code,):
                if card.color.value != "R":
                    continue  # one line per colored family
                code = f"(R/Y/G/B){card.symbol}"
            typer.echo(f"  {code:<12} {_family(card)}: {text}")
    typer.echo("\nSwitches:")
    for key, value in settings.items():
        typer.echo(f"  {key:<20} {json.dumps(value)}")


_POINT_NOTES = {
    "HOLY": " (and it halves its holder's hand score)",
    "DUNG": " (or the highest hand score of the hand, whichever is more)",
}


def _display_key(card: Card) -> tuple[int, int, int]:
    from una.engine.cards import COLORED_SYMBOLS, COLORS, NAMED_CODES

    color = COLORS.index(card.color) if card.color else 0
    if card.symbol.isdigit():
        return (0, color, 0)
    order = [*COLORED_SYMBOLS, *NAMED_CODES]
    return (1, order.index(card.symbol), color)


def _family(card: Card) -> str:
    if card.symbol.isdigit():
        return f"{card.color.word if card.color else ''} numbers".strip()
    return card.name.split(" ", 1)[-1] if card.color and card.code != card.symbol else card.name


def _switch_json(name: str) -> dict[str, Any]:
    switch = SWITCHES[name]
    default = list(switch.default) if switch.type is tuple else switch.default
    out: dict[str, Any] = {"default": default, "description": switch.description}
    if switch.choices:
        out["choices"] = list(switch.choices)
    return out


# ------------------------------------------------------- sim, play, bench
# Their modules are imported inside the commands, so `una replay` stays fast.

_RULES_HELP = "A preset, a JSON rules object, or a JSON file (rules, or a record's rules)."
_SET_HELP = "Switch override SWITCH=VALUE (repeatable), e.g. --set stack_draw_two=true."
_THINK_HELP = (
    "Milliseconds a search bot (strong) thinks per decision, instead of its level's "
    "iteration budget (results then depend on the machine's speed)."
)


@app.command()
def sim(
    rules: Annotated[str, typer.Option("--rules", help=_RULES_HELP)] = "standard",
    overrides: Annotated[list[str] | None, typer.Option("--set", help=_SET_HELP)] = None,
    players: Annotated[int, typer.Option("--players", "-n", help="Seats at the table.")] = 2,
    games: Annotated[int, typer.Option("--games", "-g", help="Games to play.")] = 1000,
    bots: Annotated[
        str,
        typer.Option("--bots", help="Bots filling the seats in turn (name or name:level)."),
    ] = "heuristic,random",
    seed: Annotated[int, typer.Option("--seed", help="Master seed: same seed, same results.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes.")] = 1,
    matches: Annotated[
        bool, typer.Option("--matches", help="A game is a whole match to the target, not a hand.")
    ] = False,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write every game's record to DIR.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    think_ms: Annotated[float | None, typer.Option("--think-ms", help=_THINK_HELP)] = None,
) -> None:
    """Bots against bots: wins, win rates with 95% intervals, points and turns.

    A game is one hand unless --matches, and the bots play for what a game is: the hand,
    or the match its rules score. Seats rotate from game to game.
    """
    from una.sim.commands import sim_main

    sim_main(
        rules,
        overrides or [],
        players,
        games,
        bots,
        seed,
        jobs,
        matches,
        record,
        as_json,
        think_ms,
    )


@app.command()
def play(
    players: Annotated[int, typer.Option("--players", "-n", help="Seats, you included.")] = 3,
    rules: Annotated[str, typer.Option("--rules", help=_RULES_HELP)] = "standard",
    overrides: Annotated[list[str] | None, typer.Option("--set", help=_SET_HELP)] = None,
    bots: Annotated[
        str, typer.Option("--bots", help="Computer players, filling their seats in turn.")
    ] = "heuristic",
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the deal (random if not given).")
    ] = None,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "Player",
    target: Annotated[
        int | None, typer.Option("--target", help="Points that end the match (a short game).")
    ] = None,
    think_ms: Annotated[float | None, typer.Option("--think-ms", help=_THINK_HELP)] = None,
) -> None:
    """Play a whole match against computer players in the terminal."""
    from una.play import play_main

    play_main(players, rules, overrides or [], bots, seed, name, target, think_ms)


@app.command()
def bench(
    games: Annotated[int, typer.Option("--games", "-g", help="Hands per seat count.")] = 2000,
    players: Annotated[str, typer.Option("--players", help="Seat counts, e.g. 2,4.")] = "2,4",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the playouts.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    soak: Annotated[
        int | None,
        typer.Option("--soak", help="Instead: soak-test N hands across every preset."),
    ] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (soak).")] = 1,
) -> None:
    """The engine's random-playout speed (games/s, moves/s), in pure Python and in the
    compiled core when it is built; or a soak test with --soak."""
    from una.sim.commands import bench_main

    bench_main(games, players, seed, as_json, soak, jobs)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL (sqlite:///FILE or postgresql://...); "
            "default: an SQLite file in your data directory."
        ),
    ] = None,
    bot_delay: Annotated[
        float | None, typer.Option(help="Seconds a computer player waits before it acts.")
    ] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    redis: Annotated[
        str | None,
        typer.Option(
            envvar="UNA_REDIS",
            help="Redis URL (redis://HOST:PORT/N): be one node of several on one PostgreSQL "
            "database (docs/scaling.md).",
        ),
    ] = None,
) -> None:
    """Run the multiplayer server: rooms, chat, computer players, the browser client."""
    import uvicorn

    from una.server.app import create_app, default_db_url
    from una.server.protocol import MAX_FRAME
    from una.server.storage import StorageError, async_url, check_service_free

    try:
        url = async_url(db) if db else None
    except (ValueError, StorageError) as error:
        _fail(f"--db: {error}")
    if not 0 <= port <= 65535:
        _fail(f"--port: from 0 to 65535, not {port}")
    if bot_delay is not None and not 0 <= bot_delay <= 60:
        _fail(f"--bot-delay: from 0 to 60 seconds, not {bot_delay}")
    if log_level not in LOG_LEVELS:
        _fail(f"--log-level: one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
    if redis and not redis.startswith(("redis://", "rediss://", "unix://")):
        _fail(f"--redis: a redis://HOST:PORT URL, not {redis!r}")
    if redis and not async_url(url or os.environ.get("UNA_DB") or "x.db").startswith("postgresql"):
        _fail("--redis: the nodes share a PostgreSQL database: give --db postgresql://...")
    _check_listen(host, port)
    try:  # the clear refusal; the service takes the lock for real when it starts
        check_service_free(url or default_db_url(), shared=bool(redis))  # nodes share it
    except StorageError as error:
        _fail(f"una serve: {error}")
    # The database is opened (and migrated) once here, so that a wrong URL or an unreachable
    # server is one line, not uvicorn's traceback from the application's startup.
    _check_database(url)
    application = create_app(db_url=url, bot_delay=bot_delay, redis_url=redis)
    typer.echo(f"Una is serving on http://{host}:{port}/ (WebSocket: ws://{host}:{port}/ws)")
    # Frames a little over our own limit reach the handler, which answers them with an
    # error; far larger ones are cut by uvicorn before they are read.
    uvicorn.run(application, host=host, port=port, log_level=log_level,
                ws_max_size=8 * MAX_FRAME)  # fmt: skip


LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _check_listen(host: str, port: int) -> None:
    """One line when ``host:port`` cannot be listened on (a port in use, an address not
    this machine's): uvicorn would first say it serves, then log the error and exit 3."""
    import errno
    import socket

    # Bound as uvicorn binds it: by name, IPv6 only for an address with a colon.
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:  # socket.gaierror too: a name that does not resolve
            option = "--port" if error.errno == errno.EADDRINUSE else "--host"
            _fail(f"{option}: cannot listen on {host}:{port}: {error.strerror or error}")


def _check_database(url: str | None) -> None:
    import asyncio

    from una.server.app import default_db_url
    from una.server.storage import Storage

    async def open_and_close() -> None:
        storage = await Storage.open(url or default_db_url())
        await storage.close()

    try:
        asyncio.run(open_and_close())
    except Exception as error:  # the driver's errors have no common base: name what failed
        reason = " ".join(str(error).split()) or type(error).__name__
        _fail(f"--db: cannot open the database: {reason[:300]}")


@app.command()
def telegram(
    token: Annotated[
        str | None,
        typer.Option(envvar="UNA_TELEGRAM_TOKEN", help="Bot token (or UNA_TELEGRAM_TOKEN)."),
    ] = None,
    api_url: Annotated[
        str | None, typer.Option(help="A custom Bot API server, e.g. http://127.0.0.1:8081.")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="Database URL, as for una serve (not one a running una serve uses)."),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a computer player waits before it acts.")
    ] = 0.6,
    card_url: Annotated[
        str | None,
        typer.Option(
            help="Public base URL of the card images (una serve's /telegram/cards): the "
            "inline mode shows cards as pictures."
        ),
    ] = None,
) -> None:
    """Run the Telegram bot (long polling): UNO in group chats, at the server's tables."""
    from una.server.app import default_db_url
    from una.server.storage import StorageError, async_url, check_service_free
    from una.telegram.runner import polling_main

    if not token:
        _fail("una telegram: give --token or set UNA_TELEGRAM_TOKEN")
    try:
        url = async_url(db) if db else default_db_url()
    except (ValueError, StorageError) as error:
        _fail(f"--db: {error}")
    from aiogram.utils.token import TokenValidationError, validate_token

    try:
        validate_token(token)
    except TokenValidationError:
        _fail("--token: not a bot token (they look like 123456:ABC-DEF...)")
    if api_url is not None and not api_url.startswith(("http://", "https://")):
        _fail(f"--api-url: an http:// or https:// URL, not {api_url!r}")
    from aiogram.exceptions import TelegramAPIError, TelegramUnauthorizedError

    if card_url is not None and not card_url.startswith(("https://", "http://")):
        _fail(f"--card-url: expected an http(s) URL, not {card_url!r}")
    try:  # the clear refusal next to a running una serve (its service takes the lock)
        check_service_free(url)
    except StorageError as error:
        _fail(f"una telegram: {error}")
    try:
        polling_main(token, api_url, url, bot_delay, card_url)
    except TelegramUnauthorizedError:
        _fail("--token: the Bot API refused this token")
    except TelegramAPIError as error:
        _fail(f"una telegram: the Bot API failed: {' '.join(str(error).split())[:300]}")


def run(args: list[str] | None = None) -> None:
    """The console script: the app, with every refusal one line on standard error and exit
    status 2 (typer's usage errors too, which it would print as a box under the usage)."""
    from una.server.storage import StorageError

    try:
        code = app(args=args, standalone_mode=False)
    except typer.TyperException as error:  # typer's click: usage errors, a missing file ...
        context = getattr(error, "ctx", None)
        if type(error).__name__ == "NoArgsIsHelpError" and context is not None:
            typer.echo(context.get_help())  # `una` alone: the help, as before
            sys.exit(2)
        command = context.command_path if context is not None else "una"
        message = " ".join(error.format_message().split())
        typer.echo(f"{command}: {message}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("una: interrupted", err=True)
        sys.exit(130)
    except (UnaError, StorageError, OSError) as error:  # a command that let one through
        reason = " ".join(str(error).split()) or type(error).__name__
        typer.echo(f"una: {reason}", err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    run()
