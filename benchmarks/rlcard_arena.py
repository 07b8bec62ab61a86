"""An Una bot against RLCard's own agents, in RLCard 1.2.0's own UNO game (issue #9).

    python benchmarks/rlcard_arena.py --bot heuristic --opponent random --games 2000 --seed 1
    python benchmarks/rlcard_arena.py --bot strong:hard --opponent rule --games 2000 --jobs 2 --json

Two players: one seat is an Una bot (any ``make_bot`` spec), the other RLCard's
``RandomAgent`` (``--opponent random``) or the agent of its ``uno-rule-v1`` model
(``--opponent rule``). RLCard's ``UnoGame`` runs the game by its own rules; the Una bot sees
it only through an Una :class:`~una.engine.views.View` built from the public state of its
seat, and its action is translated back to an RLCard action, which must be legal there.
``--bot rlcard:random`` or ``--bot rlcard:rule`` puts an RLCard agent in that seat instead
(a baseline: RLCard against RLCard in the same harness).

Seats alternate: in game ``i`` the Una bot is RLCard's player ``i % 2`` (player 0 always
moves first unless the first card is a Skip or a Reverse). Game ``i`` is seeded from
``(--seed, i)`` alone (RLCard's shuffles, numpy's global generator that RLCard's agents
draw from, and the bot's ``random.Random``), so results do not depend on ``--jobs``.
Seat numbers in the views are RLCard's player ids.

RLCard's rules, read from ``rlcard/games/uno/{game,round,dealer,utils}.py``, and how they
differ from Una's ``standard`` preset (the official rules):

1. **Deck and deal**: the same 108 cards; 7 cards each. RLCard's player 0 always begins
   (modeled: dealer is seat 1, so seat 0 is left of the dealer).
2. **First card**: a Wild Draw Four goes back into the pile, which is shuffled, and another
   is turned (as in Una). A Skip: player 1 begins; a Reverse: the direction flips and player
   1 begins (both as in Una heads-up). *Differs*: a Wild gets a color **chosen at random by
   the game** (Una: the first player names it); a Draw Two makes player 0 draw 2 and then
   **play** (Una: she draws 2 and is skipped).
3. **What may be played**: a card of the current color or of the top card's number or
   action, or a Wild, as in Una. *Differs*: a Wild Draw Four is legal **only when the player
   has no other legal play at all** (no card of the color, none of the symbol, no Wild),
   and there are no bluffs and no challenge. Una's nearest: ``challenge`` off (the engine
   refuses an illegal Wild Draw Four) and ``wd4_rule = no_color_or_number`` (it refuses it
   with a card of the color or a number card of the top card's number); Una still allows
   it next to a plain Wild or a card matching the top card's action symbol.
4. **Drawing**: only when no card can be played (``voluntary_draw`` off), one card. Then,
   with no decision by the player: a drawn **Wild or Wild Draw Four is played at once with
   a random color**, and a drawn Wild Draw Four played so has **no draw effect** (it acts
   as a plain Wild); a drawn card **of the current color** is played at once, with its
   effect; any other card is kept (even one matching the top card's number or action, which
   would be playable) and the turn passes. Una's nearest: ``play_drawn = must`` (a playable
   drawn card must be played); *differs*: Una also forces a drawn card that matches only
   by symbol, lets the player name a drawn wild's color, and gives a drawn Wild Draw Four
   its effect (when it is not a bluff; a bluffing one is kept).
5. **Reverse heads-up**: *differs*. RLCard's Reverse only flips the direction, so with two
   players **the opponent plays next** (it acts as a plain card of its color); Una and the
   official rules make it act as a Skip. No switch models this.
6. Skip, Draw Two and a Wild Draw Four played from the hand: the opponent draws (2 or 4,
   at once: no stacking, no challenge) and loses her turn; the player plays again. As in
   Una with ``challenge`` off.
7. **No UNO call, no catch** (modeled: ``uno_call = auto``); **no challenge** (``challenge``
   off); **no scoring**: a game is one hand, won by the first player to empty her hand
   (modeled: ``scoring = none``, under which Una's match ends with the hand). RLCard has no
   blocked-hand rule (a draw with nothing left to draw would crash it; never met here).
8. **Reshuffle**: *differs*. When a card must be drawn and the pile is empty, and also
   before a Draw Two or Wild Draw Four penalty when fewer than 2 or 4 cards are left, RLCard
   shuffles **every played card, the top card included**, into the draw pile; the top card
   stays the card to match, so until it is drawn it exists twice (109 cards in play). Una
   keeps the top card and reshuffles only the rest, only when the pile is empty.
9. A quirk, not a rule: RLCard's own observation (``state['target']``) shows a played wild
   with the color it was made with, not the color named (a card's ``str`` is computed once);
   its legal actions use the named color. The views here carry the named color.

So the rule set in ``view.rules`` (:data:`RLCARD_RULES`) is ``standard`` with
``voluntary_draw = false, play_drawn = must, uno_call = auto, challenge = false,
wd4_rule = no_color_or_number, scoring = none``. A bot that simulates with the Una engine
under it plays nearly RLCard's game; it gets wrong the two-player Reverse (5), the Wild
Draw Four restriction next to a Wild or a symbol match (3), the automatic drawn-card play
(4), the first Draw Two or Wild (2) and the reshuffle (8). The legal actions in its views
are RLCard's, always exact.

The views (what is filled in, and how):

* ``hand`` (the seat's own cards), ``hand_counts``, ``top`` and ``color`` (a played Wild
  is ``W`` with its named color), ``direction``, ``draw_pile`` (RLCard's deck), ``legal``
  (RLCard's legal actions, translated), phase ``play``, ``to_act``; ``hand_number`` 1,
  ``dealer`` 1, ``scores`` zeros, ``uno_called`` the seats holding one card (UNO is
  automatic), nothing catchable, nothing revealed; at the end phase ``match_over`` with the
  winner (``hand_points`` zeros).
* ``discard_pile`` is the number of cards RLCard counts as played, but at least 1 (the top
  card): right after RLCard's reshuffle it counts 0 while the top card lies on the table
  (and also in the draw pile).
* Bots with ``observes`` are shown every action by either player: a ``draw`` is ``DRAW``
  (no card named); a wild played with color c is ``play W c`` / ``play W4 c``. A drawn card
  that RLCard plays at once is reported as ``DRAW`` (with a view in phase ``drawn``, the
  drawer holding one card more and, for the bot's own seat, ``drawn`` set and ``legal``
  the one play that follows) and then the play, as it happened (a random color for a wild).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from una.bots.base import Bot
from una.bots.registry import make_bot
from una.bots.strong import StrongBot
from una.engine.actions import DRAW, Action, Kind
from una.engine.cards import Card, Color
from una.engine.rules import RuleSet
from una.engine.views import View
from una.sim.stats import wilson

#: Una's closest model of RLCard's rules (see the module's docstring).
RLCARD_RULES = RuleSet.from_json(
    {
        "preset": "standard",
        "voluntary_draw": False,
        "play_drawn": "must",
        "uno_call": "auto",
        "challenge": False,
        "wd4_rule": "no_color_or_number",
        "scoring": "none",
    }
)
RULES_JSON = RLCARD_RULES.to_json()

OPPONENTS = ("random", "rule")
#: A game still running after this many actions is counted as unfinished (never met).
MAX_ACTIONS = 10_000
#: RLCard's player 0 moves first: Una's dealer is then seat 1.
DEALER = 1

# ------------------------------------------------------------------ cards and actions

_COLORS = {"r": Color.RED, "g": Color.GREEN, "b": Color.BLUE, "y": Color.YELLOW}
_LETTERS = {color: letter for letter, color in _COLORS.items()}
_TRAITS = {str(n): str(n) for n in range(10)} | {
    "skip": "S",
    "reverse": "R",
    "draw_2": "D2",
}
_SYMBOLS = {symbol: trait for trait, symbol in _TRAITS.items()}
_WILDS = {"wild": "W", "wild_draw_4": "W4"}
_WILD_TRAITS = {code: trait for trait, code in _WILDS.items()}


class AdapterError(AssertionError):
    """The adapter translated something wrongly: a bug here, never the bot's fault."""


