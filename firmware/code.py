"""Board firmware: CircuitPython runs this file at every reset.

Deliberately thin: it builds the hardware objects named in settings.py and
hands them to boardlogic, which holds all the behaviour (and is what the
tests exercise on CPython and MicroPython with look-alike modules). Copy onto
CIRCUITPY with boot.py, boardlogic.py, keyscan.py, settings.py, wire.py and
lib/neopixel.mpy.

Checked against CircuitPython 9.0.0 to 10.0.0 (firmware/README.md). If the
board cannot start as set up (a pin this board does not have, neopixel.mpy
missing, settings.py unreadable), it says so on the console and to the host
and blinks the LED: it does not reset, because a reset cannot fix the
settings and a reset loop hides the message.
"""

import sys
import time

import board
import digitalio
import keypad
import microcontroller
import usb_cdc
from watchdog import WatchDogMode

# The builder's files and the library bundle may be missing or broken: note
# why here, and say it in main() instead of stopping with a traceback.
try:
    import boardlogic
    import keyscan
except ImportError as error:
    boardlogic = None
    MISSING = repr(error)
try:
    import settings
except Exception as error:  # noqa: BLE001 - SyntaxError, NameError... in the builder's file
    settings = None
    UNREADABLE = repr(error)
try:
    import neopixel
except ImportError:
    neopixel = None

#: A crash later than this after boot is taken as transient: the board resets.
#: Sooner, it is taken as a setup problem and reported instead of looping.
RESET_AFTER_S = 30


def _pins(names):
    return tuple(getattr(board, name) for name in names)


def build():
    """Create the scanner, the LED chain, the data port and the watchdog."""
    problem = boardlogic.check_settings(settings, board)
    if problem:
        raise boardlogic.SetupError(problem)
    port = usb_cdc.data
    if port is None:
        raise boardlogic.SetupError(
            "the USB data port is off: copy boot.py to CIRCUITPY, then press RESET"
        )
    if neopixel is None:
        raise boardlogic.SetupError(
            "lib/neopixel.mpy is missing on CIRCUITPY: copy it from the library bundle "
            "for this CircuitPython version (firmware/README.md)"
        )
    port.timeout = 0  # reads never block the scan loop
    port.write_timeout = settings.WRITE_TIMEOUT
    keys = keyscan.KeyScanner(
        keypad,
        digitalio,
        _pins(settings.ROW_PINS),
        _pins(settings.COLUMN_PINS),
        columns_to_anodes=settings.COLUMNS_TO_ANODES,
        interval=settings.SCAN_INTERVAL,
        debounce_threshold=settings.DEBOUNCE_THRESHOLD,
        delay_us=microcontroller.delay_us,
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
    logic = boardlogic.BoardLogic(keys, pixels, port, settings, watchdog=watchdog)
    if keys.debounce_threshold != settings.DEBOUNCE_THRESHOLD:
        print("draughtsboard: this CircuitPython has no keypad debounce_threshold (9.0); using 1")
    return logic


def _status_led():
    if not hasattr(board, "LED"):
        return None
    try:
        led = digitalio.DigitalInOut(board.LED)
        led.switch_to_output(value=False)
        return led
    except ValueError:  # the LED pin is in use by the matrix or the NeoPixels
        return None


def report(text, should_stop=None):
    """Say what is wrong until the board is switched off (or `should_stop`)."""
    fault = boardlogic.SetupFault(text, port=usb_cdc.data, led=_status_led())
    while should_stop is None or not should_stop():
        fault.step()
        time.sleep(0.05)


def main(should_stop=None):
    """Build and loop forever; `should_stop` lets a CPython test end the loop."""
    booted = time.monotonic()
    if boardlogic is None:
        print("draughtsboard: a firmware file is missing on CIRCUITPY:", MISSING)
        return
    if settings is None:
        report("settings.py cannot be read: " + UNREADABLE, should_stop)
        return
    try:
        logic = build()
    except boardlogic.SetupError as error:
        report(str(error), should_stop)
        return
    try:
        boardlogic.run(logic, should_stop)
    except Exception as error:  # noqa: BLE001 - the board must come back on its own
        if time.monotonic() - booted < RESET_AFTER_S:
            report("stopped at start: " + repr(error), should_stop)
            return
        print("draughtsboard firmware stopped:", repr(error))
        time.sleep(2)
        microcontroller.reset()


if __name__ == "__main__" and sys.implementation.name == "circuitpython":
    main()
