"""Shared by the host tests: run the recognition regression tests against every
recogniser (host/explanation/__init__.py: RECOGNISERS), while both exist."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import replaykit

from host.explanation import RECOGNISERS


@pytest.fixture(params=RECOGNISERS)
def each_recogniser(request: pytest.FixtureRequest) -> Iterator[str]:
    """The module's tests once with each recogniser (replaykit drives it)."""
    before = replaykit.RECOGNISER
    replaykit.RECOGNISER = request.param
    yield request.param
    replaykit.RECOGNISER = before
