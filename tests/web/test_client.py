"""The browser client, driven through its UI in Chromium against a real ``una serve``."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect
from webkit import (
    Pages,
    Server,
    create_table,
    login,
    move,
    play_until,
    step,
    version,
    wait_version_change,
)

from una.engine import Action, Record

pytest_plugins = ("webplugin",)

XSS = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2">'


def seat_names(page: Any) -> list[str]:
    return page.locator(".seat .seat-name-text").all_inner_texts()


def test_two_players_and_a_computer_play_a_match_to_the_end(
    pages: Pages, server: Server, artifacts: Path
) -> None:
    ann = pages.new("/")
    login(ann, "Ann")
    ann.screenshot(path=str(artifacts / "lobby.png"), full_page=True)
    code = create_table(ann, seats=3, bots=1, target=30, name="Match test")
    # Bob comes by the invitation link and takes the free seat
    bob = pages.new(f"/?table={code}")
    login(bob, "Bob")
    expect(bob.locator(".seat.me .seat-name-text")).to_have_text("Bob")
    expect(ann.locator(".seat")).to_have_count(3)
    expect(ann.locator(".seat.empty")).to_have_count(0)
    # a spectator watches from the lobby's code form
    cy = pages.new("/")
    login(cy, "Cy")
    cy.locator("#join-code").fill(code)
    cy.locator("#watch-code").click()
    expect(cy.locator(".table-screen")).to_be_visible()

    ann.locator("button.start").click()
    expect(ann.locator(".hand .card").first).to_be_visible()
    expect(bob.locator(".hand .card").first).to_be_visible()
    # the spectator sees the table and the card counts, but no hand at all
    expect(cy.locator(".discard svg")).to_be_visible()
    expect(cy.locator(".hand")).to_be_hidden()
    assert cy.locator(".hand .card").count() == 0
    expect(cy.locator(".spectating")).to_be_visible()
    ann.screenshot(path=str(artifacts / "table.png"))

    def over() -> bool:
        return (
            ann.locator(".match-summary").count() > 0 and bob.locator(".match-summary").count() > 0
        )

    clicks = play_until([ann, bob], over, limit=150)
    assert clicks > 0
    summary = ann.locator(".match-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("h2")).to_contain_text("wins the match")
    expect(cy.locator(".match-summary")).to_be_visible()
    names = summary.locator("tbody tr .who span").all_inner_texts()
    assert sorted(names) == sorted(["Ann", "Bob", "Ada"])
    totals = [int(x) for x in summary.locator("tbody td.total").all_inner_texts()]
    assert max(totals) >= 30 or min(totals) < 0
    expect(ann.locator("button.new-match")).to_be_visible()
    ann.wait_for_timeout(500)  # let the short animations end
    ann.screenshot(path=str(artifacts / "match-summary.png"))
    # the chat log carries the game's events
    assert ann.locator(".chat-log .event").count() > 5
    expect(ann.locator(".chat-log")).to_contain_text("wins the match")


def test_lobby_lists_open_tables_and_joins_one(pages: Pages) -> None:
    ann = pages.new("/")
    login(ann, "Lobby Ann")
    code = create_table(ann, preset="telegram", seats=4, bots=2, target=None, public=True,
                        name="Public one")  # fmt: skip
    bob = pages.new("/")
    login(bob, "Lobby Bob")
    row = bob.locator(f'.lobby-table[data-code="{code}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text("Public one")
    expect(row).to_contain_text("Telegram bot (RU)")
    expect(row).to_contain_text("3/4 seats")
    expect(row).to_contain_text("2 computer")
    expect(row).to_contain_text("30 s per turn")
    row.locator("button.join").click()
    expect(bob.locator(".seat.me .seat-name-text")).to_have_text("Lobby Bob")
    expect(ann.locator(".seat .seat-name-text", has_text="Lobby Bob")).to_be_visible()
    # the host sees a kick button for Bob; Bob sees none
    expect(ann.locator('.seat[data-name="Lobby Bob"] .kick')).to_be_visible()
    assert bob.locator(".seat .kick").count() == 0


def test_the_lobby_is_paged_and_follows_changes(pages: Pages, server: Server) -> None:
    """A lobby of more than one page: the pager, an older page; then a new table appears on
    top of the first page, and a table's seats change, with no refresh."""
    from websockets.sync.client import connect

    with contextlib.ExitStack() as hosts:
        for i in range(55):  # each on its own socket, each at its own public table
            ws = hosts.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws"))
            ws.send(json.dumps({"type": "hello", "name": f"Pager {i}"}))
            ws.send(json.dumps({"type": "create", "rules": "standard", "seats": 3,
                                "public": True}))  # fmt: skip
            while json.loads(ws.recv(timeout=10))["type"] != "joined":
                pass
        bob = pages.new("/")
        login(bob, "Pager Bob")
        pager = bob.locator(".lobby-pager")
        expect(pager).to_be_visible()
        expect(bob.locator(".lobby-page")).to_contain_text("Page 1 of")
        assert bob.locator(".lobby-table").count() == 50
        expect(bob.locator(".lobby-prev")).to_be_disabled()
        bob.locator(".lobby-next").click()
        expect(bob.locator(".lobby-page")).to_contain_text("Page 2 of")
        bob.locator(".lobby-prev").click()
        expect(bob.locator(".lobby-page")).to_contain_text("Page 1 of")
        # A new table goes on top of the first page, live.
        ann = pages.new("/")
        login(ann, "Pager Ann")
        code = create_table(ann, seats=3, bots=1, target=None, public=True, name="Brand new")
        row = bob.locator(".lobby-table").first
        expect(row).to_have_attribute("data-code", code)
        expect(row).to_contain_text("2/3 seats")
        assert bob.locator(".lobby-table").count() == 50
        # Somebody sits down there: the row follows.
        carl = pages.new(f"/?table={code}")
        login(carl, "Pager Carl")
        expect(bob.locator(f'.lobby-table[data-code="{code}"]')).to_contain_text("3/3 seats")


