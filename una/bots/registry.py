"""Bots by name: ``make_bot("heuristic")``, ``make_bot("heuristic:3")``.

A spec is a registered name, optionally followed by ``:level``. Other modules add their
bots with :func:`register` (a factory taking the level, or ``None`` for the default).

>>> make_bot("random")
<RandomBot random>
>>> make_bot("heuristic:3").level
3
>>> make_bot("strong:hard", think_ms=50).think_ms
50
>>> make_bot("nobody")
Traceback (most recent call last):
...
una.bots.registry.UnknownBot: unknown bot 'nobody' (bots: heuristic, random, strong)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from una.bots.base import Bot
from una.bots.heuristic import HeuristicBot
from una.bots.random_bot import RandomBot
from una.bots.strong import LEVELS as STRONG_LEVELS
from una.bots.strong import StrongBot

#: The names computer players go by (``una play``, the server's tables), short and distinct.
BOT_NAMES = ("Ada", "Bruno", "Chen", "Dita", "Emil", "Fay", "Gus", "Hana", "Ivo")


def bot_name(taken: list[str]) -> str:
    """The first bot name nobody in ``taken`` holds (up to case), numbered past the list.

    >>> bot_name(["Ann", "ada"]), bot_name(list(BOT_NAMES))
    ('Bruno', 'Ada 2')
    """
    used = {name.casefold() for name in taken}
    for round_ in range(1, len(used) + 2):
        for name in BOT_NAMES:
            candidate = name if round_ == 1 else f"{name} {round_}"
            if candidate.casefold() not in used:
                return candidate
    raise AssertionError("unreachable: more candidates than names taken")


#: The largest iteration budget a search bot may be given by number (``strong:5000``).
MAX_ITERATIONS = 1_000_000


class UnknownBot(ValueError):
    """A bot spec that names no registered bot, or a level the bot does not have."""


@dataclass(frozen=True)
class BotEntry:
    """A registered bot: its factory, its levels (empty: none) and a one-line description."""

    name: str
    factory: Callable[..., Bot]
    levels: tuple[int | str, ...]
    description: str
    #: Whether the bot thinks against a clock: its factory takes ``think_ms``.
    timed: bool = False


BOTS: dict[str, BotEntry] = {}


def register(
    name: str,
    factory: Callable[..., Bot],
    levels: tuple[int | str, ...] = (),
    description: str = "",
    timed: bool = False,
) -> None:
    """Make ``factory`` available as ``name`` (``name:level`` for a level in ``levels``).
    ``factory(level)`` builds the bot (``level`` is ``None`` for the default); a ``timed``
    bot's factory also takes ``think_ms``."""
    BOTS[name] = BotEntry(name, factory, levels, description, timed)


def parse_spec(spec: str) -> tuple[str, int | str | None]:
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
    named = [lv for lv in entry.levels if isinstance(lv, str)]
    if named:
        text = level_text.strip().lower()
        if text in named:
            return name, text
        # A bot that searches also takes its budget itself: a number of iterations.
        if entry.timed and text.isdigit() and 1 <= int(text) <= MAX_ITERATIONS:
            return name, int(text)
        budget = f" or a number of iterations 1-{MAX_ITERATIONS}" if entry.timed else ""
        raise UnknownBot(f"bot {name!r} has levels {', '.join(named)}{budget}, not {level_text!r}")
    try:
        level = int(level_text)
    except ValueError:
        raise UnknownBot(f"bot level must be a number, not {level_text!r}") from None
    if level not in entry.levels:
        numbers = [lv for lv in entry.levels if isinstance(lv, int)]
        raise UnknownBot(f"bot {name!r} has levels {min(numbers)}-{max(numbers)}, not {level}")
    return name, level


def make_bot(spec: str, think_ms: float | None = None) -> Bot:
    """A new bot from a spec (``name`` or ``name:level``); ``think_ms`` gives a bot that
    searches a time budget per decision instead of its level's (others ignore it)."""
    name, level = parse_spec(spec)
    entry = BOTS[name]
    if entry.timed:
        return entry.factory(level, think_ms=think_ms)
    return entry.factory(level)


def _random(level: int | None) -> Bot:
    return RandomBot()


register("random", _random, (), "RLCard's random agent: a uniformly random playable card")
register(
    "heuristic",
    HeuristicBot,
    (1, 2, 3, 4, 5),
    "rule-based: keeps wilds, names its best color, counts cards to challenge, catches",
)
register(
    "strong",
    StrongBot,
    tuple(STRONG_LEVELS),
    "searches: plays each choice out on hands sampled from what it saw; easy, normal, hard",
    timed=True,
)
