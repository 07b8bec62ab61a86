"""The ``strong`` search bot and its belief tracking."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from botviews import random_steps, tables
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from una.bots import UnknownBot, make_bot, strong
from una.bots.belief import Belief, chooses
from una.bots.heuristic import HeuristicBot
from una.bots.strong import LEVELS, StrongBot
from una.engine import PRESETS, Action, Card, Color, Game, Phase, RuleSet, parse_cards
from una.sim.driver import Table


def test_levels_and_budgets() -> None:
    assert make_bot("strong").iterations == LEVELS["normal"]
    assert make_bot("strong:easy").iterations < make_bot("strong").iterations
    assert make_bot("strong:hard").iterations > make_bot("strong").iterations
    assert make_bot("strong:500").iterations == 500
    assert make_bot("strong:hard", think_ms=40).think_ms == 40
    assert make_bot("strong:easy").spec == "strong:easy"
    assert make_bot("strong").spec == "strong"
    with pytest.raises(UnknownBot, match="levels easy, normal, hard or a number"):
        make_bot("strong:extreme")
    with pytest.raises(ValueError, match="think_ms must be positive"):
        StrongBot(think_ms=0)


def test_a_heads_up_search_plays_out_a_share_of_its_levels_rollouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up (short hands, no cap of moves) a search is the search of HEADS_UP_SHARE
    times its level's rollouts with the classic deck, of HEADS_UP_SHARE_SPECIAL times
    with special cards (Alupula's); at four players it is the level's own."""
    from una.engine import fast

    if not fast.available():
        pytest.skip("the compiled core is not built")

    def spent(level: int, game: Game, seat: int) -> tuple[int, Action | None]:
        bot = StrongBot(level, extensions=0)
        action = bot.choose(game.view_for(seat), random.Random(1))
        return bot.last_iterations, action

    classic, seat = _many_choices()
    special, special_seat = _many_choices("alupula")
    four, four_seat = _four_player_search()
    shared = (
        spent(256, classic, seat),
        spent(256, special, special_seat),
        spent(256, four, four_seat),
    )
    monkeypatch.setattr(strong, "HEADS_UP_SHARE", 1)
    monkeypatch.setattr(strong, "HEADS_UP_SHARE_SPECIAL", 1)
    assert shared[0] == spent(256 * 4, classic, seat)
    assert shared[1] == spent(256 * 2, special, special_seat)
    assert shared[1][0] > spent(256, special, special_seat)[0]
    assert shared[2] == spent(256, four, four_seat)


def test_the_same_view_and_seed_give_the_same_move() -> None:
    for seed in range(4):
        game = Game("standard", players=3, seed=seed)
        seat = game.to_act
        assert seat is not None
        first = StrongBot(24).choose(game.view_for(seat), random.Random(seed))
        second = StrongBot(24).choose(game.view_for(seat), random.Random(seed))
        assert first == second
        assert first in game.legal_actions(seat)


@pytest.mark.parametrize("algorithm", ["flat", "tree"])
def test_both_searches_choose_legal_actions_through_a_hand(algorithm: str) -> None:
    game = Game("standard", players=3, seed=21)
    bots = [StrongBot(64, algorithm=algorithm), make_bot("heuristic"), make_bot("random")]
    Table(game, bots, [random.Random(s) for s in range(3)]).play_hand()
    assert game.hand_over
    with pytest.raises(ValueError, match="algorithm must be"):
        StrongBot(algorithm="minimax")


def test_a_time_budget_searches_and_stops() -> None:
    game = Game("standard", players=2, seed=9)
    seat = game.to_act
    assert seat is not None
    bot = StrongBot(think_ms=30)
    for _ in range(3):
        view = game.view_for(seat)
        action = bot.choose(view, random.Random(1))
        assert action in view.legal
        if len([a for a in view.legal if a.kind.value != "uno"]) > 1:
            assert bot.last_iterations >= 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_smoke_hand_per_preset(preset: str) -> None:
    """A whole hand of each preset, the strong bot (tiny budget) at two of three seats:
    the engine accepts every action it takes (``apply`` checks each one)."""
    game = Game(preset, players=3, seed=len(preset))
    agents = [make_bot("strong:6"), make_bot("random"), make_bot("strong:6")]
    table = Table(game, agents, [random.Random(s) for s in range(3)], max_actions=3000)
    table.play_hand()
    assert game.hand_over