def test_lobby_news_never_takes_the_field_being_typed_in(pages: Pages, server: Server) -> None:
    """A table opened elsewhere redraws the list, not the form: the caret and the words stay."""
    from websockets.sync.client import connect

    ann = pages.new("/")
    login(ann, "Typist")
    ann.locator("#create-name").click()
    ann.keyboard.type("Half")
    with connect(f"ws://127.0.0.1:{server.port}/ws") as ws:
        ws.send(json.dumps({"type": "hello", "name": "Interrupter"}))
        ws.send(json.dumps({"type": "create", "rules": "standard", "seats": 3, "public": True,
                            "name": "Interruption"}))  # fmt: skip
        while json.loads(ws.recv(timeout=10))["type"] != "joined":
            pass
        expect(ann.locator(".lobby-table", has_text="Interruption")).to_be_visible()
        ann.keyboard.type(" done")
        expect(ann.locator("#create-name")).to_be_focused()
        expect(ann.locator("#create-name")).to_have_value("Half done")
        assert ann.evaluate("() => window.una.lobbyView.values.name") == "Half done"


def test_create_form_sends_switches(pages: Pages) -> None:
    ann = pages.new("/")
    login(ann, "Switcher")
    ann.locator("details.switches summary").click()
    switches = ann.locator(".switch")
    assert switches.count() >= 15
    for name in ("jump_in", "seven_zero", "stack_draw_two", "uno_window"):
        row = ann.locator(".switch", has=ann.locator(f"#sw-{name}"))
        expect(row.locator(".hint")).not_to_be_empty()
    ann.locator("#sw-jump_in").check()
    ann.locator("#sw-seven_zero").check()
    # Every computer player and level is offered; the searching one takes the bot seat.
    labels = ann.locator("#create-bot option").all_inner_texts()
    assert {"heuristic", "strong (search)", "strong (search), level hard"} <= set(labels)
    ann.locator("#create-bot").select_option("strong:easy")
    code = create_table(ann, seats=2, bots=1, target=50)
    expect(ann.locator(".table-screen")).to_contain_text("Ada")
    rules = ann.locator(".rules-text")
    # the switches by their human labels (GET /api/rules), not their names
    expect(rules).to_have_text("Official rules · Jump-in: on · Seven-zero: on · Score target: 50")
    expect(ann.locator(".match-facts")).to_have_text("to 50 points")
    ann.locator("#lang-toggle").click()
    expect(rules).to_have_text(
        "Официальные правила · Вмешательство: вкл. · Семь-ноль: вкл. · Игра до: 50"
    )
    assert code


