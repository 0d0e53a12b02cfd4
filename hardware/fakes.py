"""Look-alikes of the Pi's hardware libraries, for tests, the bench and dry runs.

`FakeGPIO` (hardware.fake_gpio) behaves like the RPi.GPIO module wired to a
reed-switch matrix; `FakeNeoPixel` (hardware.fake_pixels) like
`neopixel.NeoPixel`, keeping the bytes each `show()` would put on the data
line. tests/hardware/test_fakes_fidelity.py says which real version each copies.
"""

from hardware.fake_gpio import RPI_GPIO_NO_DEV_MEM, RPI_GPIO_NO_PERI_BASE, FakeGPIO, LgpioError
from hardware.fake_pixels import FakeBoardPins, FakeNeoPixel, FakeNeopixelModule

__all__ = [
    "RPI_GPIO_NO_DEV_MEM",
    "RPI_GPIO_NO_PERI_BASE",
    "FakeBoardPins",
    "FakeGPIO",
    "FakeNeoPixel",
    "FakeNeopixelModule",
    "LgpioError",
]