def _deck_of(game: Game) -> Counter[object]:
    cards: Counter[object] = Counter(game.draw_pile) + Counter(game.discard)
    for hand in [*game.hands, *game.set_aside]:
        cards.update(hand)
    return cards


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(0, 2**32), steps=st.integers(0, 120))
# Two players' cards set aside (Quitter) were once dealt from the same unseen cards.
@example(table=(RuleSet.from_json("byond"), 5), seed=1, steps=9)
def test_sampled_games_agree_with_the_view(
    table: tuple[RuleSet, int], seed: int, steps: int
) -> None:
    """Every determinization holds the whole deck, the seat's own hand, every hand size,
    the pile sizes and the public state of the view."""
    rules, players = table
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    random_steps(game, rng, steps)
    if game.hand_over:
        return
    for seat in range(game.n):
        view = game.view_for(seat)
        sampled = Belief(seat).sample(view, rng)
        assert _deck_of(sampled) == _deck_of(game)
        assert Counter(sampled.hands[seat]) == Counter(game.hands[seat])
        assert [len(h) for h in sampled.hands] == [len(h) for h in game.hands]
        assert len(sampled.draw_pile) == len(game.draw_pile)
        assert len(sampled.discard) == len(game.discard)
        assert sampled.top == game.top
        assert (sampled.to_act, sampled.phase, sampled.color, sampled.direction) == (
            game.to_act,
            game.phase,
            game.color,
            game.direction,
        )
        if rules.preset == "standard":
            assert {a.code for a in sampled.legal_actions(seat)} == {
                a.code for a in game.legal_actions(seat)
            }


@pytest.mark.parametrize("preset", ["standard", "byond"])
def test_samples_of_one_view_are_independent_games(preset: str) -> None:
    """The samples of one view share the view's part of the position as it is built
    (once per view): a sample played to its end leaves the next ones as they would be,
    and a sample is the same game whatever was sampled and played before it."""
    for seed in range(6):
        game = Game(preset, players=3, seed=seed)
        random_steps(game, random.Random(seed), 15)
        if game.hand_over:
            continue
        view = game.view_for(0)
        fresh = Belief(0).sample(view, random.Random(99)).state_json()
        belief = Belief(0)
        played = belief.sample(view, random.Random(98))
        random_steps(played, random.Random(seed), 500)
        assert belief.sample(view, random.Random(99)).state_json() == fresh


def test_what_an_opponent_lacks_is_inferred_soundly_and_sampled() -> None:
    """Against players who draw only when they cannot play (the random bot), what the
    belief says an opponent lacks is true of her real hand, and every sampled hand keeps
    to it but for the cards she took since."""
    facts = 0
    for seed in range(12):
        game = Game("standard", players=2, seed=seed)
        belief = Belief(0)
        rng = random.Random(seed)
        bots = [make_bot("random"), make_bot("random")]
        belief.update(game.view_for(0))

        def watch(
            seat: int, action: Action, events: object, belief: Belief = belief, game: Game = game
        ) -> None:
            belief.update(game.view_for(0), seat, action)

        table = Table(game, bots, [random.Random(seed), random.Random(seed + 1)], watch)
        while not game.hand_over:
            table.step()
            if game.hand_over:
                break
            lacks = belief.lacks[1]
            if lacks.empty():
                continue
            facts += 1
            assert lacks.holds(game.hands[1]), (seed, lacks, game.hands[1])
            sampled = belief.sample(game.view_for(0), rng)
            assert lacks.holds(sampled.hands[1]), (seed, lacks, sampled.hands[1])
    assert facts > 20


def test_a_strong_bot_observes_every_action_through_the_driver() -> None:
    seen: list[tuple[int, str]] = []

    class Watching(StrongBot):
        def observe(self, view, seat, action):  # type: ignore[no-untyped-def]
            seen.append((seat, action.code))
            super().observe(view, seat, action)

    game = Game("standard", players=2, seed=4)
    table = Table(game, [Watching(4), make_bot("random")], [random.Random(0), random.Random(1)])
    table.play_hand()
    assert [(s, code) for s, code in game.log] == seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rollouts_run_in_the_core_on_every_preset(preset: str) -> None:
    """The greedy policy that challenges (the default from three players), in C on every
    preset (when the core is built)."""
    policy = "challenging"
    from una.engine import fast

    bot = StrongBot(level="easy")
    for seed in range(40):  # a position with more than one choice: a search
        game = Game(preset, 3, seed=seed)
        seat = game.to_act
        assert seat is not None
        action = bot.choose(game.view_for(seat), random.Random(1))
        assert action in game.legal_actions(seat)
        if bot._compiled:
            break
    assert bot._compiled == fast.available()
    if fast.available():
        assert bot._core_policy == policy


