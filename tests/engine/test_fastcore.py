"""The C core (una/engine/_fastcore.c) against the pure-Python engine: identical games.

Every test that needs the compiled core skips locally when it is not built, and fails
under ``CI=true``: ``scripts/setup`` builds it, so a CI run without it is a broken build.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from stacking import drain

from una.bots.random_bot import pick
from una.engine import Action, Card, Color, Game, Kind, Phase, RuleSet, fast
from una.engine.events import HandEnded, Passed, Reshuffled
from una.engine.rng import Rng
from una.engine.state import NAMES


def c_result(core: Any, game: Game, seed: int) -> tuple[int, int, int]:
    """(winner, points, moves) of the C playout from ``game``; ``game`` must not change."""
    before = (game.state_json(), [list(h) for h in game.hands], list(game.draw_pile),
              game.rng.state, list(game.owes_uno))  # fmt: skip
    result: tuple[int, int, int] = core.playout_from(
        fast.compiled(game.rules, game.n), NAMES, fast._values(game), seed
    )
    after = (game.state_json(), [list(h) for h in game.hands], list(game.draw_pile),
             game.rng.state, list(game.owes_uno))  # fmt: skip
    assert before == after
    return result


def py_result(game: Game, seed: int, seen: Counter[str] | None = None) -> tuple[int, int, int]:
    """(winner, points, moves) of the Python reference playout from a copy of ``game``;
    ``seen`` counts the rare paths it went through."""
    twin = game.copy()
    rng = Rng(seed)
    moves = 0
    while not twin.hand_over:
        seat = twin.to_act
        assert seat is not None
        phase = twin.phase
        action = fast.choose(twin.legal_actions(seat), rng)
        events = twin.apply(seat, action)
        moves += 1
        if seen is not None:
            seen[action.kind.value] += 1
            seen["recycled"] += any(twin.recycled)
            for event in events:
                if isinstance(event, Reshuffled):
                    seen["reshuffle"] += 1
                elif isinstance(event, Passed) and phase is Phase.PLAY:
                    seen["idle pass"] += 1
                elif isinstance(event, HandEnded) and event.blocked:
                    seen["blocked"] += 1
    result = twin.hand_result
    assert result is not None
    return result.winner, result.points[result.winner], moves


def advance(game: Game, moves: int, rng: Rng) -> None:
    """Play up to ``moves`` policy moves of ``game``'s hand (fewer if it ends)."""
    for _ in range(moves):
        if game.hand_over:
            return
        seat = game.to_act
        assert seat is not None
        game.apply(seat, fast.choose(game.legal_actions(seat), rng))


# ------------------------------------------------------------------ whole hands


PLAYED = ("standard", "telegram", "alupula")


@pytest.mark.parametrize("preset", PLAYED)
def test_trace_hand_is_the_python_engines_game(core: Any, preset: str) -> None:
    for players in range(2, 11):
        for index in range(12):
            game_seed = index * 7919 + players
            policy_seed = index ^ 0x5DEECE66D
            assert fast.trace_hand(players, game_seed, policy_seed, preset) == (
                fast.trace_hand_py(players, game_seed, policy_seed, preset)
            ), (players, game_seed, policy_seed)


def test_trace_hand_with_any_64_bit_seed(core: Any) -> None:
    for seed in (-1, -(2**63), 2**64 - 1, 2**64 + 5, 2**70 + 3):
        assert fast.trace_hand(3, seed, seed) == fast.trace_hand_py(3, seed, seed)


@pytest.mark.parametrize("preset", PLAYED)
def test_random_playouts_totals_match(core: Any, preset: str) -> None:
    for players, games, seed in ((2, 60, 1), (3, 30, 2), (4, 30, 3), (6, 15, 4), (10, 10, 5)):
        c = fast.Playouts(*core.random_playouts(fast.compiled(preset, players), games, seed))
        assert c == fast.random_playouts_py(players, games, seed, preset)
        assert c.games == games == sum(c.wins) and c.moves > games and len(c.points) == players


def test_random_playouts_counts() -> None:
    result = fast.random_playouts(5, 25, seed=9)
    assert result.games == 25 == sum(result.wins) and len(result.wins) == 5
    assert all(points >= 0 for points in result.points)
    assert fast.random_playouts(2, 0, seed=1) == fast.Playouts(0, 0, (0, 0), (0, 0))