def card_from_rlcard(text: str) -> tuple[Card, Color]:
    """An RLCard card string as an Una card and the color it carries.

    For a wild the color is the one it names on the table (or, in a hand, a leftover that
    means nothing).

    >>> card_from_rlcard("y-draw_2"), card_from_rlcard("r-wild_draw_4")
    ((Card.parse('YD2'), <Color.YELLOW: 'Y'>), (Card.parse('W4'), <Color.RED: 'R'>))
    """
    letter, _, trait = text.partition("-")
    color = _COLORS.get(letter)
    if color is None:
        raise AdapterError(f"unknown RLCard card {text!r}")
    if trait in _WILDS:
        return Card.parse(_WILDS[trait]), color
    symbol = _TRAITS.get(trait)
    if symbol is None:
        raise AdapterError(f"unknown RLCard card {text!r}")
    return Card.parse(color.value + symbol), color


def card_to_rlcard(card: Card, color: Color | None = None) -> str:
    """An Una card (a wild with the color it names) as an RLCard card string."""
    if card.is_wild:
        if color is None or card.code not in _WILD_TRAITS:
            raise AdapterError(f"{card} with color {color} has no RLCard equivalent")
        return f"{_LETTERS[color]}-{_WILD_TRAITS[card.code]}"
    if card.color is None or card.symbol not in _SYMBOLS:
        raise AdapterError(f"{card} has no RLCard equivalent")
    return f"{_LETTERS[card.color]}-{_SYMBOLS[card.symbol]}"