@pytest.mark.parametrize(
    ("preset", "goal", "sign"),
    [
        ("standard", "match", 0),  # winner_takes_all: only the hand's winner scores
        ("telegram", "match", 1),  # discards_minus_hand: every player, more is better
        ("byond", "match", -1),  # penalty: every player, less is better
        ("telegram", "hand", 0),  # a game of one hand: who goes out
    ],
)
def test_playing_a_match_where_everyone_scores_a_rollout_is_worth_its_points(
    preset: str, goal: str, sign: int
) -> None:
    """Where every player scores each hand, a hand won is only part of the match: the
    bot playing for it values a rollout by the points its seat scored against the
    table's mean; elsewhere, or playing one hand, by the hand won."""
    from una.engine import fast

    if not fast.available():
        pytest.skip("the compiled core is not built")
    bot = StrongBot(level="easy")
    bot.goal = goal
    for seed in range(40):  # a position with more than one choice: a search
        game = Game(preset, 3, seed=seed)
        seat = game.to_act
        assert seat is not None
        bot.choose(game.view_for(seat), random.Random(1))
        if bot._compiled:
            break
    assert bot._points_sign == sign
    bot._search_repeats = 8
    values = bot._rollout(game, random.Random(5))
    wins, _, points, matches = fast.playouts_counted(
        game, random.Random(5).getrandbits(63), bot._core_policy, 8, strong.ROLLOUT_LIMIT, True
    )
    assert matches == (0, 0, 0)  # the match's first hand ends no match
    if sign:
        mean = sum(points) / 3
        expected = [1 / 3 + sign * (p - mean) / (8 * strong.POINTS_PER_WIN) for p in points]
        assert values == pytest.approx(expected)
        assert len(set(points)) > 1  # the points tell the seats apart
    else:
        assert values == [w / 8 for w in wins]


@pytest.mark.parametrize("target", [1, 40])
def test_near_the_target_the_bot_does_not_quit_into_a_lost_match(target: int) -> None:
    """BYOND, penalty points (less is better): a Quitter ends seat 0's and its victim's
    hand at once; the third player then goes out with nothing and, the totals past the
    target, wins the match. The heuristic quits (a small hand set aside). Scored by the
    points against the table's mean the bot would too (at the default target it does);
    playing for the match it knows that hand is the last one, and keeps playing."""
    from una.engine import fast
    from una.engine.record import stacked_deck

    if not fast.available():
        pytest.skip("the compiled core is not built")
    rules = {"preset": "byond", "target": target}
    hands = ["QUIT R1 R2 R3 G4 G5 B6", "WDD W4 G2 G3 B4 B5 Y6", "B1 B2 B3 Y4 Y5 G6 G7"]
    deck = stacked_deck(rules, [h.split() for h in hands], "G9", (), 2)
    game = Game(rules, players=3, seed=1, dealer=2, decks=[deck])
    view = game.view_for(0)
    assert HeuristicBot().choose(view, random.Random(0)).code.startswith("play QUIT")
    for seed in range(4):
        bot = StrongBot()
        bot.goal = "match"
        chosen = bot.choose(view, random.Random(seed))
        assert chosen is not None and not chosen.code.startswith("play QUIT"), seed


def _many_choices(preset: str = "standard") -> tuple[Game, int]:
    """A position where the seat to act has several distinct turn actions."""
    for seed in range(200):
        game = Game(preset, players=2, seed=seed)
        seat = game.to_act
        assert seat is not None
        view = game.view_for(seat)
        if len([a for a in view.legal if a.kind.value in ("play", "draw")]) >= 4:
            return game, seat
    raise AssertionError("no position with 4 choices")


def test_rollouts_without_signal_keep_the_heuristics_choice() -> None:
    """Rollouts that say the same of every action: the heuristic's choice, always."""
    game, seat = _many_choices()

    class Blind(StrongBot):
        def _evaluate(self, sampled, seat, actions, seed):  # type: ignore[no-untyped-def]
            return [0.5] * len(actions)

    for seed in range(10):
        view = game.view_for(seat)
        bot = Blind("easy")
        chosen = bot.choose(view, random.Random(seed))
        # The prior is drawn from the choice's generator first: replay it.
        replay = random.Random(seed)
        prior = make_bot("heuristic").choose(view, random.Random(replay.getrandbits(64)))
        assert chosen == prior
        assert bot.last_iterations > 0