def test_policy_is_the_random_bots_pick() -> None:
    """``choose`` is ``random_bot.pick`` with the engine's generator for ``randrange``."""

    class SplitMix(random.Random):
        def __init__(self, seed: int) -> None:
            super().__init__(0)
            self.rng = Rng(seed)

        def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
            assert stop is None and step == 1
            return self.rng.below(start)

    for players in (2, 3, 5, 10):
        for seed in range(12):
            game, other = Game("standard", players, seed=seed), Game("standard", players, seed=seed)
            mine, theirs = Rng(seed + 100), SplitMix(seed + 100)
            while not game.hand_over:
                seat = game.to_act
                assert seat is not None
                action = fast.choose(game.legal_actions(seat), mine)
                assert action == pick(other.legal_actions(seat), theirs)
                game.apply(seat, action)
                other.apply(seat, action)


# --------------------------------------------------------------- from a position


def test_playout_from_positions_of_every_phase(core: Any) -> None:
    phases: Counter[Phase] = Counter()
    challengeable = 0
    for players in range(2, 11):
        for index in range(30):
            seed = players * 1000 + index
            game = Game("standard", players, seed=seed)
            rng = Rng(seed)
            step = Rng(seed ^ 1)
            while not game.hand_over:
                phases[game.phase] += 1
                challengeable += game.phase is Phase.PENALTY and game.pending_challengeable
                probe = seed + game.hand_number + len(game.log)
                assert c_result(core, game, probe) == py_result(game, probe)
                advance(game, 1 + step.below(12), rng)
    assert phases[Phase.COLOR] and phases[Phase.DRAWN] and phases[Phase.PENALTY] > 20
    assert challengeable == phases[Phase.PENALTY]


def test_playout_from_the_wrapper(core: Any) -> None:
    game = Game("standard", 4, seed=3)
    advance(game, 9, Rng(2))
    for seed in range(20):
        winner, points, _ = c_result(core, game, seed)
        assert fast.playout_from(game, seed) == winner == fast.playout_from_py(game, seed)
        assert fast.playout_result(game, seed) == (winner, points)


def test_playout_from_a_finished_hand_gives_its_winner() -> None:
    game = Game("standard", 2, seed=4)
    advance(game, 10_000, Rng(4))
    assert game.hand_result is not None
    assert fast.playout_from(game, 1) == game.hand_result.winner


def test_playout_from_exhausted_piles(core: Any) -> None:
    """Reshuffles of a few cards, draws that take the last drawable cards (recycled cards,
    idle turns), turns where nothing can be drawn."""
    seen: Counter[str] = Counter()
    for players in (2, 3, 4, 6, 10):
        for index in range(40):
            seed = players * 100 + index
            game = Game("standard", players, seed=seed)
            rng = Rng(seed)
            advance(game, rng.below(40), rng)
            if game.hand_over:
                continue
            drain(game, rng.below(3), rng.below(4), rng)
            for probe in range(3):
                assert c_result(core, game, probe) == py_result(game, probe, seen), (seed, probe)
    assert seen["reshuffle"] and seen["recycled"] and seen["idle pass"], seen


def test_playout_from_a_blocked_hand(core: Any) -> None:
    """Four players; Skips drawn back and forth between seats 0 and 2 while seats 1 and 3
    hold every card that could be played: a round of idle turns blocks the hand."""
    game = Game("standard", 4, seed=1)
    deck = game.rules.deck()
    skips = [c for c in deck if c.code == "RS"]
    rest = [c for c in deck if c.code != "RS"]
    playable = [c for c in rest if c.is_wild or c.color is Color.RED or c.symbol == "S"]
    dead = [c for c in rest if c not in playable]
    game.hands = [dead[0::4], playable[0::2] + dead[1::4], dead[2::4], playable[1::2] + dead[3::4]]
    game.draw_pile = []
    game.discard = skips
    game.color = Color.RED
    game.to_act = 0
    game.idle_turns = 0
    seen: Counter[str] = Counter()
    for seed in range(5):
        result = c_result(core, game, seed)
        assert result == py_result(game, seed, seen)
    assert seen["blocked"] == 5
    assert result[2] == 8  # draw + play by seats 0 and 2, twice each