def test_phone_viewport_is_usable(pages: Pages, artifacts: Path) -> None:
    phone = pages.new("/", width=360, height=740, is_mobile=True, has_touch=True)
    login(phone, "Phone")
    expect(phone.locator(".lobby-create")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 362
    create_table(phone, seats=4, bots=3, target=30)
    phone.locator("button.start").tap()
    first = phone.locator(".hand .card").first
    expect(first).to_be_visible()
    phone.screenshot(path=str(artifacts / "phone-table.png"), full_page=True)
    phone.wait_for_function("() => document.querySelector('.your-turn')")  # the bots wait
    # nothing sticks out sideways: the page does not scroll horizontally
    assert phone.evaluate("document.documentElement.scrollWidth") <= 362
    for selector in (".hand", ".act-draw", ".act-uno", ".act-pass", ".discard", ".draw-pile"):
        box = phone.locator(selector).first.bounding_box()
        assert box is not None, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= 361, (selector, box)
    for card in phone.locator(".hand .card").all():
        box = card.bounding_box()
        assert box is not None and box["width"] >= 40 and box["x"] >= 0
        assert box["x"] + box["width"] <= 361
    # the chat is a drawer that opens and closes
    expect(phone.locator(".chat-input")).not_to_be_in_viewport()
    phone.locator(".chat-toggle").tap()
    expect(phone.locator(".chat-input")).to_be_in_viewport()
    phone.locator(".chat-close").tap()
    # and the game can be played with taps
    before = version(phone)
    deadline_clicks = 0
    while deadline_clicks < 40 and version(phone) == before:
        if step(phone):
            deadline_clicks += 1
            wait_version_change(phone, before, 2000)
        else:
            phone.wait_for_timeout(100)
    assert version(phone) != before


def test_reload_and_dropped_connection_resume_the_game(pages: Pages) -> None:
    ann = pages.new("/")
    login(ann, "Reloader")
    code = create_table(ann, seats=2, bots=1, target=500)
    ann.locator("button.start").click()
    expect(ann.locator(".hand .card").first).to_be_visible()
    # wait for Ann's turn, and make one move
    ann.wait_for_function("() => document.querySelector('.your-turn')")
    assert move(ann)
    ann.wait_for_function("() => document.querySelector('.your-turn')")
    hand = ann.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.code)")
    seen = version(ann)

    ann.reload()
    expect(ann.locator(".hand .card").first).to_be_visible()
    assert ann.evaluate("new URLSearchParams(location.search).get('table')") == code
    assert version(ann) == seen
    again = ann.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.code)")
    assert again == hand
    expect(ann.locator("#login-name")).to_have_count(0)
    expect(ann.locator(".your-turn")).to_be_visible()

    # a dropped connection comes back by itself and the game goes on
    ann.evaluate("window.una.conn.drop()")
    expect(ann.locator("#conn-status")).to_be_visible()
    expect(ann.locator("#conn-status")).to_be_hidden(timeout=10_000)
    assert move(ann)


def test_refused_action_shows_the_servers_reason(pages: Pages) -> None:
    ann = pages.new("/")
    login(ann, "Refusee")
    code = create_table(ann, seats=2, bots=0, target=30)
    bob = pages.new(f"/?table={code}")
    login(bob, "Refuser")
    expect(ann.locator(".seat")).to_have_count(2)
    expect(ann.locator(".seat.empty")).to_have_count(0)
    ann.locator("button.start").click()
    expect(ann.locator(".turn-line")).not_to_be_empty()
    # whoever is not to act clicks a card and the draw pile anyway
    waiting = bob if ann.locator(".your-turn").count() else ann
    other_name = "Refusee" if waiting is bob else "Refuser"
    # (a card that is not offered is aria-disabled, yet a click still sends it: force it)
    waiting.locator(".hand .card").first.click(force=True)
    toast = waiting.locator(".toast.error").last
    expect(toast).to_be_visible()
    # players and cards as people call them, never seat numbers or codes (issue 17)
    expect(toast).to_contain_text(f"it is {other_name}'s turn")
    assert "seat" not in toast.inner_text()
    waiting.locator(".draw-pile").click()
    expect(waiting.locator(".toast.error")).to_have_count(2)
    expect(waiting.locator(".toast.error").last).to_contain_text(f"draw: it is {other_name}'s turn")
    # the reason is in the chat log too
    expect(waiting.locator(".chat-log .error").last).to_contain_text(f"{other_name}'s turn")


