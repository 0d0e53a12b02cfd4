"""Each fake, the real behaviour it copies, and the version and source file it was checked against.

A fake kinder than the real library lets CI pass where the board fails. This
module is the register of what each fake copies, and holds the checks that
keep it honest: where the real library is pure Python our code runs on it too;
where it is C (RPi.GPIO, rpi_ws281x, CircuitPython itself) the texts and
signatures the fakes copy are checked against the real source, downloaded
from PyPI when this run requires `pypi` (CI).

The register (fake: what it copies; real library and version; files read):

- hardware.fakes.FakeGPIO: setup() argument checks and their texts; an output
  set up without `initial` writes no level; the setup-time failures "No
  access to /dev/mem.  Try running as root!" and "Cannot determine SOC
  peripheral base address"; setmode() twice. RPi.GPIO 0.7.1:
  source/py_gpio.c, source/c_gpio.c.
- hardware.fakes.LgpioError and tests/hardware/fake_lgpio.py: `lgpio.error`,
  whose str() is the repr of its text; "can not open gpiochip", "GPIO busy";
  negative return codes. lgpio 0.2.2.0: lgpio_extra.py, src/lgErr.c,
  src/lgGpio.c.
- rpi-lgpio 0.6's RPi.GPIO is not faked: it runs (RPi/GPIO/__init__.py) over
  the stand-in lgpio, below.
- hardware.fakes.FakeNeoPixel: packed int colours, channels above 255
  rejected, slice rules, clamped brightness, deinit() blanks.
  adafruit-circuitpython-neopixel 6.4.2 over adafruit-circuitpython-pixelbuf
  2.1.0: neopixel.py, adafruit_pixelbuf.py, both run in test_pixels.py.
- The LED driver failures in test_pixels.py: ws2811_init's codes and texts
  (rpi_ws281x 5.0.0: lib/ws2811.h, lib/ws2811.c); Blinka's sudo message,
  prompt and platform dependencies (Adafruit-Blinka 10.0.0:
  adafruit_blinka/microcontroller/bcm283x/neopixel.py, board.py,
  adafruit_blinka/platform_dependencies.py); the Pi 5 PIO failures
  (Adafruit-Blinka-Raspberry-Pi5-Neopixel 1.0.0rc2: src/main.cpp).
- firmware/fake_circuitpython.py keypad: KeyMatrix's signature
  (debounce_threshold from 9.1), scan timing, debounce counters, reset() by
  version, EventQueue (read-only `overflowed`, clear()). CircuitPython 9.0.0,
  9.1.0, 9.2.0, 9.2.1, 10.0.0: shared-bindings/keypad/KeyMatrix.c and
  EventQueue.c, shared-module/keypad/__init__.c, KeyMatrix.c, EventQueue.c;
  circuitpython-stubs 9.0.5 and 9.1.4 (keypad-stubs/__init__.pyi).
- firmware/fake_circuitpython.py usb_cdc, digitalio, board: `connected` is the
  host's DTR (read-only); writes fill TinyUSB's FIFO, then time out; "GP2 in
  use"; the Pico's pin names, LED = GP25. CircuitPython 9.1.0:
  shared-bindings/usb_cdc/Serial.c, shared-module/usb_cdc/Serial.c,
  shared-bindings/microcontroller/Pin.c,
  ports/raspberrypi/boards/raspberry_pi_pico/pins.c.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import fake_lgpio
import pytest
from fakes_circuitpython import fake
from optional import need, required
from real_libraries import real_rpi_lgpio

from hardware import pi_errors
from hardware.base import BoardUnavailable
from hardware.fakes import RPI_GPIO_NO_DEV_MEM, RPI_GPIO_NO_PERI_BASE, FakeGPIO, LgpioError
from hardware.gpio import GpioBackend, MatrixScanner
from hardware.layout import standard_layout

START = frozenset(range(1, 13)) | frozenset(range(21, 33))


def through_rpi_lgpio(monkeypatch, **lgpio_options):
    """The real rpi-lgpio 0.6 over a stand-in lgpio over the fake matrix."""
    layout = standard_layout(8)
    matrix = FakeGPIO(layout)
    module = real_rpi_lgpio(monkeypatch, fake_lgpio.make(matrix, **lgpio_options))
    return layout, matrix, module


# --- rpi-lgpio 0.6, run --------------------------------------------------------------------


@pytest.mark.parametrize(
    "occupied", [START, frozenset(), frozenset(range(1, 33)), START - {22} | {18}, {1, 5, 32}]
)
def test_the_scanner_reads_the_same_through_the_real_rpi_lgpio(monkeypatch, occupied):
    layout, matrix, module = through_rpi_lgpio(monkeypatch)
    matrix.set_squares(occupied)
    scanner = MatrixScanner(layout, module, wait=matrix.wait)
    assert scanner.scan() == occupied
    assert matrix.most_rows_driven == 1
    scanner.close()


def test_a_user_outside_the_gpio_group_hears_one_sentence_through_rpi_lgpio(monkeypatch):
    layout, matrix, module = through_rpi_lgpio(monkeypatch, chip_opens=False)
    with pytest.raises(LgpioError) as raw:
        module.setmode(module.BCM)
    assert str(raw.value) == "'can not open gpiochip'"  # what the fake fail= case raises
    monkeypatch.setattr(pi_errors, "_has_gpiochip", lambda: True)
    with pytest.raises(BoardUnavailable, match=r"usermod -aG gpio \$USER"):
        GpioBackend(layout, gpio=module, wait=matrix.wait)


def test_a_pin_held_elsewhere_is_named_through_rpi_lgpio(monkeypatch):
    layout, matrix, module = through_rpi_lgpio(monkeypatch, busy=frozenset({24}))
    with pytest.raises(BoardUnavailable, match=r"holds the pin on GPIO24 \(GPIO busy\)"):
        GpioBackend(layout, gpio=module, wait=matrix.wait)


def test_an_output_without_initial_is_not_driven_low_by_either_library(monkeypatch):
    layout, matrix, module = through_rpi_lgpio(monkeypatch)
    matrix.set_squares(START)
    module.setmode(module.BCM)
    column = layout.column_pins[0]
    module.setup(column, module.IN, pull_up_down=module.PUD_UP)
    module.setup(layout.row_pins[0], module.OUT)  # rpi-lgpio: the level it reads now
    assert module.input(column) == module.HIGH  # square 1's switch carries no current
    fake = FakeGPIO(layout)
    fake.set_squares(START)
    fake.setmode(fake.BCM)
    fake.setup(column, fake.IN, pull_up_down=fake.PUD_UP)
    fake.setup(layout.row_pins[0], fake.OUT)  # RPi.GPIO: the latch, never written
    assert fake.input(column) == fake.HIGH


def test_the_fake_checks_setup_arguments_like_both_libraries(monkeypatch):
    layout, matrix, module = through_rpi_lgpio(monkeypatch)
    fake = FakeGPIO(layout)
    for gpio in (module, fake):
        gpio.setmode(gpio.BCM)
        with pytest.raises(ValueError, match="initial parameter is not valid for inputs"):
            gpio.setup(4, gpio.IN, initial=gpio.LOW)
        with pytest.raises(ValueError, match="pull_up_down parameter is not valid for outputs"):
            gpio.setup(4, gpio.OUT, pull_up_down=gpio.PUD_UP)
        with pytest.raises(ValueError, match="A different mode has already been set!"):
            gpio.setmode(gpio.BOARD)


# --- C libraries: the copied texts and signatures, against their sources on PyPI ------------

#: (requirement, file inside the archive, texts our fakes or tests copy from it)
COPIED = [
    ("RPi.GPIO==0.7.1", "source/py_gpio.c", [RPI_GPIO_NO_DEV_MEM, RPI_GPIO_NO_PERI_BASE,
        "initial parameter is not valid for inputs", "A different mode has already been set!",
        "This module can only be run on a Raspberry Pi!"]),
    ("lgpio==0.2.2.0", "src/lgErr.c", ["can not open gpiochip", "GPIO busy"]),
    ("lgpio==0.2.2.0", "lgpio_extra.py", ["return repr(self.value)"]),
    ("rpi_ws281x==5.0.0", "lib/ws2811.h",
        ['X(-13, WS2811_ERROR_SPI_SETUP, "Unable to initialize SPI")',
         'X(-3, WS2811_ERROR_HW_NOT_SUPPORTED, "Hardware revision is not supported")']),
    ("adafruit-blinka==10.0.0", "adafruit_blinka/microcontroller/bcm283x/neopixel.py",
        ["NeoPixel support requires running with sudo, please try again!",
         "ws2811_init failed with code {0} ({1})"]),
    ("adafruit-blinka==10.0.0", "adafruit_blinka/platform_dependencies.py",
        ['"BLINKA_SKIP_DEPENDENCY_CHECK"', "gpiod>=2.2.2,<3", "rpi_ws281x>=4.0.0",
         "Adafruit-Blinka-Raspberry-Pi-PWM>=1.0.2", "Adafruit-Blinka-Raspberry-Pi5-Neopixel"]),
    ("Adafruit-Blinka-Raspberry-Pi5-Neopixel==1.0.0rc2", "src/main.cpp",
        ['"pio_init() failed"', "Failed to open PIO device"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    need("pypi", "pypi" in required(), "set DRAUGHTSBOARD_REQUIRE=pypi to ask PyPI (CI does)")
    folder = tmp_path_factory.mktemp("sources")
    for requirement in sorted({r for r, _, _ in COPIED} | STUBS):
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(folder),
             "--no-binary=lgpio", requirement],  # lgpio's wheel lacks its C sources
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
    return folder


def archive_text(folder: Path, requirement: str, member: str) -> str:
    name, version = re.split(r"==", requirement)
    stem = re.sub(r"[-_.]+", "[-_.]", name)
    pattern = rf"(?i){stem}-{re.escape(version)}"
    (path,) = [p for p in folder.iterdir() if re.match(pattern, p.name)]
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as wheel:
            return wheel.read(member).decode()
    with tarfile.open(path) as sdist:
        (found,) = [m for m in sdist.getmembers() if m.name.endswith("/" + member)]
        return io.TextIOWrapper(sdist.extractfile(found), encoding="utf-8").read()


@pytest.mark.parametrize(("requirement", "member", "texts"), COPIED, ids=lambda v: str(v)[:40])
def test_copied_texts_appear_verbatim_in_the_real_source(downloads, requirement, member, texts):
    source = archive_text(downloads, requirement, member)
    missing = [text for text in texts if text not in source]
    assert not missing, f"{requirement} {member} no longer says {missing}"


STUBS = {"circuitpython-stubs==9.0.5", "circuitpython-stubs==9.1.4"}


def keymatrix_signature(stub: str) -> str:
    start = stub.index("class KeyMatrix")
    return stub[start : stub.index(") -> None", start)]


@pytest.mark.parametrize(("stubs", "version"), [("9.0.5", (9, 0, 5)), ("9.1.4", (9, 1, 4))])
def test_the_fake_keymatrix_takes_the_arguments_that_version_takes(downloads, stubs, version):
    stub = archive_text(downloads, f"circuitpython-stubs=={stubs}", "keypad-stubs/__init__.pyi")
    real_has_threshold = "debounce_threshold" in keymatrix_signature(stub)
    assert real_has_threshold == (version >= (9, 1, 0))
    assert "(read-only)" in stub[stub.index("overflowed: bool") :][:200]
    board = fake.Board()
    matrix = fake.SwitchMatrix(["GP2"], ["GP3"])
    keypad = fake.keypad_module(matrix, lambda: 0, version)
    try:
        keypad.KeyMatrix((board.GP2,), (board.GP3,), debounce_threshold=2).deinit()
        fake_has_threshold = True
    except TypeError:
        fake_has_threshold = False
    assert fake_has_threshold == real_has_threshold
    queue = keypad.KeyMatrix((board.GP2,), (board.GP3,)).events
    with pytest.raises(AttributeError):
        queue.overflowed = False