def test_playout_from_nothing_to_draw(core: Any) -> None:
    """Seat 0 holds nothing playable and nothing can be drawn: she passes (an idle turn)."""
    game = Game("standard", 2, seed=2)
    deck = game.rules.deck()
    top = Card.parse("R5")
    rest = list(deck)
    rest.remove(top)
    playable = [c for c in rest if c.is_wild or c.color is Color.RED or c.symbol == "5"]
    game.hands = [[c for c in rest if c not in playable], playable]
    game.draw_pile, game.discard, game.color, game.to_act = [], [top], Color.RED, 0
    seen: Counter[str] = Counter()
    for seed in range(10):
        assert c_result(core, game, seed) == py_result(game, seed, seen)
    assert seen["idle pass"] >= 10


def test_playout_from_a_player_owing_uno(core: Any) -> None:
    seen: Counter[str] = Counter()
    for seed in range(30):
        game = Game("standard", 2 + seed % 3, seed=seed)
        advance(game, 1 + seed % 7, Rng(seed))
        if game.hand_over or game.phase is not Phase.PLAY:
            continue
        seat = game.to_act
        assert seat is not None
        game.draw_pile[:0] = game.hands[seat][1:]
        del game.hands[seat][1:]
        game.owes_uno[seat] = True
        assert fast.choose(game.legal_actions(seat), Rng(0)).code == "uno"
        assert c_result(core, game, seed) == py_result(game, seed, seen)
    assert seen["uno"] >= 10


def test_playout_from_a_catch_while_a_color_is_named(core: Any) -> None:
    """A constructed position: a first Wild waits for its color while another player owes
    UNO; pick() chooses among the whole legal list there, catches included."""
    seen: Counter[str] = Counter()
    tried = 0
    for seed in range(400):
        game = Game("standard", 3, seed=seed)
        if game.phase is not Phase.COLOR:
            continue
        tried += 1
        game.draw_pile[:0] = game.hands[2][1:]
        del game.hands[2][1:]
        game.owes_uno[2] = True
        for probe in range(8):
            assert c_result(core, game, probe) == py_result(game, probe, seen)
    assert tried and seen["catch"] and seen["color"]


# ------------------------------------------------------------------- bad input


def test_unsupported_rules_fall_back_to_python(core: Any) -> None:
    assert fast.supports("standard") and fast.supports(RuleSet.from_json({"target": 100}))
    assert fast.supports("telegram") and fast.supports("alupula") and fast.supports("byond")
    big = RuleSet.from_json({"preset": "byond", "cards": {"SP": 8}})
    assert fast.why_unsupported(big) == "the C core holds decks of up to 160 cards, not 176"
    game = Game(big, 3, seed=1)
    assert fast.playout_from(game, 2) == fast.playout_from_py(game, 2)