def test_chat_and_names_are_text_never_html(pages: Pages) -> None:
    eve = pages.new("/")
    login(eve, "<b>Eve</b>")
    code = create_table(eve, seats=3, bots=1, target=30)
    bob = pages.new(f"/?table={code}")
    login(bob, "<img src=x onerror=1>")
    expect(eve.locator(".seat")).to_have_count(3)
    expect(eve.locator(".seat.empty")).to_have_count(0)
    eve.locator(".chat-input").fill(XSS)
    eve.locator(".chat-input").press("Enter")
    line = bob.locator(".chat-log .chat-msg").last
    expect(line).to_be_visible()
    expect(line.locator(".text")).to_have_text(XSS)
    expect(line.locator(".from")).to_have_text("<b>Eve</b>")
    for page in (eve, bob):
        assert page.locator(".chat-log script, .chat-log img, .chat-log b b").count() == 0
        assert page.evaluate("window.__xss") is None
        assert page.locator(".seat-name b, .seat-name img").count() == 0
    assert "<b>Eve</b>" in seat_names(bob)
    assert "<img src=x onerror=1>" in seat_names(eve)
    # slash verbs: the hint list, then the server's answer as a system line
    bob.locator(".chat-input").fill("/wh")
    expect(bob.locator(".verb-hints")).to_be_visible()
    expect(bob.locator(".verb-hints")).to_contain_text("/who")
    bob.locator(".chat-input").fill("/who")
    bob.locator(".chat-input").press("Enter")
    expect(bob.locator(".chat-log .system").last).to_contain_text("<b>Eve</b>")
    # the people tab lists everybody, as text
    bob.locator(".tab", has_text="People").click()
    expect(bob.locator(".people")).to_contain_text("<img src=x onerror=1>")
    assert bob.locator(".people .person-name img").count() == 0


def test_english_and_russian(pages: Pages, artifacts: Path) -> None:
    page = pages.new("/")
    login(page, "Polyglot")
    expect(page.locator(".lobby-tables h2")).to_have_text("Open tables")
    page.locator("#lang-toggle").click()
    expect(page.locator(".lobby-tables h2")).to_have_text("Открытые столы")
    expect(page.locator("#create-go")).to_have_text("Создать стол")
    assert page.evaluate("localStorage.getItem('una.lang')") == "ru"
    assert page.evaluate("document.documentElement.lang") == "ru"
    page.reload()
    expect(page.locator(".lobby-tables h2")).to_have_text("Открытые столы")
    # the choice is saved with the account too: another browser logged in with the same
    # token (and no language of its own) opens in Russian
    token = page.evaluate("localStorage.getItem('una.token')")
    other = pages.new("/health")
    other.evaluate("t => localStorage.setItem('una.token', t)", token)
    other.goto(page.url.split("?")[0])
    expect(other.locator(".lobby-tables h2")).to_have_text("Открытые столы")
    create_table(page, seats=2, bots=1, target=30)
    page.locator("button.start").click()
    expect(page.locator(".act-draw")).to_contain_text("Взять")
    expect(page.locator(".color-info")).to_contain_text("Цвет")
    # event lines are shown in Russian too
    expect(page.locator(".chat-log .event").first).to_contain_text("Раздача 1")
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "table-ru.png"))
    page.locator("#lang-toggle").click()
    # "Take +N" when the computer player's draw card is pending on us
    expect(page.locator(".act-draw")).to_contain_text(re.compile(r"Draw|Take \+\d"))
    expect(page.locator(".chat-log .event").first).to_contain_text("Hand 1")
    assert page.evaluate("localStorage.getItem('una.lang')") == "en"


def test_dark_mode_toggle(pages: Pages, artifacts: Path) -> None:
    page = pages.new("/", color_scheme="light")
    login(page, "Night owl")
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "light")
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.locator("#theme-toggle").click()
    expect(html).to_have_attribute("data-theme", "dark")
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light != dark
    red, green, blue = (int(x) for x in re.findall(r"\d+", dark)[:3])
    assert red + green + blue < 150
    assert page.evaluate("localStorage.getItem('una.theme')") == "dark"
    page.reload()
    expect(html).to_have_attribute("data-theme", "dark")
    create_table(page, seats=3, bots=2, target=30)
    page.locator("button.start").click()
    expect(page.locator(".hand .card").first).to_be_visible()
    page.screenshot(path=str(artifacts / "table-dark.png"))
    page.locator("#theme-toggle").click()
    expect(html).to_have_attribute("data-theme", "light")