def action_from_rlcard(text: str) -> Action:
    """An RLCard action (``'draw'``, ``'g-7'``, ``'b-wild'``) as an Una action."""
    if text == "draw":
        return DRAW
    card, color = card_from_rlcard(text)
    return Action.play(card, color if card.is_wild else None)


@lru_cache(maxsize=256)
def action_to_rlcard(action: Action) -> str:
    """An Una action (``draw`` or a play) as an RLCard action string."""
    if action.kind is Kind.DRAW:
        return "draw"
    if action.kind is not Kind.PLAY or action.card is None or action.targets or action.uno:
        raise AdapterError(f"{action} has no RLCard equivalent")
    if action.card.is_wild != (action.color is not None):
        raise AdapterError(f"{action}: a wild names a color, another card does not")
    return card_to_rlcard(action.card, action.color)


def legal_from_rlcard(legal: Sequence[str]) -> tuple[Action, ...]:
    """RLCard's legal actions (duplicates dropped, order kept) as Una actions."""
    return tuple(action_from_rlcard(text) for text in dict.fromkeys(legal))


def _sort_key(card: Card) -> tuple[int, int]:
    return card.sort_key


# ------------------------------------------------------------------ views


def target_of(game: Any) -> str:
    """The card to match, as a string with the color that counts. Not ``target.str``:
    RLCard computes a card's ``str`` once, when the card is made, so for a played wild it
    keeps the wild's original color, not the one named (RLCard's own observation shows
    that stale color; its legal actions use the named one)."""
    target = game.round.target
    return f"{target.color}-{target.trait}"


@dataclass(frozen=True)
class Public:
    """What the table shows in RLCard's game, and one seat's own hand."""

    counts: tuple[int, ...]
    target: str
    direction: int
    deck: int
    played: int
    hand: tuple[str, ...]

    @classmethod
    def of(cls, game: Any, seat: int) -> Public:
        round_ = game.round
        return cls(
            counts=tuple(len(player.hand) for player in game.players),
            target=target_of(game),
            direction=round_.direction,
            deck=len(game.dealer.deck),
            played=len(round_.played_cards),
            hand=tuple(card.str for card in game.players[seat].hand),
        )


def build_view(
    public: Public,
    seat: int,
    names: tuple[str, ...],
    *,
    phase: str = "play",
    to_act: int | None = None,
    legal: tuple[Action, ...] = (),
    winner: int | None = None,
    drawn: Card | None = None,
) -> View:
    """Seat ``seat``'s Una view of RLCard's public state ``public``."""
    top, color = card_from_rlcard(public.target)
    hand = tuple(sorted((card_from_rlcard(text)[0] for text in public.hand), key=_sort_key))
    over = winner is not None
    n = len(public.counts)
    return View(
        seat=seat,
        players=names,
        rules=RULES_JSON,
        hand_number=1,
        dealer=DEALER,
        phase="match_over" if over else phase,
        hand=hand,
        hand_counts=public.counts,
        top=top,
        color=color,
        direction=public.direction,
        to_act=None if over else to_act,
        pending_draw=0,
        draw_pile=public.deck,
        discard_pile=max(1, public.played),
        scores=(0,) * n,
        uno_called=tuple(s for s in range(n) if public.counts[s] == 1),
        catchable=(),
        drawn=drawn,
        revealed=(),
        legal=() if over else legal,
        hand_winner=winner,
        hand_points=(0,) * n if over else None,
        match_winner=winner,
        hand_ranking=None if winner is None else (winner, *(s for s in range(n) if s != winner)),
        seating=tuple(range(n)),
        set_aside=(0,) * n,
    )


