"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from typing import Any

import pytest

from una.engine import fast


@pytest.fixture(scope="session")
def core() -> Any:
    """The compiled core ``una.engine._fastcore``, or a skip when it is not built: a
    failure under ``CI=true`` (``scripts/setup`` builds it, so a CI run without it is a
    broken build)."""
    if not fast.available():
        message = "the C core una.engine._fastcore is not built (run ./scripts/setup)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return fast._fastcore
