"""Summaries of a simulation: per bot wins, win rate with its 95% interval, mean points
and turns; as a JSON object or a Rich table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table as RichTable

from una.sim.runner import GameResult, SimConfig
from una.sim.stats import wilson


def summarize(config: SimConfig, results: Sequence[GameResult], seconds: float) -> dict[str, Any]:
    """The ``una sim --json`` object.

    Per bot (every seat with the same spec counts for it): ``seats`` it fills at each
    table, ``wins`` (games won by one of its seats), ``win_rate`` and its Wilson ``ci95``,
    and per seat and game its ``mean_points`` (points of the hand, or match totals) and
    ``mean_turns`` (turn actions: plays, draws, passes, challenges, colors). ``engine``
    says which engine played the games: ``"c"`` (the compiled core) or ``"python"``.
    """
    from una.sim.runner import core_unsupported

    games = len(results)
    actions = sum(r.actions for r in results)
    hands = sum(r.hands for r in results)
    names = list(dict.fromkeys(config.seats))
    bots = []
    for name in names:
        wins = sum(1 for r in results if r.bots[r.winner] == name)
        seat_games = points = turns = 0
        for r in results:
            for seat, spec in enumerate(r.bots):
                if spec == name:
                    seat_games += 1
                    points += r.points[seat]
                    turns += r.turns[seat]
        low, high = wilson(wins, games)
        bots.append(
            {
                "name": name,
                "seats": config.seats.count(name),
                "wins": wins,
                "win_rate": wins / games if games else 0.0,
                "ci95": [round(low, 4), round(high, 4)],
                "mean_points": points / seat_games if seat_games else 0.0,
                "mean_turns": turns / seat_games if seat_games else 0.0,
            }
        )
    return {
        "rules": config.rules.to_json(),
        "players": config.players,
        "seed": config.seed,
        "unit": "match" if config.matches else "hand",
        "games": games,
        "hands": hands,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
        "moves_per_game": round(actions / games, 2) if games else 0.0,
        "engine": "python" if core_unsupported(config) else "c",
        "bots": bots,
    }


def table(summary: dict[str, Any]) -> RichTable:
    """The summary as a Rich table."""
    unit = summary["unit"]
    title = (
        f"{summary['games']} {unit}{'es' if unit == 'match' else 's'}, {summary['players']} "
        f"players, rules {summary['rules']}, seed {summary['seed']}"
    )
    out = RichTable(title=title)
    out.add_column("bot")
    out.add_column("seats", justify="right")
    out.add_column("wins", justify="right")
    out.add_column("win rate", justify="right")
    out.add_column("95% CI", justify="right")
    out.add_column("points", justify="right")
    out.add_column("turns", justify="right")
    for bot in summary["bots"]:
        low, high = bot["ci95"]
        out.add_row(
            bot["name"],
            str(bot["seats"]),
            str(bot["wins"]),
            f"{bot['win_rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{bot['mean_points']:.1f}",
            f"{bot['mean_turns']:.1f}",
        )
    rate = summary["games_per_second"]
    out.caption = (
        f"points and turns: means per seat and game. {summary['seconds']:.2f} s, "
        f"{rate if rate is not None else '-'} games/s, "
        f"{summary['moves_per_game']:.1f} moves per game, "
        f"{'in the C core' if summary['engine'] == 'c' else 'on the Python engine'}"
    )
    return out