# ------------------------------------------------------------------ seats


class UnaSeat:
    """An Una bot in RLCard's game: views in, RLCard actions out, observations."""

    def __init__(self, bot: Bot, seat: int, names: tuple[str, ...], rng: random.Random):
        self.bot = bot
        self.seat = seat
        self.names = names
        self.rng = rng
        self.decisions = 0

    def view(self, game: Any) -> View:
        public = Public.of(game, self.seat)
        winner = game.round.winner[0] if game.is_over() else None
        to_act = game.round.current_player
        legal: tuple[Action, ...] = ()
        if winner is None and to_act == self.seat:
            legal = legal_from_rlcard(game.get_legal_actions())
        return build_view(public, self.seat, self.names, to_act=to_act, legal=legal, winner=winner)

    def act(self, game: Any) -> str:
        """The bot's action, as a legal RLCard action string."""
        view = self.view(game)
        action = self.bot.choose(view, self.rng)
        self.decisions += 1
        if action is None or action not in view.legal:
            raise AdapterError(
                f"bot {self.bot.spec} chose {action} (legal: {[a.code for a in view.legal]})"
            )
        text = action_to_rlcard(action)
        rlcard_legal = game.get_legal_actions()
        if {action_to_rlcard(a) for a in view.legal} != set(rlcard_legal):
            raise AdapterError(
                f"adapter bug: Una legal {[a.code for a in view.legal]} do not map onto "
                f"RLCard's legal actions {rlcard_legal}"
            )
        if text not in rlcard_legal:
            raise AdapterError(
                f"adapter bug: {action} maps to {text!r}, not among RLCard's legal actions "
                f"{rlcard_legal} (Una legal: {[a.code for a in view.legal]})"
            )
        return text

    def observe(self, game: Any, actor: int, text: str, before: Public) -> None:
        """Show the bot RLCard's step ``text`` by ``actor`` (``before``: the state before)."""
        if not self.bot.observes:
            return
        if text != "draw":
            self.bot.observe(self.view(game), actor, action_from_rlcard(text))
            return
        after = game.players[actor].hand
        if len(after) == before.counts[actor] + 1:  # kept: the turn passed
            self.bot.observe(self.view(game), actor, DRAW)
            return
        # RLCard played the drawn card at once: it is the new top card.
        card, color = card_from_rlcard(target_of(game))
        play = Action.play(card, color if card.is_wild else None)
        counts = list(before.counts)
        counts[actor] += 1
        reshuffled = before.deck == 0
        drawn_public = dataclasses.replace(
            before,
            counts=tuple(counts),
            deck=before.played - 1 if reshuffled else before.deck - 1,
            played=0 if reshuffled else before.played,
            hand=before.hand + ((card_to_rlcard(card, color),) if actor == self.seat else ()),
        )
        mine = actor == self.seat
        drawn_view = build_view(
            drawn_public,
            self.seat,
            self.names,
            phase="drawn",
            to_act=actor,
            legal=(play,) if mine else (),
            drawn=card if mine else None,
        )
        self.bot.observe(drawn_view, actor, DRAW)
        self.bot.observe(self.view(game), actor, play)


class RLCardSeat:
    """One of RLCard's agents."""

    def __init__(self, kind: str, env: Any):
        from rlcard.agents import RandomAgent  # type: ignore[import-untyped]

        self.env = env
        if kind == "random":
            self.agent = RandomAgent(num_actions=env.num_actions)
        elif kind == "rule":
            self.agent = _rule_agent()
        else:
            raise ValueError(f"unknown RLCard agent {kind!r} (agents: {', '.join(OPPONENTS)})")

    def act(self, game: Any) -> str:
        from rlcard.games.uno.utils import ACTION_LIST  # type: ignore[import-untyped]

        state = self.env.get_state(game.round.current_player)
        action, _ = self.agent.eval_step(state)
        return str(action) if self.agent.use_raw else ACTION_LIST[action]