def test_pure_noise_rarely_replaces_the_heuristics_choice() -> None:
    """Rollouts that are coin flips, whatever the action: with many candidates the old
    rule (the best of all at one standard error) left the prior nearly always; the race
    with a final test on fresh samples leaves it at about that test's error rate
    (one-sided, at ``CONFIDENCE`` = 0.5 standard errors: 31%), whatever the number of
    candidates."""
    game, seat = _many_choices()

    class Noisy(StrongBot):
        def _evaluate(self, sampled, seat, actions, seed):  # type: ignore[no-untyped-def]
            return [float(self.noise.randrange(sampled.n) == seat) for _ in actions]

    moved = 0
    decisions = 40
    view = game.view_for(seat)
    prior = HeuristicBot()
    for seed in range(decisions):
        bot = Noisy(2048)
        bot.noise = random.Random(seed)  # type: ignore[attr-defined]
        chosen = bot.choose(view, random.Random(seed))
        replay = random.Random(seed)
        moved += chosen != prior.choose(view, random.Random(replay.getrandbits(64)))
    assert moved <= decisions * 0.4, moved


@pytest.mark.parametrize(
    "rules",
    [
        "alupula",
        {"preset": "telegram", "seven_zero": True},
        {"preset": "byond", "cards": {"TRADE": 3, "BLEND": 2, "KOBE": 0}},
    ],
)
def test_what_the_belief_knows_is_true_on_every_rule_set(rules: object) -> None:
    """Random players (they draw only when they cannot play, and never challenge; the
    seat watched is a heuristic that does): every card the belief places in an
    opponent's hand is there (after swaps too: a hand it gave away is known), what it
    says she lacks holds but for the cards she took since (the engine's own matching and
    Wild Draw Four rules), and the points each player discarded (what a hand scores under
    ``discards_minus_hand``) are the game's, in its samples too."""
    known_cards = facts = 0
    for seed in range(10):
        game = Game(rules, players=2 + seed % 2, seed=seed)
        belief = Belief(0)
        bots = [make_bot("heuristic")] + [make_bot("random") for _ in range(game.n - 1)]
        belief.update(game.view_for(0))

        def watch(
            seat: int, action: Action, events: object, belief: Belief = belief, game: Game = game
        ) -> None:
            belief.update(game.view_for(0), seat, action)

        rngs = [random.Random(seed * 7 + s) for s in range(game.n)]
        table = Table(game, bots, rngs, watch, max_actions=3000)
        while not game.hand_over:
            table.step()
            if game.hand_over:
                break
            assert belief.discarded == game.discard_points
            if len(game.log) % 10 == 0:
                sample = belief.sample(game.view_for(0), random.Random(seed))
                assert sample.discard_points == game.discard_points
            for seat in range(1, game.n):
                held = Counter(game.hands[seat])
                known = Counter(belief.known[seat])
                assert not known - held, (seed, seat, known, held)
                known_cards += sum(known.values())
                lacks = belief.lacks[seat]
                if not lacks.empty():
                    facts += 1
                    assert lacks.holds(game.hands[seat]), (seed, seat, lacks, game.hands[seat])
    assert facts > 20
    if rules != "alupula":
        assert known_cards > 0  # hands were swapped


@pytest.mark.parametrize(("preset", "guilty"), [("alupula", True), ("standard", False)])
def test_sampled_guilt_follows_the_rule_sets_wd4_rule(preset: str, guilty: bool) -> None:
    """A Wild Draw Four played on a yellow 5 by a player holding a red 5 and no yellow: a
    bluff under Alupula's ``no_color_or_number``, honest under ``no_color``. The sampled
    games judge it by the engine's rule (her hand is known here, as after a Spy)."""
    game = Game(preset, players=2, seed=3)
    game.hands[1] = [Card.parse(code) for code in ("W4", "R5", "G2")]
    game.discard[-1] = Card.parse("Y5")
    game.color, game.to_act, game.phase = Color.YELLOW, 1, Phase.PLAY
    belief = Belief(0)
    belief.update(game.view_for(0))
    action = Action.parse("play W4 B")
    game.apply(1, action)
    assert game.pending_guilty is guilty
    belief.update(game.view_for(0), 1, action)
    belief.known[1] = [Card.parse("R5"), Card.parse("G2")]
    for seed in range(5):
        sampled = belief.sample(game.view_for(0), random.Random(seed))
        assert sampled.pending_guilty is guilty


