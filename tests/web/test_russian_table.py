"""In Russian, a whole hand with auto play, votes and a timeout: nothing in the table or its
chat is in English (every server message is data, worded by the client's catalogue)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect
from webkit import Pages, Server, create_table, login

from una.engine import Action, Record, RuleSet

pytest_plugins = ("webplugin",)

LATIN = re.compile(r"[A-Za-z]{2,}")


#: Latin letters that are not English: the game's name (on the card backs, in a preset's
#: title: «Una для BYOND»), a key's label, a platform's name, the RU bot's tag.
NOT_ENGLISH = {"UNA", "Una", "Enter", "BYOND", "RU"}


def english_words(page: Any, code: str, bot: str, where: str = ".table-screen") -> set[str]:
    """The Latin words shown at the table (or ``where``) but the table's code and the bot's
    name."""
    return latin(page.locator(where).inner_text(), code, bot)


def latin(text: str, code: str = "", bot: str = "") -> set[str]:
    words = set(LATIN.findall(text)) - NOT_ENGLISH - {bot}
    return {word for word in words if word not in code}


def say(page: Any, text: str) -> None:
    page.wait_for_timeout(1100)  # under the chat budget
    page.locator(".chat-input").fill(text)
    page.locator(".chat-input").press("Enter")


def test_a_russian_hand_with_auto_votes_and_a_timeout_has_no_english(pages: Pages) -> None:
    ann = pages.new("/")
    ann.locator("#lang-toggle").click()
    login(ann, "Аня")
    ann.locator(".lobby-create").wait_for()
    ann.locator("#create-seats").fill("3")
    ann.locator("#create-bots").fill("1")
    ann.locator("#create-timer").select_option("15")
    ann.locator("#create-public").set_checked(False)
    ann.locator("#create-go").click()
    ann.locator(".table-screen").wait_for()
    ann.wait_for_function("() => new URLSearchParams(location.search).get('table')")
    code = str(ann.evaluate("() => new URLSearchParams(location.search).get('table')"))
    bob = pages.new(f"/?table={code}")
    bob.locator("#lang-toggle").click()
    login(bob, "Боря")
    expect(ann.locator(".seat.empty")).to_have_count(0)
    ann.locator("button.start").click()
    expect(ann.locator(".turn-line")).not_to_be_empty()
    # Боря lets the computer play for him; Аня lets her turn run out (15 s).
    say(bob, "/auto")
    expect(ann.locator(".chat-log .notice[data-code=auto]")).to_contain_text(
        "Боря включает автоигру"
    )
    expect(ann.locator(".chat-log .notice[data-code=timed_out]")).to_contain_text(
        "Аня не успел(а) сходить", timeout=40_000
    )
    # /who as a list; then both vote to end the hand.
    say(ann, "/who")
    expect(ann.locator(".chat-log .reply[data-code=who] .reply-items li")).to_have_count(3)
    say(bob, "/endhand")
    expect(ann.locator(".chat-log .notice[data-code=vote]")).to_contain_text("ждём: Аня")
    say(ann, "/endhand")
    expect(ann.locator(".hand-summary")).to_be_visible()
    expect(ann.locator(".chat-log .event").last).to_contain_text("раздача окончена досрочно")
    state = ann.evaluate("() => window.una.state")
    bot = next(
        d["name"] for d in state["table"]["seats_detail"] if d.get("bot") and not d.get("stand_in")
    )
    for page in (ann, bob):
        assert english_words(page, code, bot) == set()
        # the rules in the header's hover title too (not "standard target=...")
        assert latin(page.locator(".rules-text").get_attribute("title") or "") == set()


def test_the_russian_lobby_and_a_replays_header_have_no_english(
    pages: Pages, server: Server
) -> None:
    # A public table without a name: the server calls it "Table K7QX2", the lobby «Стол K7QX2».
    ann = pages.new("/")
    ann.locator("#lang-toggle").click()
    login(ann, "Настя")
    code = create_table(ann, seats=3, bots=1, target=40, public=True)
    expect(ann.locator(".table-name")).to_have_text(f"Стол {code}")
    bob = pages.new("/")
    bob.locator("#lang-toggle").click()
    login(bob, "Вова")
    row = bob.locator(f'.lobby-table[data-code="{code}"]')
    expect(row.locator(".lobby-table-name")).to_have_text(f"Стол {code}")
    expect(row.locator(".lobby-table-rules")).to_contain_text("Игра до: 40")
    assert english_words(bob, code, "", f'.lobby-table[data-code="{code}"]') == set()
    assert english_words(bob, code, "", ".lobby-create") == set()
    # A replay of a game with a switch changed from its preset: its header names the preset
    # and the switch in Russian (not "alupula jump_in=true").
    rules = RuleSet.from_json({"preset": "alupula", "jump_in": True, "target": 200})
    record = Record(rules, ["Настя", "Вова"], seed=3)
    game = record.new_game()
    for _ in range(4):
        seat = game.view_for(None).to_act
        action = game.view_for(seat).to_json()["legal"][0]
        game.apply(seat, Action.parse(action))
        record.actions.append((seat, action))
    game_id = 987654
    bob.route(
        f"**/games/{game_id}.json",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(record.to_json())
        ),
    )
    bob.route(f"**/games/{game_id}/views*", lambda route: route.fulfill(status=404))
    bob.goto(f"{server.url}/?replay={game_id}")
    head = bob.locator(".replay-head")
    expect(head.locator("h1")).to_have_text(f"Запись партии {game_id}")
    expect(head).to_contain_text("Настя, Вова · Алупула УНО")
    expect(head).to_contain_text("Вмешательство: вкл.")
    expect(head).to_contain_text("Игра до: 200")
    assert english_words(bob, "", "", ".replay-head") == set()
