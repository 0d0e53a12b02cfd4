"""Shared by every test: the machine's own service config never leaks into a test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_system_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    """A Pi with the service installed has /etc/draughtsboard/config.toml: tests must not
    read it (host.config.system_config_path honours this variable)."""
    absent = tmp_path_factory.getbasetemp() / "no-system-config.toml"
    monkeypatch.setenv("DRAUGHTSBOARD_SYSTEM_CONFIG", str(absent))