@pytest.mark.parametrize("preset", ["standard", "telegram"])
def test_wilds_read_from_players_who_keep_them_are_true(preset: str) -> None:
    """Against ``heuristic`` players (they keep wilds for when nothing else fits, unless
    someone is close to going out), ``reads_plays`` learns from their wilds, and what it
    says they lack holds of their real hands but for the cards they took since."""
    facts = 0
    for seed in range(8):
        game = Game(preset, players=4, seed=seed)
        belief = Belief(0, reads_plays=True)
        bots = [make_bot("heuristic") for _ in range(game.n)]
        belief.update(game.view_for(0))
        learned: set[int] = set()

        def watch(
            seat: int,
            action: Action,
            events: object,
            belief: Belief = belief,
            game: Game = game,
            learned: set[int] = learned,
        ) -> None:
            before = list(belief.lacks[seat].facts) if seat in belief.lacks else None
            belief.update(game.view_for(0), seat, action)
            wild = action.card is not None and action.card.is_wild
            if wild and before is not None and belief.lacks[seat].facts != before:
                learned.add(seat)

        rngs = [random.Random(seed * 5 + s) for s in range(game.n)]
        table = Table(game, bots, rngs, watch)
        while not game.hand_over:
            table.step()
            if game.hand_over:
                break
            for seat in range(1, game.n):
                lacks = belief.lacks[seat]
                if lacks.empty():
                    continue
                facts += seat in learned
                assert lacks.holds(game.hands[seat]), (seed, seat, lacks, game.hands[seat])
    assert facts > 10


def test_wilds_are_read_only_when_asked() -> None:
    """A wild played at the start of a turn, nobody close to going out: the default
    belief learns nothing from it (random players shed wilds any time); ``reads_plays``
    bans every other card that fitted, and a Wild Draw Four the plain wild too."""
    game = Game("standard", players=2, seed=3)
    game.hands[1] = [Card.parse(code) for code in ("W4", "G2", "G7", "B1")]
    game.discard[-1] = Card.parse("Y5")
    game.color, game.to_act, game.phase = Color.YELLOW, 1, Phase.PLAY
    plain, reading = Belief(0), Belief(0, reads_plays=True)
    for belief in (plain, reading):
        belief.update(game.view_for(0))
    action = Action.parse("play W4 G")
    game.apply(1, action)
    for belief in (plain, reading):
        belief.update(game.view_for(0), 1, action)
    assert plain.lacks[1].empty()
    [(banned, fresh)] = reading.lacks[1].facts
    assert {Card.parse(code) for code in ("Y5", "YS", "R5", "W")} <= banned
    assert not banned & {Card.parse(code) for code in ("W4", "G2", "B1")}
    assert fresh == 0


def test_a_penalty_taken_is_read_as_no_answer() -> None:
    """Under stacking (telegram), a player who takes a Draw Two had no Draw Two, by the
    engine's own answers, when the belief reads plays."""
    game = Game("telegram", players=2, seed=4)
    game.hands[0] = [Card.parse(code) for code in ("RD2", "G2", "Y7")]
    game.hands[1] = [Card.parse(code) for code in ("G5", "B1", "Y3")]
    game.discard[-1] = Card.parse("R4")
    game.color, game.to_act, game.phase = Color.RED, 0, Phase.PLAY
    belief = Belief(0, reads_plays=True)
    belief.update(game.view_for(0))
    for seat, code in ((0, "play RD2"), (1, "draw")):
        action = Action.parse(code)
        game.apply(seat, action)
        belief.update(game.view_for(0), seat, action)
    [(banned, fresh)] = belief.lacks[1].facts
    assert {Card.parse(code) for code in ("RD2", "BD2", "GD2", "YD2")} == banned
    assert fresh == 2


