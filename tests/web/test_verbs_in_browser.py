"""BYOND's verbs and the table on a phone, in Chromium against ``una serve`` (issue 17).

Each verb is typed in the chat line as a BYOND player would, and its exact effect is read
off the page (and, for the scores, off the engine's replay of the stored record).
"""

from __future__ import annotations

import io
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from PIL import Image
from playwright.sync_api import expect
from webkit import Pages, Server, create_table, login

from una.engine import Record
from una.server.verbs import HELP

pytest_plugins = ("webplugin",)


def say(page: Any, text: str) -> None:
    """Type a line and send it, under the chat limit (about one a second)."""
    page.wait_for_timeout(1100)
    page.locator(".chat-input").fill(text)
    page.locator(".chat-input").press("Enter")


def last_system(page: Any) -> Any:
    return page.locator(".chat-log .system").last


def ask(page: Any, text: str) -> str:
    """Send a verb and return the text of the reply that answers it (its list, when it
    has one, a line an item)."""
    lines = page.locator(".chat-log .reply")
    before = lines.count()
    say(page, text)
    expect(lines).to_have_count(before + 1)
    line = lines.nth(before)
    items = line.locator(".reply-items li").all_inner_texts()
    return "\n".join([str(line.locator(".text").inner_text()), *items])


def state(page: Any) -> Any:
    return page.evaluate("() => window.una.state")


def her_turn(page: Any) -> None:
    """Wait until it is the page's player's turn in the first hand of a game; the bot cannot
    move then. Its first move may end a heads-up hand (a Quitter): /startgame then deals the
    next hand of the same game, and during that hand starts a new game (she is the only
    person here), so that the game the test scores has one hand before its /endhand."""
    over = "['hand_over', 'match_over'].includes(window.una.state.view.phase)"
    mine = "window.una.state.view.to_act === window.una.state.view.seat"
    for _ in range(8):
        page.wait_for_function(f"() => window.una.state?.view && ({over} || {mine})")
        now = state(page)  # one read: nothing moves while it is her turn or a hand is over
        game_id, hand = now["game_id"], now["view"]["hand_number"]
        if now["view"]["phase"] not in ("hand_over", "match_over") and hand == 1:
            return
        say(page, "/startgame")
        page.wait_for_function(
            "([game, hand]) => window.una.state.game_id !== game"
            " || window.una.state.view.hand_number !== hand",
            arg=[game_id, hand],
        )
    raise AssertionError("the first hand of a game never came to her turn")


