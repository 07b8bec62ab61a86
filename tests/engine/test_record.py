"""Game records (NOTATION.md): reading, writing, dealing from listed decks, replay."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from una.engine import Game, Kind, Phase
from una.engine.cards import Card, parse_cards
from una.engine.errors import InvalidRecord
from una.engine.record import FORMAT, Record, ReplayError, stacked_deck
from una.engine.rules import STANDARD_RULES, RuleSet

STATE_KEYS = {
    "hand_number", "hands", "top", "color", "direction", "to_act", "pending_draw",
    "draw_pile", "scores", "hand_over", "match_over",
}  # fmt: skip

# Seat 1 plays first (dealer 0): B1, then seat 0 B6, seat 1 BS (skips seat 0), seat 1 B2,
# seat 0 B7; at action 5 seat 1 holds no blue card and no 7.
SEAT0 = "B6 B7 B8 G4 G5 G6 Y1"
SEAT1 = "B1 BS B2 G3 R9 Y7 Y8"
OPENING = [[1, "play B1"], [0, "play B6"], [1, "play BS"], [1, "play B2"], [0, "play B7"]]


def codes(cards: list[Card]) -> list[str]:
    return [card.code for card in cards]


def opening_deck() -> list[str]:
    return codes(stacked_deck("standard", [SEAT0.split(), SEAT1.split()], "B5"))


def opening_record(actions: list[list[Any]] | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": "standard",
        "players": ["Ann", "Bob"],
        "seed": 1,
        "dealer": 0,
        "decks": [opening_deck()],
        "actions": OPENING if actions is None else actions,
        **extra,
    }


def snapshot(game: Game) -> dict[str, Any]:
    """Everything that must be identical after a replay."""
    return {
        "state": game.state_json(),
        "hands": [codes(hand) for hand in game.hands],
        "draw_pile": codes(game.draw_pile),
        "discard": codes(game.discard),
        "phase": game.phase,
        "dealer": game.dealer,
        "log": list(game.log),
    }


def random_game(
    rules: RuleSet | str, players: int | list[str], seed: int, steps: int, decks: Any = None
) -> tuple[Game, list[dict[str, Any]]]:
    """A game played with random legal actions of any seat (catches included), biased
    towards plays and catches so that hands end; returns it with a snapshot per step."""
    game = Game(rules, players, seed=seed, dealer=seed % 2, decks=decks)
    rnd = random.Random(seed)
    snapshots = [snapshot(game)]
    for _ in range(steps):
        options = [(seat, a) for seat in range(game.n) for a in game.legal_actions(seat)]
        if not options:
            break
        catches = [o for o in options if o[1].kind is Kind.CATCH]
        plays = [o for o in options if o[1].kind is Kind.PLAY]
        r = rnd.random()
        if catches and r < 0.5:
            seat, action = rnd.choice(catches)
        elif plays and r < 0.85:
            seat, action = rnd.choice(plays)
        else:
            seat, action = rnd.choice(options)
        game.apply(seat, action)
        snapshots.append(snapshot(game))
    return game, snapshots


# ------------------------------------------------------------- JSON round trip


def test_loads_from_json_to_json_dumps_round_trip() -> None:
    data = opening_record()
    record = Record.from_json(data)
    assert record.players == ["Ann", "Bob"]
    assert record.seats == 2
    assert record.seed == 1
    assert record.dealer == 0
    assert record.rules == STANDARD_RULES
    assert record.decks is not None and codes(record.decks[0]) == data["decks"][0]
    assert record.actions == [tuple(a) for a in OPENING]
    assert record.to_json() == data
    assert Record.loads(json.dumps(data)) == record
    assert Record.loads(record.dumps()) == record
    assert Record.from_json(record.to_json()) == record
    indented = record.dumps(indent=2)
    assert Record.loads(indented) == record
    assert json.loads(indented) == data
    # One action and one deck per line.
    assert '    [1, "play B1"],\n' in indented
    assert len(indented.splitlines()) > 10
    assert "\n" not in record.dumps()


def test_round_trip_with_rule_overrides_and_seat_count() -> None:
    data = {
        "format": FORMAT,
        "rules": {"preset": "standard", "stack_draw_two": True, "target": 200},
        "players": 4,
        "seed": 99,
        "dealer": 3,
        "actions": [],
    }
    record = Record.loads(json.dumps(data))
    assert record.rules.stack_draw_two and record.rules.target == 200
    assert record.seats == 4
    assert record.to_json() == data
    assert Record.loads(record.dumps(indent=4)) == record


def test_defaults_of_optional_fields() -> None:
    record = Record.from_json({"players": 3})
    assert record.rules == STANDARD_RULES
    assert (record.seed, record.dealer, record.decks, record.actions) == (0, 0, None, [])
    assert record.to_json() == {
        "format": FORMAT,
        "rules": "standard",
        "players": 3,
        "seed": 0,
        "dealer": 0,
        "actions": [],
    }


def test_no_actions_replays_to_the_dealt_game() -> None:
    for players, seed, dealer in ((2, 0, 0), (3, 7, 2), (["A", "B", "C", "D", "E"], 11, 1)):
        record = Record.from_json({"players": players, "seed": seed, "dealer": dealer})
        game = Game("standard", players, seed=seed, dealer=dealer)
        assert snapshot(record.replay()) == snapshot(game)
        assert snapshot(record.new_game()) == snapshot(game)
        assert record.replay().log == []


def test_state_json_has_the_notation_keys() -> None:
    state = Record.from_json(opening_record()).replay().state_json()
    assert set(state) == STATE_KEYS
    assert state["hands"] == [["B8", "G4", "G5", "G6", "Y1"], ["G3", "R9", "Y7", "Y8"]]
    assert (state["top"], state["color"], state["to_act"]) == ("B7", "B", 1)
    assert (state["direction"], state["pending_draw"], state["draw_pile"]) == (1, 0, 108 - 15)
    assert (state["hand_number"], state["scores"]) == (1, [0, 0])
    assert (state["hand_over"], state["match_over"]) == (False, False)


# ------------------------------------------------------- random games replay


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [
        ("standard", 2, 1),
        ("standard", ["Ann", "Bob", "Cy"], 2),
        ("standard", 4, 3),
        ("standard", 7, 4),
        ({"preset": "standard", "stack_draw_two": True, "stack_cross": True}, 3, 5),
        ({"preset": "standard", "challenge": False, "play_drawn": "must"}, 3, 6),
        ({"preset": "standard", "false_uno_penalty": True, "bad_catch_penalty": True}, 3, 7),
        ({"preset": "standard", "uno_window": "own_turn", "target": 150}, 2, 8),
        ({"preset": "standard", "draw_until_playable": True, "voluntary_draw": False}, 4, 9),
        ({"preset": "standard", "scoring": "penalty", "guilty_color": "reverts"}, 3, 10),
    ],
)
def test_random_game_replays_card_for_card(rules: Any, players: Any, seed: int) -> None:
    game, snapshots = random_game(RuleSet.from_json(rules), players, seed, steps=400)
    assert len(game.log) >= 100
    record = game.to_record()
    assert record.actions == game.log
    again = Record.loads(record.dumps())
    assert again == record
    assert Record.loads(record.dumps(indent=2)) == record
    replayed = again.replay()
    assert replayed.state_json() == game.state_json()
    assert snapshot(replayed) == snapshot(game)
    assert replayed.all_cards() is not None and len(replayed.all_cards()) == 108
    # Replaying a prefix gives the game as it was then.
    for k in (0, 1, len(snapshots) // 3, len(snapshots) // 2, len(snapshots) - 1):
        assert snapshot(again.replay(upto=k)) == snapshots[k]


def test_random_games_cover_catches_uno_calls_and_several_hands() -> None:
    kinds: set[str] = set()
    hands = 0
    for seed in range(3):
        game, _ = random_game("standard", 3, seed, steps=400)
        kinds |= {code.split()[0] for _, code in game.log}
        kinds |= {"uno-with-play" for _, code in game.log if code.endswith(" uno")}
        hands = max(hands, game.hand_number)
    assert {"play", "draw", "catch", "deal", "challenge", "uno-with-play"} <= kinds
    assert hands >= 3


def test_replay_upto() -> None:
    record = Record.from_json(opening_record())
    assert record.replay(upto=0).state_json() == record.new_game().state_json()
    after2 = record.replay(upto=2)
    assert after2.log == [(1, "play B1"), (0, "play B6")]
    assert after2.top.code == "B6"
    assert after2.to_act == 1
    assert record.replay(upto=len(OPENING)).state_json() == record.replay().state_json()
    assert record.replay(upto=100).state_json() == record.replay().state_json()


def test_upto_stops_before_a_bad_action() -> None:
    record = Record.from_json(opening_record([*OPENING, [1, "play R9"]]))
    with pytest.raises(ReplayError):
        record.replay()
    assert record.replay(upto=5).top.code == "B7"


def test_codes_in_a_record_are_case_insensitive_and_logged_canonically() -> None:
    actions = [[1, "PLAY b1"], [0, "Play b6"], [1, "play bs"], [1, "play B2"], [0, "play b7"]]
    game = Record.from_json(opening_record(actions)).replay()
    assert game.log == [tuple(a) for a in OPENING]
    assert game.to_record().actions == [tuple(a) for a in OPENING]


# --------------------------------------------------------------- listed decks


@pytest.mark.parametrize(("seats", "dealer"), [(2, 0), (2, 1), (3, 2), (5, 3), (10, 9)])
def test_listed_deck_deals_round_the_table_from_the_dealers_left(seats: int, dealer: int) -> None:
    deck = STANDARD_RULES.deck()
    random.Random(seats * 10 + dealer).shuffle(deck)
    turned = 7 * seats
    # Make sure the turned card is a plain number card, so that it stays.
    number = next(i for i in range(turned, len(deck)) if deck[i].number is not None)
    deck[turned], deck[number] = deck[number], deck[turned]
    record = Record.from_json({"players": seats, "dealer": dealer, "decks": [codes(deck)]})
    game = record.replay()
    for seat in range(seats):
        expected = [deck[i] for i in range(turned) if (dealer + 1 + i) % seats == seat]
        assert game.hands[seat] == expected
    assert game.top == deck[turned]
    assert game.color is deck[turned].color
    assert len(game.draw_pile) == 108 - turned - 1
    assert game.to_act == (dealer + 1) % seats
    # Draws take from the top of the pile.
    first = game.to_act
    game.apply(first, "draw")
    assert game.hands[first][-1] == deck[turned + 1]


def test_stacked_deck_deals_the_given_hands_turns_first_and_draws() -> None:
    hands = [
        "R1 R2 R3 R4 R5 R6 R7",
        "G1 G2 G3 G4 G5 G6 G7",
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
    ]
    for dealer in range(3):
        deck = stacked_deck("standard", [h.split() for h in hands], "B9", ["W", "B0"], dealer)
        assert len(deck) == 108
        assert sorted(codes(deck)) == sorted(codes(STANDARD_RULES.deck()))
        assert codes(deck[21:24]) == ["B9", "W", "B0"]
        game = Game("standard", 3, dealer=dealer, decks=[deck])
        assert [codes(h) for h in game.hands] == [h.split() for h in hands]
        assert game.top.code == "B9"
        seat = game.to_act
        assert seat == (dealer + 1) % 3
        game.apply(seat, "draw")
        assert game.hands[seat][-1].code == "W"


def test_stacked_deck_refuses_impossible_hands() -> None:
    with pytest.raises(InvalidRecord, match="only 2 of R5"):
        stacked_deck("standard", [["R5"] * 7, parse_cards("G1 G2 G3 G4 G5 G6 G7")], "R5")
    with pytest.raises(InvalidRecord, match="hand 1 has 2 cards"):
        stacked_deck("standard", [parse_cards("R1 R2 R3 R4 R5 R6 R7"), ["G1", "G2"]], "B9")
    with pytest.raises(InvalidRecord, match="hand 0 has 8 cards"):
        stacked_deck("standard", [parse_cards("R1 R2 R3 R4 R5 R6 R7 R8"), ["G1"] * 7], "B9")


def test_second_listed_deck_deals_the_second_hand() -> None:
    deck1 = stacked_deck("standard", [SEAT0.split(), SEAT1.split()], "B5")
    hands2 = [parse_cards("Y1 Y2 Y3 Y4 Y5 Y6 Y7"), parse_cards("G1 G2 G3 G4 G5 G6 G7")]
    deck2 = stacked_deck("standard", hands2, "R3", dealer=1)
    game, _ = random_game("standard", 2, seed=0, steps=0, decks=[deck1, deck2])
    rnd = random.Random(0)
    while not game.hand_over:
        seat = game.to_act
        assert seat is not None
        options = game.legal_actions(seat)
        plays = [a for a in options if a.kind is Kind.PLAY]
        game.apply(seat, rnd.choice(plays or options))
    assert game.phase is Phase.HAND_OVER
    game.apply(1, "deal")
    assert game.hand_number == 2
    assert game.dealer == 1
    assert game.hands == hands2
    assert game.top.code == "R3"
    record = game.to_record()
    assert record.decks is not None and len(record.decks) == 2
    assert snapshot(Record.loads(record.dumps()).replay()) == snapshot(game)


# ------------------------------------------------------------ malformed records


def _field_of(data: Any) -> str:
    with pytest.raises(InvalidRecord) as info:
        Record.from_json(data)
    error = info.value
    assert str(error).startswith(f"{error.field}: ")
    return error.field


def test_bad_json() -> None:
    for text in ("", "{", "{'players': 2}", "[1, 2", "players: 2"):
        with pytest.raises(InvalidRecord) as info:
            Record.loads(text)
        assert info.value.field == "json"
        assert "JSON" in str(info.value)


@pytest.mark.parametrize("data", [[], [1, 2], "standard", 3, None, True])
def test_not_an_object(data: Any) -> None:
    assert _field_of(data) == "record"
    with pytest.raises(InvalidRecord):
        Record.loads(json.dumps(data))


@pytest.mark.parametrize("fmt", ["una/2", "", "UNA/1", 1, None])
def test_unknown_format(fmt: Any) -> None:
    assert _field_of({"format": fmt, "players": 2}) == "format"


@pytest.mark.parametrize("name", ["comment", "winner", "Players", "deck"])
def test_unknown_top_level_field(name: str) -> None:
    assert _field_of({"players": 2, name: 1}) == name


@pytest.mark.parametrize(
    ("rules", "needle"),
    [
        ("nosuch", "nosuch"),
        ({"preset": "nosuch"}, "nosuch"),
        ({"preset": "standard", "stack_draw_too": True}, "stack_draw_too"),
        ({"preset": "standard", "target": "high"}, "target"),
        ({"preset": "standard", "challenge": False, "challenge_reveal": True}, "challenge"),
        (7, "preset name"),
    ],
)
def test_bad_rules(rules: Any, needle: str) -> None:
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"rules": rules, "players": 2})
    assert info.value.field == "rules"
    assert needle in str(info.value)


@pytest.mark.parametrize(
    "players",
    [None, "2", "Ann", 2.0, True, {"n": 2}, 1, 0, -3, 11, 100, [], ["Ann"], ["A", 2], [None, "B"]],
)
def test_bad_players(players: Any) -> None:
    data: dict[str, Any] = {"rules": "standard", "players": players}
    assert _field_of(data) == "players"


def test_missing_players() -> None:
    assert _field_of({"rules": "standard"}) == "players"


def test_players_range_follows_the_rules() -> None:
    assert Record.from_json({"players": 10}).seats == 10
    assert Record.from_json({"players": 2}).seats == 2
    rules = {"preset": "standard", "players": [3, 4]}
    assert _field_of({"rules": rules, "players": 2}) == "players"
    assert _field_of({"rules": rules, "players": 5}) == "players"
    assert Record.from_json({"rules": rules, "players": 4}).seats == 4


@pytest.mark.parametrize("seed", ["7", 1.5, True, None, [1]])
def test_bad_seed(seed: Any) -> None:
    assert _field_of({"players": 2, "seed": seed}) == "seed"


@pytest.mark.parametrize(("players", "dealer"), [(2, 2), (2, -1), (3, 3), (3, "0"), (2, True)])
def test_bad_dealer(players: int, dealer: Any) -> None:
    assert _field_of({"players": players, "dealer": dealer}) == "dealer"


def test_decks_not_a_list() -> None:
    assert _field_of({"players": 2, "decks": "R1 R2"}) == "decks"
    assert _field_of({"players": 2, "decks": {"0": []}}) == "decks"


def test_deck_missing_a_card() -> None:
    deck = opening_deck()
    deck.remove("R9")
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"players": 2, "decks": [deck]})
    assert info.value.field == "decks[0]"
    assert "missing R9" in str(info.value)
    assert "extra" not in str(info.value)


def test_deck_with_an_extra_card() -> None:
    deck = [*opening_deck(), "W4"]
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"players": 2, "decks": [deck]})
    assert info.value.field == "decks[0]"
    assert "extra W4" in str(info.value)


def test_deck_with_a_card_swapped() -> None:
    deck = opening_deck()
    deck[deck.index("G0")] = "G1"
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"players": 2, "decks": [deck]})
    assert info.value.field == "decks[0]"
    assert "extra G1" in str(info.value)
    assert "missing G0" in str(info.value)


def test_deck_with_a_card_of_another_game() -> None:
    # HOLY parses (a BYOND card) but is not in the standard deck.
    deck = opening_deck()
    deck[deck.index("R0")] = "HOLY"
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"players": 2, "decks": [deck]})
    assert info.value.field == "decks[0]"
    assert "extra HOLY" in str(info.value)


def test_deck_with_an_unknown_code() -> None:
    deck = opening_deck()
    deck[5] = "X9"
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({"players": 2, "decks": [deck]})
    assert info.value.field == "decks[0]"
    assert "X9" in str(info.value)


@pytest.mark.parametrize("deck", ["R1 R2", 5, None, [1, 2, 3], {"R1": 1}])
def test_deck_not_a_list_of_codes(deck: Any) -> None:
    assert _field_of({"players": 2, "decks": [deck]}) == "decks[0]"


def test_second_deck_is_named() -> None:
    good = opening_deck()
    assert _field_of({"players": 2, "decks": [good, good[:-1]]}) == "decks[1]"


@pytest.mark.parametrize(
    "action",
    [[0], [0, "draw", 1], ["0", "draw"], [True, "draw"], [0, 5], [0, None], "draw", 0, None,
     {"seat": 0, "code": "draw"}, [2, "draw"], [-1, "draw"], [99, "play R5"]],
)  # fmt: skip
def test_bad_action_entry_names_its_index(action: Any) -> None:
    actions = [[1, "play B1"], [0, "play B6"], [1, "play BS"], action, [0, "draw"]]
    assert _field_of({"players": 2, "actions": actions}) == "actions[3]"


def test_actions_not_a_list() -> None:
    assert _field_of({"players": 2, "actions": "draw"}) == "actions"
    assert _field_of({"players": 2, "actions": {"0": "draw"}}) == "actions"


def test_action_seat_range_follows_the_players() -> None:
    assert _field_of({"players": 3, "actions": [[3, "draw"]]}) == "actions[0]"
    assert Record.from_json({"players": 4, "actions": [[3, "draw"]]}).actions == [(3, "draw")]


# --------------------------------------------------------------- replay errors


def test_illegal_action_names_index_seat_code_and_reason() -> None:
    record = Record.from_json(opening_record([*OPENING, [1, "play R9"], [0, "draw"]]))
    with pytest.raises(ReplayError) as info:
        record.replay()
    error = info.value
    message = str(error)
    assert message.startswith('action 5 (seat 1, "play R9"): illegal: ')
    assert "\n" not in message
    reason = message.removeprefix('action 5 (seat 1, "play R9"): illegal: ')
    assert "R9" in reason and "B" in reason and "7" in reason
    assert (error.index, error.seat, error.code) == (5, 1, "play R9")
    assert error.reason == f"illegal: {reason}"


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ([0, "play B8"], r"turn"),  # seat 0 acts out of turn
        ([1, "play B9"], r"holds no B9"),
        ([1, "play W4"], r"holds no W4"),
        ([1, "challenge"], r"no Wild Draw Four"),
        ([1, "pass"], r"draw before passing"),
        ([1, "color R"], r"no color is asked"),
        ([1, "deal"], r"still being played"),
        ([1, "catch @0"], r"holds 5 cards"),
        ([1, "catch @1"], r"herself"),
        ([1, "catch @7"], r"no seat 7"),
    ],
)
def test_illegal_action_reasons(action: list[Any], reason: str) -> None:
    record = Record.from_json(opening_record([*OPENING, action]))
    with pytest.raises(ReplayError) as info:
        record.replay()
    prefix = f'action 5 (seat {action[0]}, "{action[1]}"): illegal: '
    assert str(info.value).startswith(prefix)
    assert re.search(reason, str(info.value))


def test_first_action_illegal_is_action_0() -> None:
    record = Record.from_json(opening_record([[0, "play B6"]]))
    with pytest.raises(ReplayError, match=r'^action 0 \(seat 0, "play B6"\): illegal: '):
        record.replay()


@pytest.mark.parametrize(
    "code", ["jump", "play X9", "play", "draw 3", "catch 2", "color purple", "", "play R5 @a"]
)
def test_unparsable_action_code(code: str) -> None:
    record = Record.from_json(opening_record([[1, "play B1"], [0, "play B6"], [1, code]]))
    with pytest.raises(ReplayError) as info:
        record.replay()
    message = str(info.value)
    assert message.startswith(f'action 2 (seat 1, "{code}"): invalid action ')
    assert "\n" not in message
    assert info.value.index == 2


def test_a_bad_action_is_reported_only_when_replayed() -> None:
    # Loading checks the shape of the actions, not their legality or codes.
    record = Record.from_json(opening_record([*OPENING, [1, "jump"]]))
    assert len(record.actions) == 6
    assert record.replay(upto=5).log == [tuple(a) for a in OPENING]


def test_an_illegal_action_does_not_change_the_game() -> None:
    game = Record.from_json(opening_record()).replay()
    before = snapshot(game)
    with pytest.raises(ValueError):
        game.apply(1, "play R9")
    assert snapshot(game) == before


def test_parse_cards_helper_matches_stacked_deck_hands() -> None:
    # The hands of the opening, as dealt, through parse_cards.
    game = Record.from_json(opening_record([])).replay()
    assert game.hands == [parse_cards(SEAT0), parse_cards(SEAT1)]


def test_replay_error_is_one_line_even_for_a_code_with_a_newline() -> None:
    record = Record.from_json(opening_record([[1, "play B1\nfoo"]]))
    with pytest.raises(ReplayError) as info:
        record.replay()
    assert "\n" not in str(info.value)


def test_deeply_nested_json_is_invalid_record() -> None:
    with pytest.raises(InvalidRecord) as info:
        Record.loads("[" * 100_000)
    assert info.value.field == "json"


def test_a_record_may_start_from_match_scores() -> None:
    from una.engine import Game

    game = Game({"preset": "standard", "target": 100}, ["Ann", "Bob"], seed=3, scores=[90, 40])
    assert game.scores == [90, 40]
    data = game.to_record().to_json()
    assert data["scores"] == [90, 40]
    assert Record.from_json(data).replay().scores == [90, 40]
    with pytest.raises(InvalidRecord) as info:
        Record.from_json({**data, "scores": [1]})
    assert info.value.field == "scores"
