"""Board firmware: CircuitPython runs this file at every reset.

Deliberately thin: it builds the hardware objects named in settings.py and
hands them to boardlogic, which holds all the behaviour (and is what the
tests exercise on CPython with look-alike modules). Copy onto CIRCUITPY with
boot.py, boardlogic.py, settings.py, wire.py and lib/neopixel.mpy.
"""

import sys
import time

import board
import boardlogic
import keypad
import microcontroller
import neopixel
import settings
import usb_cdc
from watchdog import WatchDogMode


def build():
    """Create the scanner, the LED chain, the data port and the watchdog."""
    port = usb_cdc.data
    if port is None:
        raise RuntimeError("USB data port is off: copy boot.py to CIRCUITPY, then press RESET")
    port.timeout = 0  # reads never block the scan loop
    port.write_timeout = settings.WRITE_TIMEOUT
    keys = keypad.KeyMatrix(
        row_pins=tuple(getattr(board, name) for name in settings.ROW_PINS),
        column_pins=tuple(getattr(board, name) for name in settings.COLUMN_PINS),
        columns_to_anodes=settings.COLUMNS_TO_ANODES,
        interval=settings.SCAN_INTERVAL,
        max_events=64,
        debounce_threshold=settings.DEBOUNCE_THRESHOLD,
    )
    pixels = neopixel.NeoPixel(
        getattr(board, settings.NEOPIXEL_PIN),
        settings.LED_COUNT,
        brightness=0.0,
        auto_write=False,
        pixel_order=getattr(neopixel, settings.PIXEL_ORDER),
    )
    watchdog = None
    if settings.WATCHDOG_TIMEOUT:
        watchdog = microcontroller.watchdog
        watchdog.timeout = settings.WATCHDOG_TIMEOUT
        watchdog.mode = WatchDogMode.RESET
    return boardlogic.BoardLogic(keys, pixels, port, settings, watchdog=watchdog)


def main(should_stop=None):
    """Build and loop forever; `should_stop` lets a CPython test end the loop."""
    boardlogic.run(build(), should_stop)


if __name__ == "__main__" and sys.implementation.name == "circuitpython":
    try:
        main()
    except Exception as exc:  # noqa: BLE001 - the board must come back on its own
        print("draughtsboard firmware stopped:", repr(exc))
        time.sleep(2)
        microcontroller.reset()