def test_a_draw_that_passes_the_turn_covers_the_card_drawn() -> None:
    """A player who draws at the start of her turn and whose turn then passes drew a card
    that could not be played either (Game._draw): what she lacks covers it too. A second
    such draw keeps the first fact for the cards she held then (Lacks.tiers), and the
    sampled hands keep to both; a drawn card she may play is not covered."""
    game = Game("standard", players=2, seed=3)
    game.hands[0] = [Card.parse(code) for code in ("R1", "R2", "R3")]
    game.hands[1] = [Card.parse(code) for code in ("G2", "G7", "B1")]
    game.discard[-1] = Card.parse("Y5")
    game.color, game.to_act, game.phase = Color.YELLOW, 1, Phase.PLAY
    game.draw_pile += [Card.parse("Y1"), Card.parse("B8"), Card.parse("G3")]
    belief = Belief(0)
    belief.update(game.view_for(0))

    def play(seat: int, code: str) -> None:
        action = Action.parse(code)
        game.apply(seat, action)
        belief.update(game.view_for(0), seat, action)

    play(1, "draw")  # G3 on a yellow 5: no play, the turn passes
    [(first, fresh)] = belief.lacks[1].facts
    assert fresh == 0 and {Card.parse("Y1"), Card.parse("G5"), Card.parse("W")} <= first
    play(0, "draw")  # B8: no red on a yellow 5 either
    game.discard.append(Card.parse("R4"))
    game.color = Color.RED
    belief.update(game.view_for(0))
    assert game.to_act == 1
    play(1, "draw")  # Y1 on a red 4: the turn passes again
    facts = belief.lacks[1].facts
    assert [fresh for _, fresh in facts] == [0, 1]
    assert belief.lacks[1].holds(game.hands[1])
    tiers = belief.lacks[1].tiers(5)
    assert [size for _, size in tiers] == [4, 1]
    assert tiers[0][0] == facts[0][0] | facts[1][0] and tiers[1][0] == facts[0][0]
    for seed in range(20):
        sampled = belief.sample(game.view_for(0), random.Random(seed)).hands[1]
        assert not set(sampled[:4]) & tiers[0][0] and sampled[4] not in tiers[1][0]
    game.draw_pile.append(Card.parse("R9"))
    play(0, "play R1")
    play(1, "draw")  # R9 on a red 1: she may play it, so it is not covered
    assert game.phase is Phase.DRAWN
    assert [fresh for _, fresh in belief.lacks[1].facts] == [1, 2]


@pytest.mark.parametrize("preset", ["standard", "telegram"])
def test_choices_read_from_heuristic_players_are_true(preset: str) -> None:
    """Against ``heuristic`` players, ``reads_choices`` records their choices of a card at
    the start of a turn: each one that covers the whole hand (no card taken since) holds
    of her real hand, and the hands it samples satisfy them far more often than the
    plain belief's do."""
    facts = 0
    passed = {False: 0, True: 0}
    for seed in range(6):
        game = Game(preset, players=4, seed=seed)
        plain, reading = Belief(0), Belief(0, reads_choices=True)
        bots = [make_bot("heuristic") for _ in range(game.n)]
        for belief in (plain, reading):
            belief.update(game.view_for(0))

        def watch(
            seat: int,
            action: Action,
            events: object,
            beliefs: tuple[Belief, ...] = (plain, reading),
            game: Game = game,
        ) -> None:
            for belief in beliefs:
                belief.update(game.view_for(0), seat, action)

        rngs = [random.Random(seed * 5 + s) for s in range(game.n)]
        table = Table(game, bots, rngs, watch)
        assert not any(plain.choices.values())
        sampler = random.Random(seed)
        while not game.hand_over:
            table.step()
            if game.hand_over or game.to_act != 0:
                continue
            view = game.view_for(0)
            checks = reading._checked(view, [[] for _ in range(game.n)])
            whole = [
                (seat, check.choice)
                for seat, of in checks.items()
                for check in of
                if not check.choice.fresh
            ]
            for seat, choice in whole:
                facts += 1
                assert chooses(choice, list(game.hands[seat]), game.rules.points), (seed, seat)
            for seat, of in checks.items():
                for check in of:  # the compiled test is chooses() itself
                    hand = list(game.hands[seat])
                    held = hand[: check.held]
                    assert check.passes(hand) == chooses(check.choice, held, game.rules.points)
            for belief in (plain, reading):
                sampled = belief.sample(view, sampler)
                passed[belief is reading] += sum(
                    chooses(choice, sampled.hands[seat], game.rules.points)
                    for seat, choice in whole
                )
    assert facts > 100
    assert passed[True] > 0.85 * facts
    assert passed[False] < 0.75 * facts


def _four_player_search() -> tuple[Game, int]:
    """A four-player position where the seat to act has several turn actions."""
    for seed in range(200):
        game = Game("standard", players=4, seed=seed)
        seat = game.to_act
        assert seat is not None
        if len([a for a in game.legal_actions(seat) if a.kind.value in ("play", "draw")]) >= 3:
            return game, seat
    raise AssertionError("no four-player position with 3 choices")


