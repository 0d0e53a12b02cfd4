# Run by tests/hardware/test_micropython.py under the MicroPython unix port, not by pytest.
#
# The board runs CircuitPython, a MicroPython: this runs the firmware's codec and
# logic (wire.py, boardlogic.py, keyscan.py) on a real MicroPython VM with the
# look-alike modules of firmware/fake_circuitpython.py, and prints one "ok" line
# per check. Any exception ends it with a traceback and a non-zero status.
# Arguments: the firmware folder and the folder holding wire.py.
import sys

sys.path.insert(0, sys.argv[2])
sys.path.insert(0, sys.argv[1])

import boardlogic  # noqa: E402
import fake_circuitpython as fake  # noqa: E402
import keyscan  # noqa: E402
import wire  # noqa: E402

# --- the codec ----------------------------------------------------------------------------
encoder = wire.Encoder()
data = encoder.hello(8, 4, 32, (1, 2, 3), "mp")
data += encoder.occupancy(32, [0, 5, 31])
data += encoder.frame(128, [(1, 2, 3)] * 32)
data += b"\xa5\x00garbage" + encoder.keepalive()
messages = wire.Decoder().feed(data, 0)
kinds = [m.kind for m in messages]
assert kinds == [wire.HELLO, wire.OCCUPANCY, wire.FRAME, wire.KEEPALIVE], kinds
assert messages[0].board_name == "mp" and messages[1].pressed() == [0, 5, 31]
assert messages[2].brightness == 128 and messages[2].colours[31] == (1, 2, 3)
print("ok codec")


# --- the key scanner over fake digitalio and keypad ----------------------------------------
class Settings:
    ROW_PINS = ("GP2", "GP3", "GP4", "GP5", "GP6", "GP7", "GP8", "GP9")
    COLUMN_PINS = ("GP10", "GP11", "GP12", "GP13")
    NEOPIXEL_PIN = "GP16"
    LED_COUNT = 32
    MAX_BRIGHTNESS = 0.2
    SNAPSHOT_INTERVAL = 1.0
    KEEPALIVE_INTERVAL = 1.0
    HOST_TIMEOUT = 5.0
    BOARD_NAME = "micropython"


now = [1000]
pico = fake.Board()
for version in ((9, 0, 0), (9, 1, 0), (10, 0, 0)):
    matrix = fake.SwitchMatrix(Settings.ROW_PINS, Settings.COLUMN_PINS, (1, 6, 30))
    scanner = keyscan.KeyScanner(
        fake.keypad_module(matrix, lambda: now[0], version),
        fake.digitalio_module(matrix),
        [getattr(pico, name) for name in Settings.ROW_PINS],
        [getattr(pico, name) for name in Settings.COLUMN_PINS],
        interval=0.01,
        debounce_threshold=2,
    )
    port = fake.DataPort()
    pixels = fake.NeoPixel(pico.GP16, 32, auto_write=False)
    logic = boardlogic.BoardLogic(scanner, pixels, port, Settings, clock=lambda: now[0])
    logic.step()
    sent = wire.Decoder().feed(bytes(port.sent), now[0])
    assert [m.kind for m in sent[:2]] == [wire.HELLO, wire.OCCUPANCY], sent
    assert sent[1].pressed() == [1, 6, 30], sent[1].pressed()
    matrix.closed.add(12)
    for _ in range(5):
        now[0] += 10
        logic.step()
    assert logic.mask == (1 << 1) | (1 << 6) | (1 << 30) | (1 << 12), logic.mask
    port.incoming += wire.Encoder().frame(255, [(9, 8, 7)] * 32)
    logic.step()
    assert pixels.shown == [(9, 8, 7)] * 32
    print("ok logic on keypad", version)

# --- a setup fault --------------------------------------------------------------------------


class BadSettings(Settings):
    ROW_PINS = ("GP2", "GP99")


problem = boardlogic.check_settings(BadSettings, pico)
assert problem is not None and "GP99" in problem, problem
port = fake.DataPort()
said = []
fault = boardlogic.SetupFault(problem, port, None, clock=lambda: now[0], say=said.append)
fault.step()
errors = wire.Decoder().feed(bytes(port.sent), now[0])
assert errors[0].kind == wire.ERROR and errors[0].code == wire.ERR_SETUP
assert said and "GP99" in said[0]
print("ok setup fault")
