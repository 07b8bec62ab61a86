"""The ``strong`` bot: search over hidden hands sampled from what its seat saw.

Every decision with more than one turn action (which card, which color, challenge or
take, stack or take, draw or play, play or keep a drawn card, targets) is searched:

1. **Belief** (:mod:`una.bots.belief`): from the seat's views only (it watches every
   action, ``observes = True``), what it saw on the discard pile, what a challenge showed
   it, and which colors, symbols and wilds each opponent is known to lack; each sample
   deals the unseen cards consistently into a full game (a *determinization*). From
   ``READS_FROM`` (three) players it also reads opponents as ``heuristic``-like players
   (the belief's ``reads_plays`` and ``reads_choices``) and its rollouts challenge as
   they do: worth about 2 points at four players, not measured better heads-up.
2. **Search** (``algorithm="flat"``, the default): determinized Monte Carlo with common
   random numbers. Each sampled game is played out after every candidate action with the
   same rollout generator, so candidates are compared on the same hidden cards and the
   same luck. The ``heuristic`` bot's choice is the prior. One UNO rollout carries little
   signal (a better first card wins 2-5% more playouts), and with many candidates the
   noisiest one looks best by chance (measured: trusting the means outright, the bot drew
   instead of playing a card and lost to ``heuristic``). So half the budget races the
   rivals by successive halving, and the survivor then meets the prior on fresh samples:
   it replaces the prior only when that independent paired comparison puts it
   ``CONFIDENCE`` standard errors above zero (:func:`select_rival`), an error rate that
   does not grow with the number of candidates. Without that signal the prior stays.
   At three or four players a final test too close to call (its margin within ``CLOSE``
   standard errors of the bar) doubles its samples, up to ``EXTENSIONS`` times: the
   think time goes where a decision is unsure.
   ``algorithm="tree"`` is single-observer ISMCTS (Cowling, Powley & Whitehouse 2012:
   one tree over all determinizations, UCB1 with availability counts, each player
   maximizing her own result); at interactive budgets it measured weaker.
3. **Rollouts** play the sampled game to the end of the hand with the engine itself,
   under the table's rules, so every preset, switch and mutant is simulated, in the
   compiled core on every rule set it plays, by the *greedy* policy
   (:func:`una.engine.fast.choose_greedy`: the heuristic's judgment in C, scored over the
   core's own legal actions, so it stacks, reacts, picks targets and jumps in), so the
   search improves on a good player's plan (a rollout algorithm) instead of judging
   moves by random play. In the core (:func:`una.engine.fast.playouts_from`) each
   sampled position is played out ``REPEATS`` times, the draw pile (unknown to the seat)
   reshuffled for each: sampling a position costs about as much as 16 playouts. A rule
   set the core does not play rolls out on the Python engine with the random policy and
   the budget divided by ``PYTHON_SHARE``.
4. **What a rollout is worth**: the hand won, or, playing a match (``goal``) whose
   scoring scores every player each hand (``discards_minus_hand``: the Telegram game;
   ``penalty``: BYOND), the points the seat scored against the table's mean
   (:data:`SCORED_BY_ALL`): there a hand's winner gains a few dozen points on the others,
   and what the others keep or shed moves their totals as much. A rollout whose hand
   ends the match is worth the match: 1 to its winner, 0 to the others.

UNO calls and catches are never searched (they are always right), and a jump-in is left
to the heuristic (it sheds a card for free).

Levels set the budget: ``strong:easy`` (512 rollouts), ``strong`` (2048), ``strong:hard``
(8192), or a number of rollouts (``strong:5000``). Heads-up a search plays out
``HEADS_UP_SHARE`` (4) times that with the classic deck, ``HEADS_UP_SHARE_SPECIAL`` (2)
times with special cards; ``think_ms`` replaces it by a time budget. From three players
a search also stops after ``MOVES_PER_ROLLOUT`` core moves per rollout of the budget
(hands there run long). A pilot measures how long the hands are; where even
the race's fewest samples would pass the cap ``FIT_ABOVE`` times over (BYOND at six to
eight players), the search fits itself to it: a cap shrunk as ``4 / players``, fewer
rollouts a sample (``MIN_REPEATS`` at least), fewer candidates if need be, and
``FINAL_SAMPLES`` for its final test. A decision with too many candidates races the best
few by the greedy policy's score (``MAX_CANDIDATES``).
Under a rollout budget the same view and the same generator state give the same move.

>>> import random
>>> from una.engine import Game
>>> game = Game("standard", players=2, seed=7)
>>> seat = game.to_act
>>> bot = StrongBot("easy")
>>> action = bot.choose(game.view_for(seat), random.Random(3))
>>> action in game.legal_actions(seat)
True
>>> action == StrongBot("easy").choose(game.view_for(seat), random.Random(3))
True
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Sequence

from una.bots.base import Bot, find, must_act, plays
from una.bots.belief import Belief, rules_key
from una.bots.heuristic import HeuristicBot
from una.bots.random_bot import pick
from una.engine import fast
from una.engine.actions import UNO, Action, Kind
from una.engine.errors import IllegalAction
from una.engine.game import Game
from una.engine.rules import RuleSet
from una.engine.views import View

#: Iterations per decision at each level.
LEVELS: dict[str, int] = {"easy": 512, "normal": 2048, "hard": 8192}
#: Heads-up a search plays out this many times its level's rollouts with the classic
#: deck. Heads-up hands are short (about 35 core moves a rollout, and no cap of moves),
#: and the search is far from spent: in RLCard's game each doubling past the level's
#: 2048 wins about 1.5 more games in 100 (docs/benchmarks.md, "Four times the rollouts
#: heads-up"). From READS_FROM players the cap of moves sets the think time.
HEADS_UP_SHARE = 4
#: The same with special cards in the deck (Alupula's, BYOND's mutants): a core move
#: costs 1.3-1.6 times more there and Alupula's hands run longer, so four times the
#: level would pass the think-time bound (30 ms median) that twice keeps.
HEADS_UP_SHARE_SPECIAL = 2
#: The classic deck's cards (RULES.md section 2): a deck of no others has no special card.
CLASSIC_CARDS = frozenset(RuleSet.from_json("standard").deck())
#: Rollouts on the pure-Python engine (rule sets the compiled core does not play) cost
#: about 100 times more: a level's budget is divided by this to stay interactive.
PYTHON_SHARE = 64
#: The exploration constant of UCB1 (rewards are 0 or 1).
EXPLORATION = 0.7
#: How many standard errors better than the prior a choice must be to replace it. The
#: final test sees fresh samples, so this bar alone sets how often a rival no better than
#: the prior gets through (31% at 0.5), however many candidates raced; one standard error
#: kept the prior more often than it paid (docs/benchmarks.md, "Half a standard error").
CONFIDENCE = 0.5
#: Rollouts per sampled position in the compiled core (the draw pile reshuffled for each).
REPEATS = 16
#: A rollout longer than this many actions is scored as a draw (a blocked, looping hand).
ROLLOUT_LIMIT = 500
#: The scorings under which every player scores each hand, and whether more is better:
#: playing for the match there, a rollout is worth the points the seat scored against the
#: table's mean (the first term of its chance to win the match), not the hand won.
SCORED_BY_ALL: dict[str, int] = {"discards_minus_hand": 1, "penalty": -1}
#: Points that make a rollout worth one hand won (so values stay near 0-1 for UCB1).
POINTS_PER_WIN = 100
#: From this many players up the bot reads opponents as ``heuristic``-like players (the
#: belief's ``reads_plays`` and ``reads_choices``) and its rollouts challenge as they do
#: (``"challenging"``): at four players that wins 2.1 more hands in 100 (docs/benchmarks.md);
#: heads-up, where the plain bot is measured, it stays as it is.
READS_FROM = 3
#: From READS_FROM players a search also stops after this many core moves per rollout of
#: its budget: hands there are longer (an Alupula or BYOND hand of four about three times
#: a heads-up one) and every sample deals more hands, so a budget of rollouts alone took
#: 50-100 ms a decision. Heads-up the rollouts run out first.
MOVES_PER_ROLLOUT = 20
#: How many times a final test too close to call doubles its samples (too_close).
EXTENSIONS = 3
#: Too close to call: a margin within this many standard errors of the bar CONFIDENCE.
CLOSE = 1.0
#: The table size the cap of moves is set for: a search fitted to it (FIT_ABOVE) past
#: this many players has its cap shrunk as ``4 / players`` (a core move there scores more
#: hands, a sample deals more: BYOND took 0.32 microseconds a move at four players, 0.72
#: at eight).
CAP_PLAYERS = 4
#: The pilot that sizes a capped search (StrongBot._pilot): samples, and rollouts of each
#: entrant. Hand lengths vary (an eight-player BYOND hand runs 40 to 500 moves): one
#: rollout misjudges a search's mean by a factor of 1.8 (sd of the log), 16 by 1.2.
PILOT_SAMPLES = 2
PILOT_ROLLOUTS = 2
#: The fewest samples the final comparison of a fitted search stops after. Its rule (one
#: standard error above zero) needs an error estimated from more than 2 or 3 samples: on
#: so few a rival that is no better passes about a quarter of the time.
FINAL_SAMPLES = 4
#: A capped search fits itself to its cap only where the fewest samples its race needs
#: would pass the cap more than this many times over. Fitting every search that passed it
#: (six-player Alupula, hands of about 140 moves, just over) cost 3 points there (17.2%
#: against 20.0% over 1,200 games, par 16.7%): there the bot stays as it was, inside the
#: think-time bound already. Eight-player BYOND (300 moves a hand) lost nothing
#: measurable by it (400 games).
FIT_ABOVE = 3
#: The fewest rollouts per sample a capped search fits itself to: below it the sampling
#: of hidden hands (in Python) would cost more than the rollouts (in C) it saves.
MIN_REPEATS = 4
#: A decision with more candidates than this (a Target Practice Wild at eight players has
#: over 300: colors times targets) searches the prior, every action that is no play, and
#: the plays the greedy policy scores highest: every candidate costs a sample per round.
MAX_CANDIDATES = 24
#: The same where the search has a cap of moves (from READS_FROM players): each round of
#: the race plays every entrant at least once, which alone could pass the cap.
MAX_CANDIDATES_CAPPED = 12


class Node:
    """A node of the search tree: the action that led here, played by ``seat``."""

    __slots__ = ("available", "children", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[Action, Node] = {}


def options(game: Game, seat: int) -> list[Action]:
    """The turn actions ``seat`` may take in ``game`` that differ: one per (card, color,
    targets) play, calling UNO with it where that is an option; no catches or calls."""
    legal = game.legal_actions(seat)
    choices = plays(legal)
    for action in legal:
        if (
            action.kind is not Kind.PLAY
            and action.kind is not Kind.UNO
            and (action.kind is not Kind.CATCH)
        ):
            choices.append(action)
    return choices


class Paired:
    """Per candidate, its paired differences to the prior over the samples seen: how
    many, their sum and their sum of squares.

    >>> stats = Paired(3)
    >>> for diff in (0.5, 0.25, 0.5, 0.75):
    ...     stats.add(2, diff)
    >>> stats.count[2], stats.mean(2), round(stats.error(2), 3), stats.mean(1)
    (4, 0.5, 0.102, 0.0)
    """

    __slots__ = ("count", "squares", "sums")

    def __init__(self, size: int) -> None:
        self.count = [0] * size
        self.sums = [0.0] * size
        self.squares = [0.0] * size

    def add(self, index: int, diff: float) -> None:
        self.count[index] += 1
        self.sums[index] += diff
        self.squares[index] += diff * diff

    def mean(self, index: int) -> float:
        count = self.count[index]
        return self.sums[index] / count if count else 0.0

    def error(self, index: int) -> float:
        """The standard error of the mean difference (infinite under 2 samples)."""
        count = self.count[index]
        if count < 2:
            return math.inf
        mean = self.sums[index] / count
        variance = max(self.squares[index] / count - mean * mean, 0.0) * count / (count - 1)
        return math.sqrt(variance / count)


def select_rival(stats: Paired, rival: int, base: int, confidence: float) -> int:
    """``rival`` if its mean paired difference to the prior ``base`` is more than
    ``confidence`` standard errors above zero, else ``base``: without that much signal
    (too few samples, no difference, a difference within the noise) the prior stays.

    >>> noise = Paired(2)
    >>> for diff in (0.25, -0.25, 0.0, 0.25):
    ...     noise.add(1, diff)
    >>> select_rival(noise, 1, 0, 1.0), select_rival(Paired(2), 1, 0, 1.0)
    (0, 0)
    >>> for diff in (0.25, 0.5, 0.25, 0.25):
    ...     noise.add(1, diff)
    >>> select_rival(noise, 1, 0, 1.0)
    1
    """
    if rival == base or stats.count[rival] < 2:
        return base
    mean = stats.mean(rival)
    return rival if mean > 0 and mean > confidence * stats.error(rival) else base


def too_close(stats: Paired, rival: int, base: int, confidence: float) -> bool:
    """Whether the final test of ``rival`` against the prior ``base`` is too close to
    call: its margin, in standard errors, within ``CLOSE`` of the bar ``confidence``
    (fewer than 2 samples, or no spread at all, is no test to extend).

    >>> stats = Paired(2)
    >>> for diff in (0.25, -0.25, 0.25, 0.0):
    ...     stats.add(1, diff)
    >>> too_close(stats, 1, 0, 0.5), too_close(Paired(2), 1, 0, 0.5)
    (True, False)
    >>> for diff in (0.5, 0.5, 0.25, 0.5):
    ...     stats.add(1, diff)
    >>> too_close(stats, 1, 0, 0.5)
    False
    """
    if rival == base or stats.count[rival] < 2:
        return False
    error = stats.error(rival)
    if error == 0:
        return False
    return abs(stats.mean(rival) / error - confidence) < CLOSE


def least_evals(rivals: int) -> int:
    """The fewest evaluations a capped race of the prior and ``rivals`` can stop after:
    one sample of every entrant in each halving round, ``FINAL_SAMPLES`` of the prior and
    the last rival (two of the prior alone).

    >>> least_evals(0), least_evals(1), least_evals(2), least_evals(11)
    (2, 8, 11, 34)
    """
    least = 2 * FINAL_SAMPLES if rivals else 2
    if rivals > 1:
        for _ in range(math.ceil(math.log2(rivals))):
            least += rivals + 1
            rivals = max(1, (rivals + 1) // 2)
    return least


class StrongBot(Bot):
    """ISMCTS over determinizations of its belief; see the module's docstring."""

    name = "strong"
    observes = True

    def __init__(
        self,
        level: str | int | None = None,
        think_ms: float | None = None,
        algorithm: str = "flat",
        rollout_policy: str | None = None,
        repeats: int = REPEATS,
        confidence: float = CONFIDENCE,
        model: RuleSet | None = None,
        reads_plays: bool | None = None,
        reads_choices: bool | None = None,
        moves_per_rollout: int | None = MOVES_PER_ROLLOUT,
        extensions: int = EXTENSIONS,
    ) -> None:
        if algorithm not in ("flat", "tree"):
            raise ValueError(f"algorithm must be 'flat' or 'tree', not {algorithm!r}")
        if isinstance(level, int):
            if level < 1:
                raise ValueError(f"a search needs at least 1 iteration, not {level}")
            self.iterations = level
        else:
            level_name = "normal" if level is None else level
            if level_name not in LEVELS:
                raise ValueError(f"strong levels are {', '.join(LEVELS)}, not {level!r}")
            self.iterations = LEVELS[level_name]
            level = None if level_name == "normal" else level_name
        self.level = level
        if think_ms is not None and think_ms <= 0:
            raise ValueError(f"think_ms must be positive, not {think_ms}")
        self.think_ms = think_ms
        self.algorithm = algorithm
        if rollout_policy is not None and rollout_policy not in fast.POLICIES:
            raise ValueError(f"rollout_policy must be one of {', '.join(fast.POLICIES)}")
        #: The rollout policy; None: ``"challenging"`` from READS_FROM players, else "greedy".
        self.rollout_policy = rollout_policy
        if repeats < 1:
            raise ValueError(f"repeats must be 1 or more, not {repeats}")
        self.repeats = repeats
        self.confidence = confidence
        #: The rules it simulates with, when not the table's (see :class:`Belief`).
        self.model = model
        #: Whether the belief reads opponents' wilds as "nothing else fitted" (Belief);
        #: None: from READS_FROM players.
        self.reads_plays = reads_plays
        #: Whether the belief checks sampled hands against opponents' choices (Belief);
        #: None: from READS_FROM players.
        self.reads_choices = reads_choices
        if moves_per_rollout is not None and moves_per_rollout < 1:
            raise ValueError(f"moves_per_rollout must be 1 or more, not {moves_per_rollout}")
        #: The cap on core moves per rollout of the budget from READS_FROM players (None:
        #: no cap).
        self.moves_per_rollout = moves_per_rollout
        if extensions < 0:
            raise ValueError(f"extensions must be 0 or more, not {extensions}")
        #: How many times a close final test may double its samples (EXTENSIONS).
        self.extensions = extensions
        self._compiled = False
        #: The policy the compiled core rolls out with under the rules being searched.
        self._core_policy = "greedy"
        #: Rollouts per sample in the current search (``repeats``, or fewer under a cap).
        self._search_repeats = repeats
        #: Per rule set and table size: the core's rollout policy (None: the Python
        #: engine's), the sign of its points when every player scores (SCORED_BY_ALL),
        #: and whether its deck holds special cards (HEADS_UP_SHARE_SPECIAL).
        self._core_rules: dict[tuple[str, int], tuple[str | None, int, bool]] = {}
        #: Whether the deck of the rules being searched holds special cards.
        self._special = False
        #: +1 or -1: rollouts are worth points (SCORED_BY_ALL, playing for the match);
        #: 0: the hand won.
        self._points_sign = 0
        self.belief: Belief | None = None
        self.helper = HeuristicBot()
        #: How many iterations the last search ran (for benchmarks).
        self.last_iterations = 0
        #: Moves played out in the compiled core since the bot was made.
        self.moves = 0

    # ------------------------------------------------------------ observing

    def settings(self, players: int) -> tuple[bool, bool, str]:
        """``(reads_plays, reads_choices, rollout_policy)`` at a table of ``players``: the
        ones given, else the defaults for that many (READS_FROM).

        >>> StrongBot().settings(2), StrongBot().settings(4)
        ((False, False, 'greedy'), (True, True, 'challenging'))
        >>> StrongBot(reads_plays=False).settings(4)
        (False, True, 'challenging')
        """
        reads = players >= READS_FROM
        return (
            reads if self.reads_plays is None else self.reads_plays,
            reads if self.reads_choices is None else self.reads_choices,
            ("challenging" if reads else "greedy")
            if self.rollout_policy is None
            else self.rollout_policy,
        )

    def budget(self, players: int, compiled: bool = True, special: bool = False) -> int:
        """The rollouts a search at a table of ``players`` plays out: the level's;
        heads-up ``HEADS_UP_SHARE`` times that, or ``HEADS_UP_SHARE_SPECIAL`` times with
        ``special`` cards in the deck; and a ``PYTHON_SHARE`` of it on the pure-Python
        engine (not ``compiled``).

        >>> StrongBot().budget(2), StrongBot().budget(2, special=True), StrongBot().budget(4)
        (8192, 4096, 2048)
        >>> StrongBot("easy").budget(2), StrongBot().budget(4, compiled=False)
        (2048, 32)
        """
        share = HEADS_UP_SHARE_SPECIAL if special else HEADS_UP_SHARE
        rollouts = self.iterations * share if players == 2 else self.iterations
        return rollouts if compiled else rollouts // PYTHON_SHARE

    def _belief(self, view: View) -> Belief:
        assert view.seat is not None
        if self.belief is None or self.belief.seat != view.seat:
            reads_plays, reads_choices, _ = self.settings(len(view.players))
            self.belief = Belief(view.seat, self.model, reads_plays, reads_choices)
        return self.belief

    def observe(self, view: View, seat: int, action: Action) -> None:
        self._belief(view).update(view, seat, action)

    # ------------------------------------------------------------ choosing

    def choose(self, view: View, rng: random.Random) -> Action | None:
        belief = self._belief(view)
        if belief.last is not view:
            belief.update(view)
        legal = view.legal
        catch = find(legal, Kind.CATCH)
        if catch is not None:
            return catch
        if UNO in legal:
            return UNO
        if not must_act(view):
            return self.helper.choose(view, rng) if plays(legal) else None
        if view.hand_over:
            return find(legal, Kind.DEAL) or legal[0]
        turn = [a for a in legal if a.kind is not Kind.CATCH and a.kind is not Kind.UNO]
        choices = plays(turn) + [a for a in turn if a.kind is not Kind.PLAY]
        if len(choices) == 1:
            return choices[0]
        return self.search(view, choices, rng)

    def search(self, view: View, choices: Sequence[Action], rng: random.Random) -> Action:
        """The best of ``choices`` after the search budget."""
        if self.algorithm == "flat":
            return self.search_flat(view, choices, rng)
        return self.search_tree(view, choices, rng)

    def search_flat(self, view: View, choices: Sequence[Action], rng: random.Random) -> Action:
        """Determinized Monte Carlo with common random numbers and successive halving,
        from a prior; see :func:`select_rival` for the rule that leaves the prior.

        The ``heuristic`` bot's choice is the prior. Every sampled game is played out after
        the prior and after each rival still in the race, with the same rollout generator:
        per sample, the difference of each rival's result and the prior's (paired, so the
        luck of the deal cancels). Half the budget goes to rounds that halve the rivals
        (ranked by their mean difference so far); the last rival then meets the prior
        again on fresh samples, and replaces it only if that independent comparison puts it
        ``confidence`` standard errors above zero. The final test never sees the data
        that chose the rival, so its error rate is the same with 2 candidates or 200.
        """
        assert view.seat is not None and self.belief is not None
        self._compiled = self._use_core(view)
        prior = self.helper.choose(view, random.Random(rng.getrandbits(64)))
        base = choices.index(prior) if prior in choices else 0
        sim_rng = random.Random(rng.getrandbits(64))
        start = time.perf_counter()
        span = None if self.think_ms is None else self.think_ms / 1000
        n = len(view.players)
        iterations = self.budget(n, self._compiled, self._special)
        # The core moves this search may play out (None: no cap), shared as the evaluations.
        cap = (
            iterations * self.moves_per_rollout
            if self.moves_per_rollout is not None
            and self._compiled
            and span is None
            and n >= READS_FROM
            else None
        )
        limit = MAX_CANDIDATES if cap is None else MAX_CANDIDATES_CAPPED
        rivals = [i for i in self._shortlist(view, choices, base, limit) if i != base]
        per_eval = self.repeats if self._compiled else 1
        first_move = self.moves
        rollouts = 0  # played out so far in this search
        # Hands too long for the cap (see FIT_ABOVE): the search fits itself to a cap that
        # shrinks past CAP_PLAYERS, counted from its start, with fewer rollouts a sample.
        fitted = False
        if cap is not None:
            length = self._pilot(view, choices, [base, *rivals], cap)
            if length * least_evals(len(rivals)) * self.repeats > FIT_ABOVE * cap:
                fitted = True
                cap = cap * min(CAP_PLAYERS, n) // n
                # Too many entrants for even MIN_REPEATS rollouts: race the best by the
                # greedy score.
                fitting = len(rivals)
                while fitting > 1 and least_evals(fitting) * MIN_REPEATS * length > cap:
                    fitting -= 1
                if fitting < len(rivals):
                    shorter = self._shortlist(view, choices, base, fitting + 1)
                    rivals = [i for i in shorter if i != base and i in rivals]
                per_eval = self._fitted(length, least_evals(len(rivals)), cap)
        self._search_repeats = per_eval
        # The budget in evaluations (one candidate played out on one sample).
        evals = max(4, iterations // per_eval)
        stats = Paired(len(choices))
        all_evals = evals
        if len(rivals) > 1:
            rounds = math.ceil(math.log2(len(rivals)))
            share = evals // 2 // rounds
            for number in range(rounds):
                until = None if span is None else start + span * (number + 1) / (2 * rounds)
                moves = None
                if cap is not None:
                    # Fitted, the limits count from the search's start: a round that ran
                    # over (it plays every entrant once) leaves the later ones less.
                    since = first_move if fitted else self.moves
                    moves = since + cap * share * (number + 1 if fitted else 1) // all_evals
                rollouts += self._search_repeats * self._race(
                    view, choices, base, rivals, stats, sim_rng, share, until, moves, 1
                )
                rivals.sort(key=lambda i: -stats.mean(i))
                rivals = rivals[: max(1, (len(rivals) + 1) // 2)]
                if fitted and cap is not None:
                    # The hands so far measure their length better than the pilot did.
                    length = max(1, (self.moves - first_move) // max(rollouts, 1))
                    left = max(0, first_move + cap - self.moves)
                    self._search_repeats = self._fitted(length, least_evals(len(rivals)), left)
            evals -= evals // 2
        final = Paired(len(choices))
        until = None if span is None else start + span
        moves = None
        if cap is not None:
            moves = first_move + cap if fitted else self.moves + cap * evals // all_evals
        rollouts += self._search_repeats * self._race(
            view, choices, base, rivals, final, sim_rng, evals, until, moves,
            FINAL_SAMPLES if fitted else 2,
        )  # fmt: skip
        if cap is not None and not fitted and n <= CAP_PLAYERS:
            # A close final test is worth more samples (as a chess engine thinks longer
            # when its best move is unsure): each extension doubles them while the rival's
            # margin stays within CLOSE standard errors of the bar. Most decisions are
            # clear and keep the budget, so the median think time moves little. Only at
            # three or four players: heads-up it doubled the think time for half a point
            # (docs/benchmarks.md), and larger tables have no time to spare.
            spent = evals
            for _ in range(self.extensions):
                if not too_close(final, rivals[0], base, self.confidence):
                    break
                moves = self.moves + cap * spent // all_evals
                rollouts += self._search_repeats * self._race(
                    view, choices, base, rivals, final, sim_rng, spent, None, moves, 2
                )
                spent *= 2
        self.last_iterations = rollouts
        return choices[select_rival(final, rivals[0], base, self.confidence)]

    def _fitted(self, length: int, least: int, moves: int) -> int:
        """Rollouts per sample (``repeats``, or fewer down to ``MIN_REPEATS``) so that
        ``least`` evaluations of hands ``length`` moves long fit in ``moves`` core moves.

        >>> bot = StrongBot()
        >>> bot._fitted(80, 30, 40_960), bot._fitted(200, 30, 40_960), bot._fitted(900, 30, 0)
        (16, 6, 4)
        """
        if length * least * self.repeats <= moves:
            return self.repeats
        return max(min(MIN_REPEATS, self.repeats), moves // max(1, length * least))

    def _pilot(
        self, view: View, choices: Sequence[Action], entrants: Sequence[int], cap: int
    ) -> int:
        """The mean length in core moves of the hands a capped search will play out, or 0
        when none could pass the cap: every entrant played out ``PILOT_ROLLOUTS`` times on
        one of ``PILOT_SAMPLES`` samples of its own (a candidate that gives cards away, a
        Target Practice Wild, makes a longer hand than the prior). The pilot's generators
        are its own, so the search's random numbers stay as they were, and its moves do
        not count against the cap (they are an eighth of one evaluation per entrant)."""
        assert self.belief is not None and view.seat is not None
        least = least_evals(len(entrants) - 1)
        if ROLLOUT_LIMIT * least * self.repeats <= FIT_ABOVE * cap:
            return 0  # no hand is long enough to pass it
        samples = [self.belief.sample(view, random.Random(i)) for i in range(PILOT_SAMPLES)]
        moves = rollouts = 0
        for number, index in enumerate(entrants):
            game = samples[number % PILOT_SAMPLES].copy()
            if self._apply(game, view.seat, choices[index]):
                moves += fast.playouts_counted(
                    game, number, self._core_policy, PILOT_ROLLOUTS, ROLLOUT_LIMIT, True
                )[1]
                rollouts += PILOT_ROLLOUTS
        return moves // rollouts if rollouts else 0

    def _shortlist(
        self, view: View, choices: Sequence[Action], base: int, limit: int = MAX_CANDIDATES
    ) -> list[int]:
        """The indices of ``choices`` to search: all of them, or past ``limit`` the prior,
        every action that is no play and the plays the greedy policy (which reads only the
        seat's hand and the table) scores highest, ``limit`` in all."""
        if len(choices) <= limit:
            return list(range(len(choices)))
        assert view.seat is not None and self.belief is not None
        # Any sample serves (the scores read no hidden card); its own generator leaves
        # the search's draws as they were.
        game = self.belief.sample(view, random.Random(0))
        plays = [i for i, a in enumerate(choices) if a.kind is Kind.PLAY and i != base]
        kept = [i for i, a in enumerate(choices) if a.kind is not Kind.PLAY or i == base]
        scores = fast.greedy_scores(game, view.seat, [choices[i] for i in plays])
        ranked = sorted(zip(scores, plays, strict=True), key=lambda pair: -pair[0])
        kept += [i for _, i in ranked[: max(limit - len(kept), 1)]]
        return sorted(kept)

    def _race(
        self,
        view: View,
        choices: Sequence[Action],
        base: int,
        rivals: Sequence[int],
        stats: Paired,
        rng: random.Random,
        evals: int,
        until: float | None,
        moves: int | None = None,
        at_least: int = 2,
    ) -> int:
        """Play ``base`` and ``rivals`` out on fresh samples (at least 2, or ``at_least``
        under a cap of ``moves``; up to ``evals`` evaluations, or until the clock reads
        ``until``, or until the core has played ``moves`` moves since the bot was made),
        adding each rival's paired difference to ``stats``; returns the evaluations spent."""
        assert view.seat is not None and self.belief is not None
        me = view.seat
        entrants = [base, *rivals]
        samples = max(2, evals // len(entrants)) if until is None else 1_000_000
        done = tries = 0
        while done < samples and tries < 4 * samples:
            if until is not None and done >= 2 and time.perf_counter() >= until:
                break
            # A round of the halving may stop after one sample (it only ranks); the final
            # comparison needs 2 for its error, FINAL_SAMPLES when fitted to its cap.
            if moves is not None and done >= at_least and self.moves >= moves:
                break
            tries += 1
            sampled = self.belief.sample(view, rng)
            seed = rng.getrandbits(64)
            values = self._evaluate(sampled, me, [choices[index] for index in entrants], seed)
            results = dict(zip(entrants, values, strict=False))
            if len(results) < len(entrants):
                continue  # the sample disagrees with the view: skip it
            done += 1
            for index in rivals:
                stats.add(index, results[index] - results[base])
        return done * len(entrants)

    def search_tree(self, view: View, choices: Sequence[Action], rng: random.Random) -> Action:
        """The most visited of ``choices`` after the ISMCTS budget."""
        assert view.seat is not None and self.belief is not None
        me = view.seat
        self._compiled = self._use_core(view)
        root = Node(me)
        self._search_repeats = self.repeats
        sim_rng = random.Random(rng.getrandbits(64))
        deadline = None if self.think_ms is None else time.perf_counter() + self.think_ms / 1000
        iterations = self.budget(len(view.players), self._compiled, self._special)
        budget = max(1, iterations) if deadline is None else 1_000_000
        done = 0
        while done < budget:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            done += 1
            game = self.belief.sample(view, sim_rng)
            self._iterate(game, root, choices, sim_rng)
        self.last_iterations = done
        best = max(
            choices,
            key=lambda a: (
                (root.children[a].visits, root.children[a].reward)
                if a in root.children
                else (-1, 0.0)
            ),
        )
        return best

    def _iterate(
        self, game: Game, root: Node, choices: Sequence[Action], rng: random.Random
    ) -> None:
        node = root
        path: list[Node] = []
        first = True
        while not game.hand_over:
            seat = game.to_act
            assert seat is not None
            if first:
                acts: Sequence[Action] = choices
                first = False
            else:
                acts = options(game, seat)
            if len(acts) == 1 and node is not root:
                if not self._apply(game, seat, acts[0]):
                    return
                continue
            untried = [a for a in acts if a not in node.children]
            for action in acts:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = Node(seat)
                child.available = 1
                if not self._apply(game, seat, action):
                    del node.children[action]
                    return
                path.append(child)
                break
            log_of = math.log
            best_score = -1.0
            chosen = acts[0]
            for action in acts:
                child = node.children[action]
                score = child.reward / child.visits + EXPLORATION * math.sqrt(
                    log_of(child.available) / child.visits
                )
                if score > best_score:
                    best_score, chosen = score, action
            node = node.children[chosen]
            if not self._apply(game, seat, chosen):
                return
            path.append(node)
        rewards = self._rollout(game, rng)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.seat]

    def _use_core(self, view: View) -> bool:
        """Whether rollouts under the view's rules can run in the compiled core (every
        rule set it plays, with the bot's rollout policy); sets the policy, and whether
        the deck holds special cards (the heads-up budget)."""
        n = len(view.players)
        key = (self.belief.model if self.belief and self.belief.model else rules_key(view), n)
        if key not in self._core_rules:
            rules = RuleSet.from_json(json.loads(key[0]))
            wanted = self.settings(n)[2]
            policy: str | None = None
            if wanted != "random" and fast.supports_greedy(rules, n):
                policy = wanted
            elif fast.supports(rules, n):
                policy = "random"
            special = not CLASSIC_CARDS.issuperset(rules.deck())
            self._core_rules[key] = policy, SCORED_BY_ALL.get(rules.scoring, 0), special
        policy, sign, self._special = self._core_rules[key]
        self._points_sign = sign if self.goal == "match" else 0
        if policy is None:
            return False
        self._core_policy = policy
        return True

    def _evaluate(
        self, sampled: Game, seat: int, actions: Sequence[Action], seed: int
    ) -> list[float]:
        """What each of ``actions``, played by ``seat`` in ``sampled`` and rolled out with
        a generator seeded ``seed``, is worth to ``seat``, in turn; the list stops before
        the first action illegal there (the sample disagrees with the view)."""
        if self._compiled:
            # Every action in one call, applied in the core, each rollout generator
            # seeded as _rollout seeds it: the same results, the position loaded once.
            repeats = self._search_repeats
            outcomes = fast.playouts_after(
                sampled, seat, actions, random.Random(seed).getrandbits(63),
                self._core_policy, repeats, ROLLOUT_LIMIT, shuffle_pile=True,
            )  # fmt: skip
            values = []
            for wins, played, points, matches in outcomes:
                self.moves += played
                values.append(self._value(wins, points, matches, repeats)[seat])
            return values
        values = []
        for action in actions:
            game = sampled.copy()
            if not self._apply(game, seat, action):
                break
            values.append(self._rollout(game, random.Random(seed))[seat])
        return values

    @staticmethod
    def _apply(game: Game, seat: int, action: Action) -> bool:
        try:
            game.apply(seat, action)
        except IllegalAction:
            # The sampled game disagrees with the view (a rule state a view cannot show):
            # drop this iteration.
            return False
        return True

    def _rollout(self, game: Game, rng: random.Random) -> list[float]:
        if self._compiled:
            # The C core plays a hand 50-300x faster than Python, so one sampled position
            # is played out REPEATS times (fewer samples, each judged better);
            # ROLLOUT_LIMIT-long hands count for nobody.
            repeats = self._search_repeats
            wins, moves, points, matches = fast.playouts_counted(
                game,
                rng.getrandbits(63),
                self._core_policy,
                repeats,
                ROLLOUT_LIMIT,
                shuffle_pile=True,
            )
            self.moves += moves
            return self._value(wins, points, matches, repeats)
        steps = 0
        while not game.hand_over:
            seat = game.to_act
            assert seat is not None
            # pick() never catches: its fallback is always a draw, a pass or a color.
            action = pick(game.legal_actions(seat), rng)
            game.apply(seat, action, trusted=True)
            steps += 1
            if steps > ROLLOUT_LIMIT:
                return [1.0 / game.n] * game.n
        result = game.hand_result
        assert result is not None
        if self._points_sign:
            ended = [0] * game.n
            if game.match_over and game.winner is not None:
                ended[game.winner] = 1
                return self._worth([0] * game.n, ended, 1)
            return self._worth(result.points, ended, 1)
        rewards = [0.0] * game.n
        rewards[result.winner] = 1.0
        return rewards

    def _value(
        self,
        wins: Sequence[int],
        points: Sequence[int],
        matches: Sequence[int],
        rollouts: int,
    ) -> list[float]:
        """What ``rollouts`` core rollouts are worth to each seat (per seat: ``wins`` hands
        won, ``points`` scored where the match went on, ``matches`` won where the hand ended
        it): the hands won, or, playing a match where every player scores, _worth."""
        if self._points_sign:
            return self._worth(points, matches, rollouts)
        return [w / rollouts for w in wins]

    def _worth(self, points: Sequence[int], matches: Sequence[int], rollouts: int) -> list[float]:
        """What ``rollouts`` rollouts are worth to each seat when every player scores
        (SCORED_BY_ALL): one that ended the match, 1 to its winner and 0 to the others;
        the rest, which scored ``points`` in all, her points against the table's mean,
        POINTS_PER_WIN to a hand won, around the even share. (Near the target, scoring well
        in the hand that ends the match is no use to a player who loses it.)

        >>> bot = StrongBot()
        >>> bot._points_sign = 1
        >>> [round(value, 3) for value in bot._worth([120, 0, -30, 30], [0, 0, 0, 0], 2)]
        [0.7, 0.1, -0.05, 0.25]
        >>> [round(value, 3) for value in bot._worth([120, 0, -30, 30], [0, 2, 0, 0], 4)]
        [0.35, 0.55, -0.025, 0.125]
        """
        going_on = rollouts - sum(matches)
        mean = sum(points) / len(points)
        scale = self._points_sign / (rollouts * POINTS_PER_WIN)
        return [
            (won + going_on / len(points)) / rollouts + (p - mean) * scale
            for p, won in zip(points, matches, strict=True)
        ]
