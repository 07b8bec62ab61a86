"""Bots by name: ``make_bot("heuristic")``, ``make_bot("heuristic:3")``.

A spec is a registered name, optionally followed by ``:level``. Other modules add their
bots with :func:`register` (a factory taking the level, or ``None`` for the default).

>>> make_bot("random")
<RandomBot random>
>>> make_bot("heuristic:3").level
3
>>> make_bot("nobody")
Traceback (most recent call last):
...
una.bots.registry.UnknownBot: unknown bot 'nobody' (bots: heuristic, random)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from una.bots.base import Bot
from una.bots.heuristic import HeuristicBot
from una.bots.random_bot import RandomBot


class UnknownBot(ValueError):
    """A bot spec that names no registered bot, or a level the bot does not have."""


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: its factory, its levels (empty: none) and a one-line description."""

    name: str
    factory: Callable[[int | None], Bot]
    levels: tuple[int, ...]
    description: str


BOTS: dict[str, BotEntry] = {}


def register(
    name: str,
    factory: Callable[[int | None], Bot],
    levels: tuple[int, ...] = (),
    description: str = "",
) -> None:
    """Make ``factory`` available as ``name`` (``name:level`` for a level in ``levels``)."""
    BOTS[name] = BotEntry(name, factory, levels, description)


def parse_spec(spec: str) -> tuple[str, int | None]:
    """``"heuristic:3"`` -> ``("heuristic", 3)``; checks the name and the level."""
    name, _, level_text = spec.strip().partition(":")
    name = name.strip().lower()
    entry = BOTS.get(name)
    if entry is None:
        raise UnknownBot(f"unknown bot {spec.strip()!r} (bots: {', '.join(sorted(BOTS))})")
    if not level_text:
        return name, None
    if not entry.levels:
        raise UnknownBot(f"bot {name!r} has no levels (got {spec.strip()!r})")
    try:
        level = int(level_text)
    except ValueError:
        raise UnknownBot(f"bot level must be a number, not {level_text!r}") from None
    if level not in entry.levels:
        low, high = min(entry.levels), max(entry.levels)
        raise UnknownBot(f"bot {name!r} has levels {low}-{high}, not {level}")
    return name, level


def make_bot(spec: str) -> Bot:
    """A new bot from a spec (``name`` or ``name:level``)."""
    name, level = parse_spec(spec)
    return BOTS[name].factory(level)


def _random(level: int | None) -> Bot:
    return RandomBot()


register("random", _random, (), "RLCard's random agent: a uniformly random playable card")
register(
    "heuristic",
    HeuristicBot,
    (1, 2, 3, 4, 5),
    "rule-based: keeps wilds, names its best color, counts cards to challenge, catches",
)
