"""Helpers of the browser tests: ``una serve`` in a child process, pages, and a UI driver.

One server (temp SQLite database, ``--bot-delay 0.05``) and one headless Chromium (Debian's,
at ``/usr/bin/chromium``) serve every test; each test opens its own browser contexts (separate
localStorage: separate players). Screenshots go to ``UNA_WEB_ARTIFACTS`` (default
``/tmp/una-web-artifacts``), never into the repository. Without Chromium the tests skip.

The fixtures live in webplugin.py, which the test modules load with ``pytest_plugins``
rather than through a conftest.py: ``--doctest-modules`` imports every conftest.py as a module
named "conftest", and a second one (beside tests/server/conftest.py) clashes with the first.

The driver only clicks what a player could click: raised cards, the buttons and pickers the
client shows. ``document.body.dataset.version`` (the last state's version) tells it when the
server answered.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright import sync_api as playwright_sync

CHROMIUM = os.environ.get("UNA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
UNA = str(Path(sys.executable).parent / "una")
ARTIFACTS = Path(os.environ.get("UNA_WEB_ARTIFACTS", "/tmp/una-web-artifacts"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``una serve`` on a free port with its own SQLite database."""

    def __init__(self, db_path: Path) -> None:
        self.port = free_port()
        self.db_url = f"sqlite:///{db_path}"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        command = [UNA, "serve", "--port", str(self.port), "--db", self.db_url,
                   "--bot-delay", "0.05", "--log-level", "warning"]  # fmt: skip
        # Every browser of the session connects from 127.0.0.1, as if behind one proxy: the
        # per-address budgets are off (per-connection and per-player ones stay).
        env = {**os.environ, "UNA_ADDRESS_LIMITS": "0"}
        self.process = subprocess.Popen(command, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"una serve exited with {self.process.returncode}")
            try:
                self.get("/health")
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("una serve did not answer /health in 30 s")

    def get(self, path: str, token: str | None = None) -> tuple[int, bytes]:
        """GET ``path``; with ``token``, as that player (``Authorization: Bearer``)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(self.url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get_json(self, path: str, token: str | None = None) -> tuple[int, Any]:
        status, body = self.get(path, token)
        return status, json.loads(body)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


class Pages:
    """Opens pages in fresh contexts (one player each) and closes them after the test."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, path: str = "/", width: int = 1280, height: int = 860, **options: Any) -> Any:
        context = self.browser.new_context(viewport={"width": width, "height": height}, **options)
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{error}"))
        page.goto(self.server.url + path)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


# --------------------------------------------------------------------------- UI helpers


def login(page: Any, name: str) -> None:
    """Say hello with a new name through the login form."""
    page.locator("#login-name").fill(name)
    page.locator("form.login button[type=submit]").click()
    page.locator("#profile-button").wait_for(state="visible")


def create_table(
    page: Any,
    *,
    preset: str = "standard",
    seats: int = 2,
    bots: int = 1,
    target: int | None = 30,
    public: bool = False,
    name: str | None = None,
) -> str:
    """Fill the lobby's create form, create the table and return its code."""
    page.locator(".lobby-create").wait_for()
    page.locator("#create-preset").select_option(preset)
    if name:
        page.locator("#create-name").fill(name)
    page.locator("#create-seats").fill(str(seats))
    page.locator("#create-bots").fill(str(bots))
    if target is not None:
        page.locator("#create-target").fill(str(target))
    page.locator("#create-public").set_checked(public)
    # What the form will send, not only what it shows.
    values = page.evaluate("() => window.una.lobbyView.values")
    assert (values["seats"], values["bots"], values["public"]) == (seats, bots, public), values
    if target is not None:
        assert values["target"] == target, values
    page.locator("#create-go").click()
    page.locator(".table-screen").wait_for()
    page.wait_for_function("() => new URLSearchParams(location.search).get('table')")
    return str(page.evaluate("() => new URLSearchParams(location.search).get('table')"))


def version(page: Any) -> int:
    value = page.evaluate("() => document.body.dataset.version || '-1'")
    return int(value)


def wait_version_change(page: Any, old: int, timeout: float = 3000) -> bool:
    try:
        page.wait_for_function(
            "old => Number(document.body.dataset.version || -1) !== old", arg=old, timeout=timeout
        )
        return True
    except playwright_sync.TimeoutError:
        return False


def step(page: Any) -> str | None:
    """Do the one thing the page offers now, by clicking like a player; what it did, or None.

    Picks in order: a color or target picker, the challenge prompt (takes the cards), an
    owed UNO, a catch, "deal", a raised (playable) card (calling UNO first with two cards),
    draw, pass. The page may change under the driver (a computer player acts): a click that
    finds nothing any more is given up, and the next step looks again.
    """
    try:
        return _step(page)
    except playwright_sync.Error:
        return None


def _step(page: Any) -> str | None:
    quick = {"timeout": 1500}
    if page.locator(".match-summary").count():
        return None
    for selector, what in (
        (".picker .color-choice", "color"),
        (".picker .target-choice", "target"),
        (".challenge-prompt button.take", "take"),
        (".uno-now", "uno"),
        (".act-catch", "catch"),
        ("button.deal", "deal"),
    ):
        button = page.locator(selector).first
        if button.count() and button.is_visible():
            button.click(**quick)
            return what
    playable = page.locator(".hand .card.playable")
    if playable.count():
        uno = page.locator(".act-uno")
        two = page.locator(".hand .card").count() == 2
        if two and uno.is_enabled() and uno.get_attribute("aria-pressed") == "false":
            uno.click(**quick)
        playable.first.click(**quick)
        return "play"
    draw = page.locator(".act-draw.can")
    if draw.count():
        draw.click(**quick)
        return "draw"
    passing = page.locator(".act-pass.can")
    if passing.count() and passing.is_enabled():
        passing.click(**quick)
        return "pass"
    return None


def move(page: Any, limit: float = 20.0) -> bool:
    """Make one move by hand, answering what it opens (a wild's color picker, an UNO call
    before the card); whether the game moved within ``limit`` seconds."""
    before = version(page)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if version(page) != before:
            return True
        step(page)
        if wait_version_change(page, before, timeout=1000):
            return True
    return False


def play_until(pages: list[Any], done: Any, limit: float = 120.0) -> int:
    """Let each page act in turn until ``done()``; the number of clicks made."""
    clicks = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the game did not finish in time"
        acted = False
        for page in pages:
            before = version(page)
            what = step(page)
            if what:
                clicks += 1
                acted = True
                wait_version_change(page, before, timeout=2000 if what != "uno" else 500)
        if not acted:
            time.sleep(0.05)
    return clicks
