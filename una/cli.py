"""The ``una`` command: ``una replay``, ``una rules``."""

from __future__ import annotations

import json
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
    preset = ruleset.preset_data
    deck = preset.cards()
    values: dict[str, int] = {}
    for card in deck:
        values.setdefault(card.code, ruleset.points(card))
    settings = {k: v for k, v in ruleset.to_dict().items() if k != "preset"}
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "name": preset.name,
                    "title": preset.title,
                    "description": preset.description,
                    "deck_size": preset.deck_size,
                    "hand_size": preset.hand_size,
                    "deck": dict(preset.deck),
                    "points": values,
                    "switches": settings,
                },
                indent=2,
            )
        )
        return
    typer.echo(f"{preset.name}: {preset.title}\n  {preset.description}\n")
    typer.echo(f"Deck: {preset.deck_size} cards, {preset.hand_size} dealt to each player")
    by_kind: dict[str, list[str]] = {}
    for code, count in preset.deck.items():
        card = Card.parse(code)
        by_kind.setdefault(_family(card), []).append(f"{code}x{count}" if count > 1 else code)
    numbers_first = sorted(by_kind.items(), key=lambda item: "numbers" not in item[0])
    for family, codes in numbers_first:
        typer.echo(f"  {family:<16} {' '.join(codes)}")
    typer.echo("\nPoints:")
    seen: dict[str, int] = {}
    for card in deck:
        seen.setdefault(_family(card) if card.number is None else "numbers", ruleset.points(card))
    for family, value in seen.items():
        typer.echo(f"  {family:<16} {'face value' if family == 'numbers' else value}")
    typer.echo("\nSwitches:")
    for key, value in settings.items():
        typer.echo(f"  {key:<20} {json.dumps(value)}")


def _family(card: Card) -> str:
    if card.number is not None:
        return f"{card.color.word if card.color else ''} numbers".strip()
    return card.name.split(" ", 1)[-1] if card.color else card.name


def _switch_json(name: str) -> dict[str, Any]:
    switch = SWITCHES[name]
    default = list(switch.default) if switch.type is tuple else switch.default
    out: dict[str, Any] = {"default": default, "description": switch.description}
    if switch.choices:
        out["choices"] = list(switch.choices)
    return out


if __name__ == "__main__":  # pragma: no cover
    app()