def test_from_three_players_a_search_stops_at_its_cap_of_core_moves() -> None:
    """From READS_FROM players the search stops after MOVES_PER_ROLLOUT core moves per
    rollout of its budget (give or take the samples that cross it); heads-up, or without
    the cap, it spends its whole budget of rollouts, whatever the moves."""
    from una.engine import fast

    if not fast.available():
        pytest.skip("the compiled core is not built")
    game, seat = _four_player_search()
    view = game.view_for(seat)
    # (Without extending a close final test: the next test bounds that.)
    capped, free = StrongBot(512, extensions=0), StrongBot(512, moves_per_rollout=None)
    capped.choose(view, random.Random(1))
    free.choose(view, random.Random(1))
    cap = 512 * strong.MOVES_PER_ROLLOUT
    assert free.last_iterations > 400 and free.moves > 2 * cap  # its budget, to rounding
    assert capped.last_iterations < free.last_iterations
    assert capped.moves < 2 * cap
    game, seat = _many_choices("alupula")
    view = game.view_for(seat)
    heads_up, heads_up_free = StrongBot(512), StrongBot(512, moves_per_rollout=None)
    assert heads_up.choose(view, random.Random(2)) == heads_up_free.choose(view, random.Random(2))
    assert heads_up.moves == heads_up_free.moves > 0
    with pytest.raises(ValueError, match="moves_per_rollout"):
        StrongBot(moves_per_rollout=0)


class _Scripted(StrongBot):
    """Rollouts that put every rival ``margin`` above the prior, give or take ``spread``
    (alternating), and count the samples played out."""

    def __init__(self, margin: float, spread: float, **options: object) -> None:
        super().__init__(512, **options)  # type: ignore[arg-type]
        self.margin, self.spread, self.samples = margin, spread, 0

    def _evaluate(self, sampled, seat, actions, seed):  # type: ignore[no-untyped-def]
        self.samples += 1
        wobble = self.spread if self.samples % 2 else -self.spread
        return [0.5] + [0.5 + self.margin + wobble] * (len(actions) - 1)


def test_a_close_final_test_doubles_its_samples_and_a_clear_one_does_not() -> None:
    """At three or four players (under the cap of moves) a final test whose margin is
    within CLOSE standard errors of the bar doubles its samples, EXTENSIONS times at
    most; a clear one, a bot with ``extensions=0`` and a heads-up search do not."""
    from una.engine import fast

    if not fast.available():
        pytest.skip("the compiled core is not built")
    game, seat = _four_player_search()
    view = game.view_for(seat)
    runs = {}
    for name, margin, options in [
        ("close", 0.0, {}),
        ("clearly worse", -0.2, {}),
        ("clearly better", 0.2, {}),
        ("not extended", 0.0, {"extensions": 0}),
    ]:
        bot = _Scripted(margin, 0.1, **options)
        chosen = bot.choose(view, random.Random(1))
        runs[name] = bot.samples
        prior = HeuristicBot().choose(view, random.Random(random.Random(1).getrandbits(64)))
        assert (chosen != prior) == (name == "clearly better"), name
    assert runs["clearly worse"] == runs["clearly better"] == runs["not extended"]
    # The final test's samples, doubled three times (8 in all), beside the race's.
    final = runs["close"] - runs["not extended"]
    assert final > 0 and final % 7 == 0
    assert runs["close"] < 8 * runs["not extended"]
    heads_up_game, heads_up_seat = _many_choices()
    heads_up = [_Scripted(0.0, 0.1), _Scripted(0.0, 0.1, extensions=0)]
    for bot in heads_up:
        bot.choose(heads_up_game.view_for(heads_up_seat), random.Random(1))
    assert heads_up[0].samples == heads_up[1].samples
    with pytest.raises(ValueError, match="extensions"):
        StrongBot(extensions=-1)


