"""What the Pi's libraries raise when a board cannot start, turned into one sentence naming the fix.

RPi.GPIO, rpi-lgpio, lgpio and rpi_ws281x (through Blinka) do not fail at
import on a misconfigured Pi: they fail at the first `setmode()`, `setup()`
or LED `show()`, with messages written for their own developers ("No access
to /dev/mem.  Try running as root!", "'can not open gpiochip'", "ws2811_init
failed with code -13 (Unable to initialize SPI)"). A builder needs to hear
what to do instead. The messages matched here were copied from the libraries'
sources (versions in tests/hardware/test_fakes_fidelity.py); anything
unrecognised is still reported in one sentence, with the library's own words.
Each failure is also sorted (`gpio_failure`, `led_failure`): one that may mend
itself while the board waits (a permission udev applies a moment after boot, SPI
being enabled, a pin still held by a stopping program) is `BoardNotReady`.

The file checks (`_exists`, `_writable`, `_has_gpiochip`) are looked up at
call time, so tests can play a Pi with SPI off or a user outside the `gpio`
group on any machine by replacing them.
"""

from __future__ import annotations

import glob
import os

from hardware.base import BoardNotReady, BoardUnavailable

GPIO_GROUP_FIX = "add your user to the gpio group (sudo usermod -aG gpio $USER) and log in again"
SPI_DEVICE = "/dev/spidev0.0"
PI5_FIX = (
    "on a Raspberry Pi 5 replace RPi.GPIO with rpi-lgpio: "
    "pip uninstall RPi.GPIO, then pip install 'draughtsboard[pi5]'"
)


def _exists(path: str) -> bool:
    return os.path.exists(path)


def _writable(path: str) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def _has_gpiochip() -> bool:
    return bool(glob.glob("/dev/gpiochip*"))


def explain_gpio_failure(error: BaseException, pin: int | None = None) -> str:
    """One sentence for a failure of RPi.GPIO or rpi-lgpio while setting up the switch pins."""
    return _gpio(error, pin)[0]


def gpio_failure(error: BaseException, pin: int | None = None) -> BoardUnavailable:
    """The failure as the error to raise: `BoardNotReady` when waiting may mend it (a
    permission udev has not applied yet, a pin another program still holds), else
    `BoardUnavailable` (a library that does not fit this Pi, not a Pi)."""
    sentence, may_mend = _gpio(error, pin)
    return BoardNotReady(sentence) if may_mend else BoardUnavailable(sentence)


def _gpio(error: BaseException, pin: int | None) -> tuple[str, bool]:
    text = str(error).strip("'\"")
    where = f" on GPIO{pin}" if pin is not None else ""
    if "Cannot determine SOC peripheral base address" in text:
        # RPi.GPIO 0.7.1 c_gpio.c: no /dev/gpiomem and no known SoC, as on a Pi 5.
        return f"RPi.GPIO does not know this processor ({text}): {PI5_FIX}.", False
    if "No access to /dev/mem" in text:
        # RPi.GPIO falls back to /dev/mem when /dev/gpiomem cannot be opened.
        if _exists("/dev/gpiomem"):
            return f"RPi.GPIO cannot open /dev/gpiomem: {GPIO_GROUP_FIX}.", True
        return f"RPi.GPIO finds no /dev/gpiomem, as on a Raspberry Pi 5: {PI5_FIX}.", False
    if "can not open gpiochip" in text or "bad gpiochip" in text:
        # lgpio lgGpio.c: open("/dev/gpiochipN") failed.
        if not _has_gpiochip():
            return (
                "this computer has no GPIO controller (/dev/gpiochip*): the gpio board "
                "needs a Raspberry Pi; use --board sim, or serial:PORT for a board on USB."
            ), False
        return f"rpi-lgpio cannot open /dev/gpiochip: {GPIO_GROUP_FIX}.", True
    if "GPIO busy" in text or "GPIO already in use" in text:
        return (
            f"another program or kernel driver holds the pin{where} ({text}): stop the other "
            "program (another draughtsboard?), or move the pin in the layout file."
        ), True
    if "GPIO operation not permitted" in text or isinstance(error, PermissionError):
        return f"no permission for the GPIO pins{where} ({text}): {GPIO_GROUP_FIX}.", True
    if "can only be run on a Raspberry Pi" in text:
        return (
            f"RPi.GPIO cannot run here ({text}): the gpio board needs a Raspberry Pi; "
            "use --board sim, or serial:PORT for a board on USB."
        ), False
    return f"setting up the switch pins{where} failed ({type(error).__name__}: {text}).", False


def explain_led_failure(error: BaseException, pin: int) -> str:
    """One sentence for a failure of the NeoPixel driver when the first frame is sent."""
    return _led(error, pin)[0]


def led_failure(error: BaseException, pin: int) -> BoardUnavailable:
    """The failure as the error to raise: `BoardNotReady` when waiting may mend it (SPI
    not enabled yet, a permission not applied yet, the Pi 5's /dev/pio0 not there yet),
    else `BoardUnavailable`."""
    sentence, may_mend = _led(error, pin)
    return BoardNotReady(sentence) if may_mend else BoardUnavailable(sentence)


def _led(error: BaseException, pin: int) -> tuple[str, bool]:
    text = str(error)
    if "Unable to initialize SPI" in text or "code -13" in text:
        # rpi_ws281x 5.0.0 ws2811.c spi_init(): open("/dev/spidev0.0") failed.
        if not _exists(SPI_DEVICE):
            return (
                f"SPI is off, so the LEDs on GPIO{pin} cannot be driven: enable it with "
                "sudo raspi-config nonint do_spi 0 (or dtparam=spi=on in /boot/firmware/config.txt)"
                " and reboot."
            ), True
        if not _writable(SPI_DEVICE):
            return (
                f"no permission on {SPI_DEVICE} for the LEDs: add your user to the spi group "
                "(sudo usermod -aG spi $USER) and log in again."
            ), True
        return (
            f"the LEDs' SPI port {SPI_DEVICE} failed ({text}): check that nothing else uses it."
        ), True
    if "requires running with sudo" in text or "code -5" in text:
        # Blinka bcm283x/neopixel.py: PWM and PCM pins need /dev/mem, that is root.
        return (
            f"LEDs on GPIO{pin} need root on this pin ({text}): wire the LED data to GPIO10 "
            "(SPI), which works without root, and set pin = 10 in the layout's [leds]."
        ), False
    if "Hardware revision is not supported" in text or "code -3" in text:
        return (
            f"rpi_ws281x does not support this Raspberry Pi ({text}): on a Pi 5 install "
            "pip install 'draughtsboard[pi5]' instead of the pi extra."
        ), False
    if "pio" in text.lower() and "fail" in text.lower():
        # Adafruit-Blinka-Raspberry-Pi5-Neopixel main.cpp: the RP1 PIO could not be opened.
        return (
            f"the Pi 5 LED driver failed ({text}): update Raspberry Pi OS "
            "(sudo apt full-upgrade) so /dev/pio0 exists, add your user to the gpio group "
            "and log in again."
        ), True
    return f"the LEDs on GPIO{pin} failed to start ({type(error).__name__}: {text}).", False