def test_each_verb_does_what_the_seed_says(pages: Pages, server: Server) -> None:
    ann = pages.new("/")
    login(ann, "Verba")
    # A target no hand reaches: BYOND's Kobe alone is 666 points, and /endhand below must
    # score a hand, not end the match.
    create_table(ann, preset="byond", seats=2, bots=1, target=5000)
    expect(ann.locator(".seat-name-text")).to_have_text(["Verba", "Ada"])  # a short bot name
    ann.locator("button.start").click()
    expect(ann.locator(".turn-line")).not_to_be_empty()
    her_turn(ann)
    # /say: said to everyone; a leading space keeps "una" chat.
    say(ann, "/say hello table")
    expect(ann.locator(".chat-log .chat-msg .text").last).to_have_text("hello table")
    say(ann, " una is just a word")
    expect(ann.locator(".chat-log .chat-msg .text").last).to_have_text("una is just a word")
    # A line beginning with "una" is the una command: never chat. With seven cards under
    # false_uno_penalty it is a false call, announced as catchable.
    say(ann, "unabombers are wacky")
    expect(last_system(ann)).to_contain_text("Verba calls UNO holding")
    expect(ann.locator(".chat-log .chat-msg", has_text="unabombers")).to_have_count(0)
    # /color reports the color.
    words = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
    told = ask(ann, "/color")
    color = state(ann)["view"]["color"]  # (none yet: a Wild turned up first, to be named)
    assert told.startswith(f"The color is {words[color]}" if color else "No color is named")
    # /who: a list, one person an item.
    who = ask(ann, "/who").split("\n")
    assert who[0] == "Who is here:" and len(who) == 3
    assert who[1].startswith("Verba: seat 1, player, host") and who[2].startswith(
        "Ada: seat 2, computer player"
    )
    expect(ann.locator(".chat-log .reply[data-code=who] .reply-items li")).to_have_count(2)
    # /game-info: the help as a list, one verb an item.
    info = ask(ann, "/game-info").split("\n")
    assert len(info) == len(HELP) + 1 and info[1].startswith("/say — ")
    # /challenge: a name nobody has; /challenge with nobody to challenge.
    assert "Nobody called Nobodyhere" in ask(ann, "/challenge Nobodyhere")
    # /set-icon opens the chooser; /reset-icon puts on one of the game's own icons.
    say(ann, "/set-icon")
    expect(ann.locator("#profile-dialog")).to_be_visible()
    ann.keyboard.press("Escape")
    expect(ann.locator("#profile-dialog")).to_be_hidden()
    say(ann, "/reset-icon")
    expect(ann.locator("#profile-button .avatar-builtin")).to_be_visible()
    expect(ann.locator(".seat.me .avatar-builtin")).to_be_visible()
    # The table keeps its lines: a reload shows the chat again.
    ann.reload()
    expect(ann.locator(".chat-log .chat-msg .text", has_text="hello table")).to_have_count(1)
    expect(ann.locator(".chat-log .event").first).to_be_visible()
    # /endhand: the hand is scored (the summary shows it); the next deal is hand 2 of the game.
    game_id = state(ann)["game_id"]
    say(ann, "/endhand")
    summary = ann.locator(".hand-summary")
    expect(summary).to_be_visible()
    view = state(ann)["view"]
    scores = view["scores"]
    assert view["hand_points"] == scores and any(scores)
    totals = [int(x) for x in summary.locator("tbody td.total").all_inner_texts()]
    assert sorted(totals) == sorted(scores)
    # Every hand is laid open to be scored: the bot's cards too, drawn in the summary.
    left = view["end_hands"]
    assert left[1] and len(left[0]) == len(view["hand"])
    expect(summary.locator("td.left .card-svg")).to_have_count(sum(len(cards) for cards in left))
    hand = view["hand_number"]
    summary.locator("button.deal").click()
    ann.wait_for_function(f"() => window.una.state.view.hand_number === {hand + 1}")
    assert state(ann)["game_id"] == game_id
    # /endgame: final standings are those of the hands played, with the replay.
    say(ann, "/endgame")
    final = ann.locator(".match-summary")
    expect(final).to_be_visible()
    expect(final.locator("a.replay-link")).to_have_attribute("href", f"/?replay={game_id}")
    assert state(ann)["view"]["scores"] == scores
    token = ann.evaluate("() => localStorage.getItem('una.token')")  # a private table's record
    status, record = server.get_json(f"/games/{game_id}.json", token)
    assert status == 200
    played = Record.from_json(record)
    codes = [code for _, code in played.actions]
    game = played.new_game()
    for actor, code in played.actions[: codes.index("endhand")]:
        game.apply(actor, code)
    assert game.hand_scores() == scores  # the engine's count of every hand
    # /startgame starts a new game; alone at the table, also during one.
    say(ann, "/startgame")
    ann.wait_for_function("old => window.una.state.game_id !== old", arg=game_id)
    second = state(ann)["game_id"]
    say(ann, "/startgame")
    ann.wait_for_function("old => window.una.state.game_id !== old", arg=second)
    assert state(ann)["view"]["hand_number"] == 1