def test_at_a_big_table_of_long_hands_a_search_fits_its_rollouts_to_its_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eight BYOND players, 29 candidates: hands of 150-500 core moves, so the fewest
    samples of the race at REPEATS rollouts would pass the cap more than FIT_ABOVE times.
    The search fits itself to a cap shrunk as ``4 / players`` past CAP_PLAYERS: fewer
    rollouts a sample (never under MIN_REPEATS), and it stays within a sample of that
    cap; the uncapped bot spends its whole budget."""
    from una.engine import fast

    if not fast.available():
        pytest.skip("the compiled core is not built")
    game = Game("byond", players=8, seed=1)
    rng = random.Random(1)
    helper = HeuristicBot()
    while True:
        seat = game.to_act
        assert seat is not None
        if len(strong.options(game, seat)) >= 6:
            break
        game.apply(seat, helper.choose(game.view_for(seat), rng) or game.legal_actions(seat)[0])
    view = game.view_for(seat)
    capped, free = StrongBot(), StrongBot(moves_per_rollout=None)
    finals: list[int] = []
    select = strong.select_rival

    def counted(stats: strong.Paired, rival: int, base: int, confidence: float) -> int:
        finals.append(stats.count[rival])
        return select(stats, rival, base, confidence)

    monkeypatch.setattr(strong, "select_rival", counted)
    action = capped.choose(view, random.Random(5))
    assert action in view.legal
    assert finals and finals[0] >= strong.FINAL_SAMPLES  # its final test had its samples
    free.choose(view, random.Random(5))
    cap = strong.LEVELS["normal"] * strong.MOVES_PER_ROLLOUT * strong.CAP_PLAYERS // 8
    assert strong.MIN_REPEATS <= capped._search_repeats < strong.REPEATS
    assert capped.moves <= 1.5 * cap < free.moves


def test_a_decision_with_too_many_candidates_searches_the_best_by_the_greedy_score() -> None:
    """A hand of every red card, the other fives and two wilds on a red five: 27
    candidates. The search keeps the prior, the draw and the plays the greedy policy
    scores highest, MAX_CANDIDATES in all, and chooses among them."""
    from una.engine import fast

    game = Game("standard", players=4, seed=3)
    seat = game.to_act
    assert seat is not None
    hand = parse_cards("R0 R1 R2 R3 R4 R5 R6 R7 R8 R9 RS RR RD2 Y5 G5 B5 W W4")
    pool = [card for h in game.hands for card in h] + game.draw_pile + game.discard
    for card in [*hand, Card.parse("R5")]:
        pool.remove(card)
    game.hands = [list(hand) if s == seat else [pool.pop() for _ in range(7)] for s in range(4)]
    game.draw_pile = pool
    game.discard = [Card.parse("R5")]
    game.color = Color.RED
    view = game.view_for(seat)
    choices = [a for a in view.legal if a.kind.value in ("play", "draw")]
    assert len(choices) > strong.MAX_CANDIDATES
    bot = StrongBot(512)
    bot._belief(view).update(view)
    base = choices.index(HeuristicBot().choose(view, random.Random(0)))
    kept = bot._shortlist(view, choices, base)
    assert len(kept) == strong.MAX_CANDIDATES and base in kept
    assert any(choices[i].kind.value == "draw" for i in kept)
    plays = [i for i, a in enumerate(choices) if a.kind.value == "play" and i != base]
    scores = dict(
        zip(plays, fast.greedy_scores(game, seat, [choices[i] for i in plays]), strict=True)
    )
    dropped = [i for i in plays if i not in kept]
    assert dropped
    assert min(scores[i] for i in kept if i in scores) >= max(scores[i] for i in dropped)
    assert bot.choose(view, random.Random(4)) in [choices[i] for i in kept]


def test_the_core_deals_checked_hands_as_python_does(
    core: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``reads_choices`` deals in C (fast.deal_checked, its tests packed): every sampled
    hand, and the generator after it, are those of the Python deal, and each packed test
    judges a hand as ChoiceTest.passes does."""
    from una.engine import fast

    compared = 0
    for seed in range(4):
        game = Game("standard", players=4, seed=seed)
        reading = Belief(0, reads_choices=True)
        reading.update(game.view_for(0))
        bots = [make_bot("heuristic") for _ in range(game.n)]

        def watch(
            seat: int,
            action: Action,
            events: object,
            game: Game = game,
            reading: Belief = reading,
        ) -> None:
            reading.update(game.view_for(0), seat, action)

        table = Table(game, bots, [random.Random(seed * 5 + s) for s in range(game.n)], watch)
        while not game.hand_over:
            table.step()
            if game.hand_over or game.to_act != 0:
                continue
            view = game.view_for(0)
            checks = reading._checked(view, [[] for _ in range(game.n)])
            for seat, of in checks.items():
                for check in of:
                    for hand in (list(game.hands[seat]), list(game.hands[(seat + 1) % 4])):
                        assert check.packed is not None
                        assert fast._fastcore.choice_passes(check.packed, hand) == check.passes(
                            hand
                        )
            for k in range(3):
                in_c, in_python = random.Random(k), random.Random(k)
                sampled = reading.sample(view, in_c)
                with monkeypatch.context() as patch:
                    patch.setattr(fast, "ENABLED", False)
                    reference = reading.sample(view, in_python)
                assert sampled.hands == reference.hands
                assert in_c.getstate() == in_python.getstate()
                compared += bool(checks)
    assert compared > 20
