"""Random hands and matches at compiled speed: the C core, with the pure-Python engine
as reference and fallback.

:mod:`una.engine._fastcore` (``una/engine/_fastcore.c``, built by ``setup.py`` when a C
compiler is there) plays a rule set exactly as :class:`Game` does, with the engine's own
generator (:class:`~una.engine.rng.Rng`), the same deck order, dealing and order of legal
actions, and the ``random`` bot's policy in C as well: the whole playout loop runs without
returning to Python. It plays every rule set whose switch values and card effects it
implements (:func:`why_unsupported` says why it refuses another: then everything here
runs on the Python engine). The rule set reaches it as data (:func:`compiled`): switches,
deck, point values, hand size and first-card rules; a switch the core does not know, as
one added to :mod:`una.engine.rules` later, makes it refuse. Positions reach it as the
fields of :class:`~una.engine.state.HandState`, with their names.

Every function here has a pure-Python version (the ``*_py`` functions), and the two give
the same games: ``tests/engine/test_fastcore.py`` compares them action by action and state
by state.

The policy (:func:`choose`) is :func:`una.bots.random_bot.pick` with the engine's
generator: a uniformly random play among the distinct (card, color, targets) plays,
calling UNO with it; a draw (or a pass) only when there is no play; a playable drawn card
is played; a pending Wild Draw Four is taken, never challenged. It draws ``below(k)`` from
its generator exactly when ``pick`` draws ``randrange(k)``.

>>> trace = trace_hand(3, game_seed=7, policy_seed=1)
>>> trace[:2]
['play W G', 'play G9']
>>> trace == trace_hand_py(3, game_seed=7, policy_seed=1)
True
>>> result = random_playouts(2, games=20, seed=5, rules="telegram")
>>> result.games, sum(result.wins)
(20, 20)
>>> result == random_playouts_py(2, games=20, seed=5, rules="telegram")
True
>>> game = Game("alupula", players=4, seed=3)
>>> playout_from(game, seed=9) == playout_from_py(game, seed=9)
True
>>> print(why_unsupported({"preset": "byond", "cards": {"SP": 8}}))  # doctest: +ELLIPSIS
the C core ...
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, NamedTuple

from una.engine.actions import Action, Kind
from una.engine.cards import ALL_CARDS, COLORS, WILD_DRAW_FOUR_SYMBOLS, Card
from una.engine.effects import EFFECTS, effect_table
from una.engine.errors import IllegalAction, UnaError
from una.engine.game import Game, Phase, first_card_fate
from una.engine.rng import Rng
from una.engine.rules import STANDARD_RULES, RuleSet
from una.engine.state import NAMES, HandState

try:
    from una.engine import _fastcore
except ImportError:  # not built (no C compiler): the pure-Python engine does everything
    _fastcore = None  # type: ignore[assignment]

__all__ = [
    "CoreUnsupported",
    "Playouts",
    "available",
    "choice_test",
    "choose",
    "choose_greedy",
    "compiled",
    "deal_checked",
    "env_table",
    "greedy_challenges",
    "greedy_scores",
    "playout_from",
    "playout_from_py",
    "playout_result",
    "playouts_after",
    "playouts_after_py",
    "playouts_counted",
    "playouts_counted_py",
    "playouts_from",
    "playouts_from_py",
    "policy_seed",
    "random_playouts",
    "random_playouts_py",
    "rng_sample",
    "rng_shuffle",
    "supports",
    "trace_hand",
    "trace_hand_py",
    "why_unsupported",
]

_MASK = (1 << 64) - 1
#: The C core's card ids: the index of each card in ALL_CARDS.
CARD_IDS: dict[Card, int] = {card: index for index, card in enumerate(ALL_CARDS)}


class CoreUnsupported(UnaError):
    """The C core does not play this rule set or position (the reason is the message);
    callers fall back to the Python engine."""


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


def _ruleset(rules: RuleSet | str | dict[str, Any]) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else RuleSet.from_json(rules)


# The registered key of each effect (the first, where one effect has several: "N" and "W").
_EFFECT_KEYS: dict[int, str] = {}
for _key, _effect in EFFECTS.items():
    _EFFECT_KEYS.setdefault(id(_effect), _key)
#: The greedy policy's action cards: those that hit the next player (draws, skips,
#: reverses), for when she is close to going out (as the heuristic bot's).
_ACTION_FACES = frozenset(
    {"S", "R", "D2", "W4", "D4", "SP", "RD2", "DB2", "RS", "SS", "WR4", "WB4", "WMY", "WDD", "WTP"}
)


@lru_cache(maxsize=128)
def _compile(rules: RuleSet, players: int) -> bytes | str:
    """The rule set as the C core plays it at ``players`` seats, or why it does not."""
    if not ENABLED:
        return "the C core is not built (or UNA_NO_FASTCORE is set)"
    switches = {k: v for k, v in rules.to_dict().items() if k != "preset"}
    faces: dict[str, int] = {}
    cards: dict[int, dict[str, Any]] = {}
    for card, effect in effect_table(rules).items():
        cards[CARD_IDS[card]] = {
            "color": -1 if card.color is None else _COLOR_INDEX[card.color],
            "face": faces.setdefault(card.face, len(faces)),
            "number": -1 if card.number is None else card.number,
            "points": rules.points(card, players - 1),
            "wild": int(card.is_wild),
            "wd4": int(card.symbol in WILD_DRAW_FOUR_SYMBOLS),
            "action_face": int(card.symbol in _ACTION_FACES),
            "effect": _EFFECT_KEYS[id(effect)],
            "first": first_card_fate(rules, card),
        }
    deck = [CARD_IDS[card] for card in rules.deck()]
    try:
        return _fastcore.compile_rules(switches, cards, deck, rules.hand_size, players)
    except ValueError as error:
        return str(error)


def compiled(rules: RuleSet | str | dict[str, Any], players: int) -> bytes:
    """The rule set compiled for the C core at ``players`` seats; :class:`CoreUnsupported`
    if the core does not play it.

    >>> try:  # a deck larger than the core holds (or no core built)
    ...     compiled({"preset": "byond", "cards": {"SPY": 8, "SP": 8}}, 3)
    ... except CoreUnsupported as refusal:
    ...     print(refusal)  # doctest: +ELLIPSIS
    the C core ...
    """
    result = _compile(_ruleset(rules), players)
    if isinstance(result, str):
        raise CoreUnsupported(result)
    return result


def why_unsupported(rules: RuleSet | str | dict[str, Any], players: int = 2) -> str | None:
    """Why the C core does not play ``rules`` (``None``: it does)."""
    result = _compile(_ruleset(rules), players)
    return result if isinstance(result, str) else None


def supports(rules: RuleSet | str | dict[str, Any], players: int = 2) -> bool:
    """Whether the C core plays ``rules`` (built and enabled, every switch value and card
    effect one it implements).

    >>> supports("byond") == supports({"preset": "telegram", "seven_zero": True}) == available()
    True
    >>> supports({"preset": "byond", "cards": {"KOBE": 8, "SP": 8}})
    False
    """
    return why_unsupported(rules, players) is None


def supports_greedy(rules: RuleSet | str | dict[str, Any], players: int = 2) -> bool:
    """Whether the greedy rollout policy runs in the C core under ``rules``: wherever the
    core plays them (:func:`choose_greedy` scores the core's own legal actions)."""
    return supports(rules, players)


def rng_shuffle(items: list[Any], rng: random.Random) -> None:
    """``rng.shuffle(items)``: the same order, and ``rng`` left in the same state, in C
    where the core is built and ``rng`` is a plain :class:`random.Random` (the strong
    bot's belief shuffles the unseen cards for every hand it samples).

    >>> a, b = list(range(10)), list(range(10))
    >>> random.Random(4).shuffle(a); rng_shuffle(b, random.Random(4)); a == b
    True
    """
    if ENABLED and type(rng) is random.Random:
        _fastcore.rng_shuffle(rng.getrandbits, items)
    else:
        rng.shuffle(items)


def rng_sample(rng: random.Random, n: int, k: int) -> list[int]:
    """``rng.sample(range(n), k)``: the same indices, and ``rng`` left in the same state,
    in C where the core is built and ``rng`` is a plain :class:`random.Random`. A sample of
    a list ``items`` is ``[items[i] for i in rng_sample(rng, len(items), k)]``.

    >>> rng_sample(random.Random(9), 50, 6) == random.Random(9).sample(range(50), 6)
    True
    """
    if ENABLED and type(rng) is random.Random and n < 1 << 31:
        return _fastcore.rng_sample(rng.getrandbits, n, k)
    return rng.sample(range(n), k)


def choice_test(
    held: int,
    count: Sequence[int],
    value: Sequence[int],
    mine: tuple[int, int, int, float],
    fixed: Sequence[Card],
    terms: dict[Card, tuple[int, int, int, float]],
    points: Sequence[int],
    colors: Sequence[int],
) -> bytes | None:
    """A :class:`una.bots.belief.ChoiceTest` packed for :func:`deal_checked` (its fields;
    ``points`` and ``colors`` per card id), or None without the core."""
    if not ENABLED:
        return None
    return _fastcore.choice_test(
        held, list(count), list(value), mine, list(fixed), terms, list(points), list(colors)
    )


def deal_checked(
    rng: random.Random,
    unseen: list[Card],
    tiers: Sequence[tuple[frozenset[Card], int]],
    need: int,
    tries: int,
    tests: Sequence[bytes | None],
) -> tuple[list[Card], list[Card]] | None:
    """``una.bots.belief.Belief._deal_checked`` in C, the same draws from ``rng``: the
    cards dealt and the cards left; None where it cannot run there (no core, another
    generator, a test not packed), and the caller deals in Python."""
    if not ENABLED or type(rng) is not random.Random or None in tests:
        return None
    return _fastcore.deal_checked(
        rng.getrandbits, unseen, list(tiers), need, tries, [t for t in tests if t is not None]
    )


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


#: An opponent with this many cards or fewer is close to going out (as the heuristic bot).
DANGER = 2
#: Per card moved into a hand by a swap (a 7 under seven-zero, Trader Joe, Blender).
SWAP_CARD = 600


def _strength(game: Game, hand: list[Card]) -> tuple[list[int], list[int]]:
    """Per color (in ``COLORS`` order): the non-wild cards of ``hand`` and their points."""
    count = [0, 0, 0, 0]
    value = [0, 0, 0, 0]
    for card in hand:
        if card.color is not None and not card.is_wild:
            index = _COLOR_INDEX[card.color]
            count[index] += 1
            value[index] += game.card_points(card)
    return count, value


def _strongest(count: list[int], value: list[int], rng: Rng) -> int:
    keys = [count[c] * 1000 + value[c] for c in range(4)]
    best = [c for c in range(4) if keys[c] == max(keys)]
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def greedy_score(
    game: Game, seat: int, action: Action, count: list[int], value: list[int],
    danger: bool, next_close: bool,
) -> int:  # fmt: skip
    """The greedy policy's score of the play ``action`` by ``seat`` (the heuristic bot's
    judgment, times 100): points (shed first when an opponent is close to going out),
    wilds kept unless then, an action card for a next player close to going out, 200 a
    card left of the color it plays into plus their points; then what the card does: a
    swap (7, Trader Joe, Blender) by the cards it moves, a Quitter only heads-up with the
    lower hand, Target Practice's cards to the players closest to going out, Holy Defender
    and Screwdriver kept for a wild draw, a Nagasaki kept unless an opponent is close to
    going out. Any answer to a pending draw beats taking it."""
    card = action.card
    assert card is not None
    effect = _EFFECT_KEYS[id(game.effects[card])]
    wild = card.is_wild
    points = game.card_points(card)
    answer = game.phase is Phase.PENALTY
    rest = len(game.hands[seat]) - 1
    score = points * 50 if danger else points * 4
    if answer:
        score += 10000
    elif wild and not danger:
        score -= 5000 if game.effects[card].draw_family == "WILD" else 4000
    if next_close and card.symbol in _ACTION_FACES:
        score += 3000
    color = action.color if wild else card.color
    if color is None or (answer and effect in ("HOLY", "SCREW")):
        color = game.color  # Colourless, Nagasaki, a reaction: the color stays
    if color is not None:
        index = _COLOR_INDEX[color]
        own = not wild and card.color is color
        score += (count[index] - own) * 200 + value[index] - (points if own else 0)
    if effect in ("N7", "TRADE"):
        score += SWAP_CARD * (rest - len(game.hands[action.targets[0]]))
    elif effect == "BLEND":
        others = [len(game.hands[s]) for s in range(game.n) if game.active[s] and s != seat]
        if others:
            # C's integer division truncates toward zero
            total = SWAP_CARD * (rest * len(others) - sum(others))
            score += int(total / len(others))
    elif effect == "QUIT":
        mine = sum(game.card_points(c) for c in game.hands[seat]) - points
        theirs = sum(game.card_points(c) for c in game.hands[action.targets[0]])
        score += 3000 if game.players_in_hand == 2 and mine < theirs else -6000
    elif effect == "WTP":
        for target in action.targets:
            score -= 50 * min(len(game.hands[target]), 10)
    elif effect in ("HOLY", "SCREW"):
        if not answer:
            score -= 1000
    elif effect == "NAGA" and not danger:
        score -= 4000
    return score


#: Above this estimated chance of a bluff the challenging policy challenges (as
#: una.bots.heuristic.CHALLENGE_THRESHOLD).
CHALLENGE_ODDS = 0.45


def greedy_challenges(game: Game, seat: int) -> bool:
    """Whether the challenging policy challenges the pending Wild Draw Four: the
    ``heuristic`` bot's rule (its ``bluff_odds`` above ``CHALLENGE_ODDS``), counted from
    what ``seat`` can know: her own hand and the discard pile; the accused's hand drawn
    from the rest. The color before the wild counts heads-up, else the chance is averaged
    over the four colors (the C core's ``greedy_challenges``)."""
    per = [0, 0, 0, 0]
    for card in game.rules.deck():
        if card.color is not None:
            per[_COLOR_INDEX[card.color]] += 1
    for card in [*game.hands[seat], *game.discard]:
        if card.color is not None:
            per[_COLOR_INDEX[card.color]] -= 1
    pool = len(game.rules.deck()) - len(game.hands[seat]) - len(game.discard)
    accused = game.pending_source
    held = len(game.hands[accused]) if accused >= 0 else 0
    prev = game.pending_prev_color
    if game.players_in_hand == 2 and prev is not None:
        colors = [_COLOR_INDEX[prev]]
    else:
        colors = [0, 1, 2, 3]
    odds = 0.0
    for color in colors:
        none = 1.0
        for j in range(held):
            if pool - j <= 0:
                break
            none *= max(pool - per[color] - j, 0) / (pool - j)
        odds += 1.0 - none
    return odds / len(colors) > CHALLENGE_ODDS


def choose_greedy(game: Game, rng: Rng, challenges: bool = False) -> Action:
    """The greedy rollout policy's action for the seat to act in ``game`` (the C core's
    ``choose_greedy``, draw for draw from ``rng``), on every rule set.

    Not a bot (it reads the game, not a view): the ``heuristic`` bot's judgment for
    search rollouts, scored over ``game.legal_actions`` (legality is the engine's): it
    calls an UNO it owes, names its strongest color, keeps a drawn wild in a hand of more
    than 3 unless an opponent is close to going out, plays the best play by
    :func:`greedy_score` (calling UNO with it; any stack answer or reaction rather than
    taking a pending draw), else (with ``challenges``, the ``"challenging"`` policy)
    challenges a Wild Draw Four as ``heuristic`` does (:func:`greedy_challenges`), else
    draws or passes. Ties are broken with ``rng``.

    >>> game = Game("standard", players=2, seed=1)
    >>> choose_greedy(game, Rng(0))
    Action.parse('play Y9')
    """
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions(seat)
    draw: Action | None = None
    passing: Action | None = None
    plays = 0
    for action in legal:
        kind = action.kind
        if kind is Kind.UNO:
            return action
        if kind is Kind.DRAW and draw is None:
            draw = action
        elif kind is Kind.PASS and passing is None:
            passing = action
        plays += kind is Kind.PLAY
    hand = game.hands[seat]
    count, value = _strength(game, hand)
    if game.phase is Phase.COLOR:
        return Action.name_color(COLORS[_strongest(count, value, rng)])
    danger = _danger(game, seat)
    drawn = game.drawn
    if (
        game.phase is Phase.DRAWN
        and passing is not None
        and drawn is not None
        and drawn.is_wild
        and len(hand) > 3
        and not danger
    ):
        return passing
    if not plays and challenges and game.phase is Phase.PENALTY:
        challenge = next((a for a in legal if a.kind is Kind.CHALLENGE), None)
        if challenge is not None and greedy_challenges(game, seat):
            return challenge
    if not plays:
        return draw if draw is not None else passing if passing is not None else legal[0]
    next_close = _next_close(game, seat)
    uno = len(hand) == 2 and game.rules.uno_call == "manual"
    best: list[Action] = []
    best_score = 0
    for action in legal:
        if action.kind is not Kind.PLAY or action.uno != uno:
            continue
        score = greedy_score(game, seat, action, count, value, danger, next_close)
        if not best or score > best_score:
            best, best_score = [], score
        if score == best_score:
            best.append(action)
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


def _danger(game: Game, seat: int) -> bool:
    """Whether an opponent of ``seat`` still in the hand is close to going out."""
    return any(len(h) <= DANGER for s, h in enumerate(game.hands) if s != seat and game.active[s])


def _next_close(game: Game, seat: int) -> bool:
    """Whether the player after ``seat`` is close to going out."""
    following = game.next_seat(seat)
    return following != seat and len(game.hands[following]) <= DANGER


def greedy_scores(game: Game, seat: int, plays: Sequence[Action]) -> list[int]:
    """:func:`greedy_score` of each of ``plays`` by ``seat``, as the greedy policy judges
    them where ``game`` stands (it reads only her hand and what the table shows).

    >>> game = Game("standard", players=2, seed=1)
    >>> plays = [a for a in game.legal_actions(game.to_act) if a.kind is Kind.PLAY]
    >>> best = max(zip(greedy_scores(game, game.to_act, plays), plays), key=lambda p: p[0])
    >>> best[1] == choose_greedy(game, Rng(0))
    True
    """
    count, value = _strength(game, game.hands[seat])
    danger, next_close = _danger(game, seat), _next_close(game, seat)
    return [greedy_score(game, seat, a, count, value, danger, next_close) for a in plays]


def greedy_jump_ins(game: Game) -> int:
    """Under ``jump_in``, the greedy players who hold the top card play it out of turn
    (the heuristic always does), the next seat first, again after each; how many did (the
    C core's ``greedy_jump_ins``)."""
    jumps = 0
    again = True
    while again and not game.hand_over and game.phase is Phase.PLAY:
        again = False
        seat = game.to_act
        assert seat is not None
        for step in range(1, game.n):
            other = game.next_seat(seat, step)
            if other == seat:
                break
            want = len(game.hands[other]) == 2 and game.rules.uno_call == "manual"
            jump = next(
                (a for a in game.legal_actions(other) if a.kind is Kind.PLAY and a.uno == want),
                None,
            )
            if jump is not None:
                game.apply(other, jump)
                jumps += 1
                again = True
                break
    return jumps


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


def trace_hand(
    players: int, game_seed: int, policy_seed: int, rules: RuleSet | str = STANDARD_RULES
) -> list[str]:
    """The action codes of one random hand: ``Game(rules, players, seed=game_seed)``
    played by the policy on ``Rng(policy_seed)`` (in C when the core plays ``rules``).

    >>> trace_hand(2, 1, 0)[:3]
    ['play Y7', 'play W4 Y', 'draw']
    """
    ruleset = _ruleset(rules)
    if supports(ruleset, players):
        steps = _fastcore.trace(
            compiled(ruleset, players), None, (game_seed & _MASK, 0), policy_seed & _MASK, 1,
            False,
        )  # fmt: skip
        return [code for _, _, code, _ in steps]
    return trace_hand_py(players, game_seed, policy_seed, ruleset)


def trace_hand_py(
    players: int, game_seed: int, policy_seed: int, rules: RuleSet | str = STANDARD_RULES
) -> list[str]:
    """:func:`trace_hand` on the pure-Python engine (the reference)."""
    codes: list[str] = []
    game = Game(_ruleset(rules), players, seed=game_seed)
    _play_hand(game, Rng(policy_seed), codes)
    return codes


def trace(game: Game, policy_seed: int, hands: int = 1) -> list[tuple[int, list[str], str]]:
    """Every step of ``hands`` hands (deals included) from ``game``'s position, played by
    the policy on ``Rng(policy_seed)``: (seat, the legal action codes, the code chosen).
    In C; :func:`trace_py` is the Python engine's. ``game`` is not changed."""
    steps = _fastcore.trace(
        compiled(game.rules, game.n), NAMES, _values(game), policy_seed & _MASK, hands, False
    )
    return [(seat, legal, code) for seat, legal, code, _ in steps]


def trace_py(
    game: Game, policy_seed: int, hands: int = 1, states: list[dict[str, Any]] | None = None
) -> list[tuple[int, list[str], str]]:
    """:func:`trace` on a copy of the Python game; ``states`` receives the state after
    every step (:meth:`HandState.to_json`)."""
    twin = game.copy()
    rng = Rng(policy_seed & _MASK)
    steps: list[tuple[int, list[str], str]] = []
    played = 0
    while not twin.match_over:
        if twin.hand_over:
            played += 1
            if played >= hands:
                break
        seat = dealing_seat(twin) if twin.hand_over else twin.to_act
        assert seat is not None
        legal = twin.legal_actions(seat)
        action = choose(legal, rng)
        twin.apply(seat, action)
        steps.append((seat, [a.code for a in legal], action.code))
        if states is not None:
            states.append(HandState.of(twin).to_json())
    return steps


def dealing_seat(game: Game) -> int:
    """The seat that deals the next hand in a trace: the next dealer."""
    return game.seating[(game.position[game.dealer] + 1) % game.n]


def random_playouts(
    players: int, games: int, seed: int = 0, rules: RuleSet | str = STANDARD_RULES
) -> Playouts:
    """Play ``games`` random hands of ``rules`` from the deal (game ``i`` on the engine
    seed :func:`game_seed` ``(seed, i)``, dealer 0, the policy on one generator seeded
    with :func:`policy_seed` ``(seed)``), in C when the core plays the rules.

    >>> random_playouts(4, 10, seed=1).games
    10
    """
    ruleset = _ruleset(rules)
    if supports(ruleset, players):
        played, moves, wins, points = _fastcore.random_playouts(
            compiled(ruleset, players), games, seed & _MASK
        )
        return Playouts(played, moves, wins, points)
    return random_playouts_py(players, games, seed, ruleset)


def random_playouts_py(
    players: int, games: int, seed: int = 0, rules: RuleSet | str = STANDARD_RULES
) -> Playouts:
    """:func:`random_playouts` on the pure-Python engine (the reference)."""
    if games < 0:
        raise ValueError(f"games: must be 0 or more, not {games}")
    ruleset = _ruleset(rules)
    rng = Rng(policy_seed(seed))
    moves = 0
    wins = [0] * players
    points = [0] * players
    for index in range(games):
        game = Game(ruleset, players, seed=game_seed(seed, index))
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
    generator). ``game`` is not changed. In C when the core plays the rules, else on a
    copy of the game; a finished hand gives its winner.

    >>> game = Game("standard", players=3, seed=11)
    >>> 0 <= playout_from(game, seed=4) < 3
    True
    """
    return playout_result(game, seed)[0]


def playout_result(game: Game, seed: int) -> tuple[int, int]:
    """Like :func:`playout_from`: ``(winner, points she scores)``."""
    if game.hand_result is not None and game.hand_over:
        return game.hand_result.winner, game.hand_result.points[game.hand_result.winner]
    if supports(game.rules, game.n):
        winner, points, _ = _fastcore.playout_from(
            compiled(game.rules, game.n), NAMES, _values(game), seed & _MASK
        )
        return winner, points
    return _result_py(game, seed)


#: The rollout policies of :func:`playouts_from`, by their C core numbers.
POLICIES = {"random": 0, "greedy": 1, "challenging": 2}
#: A hand longer than this is a bug (the C core's MOVE_LIMIT).
MOVE_LIMIT = 1_000_000


def playouts_from(
    game: Game,
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> tuple[int, ...]:
    """Hands won per seat in ``repeats`` playouts of ``game``'s hand from where it stands,
    each from the same position, by ``policy`` (``"random"``: :func:`choose`;
    ``"greedy"``: :func:`choose_greedy`; ``"challenging"``: the same, challenging as
    ``heuristic`` does) on one generator seeded with ``seed``. A playout
    longer than ``limit`` actions is won by nobody. With ``shuffle_pile`` each repeat
    first shuffles the draw pile with its own generator (:func:`pile_seed`): for a
    searcher, to whom its order is unknown, a new sample of it at no cost. ``game`` is not
    changed; in C when the core plays the rules (and, for ``"greedy"``,
    :func:`supports_greedy`), else on copies of the game.

    >>> game = Game("standard", players=2, seed=5)
    >>> wins = playouts_from(game, seed=1, policy="greedy", repeats=50)
    >>> sum(wins), wins == playouts_from_py(game, 1, "greedy", 50)
    (50, True)
    """
    return playouts_counted(game, seed, policy, repeats, limit, shuffle_pile)[0]


#: What playouts counted, per seat where a tuple: (hands won, moves, points, matches won).
Counted = tuple[tuple[int, ...], int, tuple[int, ...], tuple[int, ...]]


def playouts_counted(
    game: Game,
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> Counted:
    """:func:`playouts_from`, the moves the playouts made in all (one stopped at ``limit``
    counts ``limit``: the work spent, for a searcher with a budget of it), the points each
    seat scored in the playouts after which the match goes on (the hand's points under the
    rule set's scoring), and the matches each seat won in the playouts whose hand ended
    the match (a searcher playing for the match knows their worth exactly).

    >>> game = Game("telegram", players=2, seed=5)
    >>> counted = playouts_counted(game, seed=1, policy="greedy", repeats=50)
    >>> counted[1] > 50, counted[3], counted == playouts_counted_py(game, 1, "greedy", 50)
    (True, (0, 0), True)
    >>> short = Game({"preset": "telegram", "target": 1}, players=2, seed=5)
    >>> wins, _, points, matches = playouts_counted(short, 1, "greedy", repeats=50)
    >>> sum(matches), points
    (50, (0, 0))
    """
    if policy not in POLICIES:
        raise ValueError(f"policy: {policy!r} is not one of {', '.join(POLICIES)}")
    if repeats < 1 or limit < 1:
        raise ValueError(f"repeats and limit must be 1 or more, not {repeats} and {limit}")
    if game.hand_over:
        result = game.hand_result
        wins = [0] * game.n
        points = [0] * game.n
        matches = [0] * game.n
        if result is not None:
            wins[result.winner] = repeats
            if game.match_over and game.winner is not None:
                matches[game.winner] = repeats
            else:
                points = [p * repeats for p in result.points]
        return tuple(wins), 0, tuple(points), tuple(matches)
    # One cache lookup (a searcher calls this thousands of times a decision): every
    # policy runs in C wherever the core plays the rules (supports_greedy).
    table = _compile(game.rules, game.n)
    if isinstance(table, bytes):
        return _fastcore.playouts_from(
            table, NAMES, _values(game), seed & _MASK,
            POLICIES[policy], repeats, limit, shuffle_pile,
        )  # fmt: skip
    return playouts_counted_py(game, seed, policy, repeats, limit, shuffle_pile)


def playouts_after(
    game: Game,
    seat: int,
    actions: Sequence[Action],
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> list[Counted]:
    """For each of ``actions`` in turn, :func:`playouts_counted` of a copy of ``game``
    after ``seat`` plays it, all with ``seed``; the list stops before the first action that
    is illegal there. One call for a searcher's candidates on one sampled position: the
    position crosses into the core once, and the actions are applied there.

    >>> game = Game("standard", players=2, seed=5)
    >>> seat = game.to_act
    >>> actions = game.legal_actions(seat)[:3]
    >>> after = playouts_after(game, seat, actions, seed=2, policy="greedy", repeats=8)
    >>> len(after), after == playouts_after_py(game, seat, actions, 2, "greedy", 8)
    (3, True)
    """
    if policy not in POLICIES:
        raise ValueError(f"policy: {policy!r} is not one of {', '.join(POLICIES)}")
    if repeats < 1 or limit < 1:
        raise ValueError(f"repeats and limit must be 1 or more, not {repeats} and {limit}")
    table = _compile(game.rules, game.n)
    if not isinstance(table, bytes):
        return playouts_after_py(game, seat, actions, seed, policy, repeats, limit, shuffle_pile)
    return _fastcore.playouts_after(
        table, NAMES, _values(game), seat, [action.code for action in actions],
        seed & _MASK, POLICIES[policy], repeats, limit, shuffle_pile,
    )  # fmt: skip


def playouts_after_py(
    game: Game,
    seat: int,
    actions: Sequence[Action],
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> list[Counted]:
    """:func:`playouts_after` with :meth:`Game.apply` and :func:`playouts_counted` (the
    reference)."""
    out: list[Counted] = []
    for action in actions:
        twin = game.copy()
        try:
            twin.apply(seat, action)
        except IllegalAction:
            break
        out.append(playouts_counted(twin, seed, policy, repeats, limit, shuffle_pile))
    return out


def pile_seed(seed: int, repeat: int) -> int:
    """The generator seed of the draw pile's order in ``repeat`` of ``playouts_from(game,
    seed, ..., shuffle_pile=True)``."""
    return ((seed & _MASK ^ 0xA0761D6478BD642F) + repeat * 0xE7037ED1A0B428DB) & _MASK


def playouts_from_py(
    game: Game,
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> tuple[int, ...]:
    """:func:`playouts_from` on copies of the Python game (the reference)."""
    return playouts_counted_py(game, seed, policy, repeats, limit, shuffle_pile)[0]


def playouts_counted_py(
    game: Game,
    seed: int,
    policy: str = "random",
    repeats: int = 1,
    limit: int = MOVE_LIMIT,
    shuffle_pile: bool = False,
) -> Counted:
    """:func:`playouts_counted` on copies of the Python game (the reference)."""
    rng = Rng(seed & _MASK)
    wins = [0] * game.n
    points = [0] * game.n
    matches = [0] * game.n
    total = 0
    for repeat in range(repeats):
        twin = game.copy()
        if shuffle_pile:
            Rng(pile_seed(seed, repeat)).shuffle(twin.draw_pile)
        moves = 0
        while not twin.hand_over and moves < limit:
            seat = twin.to_act
            assert seat is not None
            if policy == "random":
                action = choose(twin.legal_actions(seat), rng)
            else:
                action = choose_greedy(twin, rng, policy == "challenging")
            twin.apply(seat, action)
            moves += 1
            if policy != "random" and twin.rules.jump_in:
                moves += greedy_jump_ins(twin)
        if twin.hand_over and twin.hand_result is not None:
            wins[twin.hand_result.winner] += 1
            if twin.match_over and twin.winner is not None:
                matches[twin.winner] += 1
            else:
                points = [p + q for p, q in zip(points, twin.hand_result.points, strict=True)]
        total += moves if twin.hand_over else limit
    return tuple(wins), total, tuple(points), tuple(matches)


def playout_from_py(game: Game, seed: int) -> int:
    """:func:`playout_from` on a copy of the Python game (the reference)."""
    return _result_py(game, seed)[0]


def _result_py(game: Game, seed: int) -> tuple[int, int]:
    twin = game.copy()
    _play_hand(twin, Rng(seed))
    result = twin.hand_result
    assert result is not None
    return result.winner, result.points[result.winner]


#: Every declared state field of a game, in order, as one tuple (:func:`_values`).
_read_state = attrgetter(*NAMES)


def _values(game: Game) -> tuple[Any, ...]:
    """The position the C core's loader reads: every declared state field, in order (the
    core checks the names, the cards and the numbers)."""
    return _read_state(game)


# ------------------------------------------------------- the environment's table


def env_table(
    rules: RuleSet,
    players: int,
    slots: Sequence[tuple[str, int, int, int, int, bool]],
    fields: dict[str, tuple[int, int]],
    cards: Sequence[Card],
    phases: Sequence[str],
    obs: Any,
    mask: Any,
    max_steps: int,
    match: bool,
) -> Any:
    """The table of :class:`una.env.core.CoreTable` in C: its turn order, action mask and
    observation, stepping the core's game. ``slots``: per slot of the action space but
    ``wait`` (the last), ``(kind, card id or -1, color index or -1, pattern, seat or -1,
    uno)``, pattern 0 no pick, 1 one pick, 2 every pick to ``seat``, 3 the even split;
    ``fields``: the observation's ``{name: (start, stop)}``; ``cards``: its card order;
    ``phases``: the order of its phase field; ``obs`` and ``mask``: writable ``float32``
    and ``int8`` buffers the table writes into. :class:`CoreUnsupported` if the core does
    not play ``rules``; ``ValueError`` for a layout the table does not write."""
    return _fastcore.Table(
        compiled(rules, players), slots, fields, [CARD_IDS[card] for card in cards],
        tuple(phases), obs, mask, max_steps, match,
    )  # fmt: skip


# ------------------------------------------------------------------ una sim


def sim_games(
    rules: RuleSet, players: int, games: Sequence[tuple[int, int, Sequence[int]]],
    matches: bool, limit: int,
) -> list[tuple[int, tuple[int, ...], tuple[int, ...], int, int]]:  # fmt: skip
    """``una sim``'s games with the random bot in every seat, in C: per game its engine
    seed, first dealer and each seat's bot seed (``random.Random``); per game the winner,
    points (of the hand, or the match scores), turns per seat, actions and hands, as
    :func:`una.sim.runner.play_game` gets them from the Python driver.
    :class:`CoreUnsupported` where that would not be the same games (see
    :func:`sim_unsupported`)."""
    reason = sim_unsupported(rules, players)
    if reason is not None:
        raise CoreUnsupported(reason)
    games = [(seed & _MASK, dealer, [b & _MASK for b in bots]) for seed, dealer, bots in games]
    result: list[tuple[int, tuple[int, ...], tuple[int, ...], int, int]]
    result = _fastcore.sim_games(compiled(rules, players), games, matches, limit)
    return result


def sim_unsupported(rules: RuleSet, players: int) -> str | None:
    """Why ``una sim``'s random bots cannot be played in C under ``rules`` (``None``: they
    can): wherever the core plays the rules. Out of turn a random bot calls an UNO it
    owes (after hands moved) or jumps in (``jump_in``); the core makes the driver's
    rotating offers as :class:`una.sim.driver.Table` does."""
    return why_unsupported(rules, players)


_COLOR_INDEX = {color: index for index, color in enumerate(COLORS)}
if _fastcore is not None:
    _fastcore.set_cards(ALL_CARDS)