def _png(width: int, height: int) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 40, 40)).save(buffer, "PNG")
    return buffer.getvalue()


def test_icon_upload_with_preview_and_reset(pages: Pages, server: Server, artifacts: Path) -> None:
    page = pages.new("/")
    login(page, "Iconic")
    create_table(page, seats=2, bots=1, target=30)
    page.locator("#profile-button").click()
    dialog = page.locator("#profile-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".save-icon")).to_be_disabled()
    page.locator("#icon-file").set_input_files(
        files=[{"name": "me.png", "mimeType": "image/png", "buffer": _png(120, 80)}]
    )
    preview = page.locator("#icon-preview")
    expect(preview).to_be_visible()
    page.screenshot(path=str(artifacts / "icon-preview.png"))
    assert preview.get_attribute("src").startswith("data:image/png;base64,")
    dialog.locator(".save-icon").click()
    expect(page.locator(".toast", has_text="Icon saved")).to_be_visible()
    player_id = page.evaluate("window.una.player.id")
    key = page.evaluate("window.una.player.icon")  # the icon's random URL, not the id
    assert server.get(f"/icons/{player_id}.png")[0] == 404
    status, body = server.get(f"/icons/{key}.png")
    assert status == 200 and body.startswith(b"\x89PNG")
    # the seat and the header now show the uploaded icon (32x32 from the server)
    seat_icon = page.locator(".seat.me img.avatar-img")
    expect(seat_icon).to_be_visible()
    assert f"/icons/{key}.png" in seat_icon.get_attribute("src")
    page.wait_for_function(
        "() => { const i = document.querySelector('.seat.me img.avatar-img');"
        " return i && i.complete && i.naturalWidth === 32; }"
    )
    expect(page.locator("#profile-button img.avatar-img")).to_be_visible()
    dialog.locator(".reset-icon").click()
    expect(page.locator(".toast", has_text="Icon removed")).to_be_visible()
    expect(page.locator(".seat.me img.avatar-img")).to_have_count(0)
    assert server.get(f"/icons/{key}.png")[0] == 404


def _finished_game(pages: Pages, server: Server, name: str) -> tuple[int, dict[str, Any], Any]:
    """A match played to the end at a private table by a player on auto and a computer
    player; its id, its record and the player's page (whose token may read the record)."""
    page = pages.new("/")
    login(page, name)
    create_table(page, seats=2, bots=1, target=20)
    page.locator("button.start").click()
    page.locator(".act-auto").click()
    expect(page.locator(".act-auto")).to_have_attribute("aria-pressed", "true")
    # The server wakes its computer players only after a change of the game (turning auto on
    # is none): one more move by hand, wherever it is Ann's turn, sets the match going.
    page.wait_for_function("() => document.querySelector('.your-turn')")
    assert move(page), "no move could be made by hand"
    expect(page.locator(".match-summary")).to_be_visible(timeout=90_000)
    token = page.evaluate("() => localStorage.getItem('una.token')")
    for game_id in range(1, 200):
        status, record = server.get_json(f"/games/{game_id}.json", token)
        if status == 404:
            break
        if status == 200 and name in record.get("players", []):
            return game_id, record, page
    raise AssertionError("the finished game is not served")


def test_replay_steps_through_a_finished_game(
    pages: Pages, server: Server, artifacts: Path
) -> None:
    game_id, record, player = _finished_game(pages, server, "Replayer")
    total = len(record["actions"])
    # A stranger may not read a private table's game.
    stranger = pages.new("/")
    stranger.goto(f"{server.url}/?replay={game_id}")
    expect(stranger.locator(".replay")).to_contain_text("only its players may read it")
    # Its player may, from the link (her browser holds her token). Without the server's
    # views the replay shows what the record itself tells.
    page = player.context.new_page()
    page.route(f"**/games/{game_id}/views*", lambda route: route.fulfill(status=404))
    page.goto(f"{server.url}/?replay={game_id}")
    expect(page.locator(".replay-head h1")).to_contain_text(f"Replay of game {game_id}")
    expect(page.locator(".replay-action")).to_have_count(total + 1)
    expect(page.locator(".replay-step")).to_have_text(f"Move 0 of {total}")
    page.locator(".replay-controls .next").click()
    expect(page.locator(".replay-step")).to_have_text(f"Move 1 of {total}")
    seat, code = record["actions"][0]
    expect(page.locator(".replay-current")).to_contain_text(record["players"][seat])
    page.keyboard.press("End")
    expect(page.locator(".replay-step")).to_have_text(f"Move {total} of {total}")
    expect(page.locator(".replay-action.current")).to_have_attribute("data-step", str(total))
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-step")).to_have_text(f"Move {total - 1} of {total}")
    page.locator('.replay-action[data-step="3"]').click()
    expect(page.locator(".replay-step")).to_have_text(f"Move 3 of {total}")
    last_play = next((c for _, c in reversed(record["actions"][:3]) if c.startswith("play ")), None)
    if last_play:
        card = last_play.split()[1]
        expect(page.locator(f'.replay-card svg[data-code="{card}"]')).to_be_visible()
    page.screenshot(path=str(artifacts / "replay.png"))
    assert code


def test_replay_draws_the_table_from_server_views(
    pages: Pages, server: Server, artifacts: Path
) -> None:
    """With the server's GET /games/{id}/views the replay shows the table itself (checked
    against the engine's own views of the record)."""
    game_id, record, player = _finished_game(pages, server, "Viewer")
    parsed = Record.from_json({k: v for k, v in record.items() if k != "id"})
    total = len(record["actions"])

    def views(seat: int | None) -> dict[str, Any]:
        game = parsed.new_game()
        out = [game.view_for(seat).to_json()]
        events = []
        for s, code in parsed.actions:
            happened = game.apply(s, Action.parse(code))
            out.append(game.view_for(seat).to_json())
            events.append([e.visible_to(seat).describe(game.names) for e in happened])
        return {"game_id": game_id, "seat": seat, "views": out, "events": events}

    page = player.context.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{server.url}/?replay={game_id}")
    expect(page.locator(".replay-stage .felt")).to_be_visible()
    expect(page.locator(".replay-stage .seat")).to_have_count(2)
    expect(page.locator(".replay-stage .hand")).to_be_hidden()  # a spectator's view first
    page.locator(".replay-seat select").select_option("0")
    expect(page.locator(".replay-stage .hand .card").first).to_be_visible()
    expected = views(0)["views"]
    for k in (0, 1, 2, total):
        if k:
            page.locator(f'.replay-action[data-step="{k}"]').click()
        expect(page.locator(".replay-step")).to_have_text(f"Move {k} of {total}")
        top = expected[k]["top"]
        expect(page.locator(f'.replay-stage .discard svg[data-code="{top}"]')).to_be_visible()
        assert page.locator(".replay-stage .hand .card").count() == len(expected[k]["hand"])
    expect(page.locator(".replay-stage .match-summary")).to_be_visible()
    page.locator('.replay-action[data-step="5"]').click()
    page.wait_for_timeout(400)
    page.screenshot(path=str(artifacts / "replay-views.png"))


def test_keyboard_plays_a_card(pages: Pages) -> None:
    page = pages.new("/")
    login(page, "Keys")
    create_table(page, seats=2, bots=1, target=500)
    page.locator("button.start").click()
    page.wait_for_function("() => document.querySelector('.your-turn')")
    before = version(page)
    playable = page.locator(".hand .card.playable")
    if page.locator(".color-picker").count():
        page.keyboard.press("g")  # a Wild was turned up first: name its color
    elif playable.count() == 0:
        page.keyboard.press("d")  # nothing to play: D draws
    else:
        page.keyboard.press("ArrowRight")  # focuses the first playable card
        focused = page.evaluate("document.activeElement.dataset.code")
        assert focused in playable.evaluate_all("cs => cs.map(c => c.dataset.code)")
        page.keyboard.press("Enter")
        picker = page.locator(".picker .color-choice")
        if picker.count():
            page.keyboard.press("r" if picker.first.get_attribute("data-color") == "R" else "1")
    assert wait_version_change(page, before)
