"""The table's pickers and prompts, fed views made by the engine (no server game needed).

The client's table module is loaded on its own in a page, with a stand-in for the app that
records what would be sent. Each view comes from a real engine game with stacked hands, so
its ``legal`` list is exactly what the server would send; a few fields are then set by hand
to show prompts that are hard to reach by chance (a challenge, a catch, a revealed hand).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect
from webkit import Pages, Server

from una.engine import Game, RuleSet
from una.engine.record import stacked_deck

pytest_plugins = ("webplugin",)

HARNESS = """
<!doctype html><html lang="en"><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/style.css"></head>
<body><main id="main"></main><div id="toasts"></div></body></html>
"""

SETUP = """async () => {
  const { installDefs } = await import('/static/cards.js');
  const { TableView } = await import('/static/table.js');
  installDefs();
  window.sent = [];
  window.toasts = [];
  const app = {
    player: { id: 1, name: 'Ann' },
    act(code) { window.sent.push(code); },
    send(message) { window.sent.push(message); return true; },
    startGame() { window.sent.push('start'); },
    leave() {}, toast(text) { window.toasts.push(text); },
  };
  const view = new TableView(app);
  document.getElementById('main').append(view.el);
  document.body.dataset.screen = 'table';
  document.addEventListener('keydown', (event) => view.onKey(event));
  window.table = view;
}"""


def game_view(hands: list[list[str]], first: str, rules: Any) -> dict[str, Any]:
    ruleset = RuleSet.from_json(rules)
    deck = stacked_deck(ruleset, hands, first, dealer=len(hands) - 1)
    game = Game(rules, ["Ann", "Bob", "Cy"], seed=1, dealer=len(hands) - 1, decks=[deck])
    view = game.view_for(0).to_json()
    assert view["to_act"] == 0
    return view


def state(view: dict[str, Any], version: int = 1) -> dict[str, Any]:
    names = view["players"]
    return {
        "type": "state",
        "table": {
            "code": "TEST",
            "name": "Harness",
            "preset": "byond",
            "rules_text": "byond seven_zero=True",
            "status": "playing",
            "timer": None,
            "host_id": 1,
            "spectator_names": [],
            "seats": 3,
            "seats_detail": [
                {
                    "seat": i,
                    "name": n,
                    "player_id": i + 1,
                    "bot": None,
                    "auto": False,
                    "icon": False,
                    "connected": True,
                    "game_seat": i,
                }
                for i, n in enumerate(names)
            ],
        },
        "you": {"player_id": 1, "seat": 0, "game_seat": 0},
        "version": version,
        "epoch": "test",
        "fresh": False,
        "view": view,
        "events": [],
    }


@pytest.fixture
def table(pages: Pages, server: Server) -> Any:
    page = pages.new("/health")
    page.set_content(HARNESS)
    page.evaluate(SETUP)
    return page


def show(page: Any, view: dict[str, Any], version: int = 1) -> None:
    page.evaluate("s => window.table.update(s, null)", state(view, version))
    page.evaluate("window.sent = []")


def sent(page: Any) -> list[Any]:
    return page.evaluate("window.sent")


BYOND_7_0 = {"preset": "byond", "seven_zero": True}
HANDS = [
    ["TRADE", "SPY", "QUIT", "DANCE", "WTP", "R7", "W4"],
    ["R1", "R2", "R3", "G4", "G5", "G6", "B1"],
    ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"],
]


def test_seven_zero_asks_whom_to_swap_with(table: Any) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    expect(table.locator(".hand .card.playable")).to_have_count(6)  # all but Quitter
    expect(table.locator('.hand .card[data-code="QUIT"]')).to_have_class("card dimmed")
    table.locator('.hand .card[data-code="R7"]').click()
    picker = table.locator(".target-picker")
    expect(picker).to_be_visible()
    assert picker.locator(".target-choice").all_inner_texts() == ["Bob", "Cy"]
    picker.locator(".target-choice", has_text="Cy").click()
    assert sent(table) == ["play R7 @2"]
    expect(picker).to_have_count(0)


def test_trader_joe_asks_a_color_then_a_player(table: Any) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    table.locator('.hand .card[data-code="TRADE"]').click()
    colors = table.locator(".color-picker .color-choice")
    expect(colors).to_have_count(4)
    colors.locator("text=green").click()
    table.locator(".target-choice", has_text="Bob").click()
    assert sent(table) == ["play TRADE G @1"]


def test_dance_fever_may_dance_alone_and_spy_picks_a_player(table: Any) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    table.locator('.hand .card[data-code="DANCE"]').click()
    table.keyboard.press("b")
    choices = table.locator(".target-choice")
    assert choices.all_inner_texts() == ["nobody (alone)", "Bob", "Cy"]
    choices.first.click()
    table.locator('.hand .card[data-code="SPY"]').click()
    table.keyboard.press("1")  # the first color offered (red)
    table.locator(".target-choice", has_text="Cy").click()
    assert sent(table) == ["play DANCE B", "play SPY R @2"]


def test_target_practice_lists_each_split(table: Any, artifacts: Path) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    table.locator('.hand .card[data-code="WTP"]').click()
    table.locator(".color-choice", has_text="yellow").click()
    choices = table.locator(".target-choice")
    expect(choices).to_have_count(5)
    labels = choices.all_inner_texts()
    assert "Bob ×3, Cy ×1" in labels and "Cy ×4" in labels
    table.screenshot(path=str(artifacts / "picker-targets.png"))
    choices.filter(has_text="Bob ×3, Cy ×1").click()
    assert sent(table) == ["play WTP Y @1 @1 @1 @2"]


def test_wild_draw_four_color_by_key_and_escape_cancels(table: Any) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    table.locator('.hand .card[data-code="W4"]').click()
    expect(table.locator(".color-picker")).to_be_visible()
    table.keyboard.press("Escape")
    expect(table.locator(".color-picker")).to_have_count(0)
    assert sent(table) == []
    table.locator('.hand .card[data-code="W4"]').click()
    table.keyboard.press("y")
    assert sent(table) == ["play W4 Y"]


def test_quitter_picks_a_player(table: Any) -> None:
    show(table, game_view(HANDS, "G5", BYOND_7_0))
    table.locator('.hand .card[data-code="QUIT"]').click()
    table.locator(".target-choice", has_text="Bob").click()
    assert sent(table) == ["play QUIT @1"]


def test_challenge_prompt_catch_button_and_revealed_hand(table: Any, artifacts: Path) -> None:
    view = game_view(HANDS, "R5", BYOND_7_0)
    view.update(
        phase="penalty",
        pending_draw=4,
        legal=["draw", "challenge", "catch @1"],
        catchable=[1],
        revealed=[{"seat": 1, "cards": ["R1", "G2", "WTP"]}],
    )
    show(table, view)
    prompt = table.locator(".challenge-prompt")
    expect(prompt).to_contain_text("Wild Draw Four")
    expect(prompt.locator("button.take")).to_have_text("Take +4")
    prompt.locator("button.challenge").click()
    catch = table.locator(".act-catch")
    expect(catch).to_have_text("Catch Bob!")
    expect(table.locator('.seat[data-seat="1"]')).to_have_class("seat catchable")
    catch.click()
    revealed = table.locator('.revealed-hand[data-seat="1"]')
    expect(revealed).to_contain_text("Bob's hand (shown to you)")
    expect(revealed.locator("svg.card-svg")).to_have_count(3)
    table.screenshot(path=str(artifacts / "challenge-prompt.png"))
    prompt.locator("button.take").click()
    assert sent(table) == ["challenge", "catch @1", "draw"]


def test_uno_with_the_play_and_uno_alone(table: Any) -> None:
    view = game_view(HANDS, "R5", BYOND_7_0)
    view.update(
        hand=["R7", "G1"],
        hand_counts=[2, 7, 7],
        legal=["play R7 @1", "play R7 @1 uno", "play R7 @2", "play R7 @2 uno", "draw"],
    )
    show(table, view)
    expect(table.locator(".uno-hint")).to_be_visible()
    uno = table.locator(".act-uno")
    expect(uno).to_have_attribute("aria-pressed", "false")
    table.keyboard.press("u")
    expect(uno).to_have_attribute("aria-pressed", "true")
    table.locator('.hand .card[data-code="R7"]').click()
    table.locator(".target-choice", has_text="Bob").click()
    assert sent(table) == ["play R7 @1 uno"]
    # one card left, UNO not called: the prompt offers it
    view.update(hand=["G1"], hand_counts=[1, 7, 7], legal=["uno"], to_act=1)
    show(table, view, version=2)
    table.locator(".uno-now").click()
    assert sent(table) == ["uno"]
    view.update(legal=[])
    show(table, view, version=3)
    expect(table.locator(".act-uno")).to_be_disabled()


def test_first_wild_color_and_hand_over_summary(table: Any, artifacts: Path) -> None:
    view = game_view(HANDS, "R5", BYOND_7_0)
    view.update(
        phase="color", color=None, top="W", legal=["color R", "color Y", "color G", "color B"]
    )
    show(table, view)
    expect(table.locator(".color-info")).to_contain_text("not named yet")
    table.locator(".color-choice", has_text="blue").click()
    assert sent(table) == ["color B"]
    view.update(
        phase="hand_over",
        to_act=None,
        legal=["deal"],
        hand_winner=2,
        hand_points=[0, 0, 57],
        scores=[10, 0, 57],
        hand_ranking=[2, 0, 1],
    )
    show(table, view, version=2)
    summary = table.locator(".hand-summary")
    expect(summary.locator("h2")).to_have_text("Cy wins the hand")
    assert summary.locator("tbody .who span").all_inner_texts() == ["Cy", "Ann", "Bob"]
    table.wait_for_timeout(300)
    table.screenshot(path=str(artifacts / "hand-summary.png"))
    summary.locator("button.deal").click()
    assert sent(table) == ["start"]


def byond_game(hands: list[list[str]], first: str) -> Game:
    rules = {"preset": "byond"}
    deck = stacked_deck(RuleSet.from_json(rules), hands, first, dealer=len(hands) - 1)
    return Game(rules, ["Ann", "Bob", "Cy"], seed=1, dealer=len(hands) - 1, decks=[deck])


def test_a_live_revealed_hand_follows_the_hand(table: Any, artifacts: Path) -> None:
    """A Spy shows Bob's hand for the rest of the hand: as it is at each view, not as it
    was when it was revealed (issue 17)."""
    game = byond_game([["SPY", "R1", "R2", "R3", "G4", "G5", "B6"],
                       ["G1", "R4", "R5", "R6", "G2", "G3", "B1"], HANDS[2]], "R9")  # fmt: skip
    game.apply(0, "play SPY G @1")
    show(table, game.view_for(0).to_json())
    revealed = table.locator('.revealed-hand.live[data-seat="1"]')
    expect(revealed).to_contain_text("Bob's hand, as it is now")
    expect(revealed.locator("svg.card-svg")).to_have_count(7)
    expect(revealed.locator('svg[data-code="G1"]')).to_have_count(1)
    game.apply(1, "play G1")
    show(table, game.view_for(0).to_json(), version=2)
    expect(revealed.locator("svg.card-svg")).to_have_count(6)
    expect(revealed.locator('svg[data-code="G1"]')).to_have_count(0)
    table.screenshot(path=str(artifacts / "revealed-live.png"))


def test_kobe_dims_the_locked_cards_and_says_why(table: Any, artifacts: Path) -> None:
    game = byond_game([["KOBE", "R1", "R2", "R3", "G4", "G5", "B6"], HANDS[1], HANDS[2]], "R9")
    view = game.view_for(0).to_json()
    assert view["to_act"] == 0 and view["locked_by"] == "KOBE"
    show(table, view)
    hand = table.locator(".hand")
    expect(hand.locator(".card.locked")).to_have_count(6)
    expect(hand.locator('.card[data-code="KOBE"]')).not_to_have_class("locked")
    expect(hand).not_to_have_class("hand idle")  # it never looks playable
    reason = table.locator(".lock-reason")
    expect(reason).to_be_visible()
    # the rest of the rule is the card's own help (GET /api/rules): no copy of it in the client
    expect(reason).to_have_text(
        re.compile(r"^Kobe locks your other cards: play it first\. While held, .* or an 8\.$")
    )
    title = hand.locator('.card[data-code="R1"]').get_attribute("title") or ""
    assert "Kobe locks your other cards" in title
    opacity = hand.locator('.card[data-code="R1"]').evaluate("e => getComputedStyle(e).opacity")
    assert float(opacity) < 0.5
    # The special card says what it does (GET /api/rules), on hover and by a long press.
    kobe = hand.locator('.card[data-code="KOBE"]')
    expect(kobe).to_have_attribute("title", re.compile("While held, its holder may play no other"))
    expect(kobe.locator("svg title")).to_contain_text("While held")
    kobe.dispatch_event("contextmenu")  # what a long press on a touch screen fires
    toasts = table.evaluate("window.toasts")
    assert len(toasts) == 1 and "While held" in toasts[0]
    assert sent(table) == []  # reading a card does not play it
    table.screenshot(path=str(artifacts / "kobe-locked.png"))
    # In Russian: the reason and the card's description too.
    table.evaluate(
        """async (s) => { const i18n = await import('/static/i18n.js');
        i18n.setLang('ru'); window.table.update(s, null); }""",
        state(view, 2),
    )
    expect(reason).to_contain_text("«Кобе» блокирует остальные ваши карты")
    expect(reason).to_contain_text("на жёлтую или на 8")
    expect(kobe).to_have_attribute("title", re.compile("Пока она у вас"))


def test_challenge_without_a_name_offers_the_players(table: Any) -> None:
    show(table, game_view(HANDS, "R5", BYOND_7_0))
    table.evaluate("""() => window.table.chat.add({ kind: 'reply', reply: { type: 'reply',
        code: 'challenge_whom', args: { names: ['Bob', 'Cy'] } } })""")
    buttons = table.locator(".chat-log .choose-name")
    assert buttons.all_inner_texts() == ["Bob", "Cy"]
    buttons.filter(has_text="Cy").click()
    assert sent(table) == [{"type": "chat", "text": "/challenge Cy"}]


def test_the_felt_keeps_its_place_when_a_prompt_appears(table: Any) -> None:
    view = game_view(HANDS, "R5", BYOND_7_0)
    show(table, view)
    before = table.locator(".felt").bounding_box()
    seat = table.locator('.seat[data-seat="1"]').bounding_box()
    view.update(phase="penalty", pending_draw=4, legal=["draw", "challenge"],
                revealed=[{"seat": 1, "cards": ["R1", "G2"], "live": False}])  # fmt: skip
    show(table, view, version=2)
    expect(table.locator(".challenge-prompt")).to_be_visible()
    expect(table.locator(".revealed-hand")).to_contain_text("Bob showed you this hand")
    assert table.locator(".felt").bounding_box() == before
    assert table.locator('.seat[data-seat="1"]').bounding_box() == seat
