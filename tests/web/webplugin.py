"""Fixtures of the browser tests (loaded by the test modules with ``pytest_plugins``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api as playwright_sync
from webkit import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Pages, Server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web") / "una.db").start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
        pytest.skip(f"no Chromium at {CHROMIUM} (run ./scripts/setup)")
    with playwright_sync.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def pages(browser: Any, server: Server) -> Iterator[Pages]:
    opened = Pages(browser, server)
    try:
        yield opened
        assert not opened.errors, f"JavaScript errors in the page: {opened.errors}"
    finally:
        opened.close()
