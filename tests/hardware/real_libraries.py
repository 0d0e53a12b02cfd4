"""Load the real pure-Python hardware libraries with only their lowest layer faked.

- `real_neopixel`: adafruit-circuitpython-neopixel over
  adafruit-circuitpython-pixelbuf, exactly as Blinka runs them on a Pi, with
  stand-ins for `board`, `digitalio`, `microcontroller` and `neopixel_write`
  (the one call that would touch the SPI port) that record the bytes.
- `real_rpi_lgpio`: rpi-lgpio's `RPi.GPIO` over a stand-in `lgpio` module
  (`tests/hardware/fake_lgpio.py`), so the scanner runs through the real shim.

Both skip when the library is not installed, and fail when this run requires it
(`DRAUGHTSBOARD_REQUIRE=real-libraries`, set by .ci/run).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from importlib import metadata
from pathlib import Path

import pytest
from optional import REQUIREMENTS_FILE, need

HOW = f"pip install --no-deps -r {REQUIREMENTS_FILE}"


class Pin:
    def __init__(self, pin_id: int) -> None:
        self.id = pin_id


class DigitalInOut:
    """Blinka's digitalio.DigitalInOut, as far as neopixel.py uses it."""

    def __init__(self, pin: Pin) -> None:
        self._pin = pin
        self.direction = None
        self.deinited = False

    def deinit(self) -> None:
        self.deinited = True


def real_neopixel(monkeypatch: pytest.MonkeyPatch) -> tuple[types.ModuleType, list[bytes]]:
    """The real `neopixel` module and the list its `show()` calls append their bytes to."""
    found = all(importlib.util.find_spec(name) for name in ("neopixel", "adafruit_pixelbuf"))
    need("real-libraries", found, HOW)
    writes: list[bytes] = []
    board = types.ModuleType("board")
    for number in range(28):
        setattr(board, f"D{number}", Pin(number))
    digitalio = types.ModuleType("digitalio")
    digitalio.DigitalInOut = DigitalInOut  # type: ignore[attr-defined]
    digitalio.Direction = types.SimpleNamespace(OUTPUT="OUTPUT", INPUT="INPUT")  # type: ignore[attr-defined]
    microcontroller = types.ModuleType("microcontroller")  # neopixel.py annotates with its Pin
    microcontroller.Pin = Pin  # type: ignore[attr-defined]
    writer = types.ModuleType("neopixel_write")
    writer.neopixel_write = lambda pin, buf: writes.append(bytes(buf))  # type: ignore[attr-defined]
    fakes = {"board": board, "digitalio": digitalio, "microcontroller": microcontroller}
    fakes["neopixel_write"] = writer
    for name, module in fakes.items():
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.delitem(sys.modules, "neopixel", raising=False)
    neopixel = importlib.import_module("neopixel")
    monkeypatch.delitem(sys.modules, "neopixel")  # leave no half-faked module behind
    assert neopixel.__version__ == "6.4.2", neopixel.__version__
    assert importlib.import_module("adafruit_pixelbuf").__version__ == "2.1.0"
    return neopixel, writes


def real_rpi_lgpio(monkeypatch: pytest.MonkeyPatch, lgpio: types.ModuleType) -> types.ModuleType:
    """rpi-lgpio 0.6's RPi.GPIO module, loaded afresh over the stand-in `lgpio` given."""
    try:
        dist = metadata.distribution("rpi-lgpio")
    except metadata.PackageNotFoundError:
        dist = None
    need("real-libraries", dist is not None, HOW)
    assert dist is not None and dist.version == "0.6", dist and dist.version
    files = [f for f in dist.files or () if str(f) == "RPi/GPIO/__init__.py"]
    init = Path(str(dist.locate_file(files[0])))
    monkeypatch.setitem(sys.modules, "lgpio", lgpio)
    # rpi-lgpio reads the board revision from the device tree, or from here (a Pi 4B, 4 GB).
    monkeypatch.setenv("RPI_LGPIO_REVISION", "c03111")
    monkeypatch.setenv("RPI_LGPIO_CHIP", "0")
    spec = importlib.util.spec_from_file_location("rpi_lgpio_under_test", init)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
