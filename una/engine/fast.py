"""Whole random hands at compiled speed: the C core, with the pure-Python engine as fallback.

:mod:`una.engine._fastcore` (``una/engine/_fastcore.c``, built by ``setup.py`` when a C
compiler is there) plays the ``standard`` preset's hand exactly as :class:`Game` does,
with the engine's own generator (:class:`~una.engine.rng.Rng`), the same deck order,
dealing and order of legal actions, and the ``random`` bot's policy in C as well: the
whole playout loop runs without returning to Python. Every function here also has a
pure-Python version on :class:`Game` (the ``*_py`` functions, and the fallback when the
extension is not built or the rules are not the standard ones), and the two give the same
games: ``tests/engine/test_fastcore.py`` compares them action for action.

The policy (:func:`choose`) is :func:`una.bots.random_bot.pick` with the engine's
generator: a uniformly random play among the distinct (card, color) plays, calling UNO
with it; a draw (or a pass) only when there is no play; a playable drawn card is played;
a pending Wild Draw Four is taken, never challenged. It draws ``below(k)`` from its
generator exactly when ``pick`` draws ``randrange(k)``.

>>> trace = trace_hand(3, game_seed=7, policy_seed=1)
>>> trace[:2]
['play W G', 'play G9']
>>> trace == trace_hand_py(3, game_seed=7, policy_seed=1)
True
>>> result = random_playouts(2, games=20, seed=5)
>>> result.games, sum(result.wins)
(20, 20)
>>> result == random_playouts_py(2, games=20, seed=5)
True
>>> game = Game("standard", players=4, seed=3)
>>> playout_from(game, seed=9) == playout_from_py(game, seed=9)
True
"""

from __future__ import annotations

import dataclasses
import os
from functools import lru_cache
from typing import NamedTuple

from una.engine.actions import Action, Kind
from una.engine.cards import COLORS, Card
from una.engine.game import Game, Phase
from una.engine.rng import Rng
from una.engine.rules import STANDARD_RULES, RuleSet

try:
    from una.engine import _fastcore
except ImportError:  # not built (no C compiler): the pure-Python engine does everything
    _fastcore = None  # type: ignore[assignment]

__all__ = [
    "Playouts",
    "available",
    "choose",
    "playout_from",
    "playout_from_py",
    "playout_result",
    "policy_seed",
    "random_playouts",
    "random_playouts_py",
    "supports",
    "trace_hand",
    "trace_hand_py",
]

_MASK = (1 << 64) - 1
_SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2")
#: The C core's card ids: color * 13 + symbol for colored cards, 52 Wild, 53 Wild Draw Four.
CARD_IDS: dict[Card, int] = {
    Card.of(color, symbol): c * 13 + s
    for c, color in enumerate(COLORS)
    for s, symbol in enumerate(_SYMBOLS)
} | {Card.parse("W"): 52, Card.parse("W4"): 53}
_PHASES = {Phase.COLOR: 0, Phase.PLAY: 1, Phase.DRAWN: 2, Phase.PENALTY: 3}


class Playouts(NamedTuple):
    """What :func:`random_playouts` played: hands, moves (actions), and per seat the
    hands won and the points scored."""

    games: int
    moves: int
    wins: tuple[int, ...]
    points: tuple[int, ...]


#: Whether the C core is used: built, and not disabled with ``UNA_NO_FASTCORE=1``.
ENABLED = _fastcore is not None and not os.environ.get("UNA_NO_FASTCORE")


def available() -> bool:
    """Whether the C core is built and enabled (``UNA_NO_FASTCORE=1`` disables it)."""
    return ENABLED


@lru_cache(maxsize=64)
def supports(rules: RuleSet | str) -> bool:
    """Whether the C core plays ``rules``: the standard preset with its default switches
    (any ``target`` and seat range: they do not change a hand).

    >>> supports("standard"), supports(RuleSet.from_json({"preset": "standard", "target": 200}))
    (True, True)
    >>> supports(RuleSet.from_json({"preset": "standard", "stack_draw_two": True}))
    False
    """
    ruleset = rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)
    plain = dataclasses.replace(ruleset, target=STANDARD_RULES.target, players=(2, 10))
    return plain == STANDARD_RULES


def policy_seed(seed: int) -> int:
    """The policy generator's seed of ``random_playouts(players, games, seed)``."""
    return (seed * 0xD1B54A32D192ED03 + 0x5851F42D4C957F2D) & _MASK


def game_seed(seed: int, index: int) -> int:
    """The engine seed of game ``index`` of ``random_playouts(..., seed)`` (as ``una bench``)."""
    return (seed * 1_000_003 + index) & _MASK


# ------------------------------------------------------------------ the policy


def choose(legal: list[Action], rng: Rng) -> Action:
    """The random policy's action among ``legal`` (``Game.legal_actions`` of the seat to
    act): :func:`una.bots.random_bot.pick` with ``rng.below`` for ``randrange``.

    >>> game = Game("standard", players=2, seed=1)
    >>> choose(game.legal_actions(game.to_act), Rng(0))
    Action.parse('play Y7')
    """
    options: list[Action] = []
    uno_variants = False
    for action in legal:
        kind = action.kind
        if kind is Kind.PLAY:
            options.append(action)
            uno_variants = uno_variants or action.uno
        elif kind is Kind.UNO:
            return action
    if options:
        if uno_variants:
            # One option per (card, color, targets), the variant that calls UNO kept.
            keyed: dict[tuple[object, ...], Action] = {}
            for action in options:
                key = (action.card, action.color, action.targets)
                if key not in keyed or action.uno:
                    keyed[key] = action
            options = list(keyed.values())
        return options[rng.below(len(options))] if len(options) > 1 else options[0]
    if legal[0].kind is Kind.COLOR:
        return legal[rng.below(len(legal))]
    for kind in (Kind.DRAW, Kind.PASS, Kind.DEAL):
        for action in legal:
            if action.kind is kind:
                return action
    return legal[0]


