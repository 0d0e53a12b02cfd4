"""A stand-in for the `lgpio` module (lgpio 0.2.2.0, lgpio_extra.py), wired to the fake matrix.

rpi-lgpio's RPi.GPIO calls `lgpio.gpiochip_open`, `gpio_claim_input`,
`gpio_claim_output`, `gpio_read`, `gpio_free`... This module answers those
calls with the same return values and exceptions as lgpio (`error` whose str()
is the repr of its text; negative codes for the calls rpi-lgpio checks
itself), and lets `hardware.fakes.FakeGPIO` do the electrical simulation, so
the real rpi-lgpio shim can be run against the same switch matrix as our
scanner's own tests.
"""

from __future__ import annotations

import types

from hardware.fakes import FakeGPIO, LgpioError

SET_PULL_UP = 32
SET_PULL_DOWN = 64
SET_PULL_NONE = 128
GPIO_BUSY = -79
_ERRORS = {-78: "can not open gpiochip", -79: "GPIO busy", -5: "unknown handle"}
_LG_INPUT, _LG_OUTPUT = 0x100, 0x200


def make(gpio: FakeGPIO, *, chip_opens: bool = True, busy: frozenset[int] = frozenset()):
    """A fresh `lgpio` module over `gpio`. `chip_opens=False` plays a user outside the
    gpio group; `busy` lists lines another process or driver holds."""
    module = types.ModuleType("lgpio")
    gpio.setmode(gpio.BCM)
    claimed: dict[int, int] = {}
    pulls = {SET_PULL_UP: gpio.PUD_UP, SET_PULL_DOWN: gpio.PUD_DOWN, SET_PULL_NONE: gpio.PUD_OFF}

    def error_text(code: int) -> str:
        return _ERRORS.get(code, f"error {code}")

    def raise_for(code: int) -> int:
        if code < 0:
            raise LgpioError(error_text(code))
        return code

    def gpiochip_open(chip: int) -> int:
        return raise_for(0 if chip_opens else -78)

    def gpiochip_close(handle: int) -> int:
        return 0

    def gpio_claim_input(handle: int, line: int, flags: int = 0) -> int:
        if line in busy:
            return raise_for(GPIO_BUSY)
        gpio.setup(line, gpio.IN, pull_up_down=pulls.get(flags & 0xE0, gpio.PUD_OFF))
        claimed[line] = _LG_INPUT
        return 0

    def gpio_claim_output(handle: int, line: int, level: int = 0, flags: int = 0) -> int:
        if line in busy:
            return raise_for(GPIO_BUSY)
        gpio.setup(line, gpio.OUT, initial=int(bool(level)))
        claimed[line] = _LG_OUTPUT
        return 0

    def gpio_free(handle: int, line: int) -> int:
        claimed.pop(line, None)
        return 0

    def gpio_read(handle: int, line: int) -> int:
        if line not in claimed:  # an unclaimed line: read it as an input, as the kernel would
            gpio.setup(line, gpio.IN)
            level = gpio.input(line) if line in gpio.layout.column_pins else gpio.HIGH
            return level
        return gpio.input(line)

    def gpio_write(handle: int, line: int, level: int) -> int:
        gpio.output(line, level)
        return 0

    def gpio_get_mode(handle: int, line: int) -> int:
        return claimed.get(line, 0)

    def gpio_get_chip_info(handle: int) -> list:
        return [0, 54, "gpiochip0", "pinctrl-bcm2711"]

    for name, value in list(locals().items()):
        if callable(value) and not name.startswith("_") and name not in ("make", "raise_for"):
            setattr(module, name, value)
    module.error = LgpioError  # type: ignore[attr-defined]
    module.SET_PULL_UP, module.SET_PULL_DOWN, module.SET_PULL_NONE = (  # type: ignore[attr-defined]
        SET_PULL_UP,
        SET_PULL_DOWN,
        SET_PULL_NONE,
    )
    module.GPIO_BUSY = GPIO_BUSY  # type: ignore[attr-defined]
    module.claimed = claimed  # type: ignore[attr-defined]
    return module
