"""`python -m bench.fake_pi ARGS`: the draughtsboard command on a "Pi" made of fakes.

Installs `hardware.fakes` as the RPi.GPIO, Blinka `board` and `neopixel`
modules (the switches closed under the starting position), then runs the
command line unchanged, so `run --board gpio` loads and drives the real
scanner and pixel code. For the start-up benchmark; never for play.
"""

from __future__ import annotations

import sys
import time
import types

from hardware.fakes import FakeBoardPins, FakeGPIO, FakeNeopixelModule
from hardware.layout import standard_layout


def install(size: int = 8) -> FakeGPIO:
    layout = standard_layout(size)
    gpio = FakeGPIO(layout, clock=time.perf_counter)  # columns recharge in real time
    men = layout.squares // 2 - layout.columns
    gpio.set_squares(
        list(range(1, men + 1)) + list(range(layout.squares - men + 1, layout.squares + 1))
    )
    package = types.ModuleType("RPi")
    package.GPIO = gpio  # type: ignore[attr-defined]
    sys.modules["RPi"] = package
    sys.modules["RPi.GPIO"] = gpio  # type: ignore[assignment]
    sys.modules["board"] = FakeBoardPins()  # type: ignore[assignment]
    sys.modules["neopixel"] = FakeNeopixelModule()  # type: ignore[assignment]
    return gpio


if __name__ == "__main__":
    install()
    from host.cli import main

    sys.exit(main(sys.argv[1:]))