def _play_hand(game: Game, rng: Rng, codes: list[str] | None = None) -> int:
    """Play ``game``'s hand to its end with the policy; returns the number of moves."""
    moves = 0
    while not game.hand_over:
        seat = game.to_act
        assert seat is not None
        action = choose(game.legal_actions(seat), rng)
        if codes is not None:
            codes.append(action.code)
        game.apply(seat, action)
        moves += 1
    return moves


# --------------------------------------------------------------- whole hands


def trace_hand(players: int, game_seed: int, policy_seed: int) -> list[str]:
    """The action codes of one random hand of the standard rules: ``Game("standard",
    players, seed=game_seed)`` played by the policy on ``Rng(policy_seed)``.

    >>> trace_hand(2, 1, 0)[:3]
    ['play Y7', 'play W4 Y', 'draw']
    """
    if available():
        return _fastcore.trace_hand(players, game_seed, policy_seed)
    return trace_hand_py(players, game_seed, policy_seed)


def trace_hand_py(players: int, game_seed: int, policy_seed: int) -> list[str]:
    """:func:`trace_hand` on the pure-Python engine (the reference)."""
    codes: list[str] = []
    _play_hand(Game(STANDARD_RULES, players, seed=game_seed), Rng(policy_seed), codes)
    return codes


def random_playouts(players: int, games: int, seed: int = 0) -> Playouts:
    """Play ``games`` random hands of the standard rules from the deal (game ``i`` on the
    engine seed :func:`game_seed` ``(seed, i)``, the policy on one generator seeded with
    :func:`policy_seed` ``(seed)``), in C when the core is built.

    >>> random_playouts(4, 10, seed=1).games
    10
    """
    if available():
        played, moves, wins, points = _fastcore.random_playouts(players, games, seed)
        return Playouts(played, moves, wins, points)
    return random_playouts_py(players, games, seed)


def random_playouts_py(players: int, games: int, seed: int = 0) -> Playouts:
    """:func:`random_playouts` on the pure-Python engine (the reference)."""
    if games < 0:
        raise ValueError(f"games: must be 0 or more, not {games}")
    rng = Rng(policy_seed(seed))
    moves = 0
    wins = [0] * players
    points = [0] * players
    for index in range(games):
        game = Game(STANDARD_RULES, players, seed=game_seed(seed, index))
        moves += _play_hand(game, rng)
        result = game.hand_result
        assert result is not None
        wins[result.winner] += 1
        points[result.winner] += result.points[result.winner]
    return Playouts(games, moves, tuple(wins), tuple(points))


# ------------------------------------------------------------ from a position


def playout_from(game: Game, seed: int) -> int:
    """The winner of ``game``'s hand played on from where it stands by the random policy
    (its generator seeded with ``seed``; reshuffles draw from a copy of the game's own
    generator). ``game`` is not changed. In C for standard rules, else on a copy of the
    game; a finished hand gives its winner.

    >>> game = Game("standard", players=3, seed=11)
    >>> 0 <= playout_from(game, seed=4) < 3
    True
    """
    return playout_result(game, seed)[0]


def playout_result(game: Game, seed: int) -> tuple[int, int]:
    """Like :func:`playout_from`: ``(winner, points she scores)``."""
    if game.hand_result is not None and game.hand_over:
        return game.hand_result.winner, game.hand_result.points[game.hand_result.winner]
    if ENABLED and supports(game.rules):
        winner, points, _ = _fastcore.playout_from(*_state(game), seed & _MASK)
        return winner, points
    return _result_py(game, seed)


def playout_from_py(game: Game, seed: int) -> int:
    """:func:`playout_from` on a copy of the Python game (the reference)."""
    return _result_py(game, seed)[0]


def _result_py(game: Game, seed: int) -> tuple[int, int]:
    twin = game.copy()
    _play_hand(twin, Rng(seed))
    result = twin.hand_result
    assert result is not None
    return result.winner, result.points[result.winner]


def _state(
    game: Game,
) -> tuple[
    list[list[Card]], list[Card], list[Card], int, int, int, int, Card | None, int,
    list[bool], int, list[list[Card]], int,
]:  # fmt: skip
    """The arguments of ``_fastcore.playout_from`` (all but the policy seed) for ``game``;
    the C core checks the cards (the standard deck, each card once) and the numbers."""
    phase = _PHASES.get(game.phase)
    if phase is None:
        raise ValueError(f"phase: the C core plays no hand in phase {game.phase.value!r}")
    to_act = game.to_act
    if to_act is None:
        raise ValueError("to_act: nobody is to act")
    n = game.n
    if game.players_in_hand != n or game.seating != _SEATINGS[n] or any(game.set_aside):
        raise ValueError("seating: the standard rules keep every player in her seat")
    if any(game.false_uno):
        raise ValueError("false_uno: the standard rules have no false UNO penalty")
    color = game.color
    return (
        game.hands,
        game.draw_pile,
        game.discard,
        -1 if color is None else _COLOR_INDEX[color],
        game.direction,
        to_act,
        phase,
        game.drawn,
        game.pending_draw,
        game.owes_uno,
        game.idle_turns,
        game.recycled,
        game.rng.state,
    )


_SEATINGS = [list(range(n)) for n in range(11)]
_COLOR_INDEX = {color: index for index, color in enumerate(COLORS)}
if _fastcore is not None:
    _fastcore.set_cards(tuple(sorted(CARD_IDS, key=CARD_IDS.__getitem__)))