@lru_cache(maxsize=1)
def _rule_agent() -> Any:
    import rlcard.models  # type: ignore[import-untyped]

    return rlcard.models.load("uno-rule-v1").agents[0]


@lru_cache(maxsize=1)
def _env() -> Any:
    import rlcard

    return rlcard.make("uno", config={"seed": 0})


# ------------------------------------------------------------------ games


@dataclass(frozen=True)
class GameResult:
    index: int
    seat: int  # the Una bot's seat (RLCard player id)
    winner: int | None  # None: unfinished
    actions: int
    decisions: int
    auto_plays: int  # drawn cards RLCard played at once

    @property
    def won(self) -> bool:
        return self.winner == self.seat


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed, from the master seed alone (32 bits: numpy takes them)."""
    digest = hashlib.blake2b(repr((seed, index)).encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def play_game(
    bot_spec: str,
    opponent: str,
    seed: int,
    index: int,
    max_actions: int = MAX_ACTIONS,
    make: Callable[[str], Bot] = make_bot,
    model: str | None = None,
) -> GameResult:
    """Game ``index``: the bot in seat ``index % 2``, RLCard's ``opponent`` in the other
    (``make`` builds the bot from its spec: tests pass their own; ``model``: the rules a
    searching bot simulates with, see :func:`with_model`)."""
    import numpy as np

    env = _env()
    gseed = game_seed(seed, index)
    env.seed(gseed)
    np.random.seed(gseed)  # RLCard's agents draw from numpy's global generator
    env.reset()
    game = env.game
    seat = index % 2
    una: UnaSeat | None = None
    seats: list[UnaSeat | RLCardSeat] = [RLCardSeat(opponent, env)] * 2
    if bot_spec.startswith("rlcard:"):
        seats[seat] = RLCardSeat(bot_spec.partition(":")[2], env)
    else:
        names = ["", ""]
        names[seat], names[1 - seat] = bot_spec, f"rlcard:{opponent}"
        una = UnaSeat(with_model(make(bot_spec), model), seat, tuple(names), random.Random(gseed))
        seats[seat] = una
    actions = auto_plays = 0
    while not game.is_over():
        if actions >= max_actions:
            break
        actor = game.round.current_player
        before = Public.of(game, seat)
        text = seats[actor].act(game)
        game.step(text)
        actions += 1
        if text == "draw" and len(game.players[actor].hand) == before.counts[actor]:
            auto_plays += 1
        if una is not None:
            una.observe(game, actor, text, before)
    winner = game.round.winner[0] if game.is_over() else None
    decisions = una.decisions if una is not None else 0
    return GameResult(index, seat, winner, actions, decisions, auto_plays)


def with_model(bot: Bot, model: str | None) -> Bot:
    """``bot``, told to simulate RLCard's game with the rules ``model`` (a preset name or a
    JSON rules object) instead of the views' rules. No switch set is RLCard's game (see
    above), so the views' rules are already a model; ``standard`` trades its differences
    for the compiled core's speed and greedy rollouts (``una.bots.strong``)."""
    if model is None:
        return bot
    if not isinstance(bot, StrongBot):
        raise ValueError(f"--model: bot {bot.name!r} does not simulate (only strong does)")
    bot.model = RuleSet.from_json(json.loads(model) if model.lstrip().startswith("{") else model)
    return bot


def _play_chunk(
    bot_spec: str,
    opponent: str,
    seed: int,
    max_actions: int,
    model: str | None,
    indices: Sequence[int],
) -> list[GameResult]:
    return [play_game(bot_spec, opponent, seed, i, max_actions, model=model) for i in indices]


def run(
    bot_spec: str,
    opponent: str,
    games: int,
    seed: int = 1,
    jobs: int = 1,
    max_actions: int = MAX_ACTIONS,
    model: str | None = None,
) -> list[GameResult]:
    """Every game's result, in game order (the same whatever ``jobs``)."""
    if opponent not in OPPONENTS:
        raise ValueError(f"unknown opponent {opponent!r} (opponents: {', '.join(OPPONENTS)})")
    if not bot_spec.startswith("rlcard:"):
        with_model(make_bot(bot_spec), model)  # fail early on an unknown spec or model
    if jobs <= 1 or games <= 1:
        return _play_chunk(bot_spec, opponent, seed, max_actions, model, range(games))
    chunks = [list(range(k, games, jobs)) for k in range(jobs)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs) as pool:
        parts = pool.starmap(
            _play_chunk, [(bot_spec, opponent, seed, max_actions, model, c) for c in chunks]
        )
    return sorted((r for part in parts for r in part), key=lambda r: r.index)