def test_a_phone_keeps_the_bars_usable_over_the_hand_summary(pages: Pages, artifacts: Any) -> None:
    ann = pages.new("/", width=390, height=844, has_touch=True, is_mobile=True)
    login(ann, "Phoebe")
    create_table(ann, seats=4, bots=3, target=500)
    ann.locator("button.start").click()
    expect(ann.locator(".turn-line")).not_to_be_empty()
    # Every seat fits the width, each bot under a short name shown whole.
    seats = ann.locator(".seat")
    expect(seats).to_have_count(4)
    boxes = ann.evaluate("""() => [...document.querySelectorAll('.seat')].map((e) => {
        const r = e.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(boxes) == 4 and all(left >= 0 and right <= 390 for left, right in boxes), boxes
    clipped = ann.evaluate("""() => [...document.querySelectorAll('.seat-name')]
        .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)""")
    assert clipped == []
    # The hand ends (by /endhand, from the chat sheet): its summary is up.
    ann.locator(".chat-toggle").click()
    say(ann, "/endhand")
    ann.locator(".chat-close").click()
    summary = ann.locator(".hand-summary")
    expect(summary).to_be_visible()
    ann.wait_for_timeout(400)  # the sheet's and the summary's short animations
    ann.screenshot(path=str(artifacts / "phone-hand-summary.png"))
    # The top bar and the table bar are not under it, and they work.
    bar = ann.locator(".table-bar").bounding_box()
    overlay = summary.bounding_box()
    assert bar is not None and overlay is not None and overlay["y"] >= bar["y"] + bar["height"]
    for selector in ("#lang-toggle", "#theme-toggle", ".chat-toggle", ".table-bar .leave"):
        hit = ann.evaluate(
            """sel => { const el = document.querySelector(sel);
                const r = el.getBoundingClientRect();
                const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                return el === top || el.contains(top); }""",
            selector,
        )
        assert hit, f"{selector} is covered"
    theme = ann.evaluate("() => document.documentElement.dataset.theme")
    ann.locator("#theme-toggle").click()
    assert ann.evaluate("() => document.documentElement.dataset.theme") != theme
    ann.locator("#lang-toggle").click()
    expect(ann.locator(".table-bar .leave")).to_have_text("Выйти")
    ann.locator("#lang-toggle").click()
    # Chat while the summary is up.
    ann.locator(".chat-toggle").click()
    say(ann, "good hand")
    expect(ann.locator(".chat-log .chat-msg .text").last).to_have_text("good hand")
    ann.locator(".chat-close").click()
    expect(summary).to_be_visible()
    # Leave while it is up (a match is on: the page asks first).
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.locator(".table-bar .leave").click()
    expect(ann.locator(".lobby-create")).to_be_visible()


def test_kicking_asks_first(pages: Pages) -> None:
    ann = pages.new("/")
    login(ann, "Kicker")
    code = create_table(ann, seats=3, bots=0)
    bob = pages.new(f"/?table={code}")
    login(bob, "Kickee")
    kick = ann.locator('.seat[data-name="Kickee"] .kick')
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    ann.once("dialog", lambda dialog: answer(dialog, False))
    kick.click()
    ann.wait_for_timeout(500)
    assert asked == ["Kick Kickee out of this table until the match is over?"]
    expect(bob.locator(".table-screen")).to_be_visible()  # still there
    ann.once("dialog", lambda dialog: answer(dialog, True))
    kick.click()
    expect(bob.locator(".lobby-create")).to_be_visible()
    expect(bob.locator(".toast.error")).to_contain_text(code)


def test_finished_games_are_listed_and_replays_show_icons(pages: Pages, artifacts: Any) -> None:
    ann = pages.new("/")
    login(ann, "Replayer")
    create_table(ann, seats=2, bots=1, target=500)
    # The icon chooser, opened by /set-icon.
    say(ann, "/set-icon")
    dialog = ann.locator("#profile-dialog")
    expect(dialog).to_be_visible()
    buffer = io.BytesIO()
    Image.new("RGB", (40, 40), (30, 90, 200)).save(buffer, "PNG")
    ann.locator("#icon-file").set_input_files(
        files=[{"name": "me.png", "mimeType": "image/png", "buffer": buffer.getvalue()}]
    )
    dialog.locator(".save-icon").click()
    expect(ann.locator(".toast", has_text="Icon saved")).to_be_visible()
    ann.keyboard.press("Escape")
    ann.locator("button.start").click()
    expect(ann.locator(".turn-line")).not_to_be_empty()
    game_id = state(ann)["game_id"]
    say(ann, "/endgame")
    expect(ann.locator(".match-summary")).to_be_visible()
    ann.locator(".leave-over").click()
    mine = ann.locator(f'.my-game[data-id="{game_id}"]')
    expect(mine).to_be_visible()
    expect(mine.locator("a.replay-link")).to_have_attribute("href", f"/?replay={game_id}")
    ann.screenshot(path=str(artifacts / "lobby-finished-games.png"))
    icon_key = ann.evaluate("window.una.player.icon")
    # Her own browser (a private table's replay is for its players: it sends her token).
    replay = ann
    mine.locator("a.replay-link").click()
    icon = replay.locator(f'.seat img.avatar-img[src*="/icons/{icon_key}.png"]')
    expect(icon).to_be_visible()
    expect(replay.locator('.seat[data-name="Ada"] .badge.bot')).to_be_visible()
    replay.screenshot(path=str(artifacts / "replay-icons.png"))
