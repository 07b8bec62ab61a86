"""In Russian, a whole hand with auto play, votes and a timeout: nothing in the table or its
chat is in English (every server message is data, worded by the client's catalogue)."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect
from webkit import Pages, login

pytest_plugins = ("webplugin",)

LATIN = re.compile(r"[A-Za-z]{2,}")


#: Latin letters that are not English: the game's name on the card backs, a key's label.
NOT_ENGLISH = {"UNA", "Enter"}


def english_words(page: Any, code: str, bot: str) -> set[str]:
    """The Latin words shown at the table but the table's code and the bot's name."""
    text = page.locator(".table-screen").inner_text()
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