def summarize(
    results: Sequence[GameResult],
    seconds: float,
    bot_spec: str,
    opponent: str,
    seed: int,
    jobs: int,
) -> dict[str, Any]:
    games = len(results)
    wins = sum(r.won for r in results)
    unfinished = sum(r.winner is None for r in results)
    low, high = wilson(wins, games)
    by_seat = {}
    for seat in (0, 1):
        mine = [r for r in results if r.seat == seat]
        by_seat[f"seat{seat}"] = {"games": len(mine), "wins": sum(r.won for r in mine)}
    return {
        "bot": bot_spec,
        "opponent": f"rlcard:{opponent}",
        "seed": seed,
        "jobs": jobs,
        "games": games,
        "wins": wins,
        "losses": games - wins - unfinished,
        "unfinished": unfinished,
        "win_rate": wins / games if games else 0.0,
        "wilson95": [low, high],
        "by_seat": by_seat,
        "actions_per_game": sum(r.actions for r in results) / games if games else 0.0,
        "auto_plays_per_game": sum(r.auto_plays for r in results) / games if games else 0.0,
        "seconds": seconds,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
    }


def outcome_digest(results: Sequence[GameResult]) -> str:
    """A short digest of every game's outcome (checks determinism across runs)."""
    text = ";".join(f"{r.index}:{r.seat}:{r.winner}:{r.actions}" for r in results)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="An Una bot against RLCard's random or rule agent in RLCard's UNO game."
    )
    parser.add_argument(
        "--bot",
        default="heuristic",
        help="an Una bot spec (make_bot), or rlcard:random / rlcard:rule",
    )
    parser.add_argument("--opponent", choices=OPPONENTS, default="random")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--max-actions",
        type=int,
        default=MAX_ACTIONS,
        help="a game longer than this counts as unfinished",
    )
    parser.add_argument(
        "--model",
        help="rules (a preset or JSON) a searching bot simulates with instead of the views' "
        "(e.g. standard: the compiled core)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games <= 0 or args.jobs <= 0:
        parser.error("--games and --jobs must be positive")
    start = time.perf_counter()
    try:
        results = run(
            args.bot, args.opponent, args.games, args.seed, args.jobs, args.max_actions, args.model
        )
    except ValueError as error:
        parser.error(str(error))
    seconds = time.perf_counter() - start
    report = summarize(results, seconds, args.bot, args.opponent, args.seed, args.jobs)
    report["model"] = args.model
    report["digest"] = outcome_digest(results)
    if args.json:
        print(json.dumps(report))
        return 0
    low, high = report["wilson95"]
    print(f"{args.bot} against rlcard:{args.opponent} in RLCard's UNO, seed {args.seed}")
    print(
        f"  games {report['games']}, wins {report['wins']}, losses {report['losses']}, "
        f"unfinished {report['unfinished']}"
    )
    print(
        f"  win rate {100 * report['win_rate']:.1f}% (95% Wilson {100 * low:.1f}-{100 * high:.1f}%)"
    )
    for seat, part in report["by_seat"].items():
        rate = part["wins"] / part["games"] if part["games"] else 0.0
        print(f"  as RLCard player {seat[-1]}: {part['wins']}/{part['games']} ({100 * rate:.1f}%)")
    print(
        f"  {report['actions_per_game']:.1f} actions/game, "
        f"{report['auto_plays_per_game']:.2f} drawn cards auto-played/game"
    )
    print(
        f"  {report['seconds']:.1f} s, {report['games_per_second']:.1f} games/s "
        f"({args.jobs} job{'s' if args.jobs > 1 else ''}); digest {report['digest']}"
    )
    return 0


__all__ = [
    "RLCARD_RULES",
    "AdapterError",
    "GameResult",
    "Public",
    "UnaSeat",
    "action_from_rlcard",
    "action_to_rlcard",
    "build_view",
    "card_from_rlcard",
    "card_to_rlcard",
    "legal_from_rlcard",
    "play_game",
    "run",
    "summarize",
]

if __name__ == "__main__":
    sys.exit(main())