def test_the_core_refuses_what_it_does_not_know(core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A switch the core does not know (one added to the rules later) or a value it does
    not implement makes compile_rules refuse: a typed error, a fallback."""
    standard = RuleSet.preset_named("standard")
    real = standard.to_dict

    def with_new_switch(self: RuleSet) -> dict[str, Any]:
        return real() | {"uno_fine": 3}

    monkeypatch.setattr(RuleSet, "to_dict", with_new_switch)
    fast._compile.cache_clear()
    try:
        assert fast.why_unsupported(standard) == "the C core does not know the switch 'uno_fine'"
        with pytest.raises(fast.CoreUnsupported, match="uno_fine"):
            fast.compiled(standard, 2)
    finally:
        monkeypatch.undo()
        fast._compile.cache_clear()
    spec = {k: v for k, v in standard.to_dict().items() if k != "preset"}
    table: dict[int, dict[str, Any]] = {fast.CARD_IDS[c]: {} for c in standard.deck()[:1]}
    with pytest.raises(ValueError, match="does not play play_drawn='sometimes'"):
        core.compile_rules(spec | {"play_drawn": "sometimes"}, table, [], 7, 2)
    with pytest.raises(ValueError, match="needs the switch 'finish'"):
        core.compile_rules({k: v for k, v in spec.items() if k != "finish"}, table, [], 7, 2)
    # A card whose effect the core does not implement (as a mutant added later would be).
    spy = {"color": -1, "face": 0, "number": -1, "points": 1, "wild": 0, "wd4": 0,
           "action_face": 0, "effect": "SPY2", "first": None}  # fmt: skip
    with pytest.raises(ValueError, match=r"does not play the card SPY \(effect 'SPY2'\)"):
        core.compile_rules(spec, {fast.CARD_IDS[Card.parse("SPY")]: spy}, [], 7, 2)
    assert set(core.SWITCHES) == {k for k in standard.to_dict() if k != "preset"}


def test_the_core_reads_every_declared_state_field(core: Any) -> None:
    """The C loader's field list is una.engine.state's, in order; what it holds comes back
    in its trace states, and what it does not (the log, a finished hand's result, who saw
    which hand: none of them changes play) is said."""
    assert core.STATE_FIELDS == NAMES
    game = Game("alupula", 3, seed=2)
    steps = core.trace(fast.compiled(game.rules, 3), NAMES, fast._values(game), 1, 1, True)
    assert set(steps[0][3]) | set(core.STATE_UNHELD) == set(NAMES)
    assert set(core.STATE_UNHELD) == {"log", "hand_result", "reveals"}
    renamed = ("rng2", *NAMES[1:])
    with pytest.raises(ValueError, match="state field 0 is 'rng2'"):
        core.playout_from(fast.compiled(game.rules, 3), renamed, fast._values(game), 1)


def test_bad_seat_counts_and_counts(core: Any) -> None:
    for players in (0, 1, 11):
        with pytest.raises(fast.CoreUnsupported, match="seats 2 to 10"):
            fast.compiled("standard", players)
    with pytest.raises(ValueError, match="games: must be 0 or more"):
        core.random_playouts(fast.compiled("standard", 2), -1, 1)
    with pytest.raises(ValueError, match="games: must be 0 or more"):
        fast.random_playouts_py(2, -1, 1)
    with pytest.raises(TypeError, match="expected what compile_rules returned"):
        core.random_playouts(b"rules", 1, 1)


def bad_state(**changes: Any) -> list[Any]:
    """``_fastcore.playout_from``'s arguments for a fresh 3-player game, with changes."""
    game = Game("standard", 3, seed=5)
    state = dict(zip(NAMES, fast._values(game), strict=True))
    state.update(changes)
    return [fast.compiled(game.rules, 3), NAMES, tuple(state.values()), 1]


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"hands": []}, ValueError, "0 players, but the rules were compiled for 3"),
        ({"hands": "abc"}, TypeError, "hands: expected a list"),
        ({"draw_pile": [1, 2]}, TypeError, "draw_pile: expected cards, not int"),
        ({"draw_pile": [Card.parse("RD4")]}, ValueError, "not the rule set's deck"),
        ({"draw_pile": []}, ValueError, "not the rule set's deck"),
        ({"discard": 7}, TypeError, "discard: expected a list of cards"),
        ({"direction": 0}, ValueError, "direction: 0"),
        ({"to_act": 3}, ValueError, "to_act: 3 is out of range 0-2"),
        ({"phase": "over"}, ValueError, "phase: 'over'"),
        ({"phase": Phase.HAND_OVER}, ValueError, "phase: the hand is over"),
        ({"color": "purple"}, ValueError, "color: 'purple'"),
        ({"phase": Phase.DRAWN, "drawn": None}, ValueError, "drawn: None is not in seat"),
        ({"phase": Phase.DRAWN, "drawn": "R5"}, TypeError, "drawn: expected cards"),
        ({"pending_draw": 4}, ValueError, "pending_draw: 4 outside a penalty phase"),
        ({"idle_turns": -1}, ValueError, "idle_turns"),
        ({"owes_uno": [False]}, ValueError, "owes_uno: 1 items for 3 players"),
        ({"set_aside": [[Card.parse("R1")], [], []]}, ValueError, "3 of R1, not 2"),
        ({"position": [1, 0, 2]}, ValueError, "position: seat 0 is not where"),
        ({"players_in_hand": 2}, ValueError, "players_in_hand: 2"),
    ],
)
def test_playout_from_rejects_bad_states(
    core: Any, changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    args = bad_state(**changes)
    with pytest.raises(error, match=message):
        core.playout_from(*args)


def test_playout_from_rejects_a_card_too_many(core: Any) -> None:
    game = Game("standard", 2, seed=1)
    game.hands[0].append(Card.parse("R1"))
    with pytest.raises(ValueError, match="not the rule set's deck: 3 of R1, not 2"):
        fast.playout_from(game, 1)
    game.hands[0][-1] = Card.parse("RD4")
    with pytest.raises(ValueError, match="RD4"):
        fast.playout_from(game, 1)


def test_playout_from_rejects_a_drawn_card_that_does_not_fit(core: Any) -> None:
    game = Game("standard", 3, seed=5)
    seat = game.to_act
    assert seat is not None and game.phase is Phase.PLAY
    misfit = next(c for c in game.hands[seat] if not game.plain_match(c))
    game.phase, game.drawn = Phase.DRAWN, misfit
    with pytest.raises(ValueError, match=f"drawn: {misfit.code} does not fit the pile"):
        fast.playout_from(game, 1)


# ------------------------------------------------------------ the greedy rollout policy


GREEDY_RULES = (
    "standard",
    "telegram",
    {"preset": "standard", "stack_draw_two": True, "stack_cross": True, "uno_call": "auto",
     "finish": "to_the_last", "scoring": "penalty", "guilty_color": "reverts"},
)  # fmt: skip
#: Rule sets with the cards and switches the greedy policy once could not play: fewer
#: positions each (their Python playouts are long).
GREEDY_RULES_MORE = (
    "alupula",
    "byond",
    # jump-ins in the rollouts, seven-zero targets
    {"preset": "telegram", "jump_in": True, "seven_zero": True, "finish": "to_the_last"},
    # more of the mutants that pick a player, react or lock; a forced drawn card
    {"preset": "byond", "cards": {"WTP": 3, "QUIT": 2, "TRADE": 2, "BLEND": 2, "KOBE": 2,
     "HOLY": 2, "SCREW": 2, "DUNG": 2}, "play_drawn": "must", "voluntary_draw": False},
)  # fmt: skip


@pytest.mark.parametrize("rules", GREEDY_RULES)
def test_playouts_from_greedy_is_the_python_reference(core: Any, rules: Any) -> None:
    # Positions of every phase (reached by the random policy), played on by both policies
    # in C and in Python: the same wins per seat, repeat after repeat on one generator,
    # the same count of moves and the same points per seat (the rule set's scoring).
    assert fast.supports_greedy(rules)
    phases: Counter[Phase] = Counter()
    for players in range(2, 11) if rules == "standard" else (2, 3, 5, 8):
        for index in range(8 if rules == "standard" else 2):
            seed = players * 7919 + index
            game = Game(rules, players, seed=seed)
            rng = Rng(seed)
            step = Rng(seed ^ 5)
            while not game.hand_over:
                phases[game.phase] += 1
                probe = seed + len(game.log)
                for policy, shuffled in (
                    ("greedy", False),
                    ("random", False),
                    ("greedy", True),
                    ("challenging", True),
                ):
                    c_wins = fast.playouts_counted(game, probe, policy, 3, shuffle_pile=shuffled)
                    py_wins = fast.playouts_counted_py(
                        game, probe, policy, 3, shuffle_pile=shuffled
                    )
                    assert c_wins == py_wins, (
                        policy,
                        players,
                        seed,
                        len(game.log),
                    )
                    assert sum(c_wins[0]) == 3 and c_wins[1] >= 3
                advance(game, 1 + step.below(15), rng)
    assert phases[Phase.DRAWN] and phases[Phase.PENALTY]
    assert phases[Phase.COLOR] or rules != "standard"


@pytest.mark.parametrize("rules", GREEDY_RULES_MORE)
def test_greedy_playouts_on_every_card_are_the_python_reference(core: Any, rules: Any) -> None:
    # The greedy policy scores the core's own legal actions: stack answers, reactions,
    # picks, jump-ins, locks; C and Python agree repeat after repeat.
    assert fast.supports_greedy(rules)
    positions = 0
    # Eight players: Target Practice offers its short list of splits (MAX_LISTED_SPLITS).
    for players, index in [*itertools.product((2, 3, 5), range(3)), (8, 0)]:
        seed = players * 7919 + index
        game = Game(rules, players, seed=seed)
        rng = Rng(seed)
        step = Rng(seed ^ 5)
        # (Eight players' hands run long in Python: their first positions only.)
        for _ in range(1000 if players < 8 else 3):
            if game.hand_over:
                break
            probe = seed + len(game.log)
            c_wins, moves, points, matches = fast.playouts_counted(
                game, probe, "greedy", 2, shuffle_pile=True
            )
            assert (c_wins, moves, points, matches) == fast.playouts_counted_py(
                game, probe, "greedy", 2, shuffle_pile=True
            )
            assert sum(c_wins) <= 2
            positions += 1
            advance(game, 1 + step.below(8), rng)
    assert positions > 30


def test_random_playouts_from_match_playout_from(core: Any) -> None:
    game = Game("standard", 3, seed=8)
    advance(game, 5, Rng(1))
    for seed in range(10):
        wins = [0, 0, 0]
        wins[fast.playout_from(game, seed)] += 1
        assert fast.playouts_from(game, seed, "random", repeats=1) == tuple(wins)


@pytest.mark.parametrize("players", [2, 4])
def test_challenging_policy_challenges_as_the_heuristic(core: Any, players: int) -> None:
    # A Wild Draw Four on a big hand is challenged (its holder likely held the color), on
    # a hand of one card it is not; the greedy policy never challenges. Played out, C and
    # Python agree.
    challenged = 0
    for seed in range(40):
        game = Game("standard", players, seed=seed)
        seat = game.to_act
        assert seat is not None
        wd4 = Card.parse("W4")
        if game.phase is not Phase.PLAY:
            continue
        if wd4 not in game.hands[seat]:
            if wd4 not in game.draw_pile:
                continue
            where = game.draw_pile.index(wd4)
            game.draw_pile[where], game.hands[seat][0] = game.hands[seat][0], wd4
        game.apply(seat, Action.play(wd4, Color.RED))
        if game.phase is not Phase.PENALTY or not game.pending_challengeable:
            continue
        accused, to_act = seat, game.to_act
        assert to_act is not None
        for size, expect in ((1, False), (7, True)):
            # Cards move between the accused's hand and the draw pile: the deck stays whole.
            while len(game.hands[accused]) > size:
                game.draw_pile.append(game.hands[accused].pop())
            while len(game.hands[accused]) < size:
                game.hands[accused].append(game.draw_pile.pop())
            assert fast.greedy_challenges(game, to_act) is expect
            action = fast.choose_greedy(game, Rng(0), challenges=True)
            assert (action.kind is Kind.CHALLENGE) is expect, (seed, size)
            assert fast.choose_greedy(game, Rng(0)).kind is not Kind.CHALLENGE
            for policy in ("challenging", "greedy"):
                c_wins = fast.playouts_from(game, seed, policy, 4, shuffle_pile=True)
                assert c_wins == fast.playouts_from_py(game, seed, policy, 4, shuffle_pile=True)
        challenged += 1
    assert challenged > 10


def test_greedy_policy_plays_like_the_heuristic() -> None:
    # A stacked hand: seat 0 holds the wild, two reds and a green; red 5 is on the pile.
    game = Game("standard", 2, seed=1)
    hand = [Card.parse(code) for code in ("W", "R2", "R9", "G5", "R5")]
    game.hands[0] = hand
    game.color, game.to_act = Color.RED, 0
    game.discard[-1] = Card.parse("Y5")
    # Red stays: the 9 (more points, one red left) before the 2; the wild is kept.
    assert fast.choose_greedy(game, Rng(0)).code == "play R9"
    # An opponent close to going out: points go first, the wild included.
    game.hands[1] = game.hands[1][:2]
    assert fast.choose_greedy(game, Rng(0)).card == Card.parse("W")


def test_greedy_policy_keeps_a_drawn_wild_in_a_big_hand() -> None:
    game = Game("standard", 2, seed=4)
    seat = game.to_act
    assert seat is not None
    game.hands[seat].append(Card.parse("W"))
    game.phase, game.drawn = Phase.DRAWN, Card.parse("W")
    assert fast.choose_greedy(game, Rng(0)).code == "pass"
    game.hands[seat][:] = [Card.parse("W"), Card.parse("B1")]
    action = fast.choose_greedy(game, Rng(0))
    assert action.code == "play W B uno"


def test_greedy_policy_stacks_and_swaps_by_the_legal_actions() -> None:
    # A Draw Two on a Draw Two (telegram stacks them) rather than taking 2 cards.
    game = Game("telegram", 2, seed=3)
    seat = game.to_act
    assert seat is not None
    game.apply(seat, next(a for a in game.legal_actions(seat) if a.kind.value == "draw"))
    victim = game.to_act
    assert victim is not None
    game.hands[victim][:3] = [Card.parse(code) for code in ("RD2", "B5", "G7")]
    game.discard[-1], game.color = Card.parse("YD2"), Color.YELLOW
    game.phase, game.pending_draw, game.pending_kind = Phase.PENALTY, 2, "D2"
    game.pending_source = seat
    answer = fast.choose_greedy(game, Rng(0))
    assert answer.card is not None and answer.card.symbol == "D2", answer
    # Trader Joe at the smaller hand: three players, one holds 2 cards, one 9.
    game = Game("byond", 3, seed=4)
    seat = game.to_act
    assert seat is not None
    others = [s for s in range(3) if s != seat]
    game.hands[seat][:] = [Card.parse(code) for code in ("TRADE", "R1", "R2", "G3", "B4")]
    game.hands[others[0]][:] = game.hands[others[0]][:2]
    game.hands[others[1]].extend(game.draw_pile[:2])
    del game.draw_pile[:2]
    game.discard[-1], game.color, game.phase = Card.parse("Y9"), Color.YELLOW, Phase.PLAY
    action = fast.choose_greedy(game, Rng(0))
    assert action.card == Card.parse("TRADE") and action.targets == (others[0],), action


def test_playouts_from_bad_arguments(core: Any) -> None:
    game = Game("standard", 2, seed=1)
    with pytest.raises(ValueError, match="policy: 'smart'"):
        fast.playouts_from(game, 1, "smart")
    with pytest.raises(ValueError, match="repeats and limit"):
        fast.playouts_from(game, 1, "greedy", repeats=0)
    args = (fast.compiled(game.rules, 2), NAMES, fast._values(game))
    with pytest.raises(ValueError, match="policy: 7"):
        core.playouts_from(*args, 1, 7, 1, 10, False)
    with pytest.raises(ValueError, match="repeats: must be 1"):
        core.playouts_from(*args, 1, 1, 0, 10, False)
    with pytest.raises(ValueError, match="limit: must be 1"):
        core.playouts_from(*args, 1, 1, 1, 0, False)
    # A limit too short for any hand: nobody wins, and each playout counts the limit.
    assert core.playouts_from(*args, 1, 1, 4, 1, True) == ((0, 0), 4, (0, 0), (0, 0))
    counted = fast.playouts_counted(game, 1, "greedy", 3, limit=2)
    reference = fast.playouts_counted_py(game, 1, "greedy", 3, limit=2)
    assert counted == ((0, 0), 6, (0, 0), (0, 0)) == reference


def test_the_cores_twister_is_pythons_random(core: Any) -> None:
    """una sim's random bots draw from random.Random: the core's Mersenne Twister gives
    the same randrange, seed for seed (32- and 64-bit seeds, small and large ranges)."""
    for seed in (0, 1, 5, 2**31 + 7, 2**32, 2**40 + 3, 2**63 - 1):
        for n in (2, 3, 4, 7, 64, 1000, 2**20 + 1):
            expected = random.Random(seed)
            assert core.mt_randrange(seed, n, 50) == [expected.randrange(n) for _ in range(50)]


def test_rng_shuffle_and_sample_are_pythons_random(core: Any) -> None:
    """The belief's shuffles and samples in C draw as random.Random does: the same
    order, the same indices (both of sample's ways: a pool and a set of the selected),
    and the generator left in the same state."""
    for seed in range(40):
        for n in (*range(0, 30), 45, 80, 107, 160, 1000):
            expected, rng = random.Random(seed), random.Random(seed)
            items = [f"c{i}" for i in range(n)]
            shuffled = list(items)
            expected.shuffle(items)
            fast.rng_shuffle(shuffled, rng)
            assert shuffled == items and rng.getstate() == expected.getstate()
            for k in {0, 1, 5, 6, 7, 21, n // 3, n // 2, n}:
                if k <= n:
                    assert fast.rng_sample(rng, n, k) == expected.sample(range(n), k), (n, k)
                    assert rng.getstate() == expected.getstate()
    with pytest.raises(ValueError, match="Sample larger than population"):
        core.rng_sample(random.Random(1).getrandbits, 3, 4)


def test_rng_helpers_leave_other_generators_to_python() -> None:
    class Fixed(random.Random):
        def random(self) -> float:
            return 0.0

    items = list(range(10))
    fast.rng_shuffle(items, Fixed(3))
    expected = list(range(10))
    Fixed(3).shuffle(expected)
    assert items == expected
    assert fast.rng_sample(Fixed(3), 10, 4) == Fixed(3).sample(range(10), 4)


@pytest.mark.parametrize("rules", GREEDY_RULES)
def test_playouts_after_is_the_python_reference(core: Any, rules: Any) -> None:
    """The strong bot's race: the candidates applied in the core and played out give what
    Game.apply and playouts_counted give in Python, and the list stops at the first action
    that is illegal in the position (here: a card another seat holds)."""
    phases: Counter[Phase] = Counter()
    stopped = 0
    for players in (2, 3, 5, 8):
        for index in range(3):
            seed = players * 104729 + index
            game = Game(rules, players, seed=seed)
            rng, step = Rng(seed), Rng(seed ^ 9)
            while not game.hand_over:
                phases[game.phase] += 1
                seat = game.to_act
                assert seat is not None
                actions = list(game.legal_actions(seat))[:8]
                # A card only another seat holds, played: illegal for this one.
                foreign = [c for c in game.hands[(seat + 1) % players] if c not in game.hands[seat]]
                if foreign:
                    card = foreign[0]
                    actions.append(Action.play(card, Color.RED if card.is_wild else None))
                probe = seed + len(game.log)
                for policy in ("greedy", "challenging", "random"):
                    c_after = fast.playouts_after(game, seat, actions, probe, policy, 3, 500, True)
                    py_after = fast.playouts_after_py(
                        game, seat, actions, probe, policy, 3, 500, True
                    )
                    assert c_after == py_after, (policy, players, seed, len(game.log))
                stopped += len(c_after) < len(actions)
                advance(game, 1 + step.below(12), rng)
    assert phases[Phase.DRAWN] and phases[Phase.PENALTY] and stopped


@pytest.mark.parametrize("preset", ["standard", "telegram", "byond"])
def test_playouts_whose_hand_ends_the_match_count_its_winner(core: Any, preset: str) -> None:
    """A hand that ends the match counts the match's winner, not its points (a searcher
    playing for the match knows what it is worth); a hand after which the match goes on
    counts its points. C and Python agree, from the position and after each candidate."""
    for target, ends in ((1, True), (500, False)):
        for seed in range(4):
            game = Game({"preset": preset, "target": target}, 3, seed=seed)
            advance(game, 3, Rng(seed))
            seat = game.to_act
            assert seat is not None
            actions = list(game.legal_actions(seat))[:4]
            args = (seed, "greedy", 6, 500, True)
            c_counted = fast.playouts_counted(game, *args)
            assert c_counted == fast.playouts_counted_py(game, *args)
            c_after = fast.playouts_after(game, seat, actions, *args)
            assert c_after == fast.playouts_after_py(game, seat, actions, *args)
            for wins, _, points, matches in [c_counted, *c_after]:
                if ends:
                    assert sum(matches) == sum(wins) == 6 and not any(points)
                    if preset == "standard":  # winner takes all: the hand's winner
                        assert matches == wins
                else:  # (a BYOND hand can score 500 penalty points: seldom)
                    assert sum(matches) < sum(wins) and any(points)


def test_playouts_after_bad_arguments(core: Any) -> None:
    game = Game("standard", 2, seed=1)
    seat = game.to_act
    assert seat is not None
    actions = game.legal_actions(seat)
    with pytest.raises(ValueError, match="policy: 'smart'"):
        fast.playouts_after(game, seat, actions, 1, "smart")
    with pytest.raises(ValueError, match="repeats and limit"):
        fast.playouts_after(game, seat, actions, 1, "greedy", repeats=0)
    args = (fast.compiled(game.rules, 2), NAMES, fast._values(game))
    with pytest.raises(ValueError, match="seat: 5"):
        core.playouts_after(*args, 5, [a.code for a in actions], 1, 1, 1, 10, False)
    with pytest.raises(ValueError, match="policy: 7"):
        core.playouts_after(*args, seat, [a.code for a in actions], 1, 7, 1, 10, False)
    # Not an action at all: illegal, so nothing is played.
    assert core.playouts_after(*args, seat, ["play R99"], 1, 1, 1, 10, False) == []
