"""The bodies of ``una sim`` and ``una bench`` (``una.cli`` imports this lazily, so
``una replay`` does not pay for it)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from una.bots.registry import UnknownBot, parse_spec
from una.engine.errors import UnaError
from una.engine.rules import RuleSet
from una.sim.options import load_rules


def fail(message: str) -> NoReturn:
    """One line on standard error, exit status 2 (bad input)."""
    typer.echo(message, err=True)
    raise typer.Exit(2)


def rules_from_options(rules: str, overrides: list[str]) -> RuleSet:
    try:
        return load_rules(rules, overrides)
    except UnaError as error:
        fail(f"--rules: {error}")


def bot_specs(bots: str) -> tuple[str, ...]:
    """``"heuristic, random"`` -> checked specs."""
    specs = tuple(spec.strip() for spec in bots.split(",") if spec.strip())
    if not specs:
        fail("--bots: name at least one bot")
    try:
        for spec in specs:
            parse_spec(spec)
    except UnknownBot as error:
        fail(f"--bots: {error}")
    return tuple(spec.lower() for spec in specs)


def check_think_ms(think_ms: float | None) -> None:
    if think_ms is not None and not 0 < think_ms <= 600_000:
        fail(f"--think-ms: must be above 0 and at most 600000 (10 minutes), not {think_ms:g}")


def check_players(ruleset: RuleSet, players: int) -> None:
    low, high = ruleset.players
    if not low <= players <= high:
        fail(f"--players: these rules seat {low} to {high}, not {players}")


def sim_main(
    rules: str,
    overrides: list[str],
    players: int,
    games: int,
    bots: str,
    seed: int,
    jobs: int,
    matches: bool,
    record: Path | None,
    as_json: bool,
    think_ms: float | None = None,
) -> None:
    """``una sim``: see :mod:`una.sim.runner`."""
    from una.sim.report import summarize, table
    from una.sim.runner import SimConfig, iter_games

    ruleset = rules_from_options(rules, overrides)
    check_players(ruleset, players)
    if games < 1:
        fail(f"--games: must be 1 or more, not {games}")
    if jobs < 1:
        fail(f"--jobs: must be 1 or more, not {jobs}")
    specs = bot_specs(bots)
    if len(specs) > players:
        fail(f"--bots: {len(specs)} bots for {players} seats")
    check_think_ms(think_ms)
    config = SimConfig(ruleset, players, games, specs, seed, matches, record, think_ms)
    console = Console(highlight=False)
    show_progress = console.is_terminal and not as_json
    results = []
    start = time.perf_counter()
    try:
        if show_progress:
            columns = (
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
            )
            with Progress(*columns, console=console, transient=True) as progress:
                task = progress.add_task("games", total=games)
                for result in iter_games(config, jobs):
                    results.append(result)
                    progress.advance(task)
        else:
            results = list(iter_games(config, jobs))
    except OSError as error:
        fail(f"--record: {error.strerror or error}")
    seconds = time.perf_counter() - start
    summary = summarize(config, results, seconds)
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        console.print(table(summary))


def bench_main(
    games: int, players: str, seed: int, as_json: bool, soak_hands: int | None, jobs: int
) -> None:
    """``una bench``: raw playout throughput, or the soak test with ``--soak N``."""
    console = Console(highlight=False)
    if soak_hands is not None:
        _soak_main(console, soak_hands, seed, jobs, as_json)
        return
    from una.sim.bench import core_playout, playout

    try:
        counts = [int(p) for p in players.split(",") if p.strip()]
    except ValueError:
        fail(f"--players: a comma-separated list of seat counts, not {players!r}")
    if not counts or any(not 2 <= p <= 10 for p in counts):
        fail(f"--players: seat counts from 2 to 10, not {players!r}")
    if games < 1:
        fail(f"--games: must be 1 or more, not {games}")
    from una.engine import fast
    from una.engine.presets import PRESETS

    presets = sorted(PRESETS)
    results = [playout(p, games, seed, preset) for preset in presets for p in counts]
    # The compiled core (una/engine/_fastcore.c), where it is built and plays the rules.
    cores = [
        r
        for preset in presets
        for r in (core_playout(p, games, seed, preset) for p in counts)
        if r is not None
    ]
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "presets": presets,
                    "runs": [r.to_json() for r in results],
                    "core_runs": [r.to_json() for r in cores],
                    "not_in_core": {
                        preset: fast.why_unsupported(preset)
                        for preset in presets
                        if not fast.supports(preset)
                    },
                }
            )
        )
        return
    out = RichTable(title=f"Engine random playouts: {games:,} hands per preset and seat count")
    columns = ("rules", "engine", "players", "seconds", "games/s", "moves/s", "moves/game",
               "speedup")  # fmt: skip
    for name in columns:
        out.add_column(name, justify="right")
    python = {(r.rules, r.players): r for r in results}
    for r in sorted(results + cores, key=lambda r: (r.rules, r.players, r.engine != "python")):
        speedup = r.games_per_second / python[r.rules, r.players].games_per_second
        out.add_row(
            r.rules,
            "Python" if r.engine == "python" else "C core",
            str(r.players),
            f"{r.seconds:.3f}",
            f"{r.games_per_second:,.0f}",
            f"{r.moves_per_second:,.0f}",
            f"{r.moves_per_game:.1f}",
            f"{speedup:,.0f}x" if r.engine == "c" else "",
        )
    console.print(out)
    if not fast.available():
        console.print("The compiled core is not built (see docs/benchmarks.md): Python only.")
        return
    for preset in presets:
        reason = fast.why_unsupported(preset)
        if reason is not None:
            console.print(f"{preset}: pure Python only ({reason[:120]})")


def _soak_main(console: Console, hands: int, seed: int, jobs: int, as_json: bool) -> None:
    from una.sim.soak import SoakReport, soak

    if hands < 1:
        fail(f"--soak: must be 1 or more hands, not {hands}")
    done = [0]

    def progress(block: SoakReport) -> None:
        # On standard error, so that --json still prints one object on standard output.
        done[0] += block.hands
        print(
            f"soak: {done[0]:,} / {hands:,} hands, {len(block.failures)} failures in block",
            file=sys.stderr,
            flush=True,
        )

    report = soak(hands, seed=seed, jobs=jobs, progress=progress)
    data = report.to_json()
    if as_json:
        typer.echo(json.dumps(data))
    else:
        console.print(
            f"Soak: {report.hands:,} hands in {report.games:,} games, {report.actions:,} "
            f"actions, {report.seconds:.0f} s; presets {dict(report.presets)}; "
            f"failures: {len(report.failures)}"
        )
        for kind, message, record in report.failures[:10]:
            console.print(f"  {kind}: {message}\n    record: {record}", soft_wrap=True)
    if report.failures:
        raise typer.Exit(1)
